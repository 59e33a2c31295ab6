#pragma once
// GnuTLS, the TLS library MHD's HTTPS already uses: here the client side
// of `marquee ctl --http https://...`.
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>

// gnutls_free is a global function pointer, which Swift 6 will not read
// from any thread; GnuTLS's own memory is given back through it here.
static inline void marquee_gnutls_free(void *pointer) { gnutls_free(pointer); }
