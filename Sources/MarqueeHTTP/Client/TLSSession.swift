import CGnuTLS

/// The client side of TLS over a connected socket (GnuTLS): the server's
/// certificate is verified against the trust file given (a self-signed
/// server's own certificate) or the system's trust store, and against the
/// host name or address asked for. The only owner of its GnuTLS session
/// and credentials.
final class TLSSession {
    private var session: gnutls_session_t?
    private var credentials: gnutls_certificate_credentials_t?
    private let url: String

    /// Handshakes over `descriptor`, which stays the caller's to close.
    /// - Throws: `HTTPClientError` naming the call and GnuTLS's reason
    ///   (for a certificate, what verification found).
    init(descriptor: Int32, host: String, trustFile: String?, url: String) throws(HTTPClientError) {
        self.url = url
        try check(gnutls_certificate_allocate_credentials(&credentials), "gnutls_certificate_allocate_credentials")
        if let trustFile {
            let loaded = gnutls_certificate_set_x509_trust_file(credentials, trustFile, GNUTLS_X509_FMT_PEM)
            try check(loaded, "gnutls_certificate_set_x509_trust_file \(trustFile)")
            guard loaded > 0 else { throw HTTPClientError(url: url, call: "gnutls_certificate_set_x509_trust_file", reason: "no certificate in \(trustFile)") }
        } else {
            try check(gnutls_certificate_set_x509_system_trust(credentials), "gnutls_certificate_set_x509_system_trust")
        }
        try check(gnutls_init(&session, UInt32(GNUTLS_CLIENT)), "gnutls_init")
        if !host.contains(":"), !host.allSatisfy({ $0.isNumber || $0 == "." }) {
            try check(gnutls_server_name_set(session, GNUTLS_NAME_DNS, host, host.utf8.count), "gnutls_server_name_set")
        }
        try check(gnutls_set_default_priority(session), "gnutls_set_default_priority")
        try check(gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, UnsafeMutableRawPointer(credentials)), "gnutls_credentials_set")
        gnutls_session_set_verify_cert(session, host, 0)
        gnutls_transport_set_int2(session, descriptor, descriptor)
        var result: Int32
        repeat { result = gnutls_handshake(session) } while result < 0 && gnutls_error_is_fatal(result) == 0
        if result == GNUTLS_E_CERTIFICATE_VERIFICATION_ERROR {
            throw HTTPClientError(url: url, call: "gnutls_handshake", reason: verificationProblem())
        }
        try check(result, "gnutls_handshake")
    }

    func send(_ bytes: UnsafeRawBufferPointer) throws(HTTPClientError) {
        var offset = 0
        while offset < bytes.count {
            let sent = gnutls_record_send(session, bytes.baseAddress! + offset, bytes.count - offset)
            if sent == GNUTLS_E_AGAIN || sent == GNUTLS_E_INTERRUPTED { continue }
            try check(Int32(clamping: sent), "gnutls_record_send")
            offset += sent
        }
    }

    /// Bytes read into `buffer`; 0 at the end of the stream.
    func receive(_ buffer: UnsafeMutableRawBufferPointer) throws(HTTPClientError) -> Int {
        while true {
            let count = gnutls_record_recv(session, buffer.baseAddress, buffer.count)
            if count == GNUTLS_E_AGAIN || count == GNUTLS_E_INTERRUPTED { continue }
            // A server that closes without close_notify has still said all it meant to.
            if count == GNUTLS_E_PREMATURE_TERMINATION { return 0 }
            try check(Int32(clamping: count), "gnutls_record_recv")
            return count
        }
    }

    deinit {
        if let session {
            gnutls_bye(session, GNUTLS_SHUT_WR)
            gnutls_deinit(session)
        }
        if let credentials { gnutls_certificate_free_credentials(credentials) }
    }

    private func check(_ result: Int32, _ call: String) throws(HTTPClientError) {
        guard result < 0 else { return }
        throw HTTPClientError(url: url, call: call, reason: String(cString: gnutls_strerror(result)))
    }

    /// What verifying the server's certificate found, in GnuTLS's words.
    private func verificationProblem() -> String {
        let status = gnutls_session_get_verify_cert_status(session)
        var text = gnutls_datum_t()
        guard gnutls_certificate_verification_status_print(status, GNUTLS_CRT_X509, &text, 0) >= 0, let data = text.data else {
            return "the server's certificate did not verify"
        }
        defer { marquee_gnutls_free(data) }
        return String(cString: data)
    }
}
