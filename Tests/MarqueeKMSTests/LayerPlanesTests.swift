import MarqueeCore
@testable import MarqueeKMS
import Testing

/// Which layers get a plane before the driver is asked: the topmost layers
/// the topmost planes, an overlay's alpha only on a plane that blends it,
/// nothing under a composed layer that overlaps.
@Suite struct LayerPlanesTests {
    static let video = PixelRect(x: 0, y: 0, width: 1280, height: 720)
    static let logo = PixelRect(x: 24, y: 24, width: 160, height: 90)
    static let ticker = PixelRect(x: 0, y: 660, width: 1280, height: 60)

    @Test func topLayersTakeTopPlanes() {
        let assignment = LayerPlanes.assign([Self.video, Self.logo, Self.ticker], composedOnly: [false, false, false],
                                            needsAlpha: [false, true, true], planes: [31, 33, 35], alphaPlanes: [31, 33, 35])
        #expect(assignment == [0: 31, 1: 33, 2: 35])
    }

    /// Only the lowest plane blends alpha: the ticker takes it, and the
    /// video, under the ticker, can have none above it.
    @Test func anOverlayTakesThePlaneThatBlendsAlpha() {
        let assignment = LayerPlanes.assign([Self.video, Self.ticker], composedOnly: [false, false], needsAlpha: [false, true],
                                            planes: [31, 33, 35], alphaPlanes: [31])
        #expect(assignment == [1: 31])
    }

    /// A logo seen through at half opacity is composed; the video it overlaps is composed with it.
    @Test func nothingGoesUnderAComposedLayerItOverlaps() {
        let assignment = LayerPlanes.assign([Self.video, Self.logo], composedOnly: [false, true], needsAlpha: [false, true],
                                            planes: [31, 33], alphaPlanes: [31, 33])
        #expect(assignment.isEmpty)
        let apart = LayerPlanes.assign([Self.logo, Self.ticker], composedOnly: [false, true], needsAlpha: [true, true],
                                       planes: [31, 33], alphaPlanes: [31, 33])
        #expect(apart == [0: 33])
    }
}
