import MarqueeCore
import MarqueeKMS
import Testing

@Suite struct PlacementTests {
    @Test func aspectLetterboxesAWidePictureOnATallScreen() {
        let placement = Placement.fit(width: 1920, height: 1080, screenWidth: 1024, screenHeight: 768, gravity: .resizeAspect)
        #expect(placement.destination == PixelRect(x: 0, y: 96, width: 1024, height: 576))
        #expect(placement.source == PixelRect(x: 0, y: 0, width: 1920, height: 1080))
    }

    @Test func aspectPillarboxesAPortraitPicture() {
        let placement = Placement.fit(width: 1080, height: 1920, screenWidth: 1920, screenHeight: 1080, gravity: .resizeAspect)
        #expect(placement.destination.height == 1080)
        #expect(placement.destination.width == 608)
        #expect(placement.destination.x == 656)
    }

    @Test func fillCropsTheSourceAndCoversTheScreen() {
        let placement = Placement.fit(width: 1920, height: 1080, screenWidth: 1024, screenHeight: 768, gravity: .resizeAspectFill)
        #expect(placement.destination == PixelRect(x: 0, y: 0, width: 1024, height: 768))
        #expect(placement.source.height == 1080)
        #expect(placement.source.width == 1440)
        #expect(placement.source.x == 240)
    }

    @Test func resizeStretches() {
        let placement = Placement.fit(width: 320, height: 240, screenWidth: 1280, screenHeight: 720, gravity: .resize)
        #expect(placement.destination == PixelRect(x: 0, y: 0, width: 1280, height: 720))
    }

    @Test func anamorphicPixelsWidenThePicture() {
        // 720x576 with 16:11 pixels is 16:9 on screen.
        let placement = Placement.fit(width: 720, height: 576, sampleAspect: 64.0 / 45, screenWidth: 1920, screenHeight: 1080,
                                      gravity: .resizeAspect)
        #expect(placement.destination.width == 1920)
        #expect(abs(placement.destination.height - 1080) <= 2)
    }
}

@Suite struct ModeRequestTests {
    static let modes = [
        DisplayModeFixture.mode(1920, 1080, 60, preferred: true), DisplayModeFixture.mode(1920, 1080, 50),
        DisplayModeFixture.mode(1920, 1080, 24), DisplayModeFixture.mode(3840, 2160, 30), DisplayModeFixture.mode(1280, 720, 60),
    ]

    @Test func parsesTheForms() {
        #expect(ModeRequest("preferred") == .preferred)
        #expect(ModeRequest("1280x720@60") == .exact(width: 1280, height: 720, refreshRate: 60))
        #expect(ModeRequest("1280x720") == .exact(width: 1280, height: 720, refreshRate: nil))
        #expect(ModeRequest("1280x") == nil)
        #expect(ModeRequest("1280x720@fast") == nil)
    }

    @Test func choosesByPolicy() {
        #expect(ModeRequest.preferred.choose(from: Self.modes)?.refreshRate == 60)
        #expect(ModeRequest.highest.choose(from: Self.modes)?.width == 3840)
        #expect(ModeRequest("1920x1080@50")?.choose(from: Self.modes)?.refreshRate == 50)
        #expect(ModeRequest("1920x1080@75")?.choose(from: Self.modes) == nil)
        #expect(ModeRequest.matchFrameRate.choose(from: Self.modes, frameRate: 24)?.refreshRate == 24)
        #expect(ModeRequest.matchFrameRate.choose(from: Self.modes, frameRate: 25)?.refreshRate == 50)
        #expect(ModeRequest.matchFrameRate.choose(from: Self.modes, frameRate: 23.976)?.refreshRate == 60)
    }
}
