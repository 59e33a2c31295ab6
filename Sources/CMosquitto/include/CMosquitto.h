#pragma once
#include <mosquitto.h>

/// Opens libmosquitto (once per process): NULL when it is ready, else what
/// failed. No mosquitto function may be called before it has returned NULL.
const char *marquee_mosquitto_load(void);
