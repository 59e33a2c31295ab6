import CMosquitto

/// `mosquitto_lib_init` runs once per process, before the first client;
/// libmosquitto's global state (OpenSSL's) lives as long as the process.
enum MQTTLibrary {
    static let initialised: Bool = mosquitto_lib_init() == MQTTCode.success
}
