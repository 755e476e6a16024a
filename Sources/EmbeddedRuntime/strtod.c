// What the Embedded Swift standard library leaves to the platform, for the
// shipped daemon only (Scripts/build-embedded.sh compiles and links this
// file; the host build gets the same functions from libswiftCore, so
// SwiftPM never sees it).
//
// Double(String), Float(String): the stdlib parses with these hooks. They
// must not depend on the process's locale (a decimal comma would break board
// files), so they parse in the "C" locale explicitly.
#define _GNU_SOURCE
#include <locale.h>
#include <stdlib.h>

static locale_t c_locale(void) {
    static locale_t c;
    if (!c) c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    return c;
}

const char *_swift_stdlib_strtod_clocale(const char *nptr, double *outResult) {
    char *end = 0;
    *outResult = strtod_l(nptr, &end, c_locale());
    return end;
}

const char *_swift_stdlib_strtof_clocale(const char *nptr, float *outResult) {
    char *end = 0;
    *outResult = strtof_l(nptr, &end, c_locale());
    return end;
}
