import Glibc

/// Starts threads whose names reach the kernel, where `top -H`, `perf`, a
/// crash report and the tests' thread counts read them. Foundation's
/// `Thread.name` does not get them there reliably on Linux: set before
/// `start()` it is never passed on, and set from the new thread it is
/// dropped whenever that thread runs before `start()` has stored its
/// handle (under the full test suite's load a presenter thread and an HTTP
/// server's thread kept their parent's name).
public enum NamedThread {
    /// Runs `body` on a new detached thread named `name`.
    /// - Parameters:
    ///   - name: at most 15 bytes, the kernel's limit.
    ///   - stackSize: bytes, or nil for glibc's default (the RLIMIT_STACK soft limit).
    public static func start(_ name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        precondition(name.utf8.count <= 15, "thread name '\(name)' is longer than the kernel's 15 bytes")
        var attributes = pthread_attr_t()
        check(pthread_attr_init(&attributes), "pthread_attr_init", name)
        defer { pthread_attr_destroy(&attributes) }
        check(pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)), "pthread_attr_setdetachstate", name)
        if let stackSize { check(pthread_attr_setstacksize(&attributes, stackSize), "pthread_attr_setstacksize", name) }
        let start = Unmanaged.passRetained(Start(name: name, body: body))
        var thread = pthread_t()
        let created = pthread_create(&thread, &attributes, { argument in
            let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
            NamedThread.nameCurrentThread(start.name)
            start.body()
            return nil
        }, start.toOpaque())
        if created != 0 { start.release() }
        check(created, "pthread_create", name)
    }

    /// What the new thread runs, handed to it through pthread_create's argument.
    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// A thread the player cannot start is a fault it cannot run without
    /// (as Foundation's Thread traps).
    private static func check(_ result: Int32, _ call: String, _ name: String) {
        precondition(result == 0, "\(call) for thread '\(name)': \(String(cString: strerror(result)))")
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
