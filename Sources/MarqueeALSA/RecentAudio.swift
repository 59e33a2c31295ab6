/// The last `capacity` bytes written to the device, for devices that cannot
/// pause in place: pausing drops the device buffer, and resuming writes the
/// part that had not been heard yet again, so no sound is lost and the audio
/// clock does not jump.
struct RecentAudio {
    let capacity: Int
    private var storage: [UInt8]
    /// Where the next byte goes.
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        storage = [UInt8](repeating: 0, count: self.capacity)
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard capacity > 0 else { return }
        let kept = bytes.count > capacity ? UnsafeRawBufferPointer(rebasing: bytes.suffix(capacity)) : bytes
        var index = 0
        while index < kept.count {
            let run = min(kept.count - index, capacity - head)
            storage.withUnsafeMutableBytes { target in
                target.baseAddress!.advanced(by: head).copyMemory(from: kept.baseAddress!.advanced(by: index), byteCount: run)
            }
            head = (head + run) % capacity
            index += run
        }
        count = min(capacity, count + kept.count)
    }

    /// The newest `byteCount` bytes (fewer if fewer were kept), oldest first.
    func last(_ byteCount: Int) -> [UInt8] {
        let wanted = min(max(0, byteCount), count)
        guard wanted > 0 else { return [] }
        let start = (head - wanted + capacity) % capacity
        if start + wanted <= capacity { return Array(storage[start..<start + wanted]) }
        return Array(storage[start...]) + Array(storage[..<(start + wanted - capacity)])
    }

    mutating func removeAll() {
        head = 0
        count = 0
    }
}
