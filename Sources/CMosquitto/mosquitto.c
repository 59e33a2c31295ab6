// The libmosquitto functions Marquee calls, each a trampoline through a
// pointer filled by `marquee_mosquitto_load`: the library is not linked,
// so a screen without a fleet never maps it (or OpenSSL, which it brings).
// Hidden: nothing but Marquee's own calls land here.

#include "CMosquitto.h"

#include <CSharedLibrary.h>
#include <pthread.h>

#define TRAMPOLINE __attribute__((visibility("hidden")))

#define MOSQUITTO_FUNCTIONS(X) \
    X(mosquitto_connack_string) X(mosquitto_connect_async) X(mosquitto_connect_callback_set) \
    X(mosquitto_destroy) X(mosquitto_disconnect) X(mosquitto_int_option) X(mosquitto_lib_init) \
    X(mosquitto_lib_version) X(mosquitto_loop) X(mosquitto_message_callback_set) X(mosquitto_new) \
    X(mosquitto_publish) X(mosquitto_publish_callback_set) X(mosquitto_reconnect_async) \
    X(mosquitto_strerror) X(mosquitto_subscribe) X(mosquitto_subscribe_callback_set) \
    X(mosquitto_threaded_set) X(mosquitto_tls_set) X(mosquitto_user_data_set) \
    X(mosquitto_username_pw_set) X(mosquitto_will_set)

#define NAME(function) #function,
#define SLOT(function) __typeof__(&function) function;

static struct { MOSQUITTO_FUNCTIONS(SLOT) } mosquitto;
static const char *const names[] = { MOSQUITTO_FUNCTIONS(NAME) };

static const char *loadFailure;

static void load(void) {
    // Debian 12's soname (libmosquitto1), the package's Depends.
    const struct marquee_shared_library library = {
        "libmosquitto.so.1", names, (void **)&mosquitto, sizeof names / sizeof *names
    };
    loadFailure = marquee_shared_library_open(&library);
}

const char *marquee_mosquitto_load(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, load);
    return loadFailure;
}

TRAMPOLINE const char *mosquitto_connack_string(int connack_code) { return mosquitto.mosquitto_connack_string(connack_code); }
TRAMPOLINE int mosquitto_connect_async(struct mosquitto *mosq, const char *host, int port, int keepalive) {
    return mosquitto.mosquitto_connect_async(mosq, host, port, keepalive);
}
TRAMPOLINE void mosquitto_connect_callback_set(struct mosquitto *mosq, void (*on_connect)(struct mosquitto *, void *, int)) {
    mosquitto.mosquitto_connect_callback_set(mosq, on_connect);
}
TRAMPOLINE void mosquitto_destroy(struct mosquitto *mosq) { mosquitto.mosquitto_destroy(mosq); }
TRAMPOLINE int mosquitto_disconnect(struct mosquitto *mosq) { return mosquitto.mosquitto_disconnect(mosq); }
TRAMPOLINE int mosquitto_int_option(struct mosquitto *mosq, enum mosq_opt_t option, int value) {
    return mosquitto.mosquitto_int_option(mosq, option, value);
}
TRAMPOLINE int mosquitto_lib_init(void) { return mosquitto.mosquitto_lib_init(); }
TRAMPOLINE int mosquitto_lib_version(int *major, int *minor, int *revision) {
    return mosquitto.mosquitto_lib_version(major, minor, revision);
}
TRAMPOLINE int mosquitto_loop(struct mosquitto *mosq, int timeout, int max_packets) {
    return mosquitto.mosquitto_loop(mosq, timeout, max_packets);
}
TRAMPOLINE void mosquitto_message_callback_set(struct mosquitto *mosq,
                                               void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *)) {
    mosquitto.mosquitto_message_callback_set(mosq, on_message);
}
TRAMPOLINE struct mosquitto *mosquitto_new(const char *id, bool clean_session, void *obj) {
    return mosquitto.mosquitto_new(id, clean_session, obj);
}
TRAMPOLINE int mosquitto_publish(struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload,
                                 int qos, bool retain) {
    return mosquitto.mosquitto_publish(mosq, mid, topic, payloadlen, payload, qos, retain);
}
TRAMPOLINE void mosquitto_publish_callback_set(struct mosquitto *mosq, void (*on_publish)(struct mosquitto *, void *, int)) {
    mosquitto.mosquitto_publish_callback_set(mosq, on_publish);
}
TRAMPOLINE int mosquitto_reconnect_async(struct mosquitto *mosq) { return mosquitto.mosquitto_reconnect_async(mosq); }
TRAMPOLINE const char *mosquitto_strerror(int mosq_errno) { return mosquitto.mosquitto_strerror(mosq_errno); }
TRAMPOLINE int mosquitto_subscribe(struct mosquitto *mosq, int *mid, const char *sub, int qos) {
    return mosquitto.mosquitto_subscribe(mosq, mid, sub, qos);
}
TRAMPOLINE void mosquitto_subscribe_callback_set(struct mosquitto *mosq,
                                                 void (*on_subscribe)(struct mosquitto *, void *, int, int, const int *)) {
    mosquitto.mosquitto_subscribe_callback_set(mosq, on_subscribe);
}
TRAMPOLINE int mosquitto_threaded_set(struct mosquitto *mosq, bool threaded) {
    return mosquitto.mosquitto_threaded_set(mosq, threaded);
}
TRAMPOLINE int mosquitto_tls_set(struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile,
                                 const char *keyfile, int (*pw_callback)(char *buf, int size, int rwflag, void *userdata)) {
    return mosquitto.mosquitto_tls_set(mosq, cafile, capath, certfile, keyfile, pw_callback);
}
TRAMPOLINE void mosquitto_user_data_set(struct mosquitto *mosq, void *obj) { mosquitto.mosquitto_user_data_set(mosq, obj); }
TRAMPOLINE int mosquitto_username_pw_set(struct mosquitto *mosq, const char *username, const char *password) {
    return mosquitto.mosquitto_username_pw_set(mosq, username, password);
}
TRAMPOLINE int mosquitto_will_set(struct mosquitto *mosq, const char *topic, int payloadlen, const void *payload, int qos,
                                  bool retain) {
    return mosquitto.mosquitto_will_set(mosq, topic, payloadlen, payload, qos, retain);
}
