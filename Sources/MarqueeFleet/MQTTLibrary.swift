import CMosquitto

/// libmosquitto is opened and `mosquitto_lib_init` run once per process,
/// before the first client (a screen without a fleet never maps it);
/// libmosquitto's global state (OpenSSL's) lives as long as the process.
enum MQTTLibrary {
    /// Nil once the library is ready, else the call that failed and why.
    static let failure: (call: String, message: String)? = {
        if let failure = marquee_mosquitto_load() { return ("libmosquitto", String(cString: failure)) }
        guard mosquitto_lib_init() == MQTTCode.success else { return ("mosquitto_lib_init", "failed") }
        return nil
    }()
}
