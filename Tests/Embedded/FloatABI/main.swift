// The float ABI between Embedded Swift and the target's C libraries.
//
// armhf means hard-float: float and double arguments and results travel in
// VFP registers. A Swift build for the wrong float ABI would pass them in
// core registers and read garbage back; libm's functions, compiled by
// Debian's gcc, show it. Run under qemu-user by `make float-abi-check`.
import CMath

var passed = 0
var failed = 0

func check(_ name: StaticString, _ ok: Bool) {
    if ok { passed += 1; print("ok \(name)") } else { failed += 1; print("not ok \(name)") }
}

// Doubles in, a double out (d0-d2 -> d0).
check("fma(double, double, double)", fma(2.5, 4.0, 0.25) == 10.25)
// Floats in, a float out (s0-s2 -> s0).
check("fmaf(float, float, float)", fmaf(1.5, 3.0, 0.5) == 5.0)
// A double and an int in: the int stays in a core register.
check("ldexp(double, int)", ldexp(0.75, 4) == 12.0)
// A float and an int.
check("ldexpf(float, int)", ldexpf(0.5, 3) == 4.0)
// Mixed: float result from a double-taking call chain.
check("nextafterf(float, float)", nextafterf(1.0, 2.0) > 1.0 && nextafterf(1.0, 2.0) < 1.0001)
// A pointer in, a double out.
let parsed = "3.5e2".withCString { strtod($0, nil) }
check("strtod(char *, char **) -> double", parsed == 350.0)
// Two results: a double returned and an int written through a pointer.
var exponent: Int32 = 0
let mantissa = frexp(48.0, &exponent)
check("frexp(double, int *)", mantissa == 0.75 && exponent == 6)

print("\(passed) passed, \(failed) failed")
exit(failed == 0 ? 0 : 1)
