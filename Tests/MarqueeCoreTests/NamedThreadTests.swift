import Foundation
import MarqueeCore
import Synchronization
import Testing

@Suite struct NamedThreadTests {
    /// Each thread reads its own name back from the kernel as its first act,
    /// the moment Foundation's `Thread.name` could lose the race with `start()`.
    @Test func everyThreadCarriesItsNameIntoTheKernelFromItsFirstInstruction() {
        let names = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let count = 200
        for index in 0..<count {
            NamedThread.start("marquee.t\(index)") {
                let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
                names.withLock { $0.append(comm.trimmingCharacters(in: .newlines)) }
                done.signal()
            }
        }
        for _ in 0..<count { done.wait() }
        let expected = Set((0..<count).map { "marquee.t\($0)" })
        #expect(Set(names.withLock { $0 }) == expected)
    }
}
