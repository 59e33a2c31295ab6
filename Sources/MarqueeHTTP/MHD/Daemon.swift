import CMicroHTTPD
import Synchronization

/// The running libmicrohttpd daemon (MHD_Daemon): listening when init
/// returns, stopped by `stop()` or when released. The one place
/// MHD_start_daemon is called: Swift cannot call a C variadic function, so
/// its va_list twin gets the options as one MHD_OPTION_ARRAY.
///
/// Threads: MHD's polling thread accepts connections, and each connection
/// gets a thread of its own (MHD_USE_THREAD_PER_CONNECTION), where the
/// dispatcher's callbacks run. poll(2) rather than select(2), which cannot
/// watch a descriptor numbered past 1024 and would fail in a process with
/// many open files.
final class Daemon: Sendable {
    /// The port bound, which the configuration may have left to the kernel (0).
    let port: UInt16
    private let daemon: Mutex<OpaquePointer?>
    // Held for their unretained use as callback contexts until MHD_stop_daemon has returned.
    private let dispatcher: RequestDispatcher
    private let log: MHDLog

    /// - Throws: `HTTPServerError` naming MHD_start_daemon with MHD's own
    ///   reasons (an address in use, a certificate GnuTLS cannot read).
    init(configuration: HTTPServerConfiguration, address: SocketAddress, dispatcher: RequestDispatcher,
         log: MHDLog) throws(HTTPServerError) {
        self.dispatcher = dispatcher
        self.log = log
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_POLL.rawValue
            | MHD_USE_ERROR_LOG.rawValue
        if address.isIPv6 { flags |= (address.isIPv6Any ? MHD_USE_DUAL_STACK : MHD_USE_IPv6).rawValue }
        if configuration.tls != nil { flags |= MHD_USE_TLS.rawValue }
        let limits = configuration.limits
        let dispatcherContext = Unmanaged.passUnretained(dispatcher).toOpaque()
        let started: OpaquePointer? = address.withSockaddr { sockaddr in
            // MHD reads the PEM text while it starts (GnuTLS keeps its own copy).
            Self.withCString(configuration.tls?.certificatePEM) { certificate in
                Self.withCString(configuration.tls?.keyPEM) { key in
                    var options = [
                        // First, so that even a complaint about a later option is kept.
                        Self.option(.EXTERNAL_LOGGER, function: MHDLog.callback, Unmanaged.passUnretained(log).toOpaque()),
                        Self.option(.CONNECTION_LIMIT, limits.connections),
                        Self.option(.PER_IP_CONNECTION_LIMIT, limits.connectionsPerAddress),
                        Self.option(.CONNECTION_TIMEOUT, limits.idleTimeoutSeconds),
                        Self.option(.CONNECTION_MEMORY_LIMIT, limits.maximumHeaderBytes),
                        Self.option(.NOTIFY_COMPLETED, function: RequestDispatcher.requestCompleted, dispatcherContext),
                        Self.option(.NOTIFY_CONNECTION, function: RequestDispatcher.connectionChanged, dispatcherContext),
                        Self.option(.SOCK_ADDR, pointer: UnsafeMutableRawPointer(mutating: sockaddr)),
                    ]
                    if let certificate, let key {
                        options.append(Self.option(.HTTPS_MEM_CERT, pointer: UnsafeMutableRawPointer(mutating: certificate)))
                        options.append(Self.option(.HTTPS_MEM_KEY, pointer: UnsafeMutableRawPointer(mutating: key)))
                    }
                    options.append(Self.option(.END, 0))
                    return options.withUnsafeMutableBufferPointer { array in
                        withVaList([MHD_OPTION.ARRAY.rawValue, array.baseAddress!, MHD_OPTION.END.rawValue]) { arguments in
                            MHD_start_daemon_va(flags, configuration.port, nil, nil, RequestDispatcher.accessHandler,
                                                dispatcherContext, arguments)
                        }
                    }
                }
            }
        }
        let reasons = log.endStart(started: started != nil)
        guard let started else {
            throw HTTPServerError(call: "MHD_start_daemon", listen: configuration.listenAddress,
                                  reason: reasons.isEmpty ? "it gave no reason" : reasons.joined(separator: "; "))
        }
        guard let bound = marquee_mhd_daemon_info(started, .DAEMON_INFO_BIND_PORT)?.pointee.port else {
            MHD_stop_daemon(started)
            throw HTTPServerError(call: "MHD_get_daemon_info", listen: configuration.listenAddress, reason: "no bound port")
        }
        port = bound
        daemon = Mutex(started)
    }

    /// Stops listening, ends every connection and returns once their
    /// threads are gone. A second call waits for the first to finish.
    func stop() {
        daemon.withLock { daemon in
            guard let running = daemon else { return }
            MHD_stop_daemon(running)
            daemon = nil
        }
    }

    deinit { stop() }

    private static func option(_ option: MHD_OPTION, _ value: Int) -> MHD_OptionItem {
        MHD_OptionItem(option: option, value: value, ptr_value: nil)
    }

    private static func option(_ option: MHD_OPTION, pointer: UnsafeMutableRawPointer) -> MHD_OptionItem {
        MHD_OptionItem(option: option, value: 0, ptr_value: pointer)
    }

    /// An option of two pointers: MHD_OPTION_ARRAY carries the first, a
    /// function, in the integer field.
    private static func option<Function>(_ option: MHD_OPTION, function: Function, _ context: UnsafeMutableRawPointer) -> MHD_OptionItem {
        MHD_OptionItem(option: option, value: unsafeBitCast(function, to: Int.self), ptr_value: context)
    }

    private static func withCString<Result>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        guard let text else { return body(nil) }
        return text.withCString(body)
    }
}
