import MarqueeCore

/// Which layers may have a hardware plane of their own, before the driver
/// is asked: planes go to the topmost layers first (overlays stack above
/// the primary plane, which carries the composed layers), the topmost
/// layer on the topmost plane, and never to a layer under a composed one
/// that overlaps it, which the plane would cover.
enum LayerPlanes {
    /// - Parameters:
    ///   - rects: the layers' places, bottom first.
    ///   - composedOnly: layers that must be composed (seen through).
    ///   - planes: the overlay planes, bottom first.
    /// - Returns: layer index -> plane.
    static func assign(_ rects: [PixelRect], composedOnly: [Bool], planes: [UInt32]) -> [Int: UInt32] {
        var free = planes
        var composed: [PixelRect] = []
        var assignment: [Int: UInt32] = [:]
        for index in rects.indices.reversed() {
            let covered = composed.contains { $0.intersection(rects[index]) != nil }
            if !composedOnly[index], !covered, let plane = free.popLast() {
                assignment[index] = plane
            } else {
                composed.append(rects[index])
            }
        }
        return assignment
    }
}
