import MarqueeCore
@testable import MarqueeKMS
import Testing

/// Cropping the upright picture at `uprightRect` and then turning it gives
/// the same pixels as turning the whole picture and cropping `rect`.
@Suite struct SoftwareRotationTests {
    /// A 6x4 picture whose every pixel holds its own position.
    static let (width, height) = (6, 4)

    static func turned(_ pixels: [UInt32], width: Int, height: Int, by degrees: Int) -> [UInt32] {
        var source = pixels
        let quarter = degrees == 90 || degrees == 270
        let (outWidth, outHeight) = quarter ? (height, width) : (width, height)
        var out = [UInt32](repeating: 0, count: pixels.count)
        source.withUnsafeMutableBytes { input in
            out.withUnsafeMutableBytes { output in
                SoftwareRotation.rotate(input.baseAddress!, width: width, height: height, by: degrees,
                                        into: MutableImagePlane(base: output.baseAddress!, bytesPerRow: outWidth * 4, rows: outHeight))
            }
        }
        return out
    }

    static func crop(_ pixels: [UInt32], width: Int, _ rect: PixelRect) -> [UInt32] {
        (rect.y..<rect.y + rect.height).flatMap { y in (rect.x..<rect.x + rect.width).map { pixels[y * width + $0] } }
    }

    @Test(arguments: [90, 180, 270])
    func croppingUprightThenTurningEqualsTurningThenCropping(degrees: Int) {
        let picture = (0..<Self.width * Self.height).map { UInt32($0) }
        let quarter = degrees != 180
        let turnedWidth = quarter ? Self.height : Self.width
        let whole = Self.turned(picture, width: Self.width, height: Self.height, by: degrees)
        // Off-centre in both directions, so a mirrored mapping cannot pass.
        let rect = quarter ? PixelRect(x: 0, y: 0, width: 3, height: 4) : PixelRect(x: 0, y: 0, width: 4, height: 3)
        let upright = SoftwareRotation.uprightRect(of: rect, width: Self.width, height: Self.height, rotatedBy: degrees)
        let uprightPart = Self.crop(picture, width: Self.width, upright)
        let expected = Self.crop(whole, width: turnedWidth, rect)
        #expect(Self.turned(uprightPart, width: upright.width, height: upright.height, by: degrees) == expected,
                "rotated \(degrees): upright \(upright) for \(rect)")
    }
}
