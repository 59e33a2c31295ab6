/// Premultiplied ARGB8888 pixel arithmetic, two channels at a time (red and
/// blue in one word, alpha and green in another): what overlays are drawn
/// in and composed with.
public enum PremultipliedARGB {
    /// Every channel of `pixel` times `factor` / 255.
    @inline(__always)
    public static func scaled(_ pixel: UInt32, by factor: UInt32) -> UInt32 {
        let redBlue = ((pixel & 0xff00ff) &* factor &+ 0x800080) >> 8 & 0xff00ff
        let alphaGreen = (((pixel >> 8) & 0xff00ff) &* factor &+ 0x800080) & 0xff00ff00
        return redBlue | alphaGreen
    }

    /// `top` over `bottom`.
    @inline(__always)
    public static func over(_ top: UInt32, _ bottom: UInt32) -> UInt32 {
        let coverage = top >> 24
        return coverage == 255 ? top : top &+ scaled(bottom, by: 255 - coverage)
    }
}
