import MarqueeCore

/// Composes the layers that have no plane of their own into one
/// screen-sized XRGB8888 buffer, bottom first, only where something
/// changed since that buffer was last composed: each of the display's
/// buffers remembers what it holds of every layer (which picture, where,
/// how opaque), so a still picture beside a video costs nothing per frame
/// and the video's rectangle is the only one drawn.
struct LayerComposition {
    /// One layer as the display's lock saw it.
    struct Layer {
        let id: ObjectIdentifier
        let settings: LayerSettings
        /// nil while it is off the screen.
        let rect: PixelRect?
        let plane: UInt32?
        /// Its buffers are scan-out memory (a plane's).
        let onPlaneBuffers: Bool
        /// The picture shown; nil before the first.
        let buffer: (any ComposedBuffer)?
        let version: Int
        /// An overlay: premultiplied ARGB, blended per pixel over what is under it.
        var perPixelAlpha = false

        /// Drawn here rather than by a plane of its own.
        var isComposed: Bool { plane == nil || !onPlaneBuffers }

        var drawn: Drawn {
            Drawn(version: version, rect: settings.isHidden ? nil : rect, opacity: settings.opacity, composed: isComposed,
                  background: settings.background)
        }
    }

    /// What one buffer holds of one layer.
    struct Drawn: Equatable {
        let version: Int
        let rect: PixelRect?
        let opacity: Double
        let composed: Bool
        let background: UInt32
    }

    private var records: [[ObjectIdentifier: Drawn]] = []
    /// Buffers to compose whole: new, or after `forgetAll`.
    private var whole: [Bool] = []
    private var epoch: Int?

    /// The display's buffers: `buffers` of them, made anew when `epoch` changes.
    mutating func follow(epoch: Int, buffers: Int) {
        guard epoch != self.epoch || records.count != buffers else { return }
        self.epoch = epoch
        records = Array(repeating: [:], count: buffers)
        whole = Array(repeating: true, count: buffers)
    }

    /// Every buffer is composed whole next time (a failed commit, the screen back on).
    mutating func forgetAll() {
        whole = whole.map { _ in true }
    }

    /// Brings buffer `index` up to date with `stack` (bottom first); true
    /// when anything in it was drawn.
    mutating func compose(_ stack: [Layer], into buffer: any ComposedBuffer, index: Int, background: UInt32) -> Bool {
        if records.count <= index {
            records += Array(repeating: [:], count: index + 1 - records.count)
            whole += Array(repeating: true, count: index + 1 - whole.count)
        }
        var damage: [PixelRect] = []
        if whole[index] {
            damage = [PixelRect(x: 0, y: 0, width: buffer.width, height: buffer.height)]
        } else {
            var previous = records[index]
            for layer in stack {
                let now = layer.drawn
                let before = previous.removeValue(forKey: layer.id)
                guard before != now else { continue }
                // A layer on its plane leaves its rectangle to the plane: nothing to draw there.
                if let rect = before?.rect, before?.composed == true { damage.append(rect) }
                if let rect = now.rect, now.composed { damage.append(rect) }
                if before?.composed == true, !now.composed, let rect = now.rect { damage.append(rect) }
            }
            damage += previous.values.compactMap(\.rect)
        }
        whole[index] = false
        records[index] = Dictionary(uniqueKeysWithValues: stack.map { ($0.id, $0.drawn) })
        guard !damage.isEmpty else { return false }
        for rect in damage { redraw(rect, of: stack, into: buffer, background: background) }
        return true
    }

    /// `area` drawn again from the bottom: the background, then each composed layer over it.
    private func redraw(_ area: PixelRect, of stack: [Layer], into buffer: any ComposedBuffer, background: UInt32) {
        guard let area = area.intersection(PixelRect(x: 0, y: 0, width: buffer.width, height: buffer.height)) else { return }
        buffer.fill(area, rgb: background)
        let target = buffer.planes(inside: PixelRect(x: 0, y: 0, width: buffer.width, height: buffer.height))[0]
        for layer in stack where layer.isComposed && !layer.settings.isHidden && layer.settings.opacity > 0 {
            guard let rect = layer.rect, let overlap = area.intersection(rect) else { continue }
            let alpha = UInt32((layer.settings.opacity * 255).rounded())
            guard let source = layer.buffer else {
                // No picture yet: the layer's own background (an overlay's is clear).
                if layer.perPixelAlpha { continue }
                Blend.fill(target, overlap, rgb: layer.settings.background, alpha: alpha)
                continue
            }
            // A picture drawn before the layer moved may be smaller than its rectangle now.
            let inSource = PixelRect(x: overlap.x - rect.x, y: overlap.y - rect.y, width: overlap.width, height: overlap.height)
            guard let clipped = inSource.intersection(PixelRect(x: 0, y: 0, width: source.width, height: source.height)) else { continue }
            let plane = source.planes(inside: PixelRect(x: 0, y: 0, width: source.width, height: source.height))[0]
            if layer.perPixelAlpha {
                Blend.over(from: plane, clipped, to: target, at: (clipped.x + rect.x, clipped.y + rect.y), alpha: alpha)
            } else {
                Blend.copy(from: plane, clipped, to: target, at: (clipped.x + rect.x, clipped.y + rect.y), alpha: alpha)
            }
        }
    }
}

extension PixelRect {
    /// The part both share; nil where they do not meet.
    func intersection(_ other: PixelRect) -> PixelRect? {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(x + width, other.x + other.width), bottom = min(y + height, other.y + other.height)
        guard right > left, bottom > top else { return nil }
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}

/// XRGB8888 rows copied or blended at an alpha of 0...255. Opaque rows are
/// moved with memcpy: the stdlib's generic copies are slow in debug
/// builds, where the real-time tests run.
enum Blend {
    static func copy(from source: MutableImagePlane, _ area: PixelRect, to target: MutableImagePlane, at origin: (x: Int, y: Int),
                     alpha: UInt32) {
        for row in 0..<area.height {
            let from = source.base + (area.y + row) * source.bytesPerRow + area.x * 4
            let to = target.base + (origin.y + row) * target.bytesPerRow + origin.x * 4
            if alpha >= 255 {
                to.copyMemory(from: from, byteCount: area.width * 4)
            } else {
                let pixels = to.assumingMemoryBound(to: UInt32.self), over = from.assumingMemoryBound(to: UInt32.self)
                for column in 0..<area.width { pixels[column] = mix(over[column], over: pixels[column], alpha: alpha) }
            }
        }
    }

    /// Premultiplied ARGB8888 over what `target` holds, each pixel by its
    /// own alpha times the layer's (`alpha`, 0...255).
    static func over(from source: MutableImagePlane, _ area: PixelRect, to target: MutableImagePlane, at origin: (x: Int, y: Int),
                     alpha: UInt32) {
        for row in 0..<area.height {
            let over = (source.base + (area.y + row) * source.bytesPerRow + area.x * 4).assumingMemoryBound(to: UInt32.self)
            let pixels = (target.base + (origin.y + row) * target.bytesPerRow + origin.x * 4).assumingMemoryBound(to: UInt32.self)
            for column in 0..<area.width {
                let pixel = over[column]
                // Clear and opaque pixels, most of an overlay, without arithmetic (debug builds run the real-time tests).
                if pixel == 0 { continue }
                if alpha == 255, pixel >> 24 == 255 {
                    pixels[column] = pixel
                    continue
                }
                let top = alpha < 255 ? PremultipliedARGB.scaled(pixel, by: alpha) : pixel
                if top >> 24 != 0 { pixels[column] = PremultipliedARGB.over(top, pixels[column]) }
            }
        }
    }

    static func fill(_ target: MutableImagePlane, _ area: PixelRect, rgb: UInt32, alpha: UInt32) {
        guard alpha >= 255 else {
            for row in area.y..<(area.y + area.height) {
                let to = (target.base + row * target.bytesPerRow + area.x * 4).assumingMemoryBound(to: UInt32.self)
                for column in 0..<area.width { to[column] = mix(rgb, over: to[column], alpha: alpha) }
            }
            return
        }
        fill(base: target.base, bytesPerRow: target.bytesPerRow, area, pixel: rgb & 0xffffff)
    }

    /// A whole XRGB8888 picture into another: rows copied as they are
    /// where the sizes match, else the nearest source pixel of each.
    static func scale(from source: MutableImagePlane, width: Int, height: Int, to target: MutableImagePlane, width targetWidth: Int,
                      height targetHeight: Int) {
        for row in 0..<targetHeight {
            let from = source.base + (row * height / targetHeight) * source.bytesPerRow
            let to = target.base + row * target.bytesPerRow
            guard width != targetWidth else {
                to.copyMemory(from: from, byteCount: width * 4)
                continue
            }
            let pixels = to.assumingMemoryBound(to: UInt32.self), over = from.assumingMemoryBound(to: UInt32.self)
            for column in 0..<targetWidth { pixels[column] = over[column * width / targetWidth] }
        }
    }

    /// One colour in `area` of a buffer at `base`: the first row drawn, the rest copied from it.
    static func fill(base: UnsafeMutableRawPointer, bytesPerRow: Int, _ area: PixelRect, pixel: UInt32) {
        guard area.width > 0, area.height > 0 else { return }
        let first = base + area.y * bytesPerRow + area.x * 4
        first.assumingMemoryBound(to: UInt32.self).update(repeating: pixel, count: area.width)
        for row in 1..<area.height { (first + row * bytesPerRow).copyMemory(from: first, byteCount: area.width * 4) }
    }

    /// Two channels at a time: red and blue in one word, green in another.
    @inline(__always)
    static func mix(_ top: UInt32, over bottom: UInt32, alpha: UInt32) -> UInt32 {
        let keep = 255 - alpha
        let redBlue = ((top & 0xff00ff) &* alpha &+ (bottom & 0xff00ff) &* keep &+ 0x800080) >> 8 & 0xff00ff
        let green = ((top & 0x00ff00) &* alpha &+ (bottom & 0x00ff00) &* keep &+ 0x008000) >> 8 & 0x00ff00
        return redBlue | green
    }
}
