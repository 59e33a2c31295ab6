import Foundation
import Glibc

/// Starts threads whose names reach the kernel, where `top -H`, `perf`, a
/// crash report and the tests' thread counts read them. Foundation's
/// `Thread.name` does not get them there reliably on Linux: set before
/// `start()` it is never passed on, and set from the new thread it is
/// dropped whenever that thread runs before `start()` has stored its
/// handle (under the full test suite's load a presenter thread and an HTTP
/// server's thread kept their parent's name).
public enum NamedThread {
    /// Runs `body` on a new thread named `name`.
    /// - Parameter name: at most 15 bytes, the kernel's limit.
    @discardableResult
    public static func start(_ name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) -> Thread {
        precondition(name.utf8.count <= 15, "thread name '\(name)' is longer than the kernel's 15 bytes")
        let thread = Thread {
            nameCurrentThread(name)
            body()
        }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
        return thread
    }

    /// What glibc's pthread_setname_np does for another thread, done by the
    /// thread itself: Glibc's module hides that call (it is a GNU extension)
    /// and prctl is variadic, which Swift cannot call.
    private static func nameCurrentThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        precondition(descriptor >= 0, "open(/proc/thread-self/comm): \(String(cString: strerror(errno)))")
        defer { close(descriptor) }
        let written = name.withCString { write(descriptor, $0, strlen($0)) }
        precondition(written == name.utf8.count, "write(/proc/thread-self/comm, '\(name)'): \(String(cString: strerror(errno)))")
    }
}
