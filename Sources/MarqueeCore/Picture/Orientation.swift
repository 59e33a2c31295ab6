/// How a picture is turned for display: one of the eight orientations a
/// display matrix, an H.264/HEVC display orientation SEI or a JPEG's EXIF tag
/// can ask for. Applied as: mirror left-right first (if `mirrored`), then
/// turn `rotation` degrees clockwise.
public struct Orientation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Clockwise degrees: 0, 90, 180 or 270.
    public let rotation: Int
    public let mirrored: Bool

    public static let upright = Orientation(rotation: 0, mirrored: false)

    /// `rotation` is brought to 0, 90, 180 or 270 (the nearest quarter turn).
    public init(rotation: Int, mirrored: Bool = false) {
        let quarter = Int((Double(rotation) / 90).rounded())
        self.rotation = ((quarter * 90) % 360 + 360) % 360
        self.mirrored = mirrored
    }

    /// The orientation whose mirror-then-turn sends the picture's x axis to
    /// `xAxis` and its y axis to `yAxis` (display coordinates, y down), as a
    /// display matrix's first two rows say: `(a, b)` and `(c, d)`. Axes that
    /// are not (close to) a quarter turn, or a degenerate matrix, give nil.
    public init?(xAxis: (Double, Double), yAxis: (Double, Double)) {
        func sign(_ v: (Double, Double)) -> (Int, Int)? {
            let length = (v.0 * v.0 + v.1 * v.1).squareRoot()
            guard length > 0, length.isFinite else { return nil }
            let (x, y) = (v.0 / length, v.1 / length)
            if abs(x) > 0.99 { return (x > 0 ? 1 : -1, 0) }
            if abs(y) > 0.99 { return (0, y > 0 ? 1 : -1) }
            return nil
        }
        guard let x = sign(xAxis), let y = sign(yAxis) else { return nil }
        for mirrored in [false, true] {
            for rotation in [0, 90, 180, 270] {
                let candidate = Orientation(rotation: rotation, mirrored: mirrored)
                if candidate.image(of: (1, 0)) == x && candidate.image(of: (0, 1)) == y {
                    self = candidate
                    return
                }
            }
        }
        return nil
    }

    /// EXIF's Orientation tag (1...8); nil for a value outside it.
    public init?(exif: Int) {
        switch exif {
        case 1: self = .upright
        case 2: self.init(rotation: 0, mirrored: true)
        case 3: self.init(rotation: 180)
        case 4: self.init(rotation: 180, mirrored: true)
        case 5: self.init(rotation: 270, mirrored: true)
        case 6: self.init(rotation: 90)
        case 7: self.init(rotation: 90, mirrored: true)
        case 8: self.init(rotation: 270)
        default: return nil
        }
    }

    /// Width and height trade places.
    public var swapsAxes: Bool { rotation == 90 || rotation == 270 }

    public var isUpright: Bool { self == .upright }

    /// Where a direction of the picture points on the display.
    func image(of vector: (Int, Int)) -> (Int, Int) {
        var v = mirrored ? (-vector.0, vector.1) : vector
        for _ in 0..<(rotation / 90) { v = (-v.1, v.0) }
        return v
    }

    /// Where pixel (`x`, `y`) of a `width` x `height` picture lands in the
    /// displayed picture.
    public func map(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        let mx = mirrored ? width - 1 - x : x
        return switch rotation {
        case 90: (height - 1 - y, mx)
        case 180: (width - 1 - mx, height - 1 - y)
        case 270: (y, width - 1 - mx)
        default: (mx, y)
        }
    }

    /// The part of the `width` x `height` picture that lands in `rect` of the
    /// displayed picture: where to crop before turning.
    public func sourceRect(of rect: PixelRect, width: Int, height: Int) -> PixelRect {
        let (displayWidth, displayHeight) = swapsAxes ? (height, width) : (width, height)
        // Two opposite corners of the rectangle, mapped back through the inverse.
        let inverse = inverted
        let a = inverse.map(x: rect.x, y: rect.y, width: displayWidth, height: displayHeight)
        let b = inverse.map(x: rect.x + rect.width - 1, y: rect.y + rect.height - 1, width: displayWidth, height: displayHeight)
        return PixelRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x) + 1, height: abs(a.y - b.y) + 1)
    }

    /// The orientation that undoes this one.
    public var inverted: Orientation {
        // A mirror turns rotations the other way: (M then R)^-1 = R^-1 then M = M then R.
        mirrored ? self : Orientation(rotation: 360 - rotation)
    }

    public var description: String {
        switch (rotation, mirrored) {
        case (0, false): "upright"
        case (let degrees, false): "rotated \(degrees)°"
        case (0, true): "mirrored"
        case (let degrees, true): "mirrored, rotated \(degrees)°"
        }
    }
}
