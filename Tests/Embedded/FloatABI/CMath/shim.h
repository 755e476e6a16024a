// glibc's libm, compiled by Debian's gcc for the target: calling it from
// Embedded Swift crosses the real C calling convention (floats and doubles
// in VFP registers on armhf), which the importer's static inlines would not.
#include <math.h>
#include <stdlib.h>
