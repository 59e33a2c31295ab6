import MarqueeCore

/// Which layers may have a hardware plane of their own, before the driver
/// is asked: planes go to the topmost layers first (overlays stack above
/// the primary plane, which carries the composed layers), the topmost
/// layer on the topmost plane, and never to a layer under a composed one
/// that overlaps it, which the plane would cover. A layer with its own
/// alpha (an overlay) takes the topmost free plane that blends alpha; the
/// planes above it are then out of reach of the layers below.
enum LayerPlanes {
    /// - Parameters:
    ///   - rects: the layers' places, bottom first.
    ///   - composedOnly: layers that must be composed (seen through).
    ///   - needsAlpha: layers whose pixels carry alpha (overlays).
    ///   - planes: the overlay planes, bottom first.
    ///   - alphaPlanes: those that blend ARGB8888.
    /// - Returns: layer index -> plane.
    static func assign(_ rects: [PixelRect], composedOnly: [Bool], needsAlpha: [Bool], planes: [UInt32],
                       alphaPlanes: Set<UInt32>) -> [Int: UInt32] {
        var free = planes
        var composed: [PixelRect] = []
        var assignment: [Int: UInt32] = [:]
        for index in rects.indices.reversed() {
            let covered = composed.contains { $0.intersection(rects[index]) != nil }
            let usable = needsAlpha[index] ? free.lastIndex { alphaPlanes.contains($0) } : free.indices.last
            if !composedOnly[index], !covered, let usable {
                assignment[index] = free[usable]
                free.removeSubrange(usable...)
            } else {
                composed.append(rects[index])
            }
        }
        return assignment
    }
}
