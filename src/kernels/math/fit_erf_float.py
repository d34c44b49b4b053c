#!/usr/bin/python3
"""Fits the coefficients of erf_float.h (default mode's erf, computed in float arithmetic)
and prints them as C++ constants; also reports the largest error of the float evaluation
against scipy's double erf on 6 million arguments. Run: /usr/bin/python3 fit_erf_float.py

erf(x) = x * P1(x^2)                      for |x| < kSplit
erf(x) = 1 - exp(-x^2) * P2(x) / Q2(x)    for kSplit <= |x| (x clamped to kClamp, where the
                                          float result is 1)
Each piece is a minimax fit of the relative error (Lawson's iteration on weighted least
squares). In the second piece the error of P2/Q2 is scaled down by erfc(x) <= 0.22."""
import numpy as np
from scipy.special import erf, erfc

SPLIT = 0.875
CLAMP = 3.925
P1_DEGREE = 6
P2_DEGREE, Q2_DEGREE = 4, 4
f32 = np.float32


def minimax(columns, target, iterations=80):
    """Coefficients c minimising max |columns @ c / target - 1|."""
    a = columns / target[:, None]
    b = np.ones_like(target)
    w = np.ones_like(target)
    for _ in range(iterations):
        sw = np.sqrt(w)
        c, *_ = np.linalg.lstsq(a * sw[:, None], b * sw, rcond=None)
        err = np.abs(a @ c - b)
        w = w * err
        w /= w.sum()
    return c, err.max()


def powers(t, first, last):
    return np.vstack([t**i for i in range(first, last + 1)]).T


x1 = np.linspace(1e-6, SPLIT, 20000)
p1, e1 = minimax(powers(x1 * x1, 0, P1_DEGREE), erf(x1) / x1)
x2 = np.linspace(SPLIT, CLAMP, 20000)
g = erfc(x2) * np.exp(x2 * x2)  # P2 / Q2 with Q2(0) = 1: P2 - g (Q2 - 1) = g
c2, e2 = minimax(np.hstack([powers(x2, 0, P2_DEGREE), -g[:, None] * powers(x2, 1, Q2_DEGREE)]), g)
p2, q2 = c2[: P2_DEGREE + 1], np.concatenate([[1.0], c2[P2_DEGREE + 1 :]])
P1, P2, Q2 = p1.astype(f32), p2.astype(f32), q2.astype(f32)


def horner(c, t):
    r = np.full_like(t, c[-1])
    for k in c[-2::-1]:
        r = r * t + k
    return r


def exp_minus(z):  # erf_float.h's e^-z for 0 <= z <= CLAMP^2, operation by operation
    t = -z
    k = (t * f32(1.4426950408889634) + f32(12582912.0)) - f32(12582912.0)
    r = (t - k * f32(0.693145751953125)) - k * f32(1.4286068203094173e-06)
    taylor = np.array([1, 1, 1 / 2, 1 / 6, 1 / 24, 1 / 120, 1 / 720, 1 / 5040], dtype=f32)
    return horner(taylor, r) * np.exp2(k).astype(f32)


def erf_float(x):
    ax = np.abs(x)
    z = ax * ax
    small = ax * P1[0] + (ax * z) * horner(P1[1:], z)
    c = np.minimum(ax, f32(CLAMP))
    big = f32(1) - exp_minus(c * c) * (horner(P2, c) / horner(Q2, c))
    return np.copysign(np.where(ax < SPLIT, small, big), x)


def literal(v):
    mantissa, exponent = float(v).hex().split("p")
    return "%sp%sf" % (mantissa.rstrip("0").rstrip("."), exponent)


print("// fit: P1 relative error %.3g, P2/Q2 relative error %.3g" % (e1, e2))
for name, c in (("kP1", P1), ("kP2", P2), ("kQ2", Q2)):
    print("constexpr float %s[] = {%s};" % (name, ", ".join(literal(v) for v in c)))
rng = np.random.default_rng(1)
bits = rng.integers(f32(2**-30).view(np.int32), f32(5.0).view(np.int32), 4_000_000).astype(np.int32)
xs = np.concatenate([bits.view(f32), rng.uniform(0, 4, 2_000_000).astype(f32)])
with np.errstate(over="ignore"):
    y = erf_float(xs).astype(np.float64)
exact = erf(xs.astype(np.float64))
ulp = np.abs(y - exact) / np.spacing(exact.astype(f32)).astype(np.float64)
print("// float evaluation (no FMA): max %.2f ulp at %r; %.1f%% not the correctly rounded float"
      % (ulp.max(), float(xs[ulp.argmax()]), 100 * np.mean(y != exact.astype(f32))))
