// libsecret, the client of the freedesktop Secret Service (gnome-keyring, KeePassXC, ...).
// Debian: libsecret-1-dev. Only the non-variadic calls are used from Swift.
//
// The target's pkg-config name is glib-2.0, not libsecret-1: libsecret-1.pc pulls in gio's
// private dependencies, whose `-pthread` SwiftPM refuses with a warning on every build. glib-2.0
// gives the include folders glib, gobject and gio need; libsecret's own headers are reached
// through their folder under the standard include path (libsecret-1/libsecret/), the way its
// umbrella header includes them.
#ifndef PRISM_CLIBSECRET_SHIM_H
#define PRISM_CLIBSECRET_SHIM_H

#include <gio/gio.h>
#include <glib.h>

#if __has_include(<libsecret/secret.h>)
#include <libsecret/secret.h>
#else
#define __SECRET_INSIDE_HEADER__
#include <libsecret-1/libsecret/secret-attributes.h>
#include <libsecret-1/libsecret/secret-collection.h>
#include <libsecret-1/libsecret/secret-enum-types.h>
#include <libsecret-1/libsecret/secret-item.h>
#include <libsecret-1/libsecret/secret-password.h>
#include <libsecret-1/libsecret/secret-prompt.h>
#include <libsecret-1/libsecret/secret-retrievable.h>
#include <libsecret-1/libsecret/secret-schema.h>
#include <libsecret-1/libsecret/secret-schemas.h>
#include <libsecret-1/libsecret/secret-service.h>
#include <libsecret-1/libsecret/secret-types.h>
#include <libsecret-1/libsecret/secret-value.h>
#include <libsecret-1/libsecret/secret-version.h>
#undef __SECRET_INSIDE_HEADER__
#endif

#endif
