#pragma once
#include <microhttpd.h>

// Swift cannot call C variadic functions. MHD_start_daemon has a va_list
// twin (MHD_start_daemon_va, called with withVaList); these three have none,
// so each is wrapped here for the one argument form Marquee uses.

/// MHD_get_connection_info for the kinds that take no further argument.
static inline const union MHD_ConnectionInfo *
marquee_mhd_connection_info(struct MHD_Connection *connection, enum MHD_ConnectionInfoType kind) {
    return MHD_get_connection_info(connection, kind);
}

/// MHD_get_daemon_info for the kinds that take no further argument.
static inline const union MHD_DaemonInfo *
marquee_mhd_daemon_info(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType kind) {
    return MHD_get_daemon_info(daemon, kind);
}

/// MHD_set_connection_option(MHD_CONNECTION_OPTION_TIMEOUT): this
/// connection's inactivity timeout, in seconds (0: none).
static inline enum MHD_Result
marquee_mhd_set_connection_timeout(struct MHD_Connection *connection, unsigned int seconds) {
    return MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}
