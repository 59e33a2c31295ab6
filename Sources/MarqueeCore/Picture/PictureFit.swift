/// How a still picture larger than the screen is brought down to it: a
/// reduced-resolution decode (JPEG decodes at 1/2, 1/4 or 1/8 of its size,
/// touching a fraction of the memory) to no smaller than the size that
/// fits, which the output then scales to as it scales any picture. Either
/// way round: a picture turned by its orientation, or a display turned by
/// its own, still fits, so only the longer and shorter sides are compared.
public enum PictureFit {
    /// The size `picture` is scaled to, or nil when it already fits `screen`.
    public static func fitted(_ picture: PixelSize, into screen: PixelSize) -> PixelSize? {
        guard picture.width > 0, picture.height > 0, screen.width > 0, screen.height > 0 else { return nil }
        let long = Double(max(screen.width, screen.height)) / Double(max(picture.width, picture.height))
        let short = Double(min(screen.width, screen.height)) / Double(min(picture.width, picture.height))
        let factor = min(long, short)
        guard factor < 1 else { return nil }
        // Even sides: 4:2:0 chroma halves them.
        let side = { (length: Int) in max(2, Int((Double(length) * factor / 2).rounded()) * 2) }
        return PixelSize(width: side(picture.width), height: side(picture.height))
    }

    /// The largest power-of-two reduction (a shift, at most `maximum`) whose
    /// picture is still no smaller than `fitted`, so the scale after it only shrinks.
    public static func reduction(of picture: PixelSize, to fitted: PixelSize, maximum: Int = 3) -> Int {
        var shift = 0
        while shift < maximum {
            let next = shift + 1
            let width = (picture.width + (1 << next) - 1) >> next
            let height = (picture.height + (1 << next) - 1) >> next
            guard width >= fitted.width, height >= fitted.height else { break }
            shift = next
        }
        return shift
    }
}
