import MarqueeCore
import Testing

/// The eight orientations: display matrices and EXIF tags map to the right
/// one, `PlaneTransform` turns pixels where `map` says, and cropping the
/// source at `sourceRect` then turning equals turning then cropping.
@Suite struct OrientationTests {
    static let all = [false, true].flatMap { mirrored in [0, 90, 180, 270].map { Orientation(rotation: $0, mirrored: mirrored) } }

    /// A 6x4 picture whose every pixel holds its own position.
    static let (width, height) = (6, 4)
    static let picture = (0..<width * height).map { UInt32($0) }

    static func turned(_ pixels: [UInt32], width: Int, height: Int, by orientation: Orientation) -> [UInt32] {
        let (outWidth, outHeight) = orientation.swapsAxes ? (height, width) : (width, height)
        var out = [UInt32](repeating: .max, count: pixels.count)
        pixels.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in
                PlaneTransform.apply(orientation, bytesPerPixel: 4, width: width, height: height, from: input.baseAddress!,
                                     sourceStride: width * 4,
                                     into: MutableImagePlane(base: output.baseAddress!, bytesPerRow: outWidth * 4, rows: outHeight))
            }
        }
        return out
    }

    static func crop(_ pixels: [UInt32], width: Int, _ rect: PixelRect) -> [UInt32] {
        (rect.y..<rect.y + rect.height).flatMap { y in (rect.x..<rect.x + rect.width).map { pixels[y * width + $0] } }
    }

    /// The top-left pixel of the source lands where each orientation says,
    /// and every pixel is written exactly once.
    @Test(arguments: all)
    func theTransformMovesEveryPixelWhereMapSays(orientation: Orientation) {
        let out = Self.turned(Self.picture, width: Self.width, height: Self.height, by: orientation)
        let outWidth = orientation.swapsAxes ? Self.height : Self.width
        #expect(Set(out) == Set(Self.picture), "a pixel was lost or written twice")
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                let to = orientation.map(x: x, y: y, width: Self.width, height: Self.height)
                #expect(out[to.y * outWidth + to.x] == UInt32(y * Self.width + x))
            }
        }
    }

    @Test func eachOrientationIsDistinctAndMirroredOnesUndoThemselves() {
        let results = Self.all.map { Self.turned(Self.picture, width: Self.width, height: Self.height, by: $0) }
        #expect(Set(results.map { $0.description }).count == 8)
        for orientation in Self.all {
            let (w, h) = orientation.swapsAxes ? (Self.height, Self.width) : (Self.width, Self.height)
            let once = Self.turned(Self.picture, width: Self.width, height: Self.height, by: orientation)
            #expect(Self.turned(once, width: w, height: h, by: orientation.inverted) == Self.picture, "\(orientation)")
        }
    }

    @Test(arguments: all)
    func croppingTheSourceThenTurningEqualsTurningThenCropping(orientation: Orientation) {
        let whole = Self.turned(Self.picture, width: Self.width, height: Self.height, by: orientation)
        let turnedWidth = orientation.swapsAxes ? Self.height : Self.width
        // Off-centre in both directions, so a wrong mapping cannot pass.
        let rect = orientation.swapsAxes ? PixelRect(x: 1, y: 0, width: 2, height: 5) : PixelRect(x: 0, y: 1, width: 5, height: 2)
        let source = orientation.sourceRect(of: rect, width: Self.width, height: Self.height)
        let part = Self.crop(Self.picture, width: Self.width, source)
        #expect(Self.turned(part, width: source.width, height: source.height, by: orientation)
                == Self.crop(whole, width: turnedWidth, rect), "\(orientation): source \(source) for \(rect)")
    }

    /// The display matrix's first two rows, as MP4/MOV files and libav's
    /// av_display_rotation_set + av_display_matrix_flip write them.
    @Test func displayMatrixAxesGiveTheOrientation() {
        #expect(Orientation(xAxis: (1, 0), yAxis: (0, 1)) == .upright)
        // Phones' portrait matrix {0, 1, -1, 0}: turn 90 degrees clockwise.
        #expect(Orientation(xAxis: (0, 1), yAxis: (-1, 0)) == Orientation(rotation: 90))
        #expect(Orientation(xAxis: (-1, 0), yAxis: (0, -1)) == Orientation(rotation: 180))
        #expect(Orientation(xAxis: (0, -1), yAxis: (1, 0)) == Orientation(rotation: 270))
        #expect(Orientation(xAxis: (-1, 0), yAxis: (0, 1)) == Orientation(rotation: 0, mirrored: true))
        #expect(Orientation(xAxis: (1, 0), yAxis: (0, -1)) == Orientation(rotation: 180, mirrored: true))
        #expect(Orientation(xAxis: (0, 1), yAxis: (1, 0)) == Orientation(rotation: 270, mirrored: true))
        #expect(Orientation(xAxis: (0, -1), yAxis: (-1, 0)) == Orientation(rotation: 90, mirrored: true))
        #expect(Orientation(xAxis: (0.7, 0.7), yAxis: (-0.7, 0.7)) == nil, "45 degrees is not one of the eight")
        #expect(Orientation(xAxis: (0, 0), yAxis: (0, 1)) == nil)
    }

    /// EXIF 1...8 against what each tag means (TIFF 6.0: where row 0 and column 0 go).
    @Test func exifTagsGiveTheEightOrientations() {
        let all = (1...8).compactMap { Orientation(exif: $0) }
        #expect(Set(all).count == 8)
        #expect(Orientation(exif: 6) == Orientation(rotation: 90))
        #expect(Orientation(exif: 8) == Orientation(rotation: 270))
        // 5 (transpose): pixel (x, y) shows at (y, x).
        let transpose = Orientation(exif: 5)!
        #expect(transpose.map(x: 4, y: 1, width: 6, height: 4) == (1, 4))
        // 7 (transverse): pixel (x, y) shows at (h-1-y, w-1-x).
        #expect(Orientation(exif: 7)!.map(x: 4, y: 1, width: 6, height: 4) == (2, 1))
        #expect(Orientation(exif: 0) == nil && Orientation(exif: 9) == nil)
    }
}
