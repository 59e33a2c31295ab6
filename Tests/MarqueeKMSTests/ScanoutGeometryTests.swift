import MarqueeKMS
import Testing

@Suite struct ScanoutGeometryTests {
    /// 320x240 letterboxed on 1024x768 is 1024x768 (same aspect): use a wide picture instead.
    let wide = Placement.fit(width: 640, height: 360, screenWidth: 1024, screenHeight: 768, gravity: .resizeAspect)

    @Test func fullScreenDrawsTheBordersIntoAScreenSizedBuffer() {
        let geometry = ScanoutGeometry(strategy: .fullScreen, width: 640, height: 360, placement: wide, screenWidth: 1024, screenHeight: 768)
        #expect((geometry.bufferWidth, geometry.bufferHeight) == (1024, 768))
        #expect(geometry.drawRect == wide.destination)
        #expect(geometry.source == PixelRect(x: 0, y: 0, width: 1024, height: 768))
        #expect(geometry.destination == geometry.source)
        #expect(geometry.pictureCrop == nil)
    }

    @Test func positionedBufferIsThePicturesPlaceOnScreen() {
        let geometry = ScanoutGeometry(strategy: .positioned, width: 640, height: 360, placement: wide, screenWidth: 1024, screenHeight: 768)
        #expect((geometry.bufferWidth, geometry.bufferHeight) == (1024, 576))
        #expect(geometry.drawRect == PixelRect(x: 0, y: 0, width: 1024, height: 576))
        #expect(geometry.source == geometry.drawRect)
        #expect(geometry.destination == PixelRect(x: 0, y: 96, width: 1024, height: 576))
    }

    @Test func scaledBufferKeepsThePictureSizeAndThePlaneCrops() {
        let fill = Placement.fit(width: 640, height: 360, screenWidth: 1024, screenHeight: 768, gravity: .resizeAspectFill)
        let geometry = ScanoutGeometry(strategy: .scaled, width: 640, height: 360, placement: fill, screenWidth: 1024, screenHeight: 768)
        #expect((geometry.bufferWidth, geometry.bufferHeight) == (640, 360))
        #expect(geometry.pictureCrop == nil, "the converter copies the whole picture; the plane's SRC crops it")
        #expect(geometry.source == fill.source)
        #expect(geometry.source.width == 480)
        #expect(geometry.destination == PixelRect(x: 0, y: 0, width: 1024, height: 768))
    }

    @Test func positionedFillCropsInSoftware() {
        let fill = Placement.fit(width: 640, height: 360, screenWidth: 1024, screenHeight: 768, gravity: .resizeAspectFill)
        let geometry = ScanoutGeometry(strategy: .positioned, width: 640, height: 360, placement: fill, screenWidth: 1024, screenHeight: 768)
        #expect(geometry.pictureCrop == fill.source)
        #expect((geometry.bufferWidth, geometry.bufferHeight) == (1024, 768))
    }

    @Test func planeRequestsParse() {
        #expect(PlaneRequest("auto") == .auto)
        #expect(PlaneRequest("overlay") == .overlay)
        #expect(PlaneRequest("33") == .id(33))
        #expect(PlaneRequest("-1") == nil)
        #expect(PlaneRequest("cursor") == nil)
    }
}
