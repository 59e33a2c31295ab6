import MarqueeCore

/// Three scanout buffers of one size and format, flipped in turn. The one
/// handed out for drawing is never the one on screen nor the one just
/// queued, so a buffer is never written while it may be scanned out.
final class BufferPool {
    let width: Int
    let height: Int
    let fourcc: UInt32
    let buffers: [DumbBuffer]
    /// With PRIME import: each buffer re-imported through a dmabuf, scanned out instead.
    private let primeFramebuffers: [PrimeFramebuffer]
    /// Where each buffer's picture was last drawn, so borders are repainted only when it moves.
    var drawnRects: [PixelRect?]
    /// The buffer on screen, once one of this pool's has been shown.
    var scanningOut: Int?

    static let count = 3

    init(device: DRMDevice, width: Int, height: Int, fourcc: UInt32, primeImport: Bool) throws(KMSError) {
        self.width = width
        self.height = height
        self.fourcc = fourcc
        var buffers: [DumbBuffer] = []
        for _ in 0..<Self.count { buffers.append(try DumbBuffer(device: device, width: width, height: height, fourcc: fourcc)) }
        self.buffers = buffers
        primeFramebuffers = primeImport ? try buffers.map { (buffer) throws(KMSError) in try buffer.primeFramebuffer() } : []
        drawnRects = Array(repeating: nil, count: Self.count)
    }

    func matches(width: Int, height: Int) -> Bool { self.width == width && self.height == height }

    /// The buffer to draw the next picture into.
    var nextIndex: Int { ((scanningOut ?? -1) + 1) % buffers.count }

    /// The framebuffer that shows buffer `index`: its own, or its PRIME re-import.
    func framebuffer(_ index: Int) -> UInt32 {
        primeFramebuffers.isEmpty ? buffers[index].framebuffer : primeFramebuffers[index].framebuffer
    }
}
