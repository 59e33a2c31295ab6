import MarqueeCore
@testable import MarqueeKMS
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

@Suite struct DMABufLayerTests {
    static func fourcc(_ text: String) -> UInt32 {
        text.utf8.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    static func layers(_ formats: [String]) -> DMABufDescriptor {
        DMABufDescriptor(objects: [.init(fd: 3, size: 0, modifier: 0)],
                         layers: formats.enumerated().map { index, format in
                             .init(format: fourcc(format), planes: [.init(object: 0, offset: index * 1000, pitch: 64)])
                         }, width: 64, height: 16)
    }

    @Test func separateLumaAndChromaLayersComposeToNV12() throws {
        let layer = try #require(KMSVideoOutput.composedLayer(Self.layers(["R8  ", "GR88"])))
        #expect(fourccName(layer.format) == "NV12")
        #expect(layer.planes.map(\.offset) == [0, 1000])
    }

    @Test func tenBitLayersComposeToP010() throws {
        #expect(fourccName(try #require(KMSVideoOutput.composedLayer(Self.layers(["R16 ", "GR32"]))).format) == "P010")
    }

    @Test func oneLayerIsTakenAsItIsAndOthersAreRefused() {
        #expect(KMSVideoOutput.composedLayer(Self.layers(["NV12"])).map { fourccName($0.format) } == "NV12")
        #expect(KMSVideoOutput.composedLayer(Self.layers(["R8  ", "R8  "])) == nil)
        #expect(KMSVideoOutput.composedLayer(Self.layers(["R8  ", "GR88", "R8  "])) == nil)
    }
}
