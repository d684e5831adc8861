"""sqrt_ratio (RFC 9380 appendix F.2.1): the square root that simplified SWU and the constant-time
square roots of hash to curve use, with its constants derived and checked by running it.

In a prime field it is the appendix's straight-line algorithm (one exponentiation by c3).  In a
quadratic extension the generated C takes the root by the complex method over two prime-field
calls; ``sqrt_ratio`` below runs the same steps, and ``derive_sqrt_ratio`` checks them.  In Fp4
(BLS24's G2, not rendered yet) it is the straight-line algorithm over the whole field, which the
appendix states for any field of odd order (a complex method over Fp2 is the rendering's choice).

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .algebra import Elem, Fq
from .chains import Chain, chain_for
from .checks import require

RANDOM_CHECKS = 12


@dataclass(frozen=True)
class SqrtRatioModel:
    """sqrt_ratio(u, v) for the non-square z of a field of order q.

    In a prime field: RFC 9380 appendix F.2.1.1 (c1 .. c7 below; one exponentiation by c3).
    In a quadratic extension Fp[u]/(u^2 - beta) a q-sized exponentiation would cost twice as much
    as needed, so the square root is taken by the complex method in constant time with two
    prime-field sqrt_ratio calls: one on the norm with the non-square N(z) (it decides whether
    u/v is a square and gives the norm's root of a = u/v or z u/v), one on (a0 + sqrt(N(a)))/2
    with the non-square beta (whichever of it and its conjugate is the square, the root of the
    other follows by a multiplication); ``norm`` and ``beta`` hold those two."""

    z: Elem
    c1: int          # the 2-adicity of q - 1
    c3: int          # (c2 - 1) / 2 with c2 = (q - 1) / 2^c1
    c3_chain: Chain | None  # prime fields with c1 > 1 only (c1 = 1: c3 = (q-3)/4, the field's recip_sqrt)
    c6: Elem         # z^c2
    c7: Elem         # z^((c2 + 1) / 2)
    norm: "SqrtRatioModel | None" = None
    beta: "SqrtRatioModel | None" = None
    # c1 = 1 in a prime field: -1/c7, which turns the exponentiation's u^c3 into 1/y (see
    # _sqrt_ratio_prime_recip); the quadratic-extension method then needs no inversion
    c7_neg_inv: Elem | None = None

    @property
    def inversion_free(self) -> bool:
        """Whether the quadratic-extension method runs on reciprocal roots (Fp with p = 3 mod 4)
        instead of one Fp inversion."""
        return self.norm is not None and self.norm.c7_neg_inv is not None


def _prime_sqrt_ratio_model(F: Fq, z: Elem) -> SqrtRatioModel:
    q = F.order
    c1 = ((q - 1) & -(q - 1)).bit_length() - 1
    c2 = (q - 1) >> c1
    c3 = (c2 - 1) // 2
    chain = chain_for(c3) if F.degree == 1 and c1 > 1 else None
    c7 = F.pow(z, (c2 + 1) // 2)
    c7_neg_inv = F.neg(F.inv(c7)) if F.degree == 1 and c1 == 1 else None
    return SqrtRatioModel(z=z, c1=c1, c3=c3, c3_chain=chain, c6=F.pow(z, c2), c7=c7, c7_neg_inv=c7_neg_inv)


def derive_sqrt_ratio(F: Fq, z: Elem, curve: str, what: str) -> SqrtRatioModel:
    """The constants of sqrt_ratio for the non-square z, checked by running the algorithm (as the
    C runs it) on random inputs and on u = 0."""
    require(not F.is_square(z), curve, f"{what}: the sqrt_ratio constant Z is a non-square")
    model = _prime_sqrt_ratio_model(F, z)
    if F.degree == 2:
        Fp = Fq(F.p, 1)
        norm_z = F.mul(z, F.conj(z))[:1]
        beta = Fp.elem(F.beta)
        require(not Fp.is_square(norm_z) and not Fp.is_square(beta), curve,
                f"{what}: N(Z) and beta are non-squares in Fp")
        model = SqrtRatioModel(z=model.z, c1=model.c1, c3=model.c3, c3_chain=None, c6=model.c6, c7=model.c7,
                               norm=_prime_sqrt_ratio_model(Fp, norm_z), beta=_prime_sqrt_ratio_model(Fp, beta))
    rng = random.Random(9380)
    if model.inversion_free:
        for sub in (model.norm, model.beta):
            for w in [Fp.random(rng) for _ in range(RANDOM_CHECKS)] + [Fp.zero, Fp.one, Fp.elem(-1)]:
                is_qr, y, y_inv = _sqrt_ratio_prime_recip(F.p, sub, w[0])
                require((is_qr, (y,)) == _sqrt_ratio_prime(Fp, sub, w, Fp.one), curve,
                        f"{what}: the reciprocal form of the prime-field sqrt_ratio gives its root")
                require(y * y_inv % F.p == (0 if w == Fp.zero else 1), curve,
                        f"{what}: the prime-field sqrt_ratio's reciprocal is 1/y")
    cases = [(F.random(rng), F.random(rng)) for _ in range(RANDOM_CHECKS)]
    cases += [(F.elem(c), F.one) for c in (1, 2, 3, -1, -2)] + [(F.zero, F.one)]
    if F.degree == 2:
        cases += [(F.elem(0, c), F.one) for c in (1, 2, -1)]
    for u, v in cases:
        if v == F.zero:
            continue
        is_qr, y = sqrt_ratio(F, model, u, v)
        ratio = F.mul(u, F.inv(v))
        if ratio != F.zero:
            require(is_qr == F.is_square(ratio), curve, f"{what}: sqrt_ratio says whether u/v is a square")
        want = ratio if is_qr else F.mul(z, ratio)
        require(F.mul(y, y) == want, curve, f"{what}: sqrt_ratio returns sqrt(u/v) or sqrt(Z u/v)")
    return model


def sqrt_ratio(F: Fq, m: SqrtRatioModel, u: Elem, v: Elem) -> tuple[bool, Elem]:
    """sqrt_ratio as the generated C computes it: appendix F.2.1.1 in a prime field, the complex
    method over two prime-field calls in a quadratic extension (see SqrtRatioModel), on u v; in
    Fp4 the straight-line algorithm over the whole field."""
    if F.degree != 2:
        return _sqrt_ratio_prime(F, m, u, v)
    if m.inversion_free:
        return _sqrt_ratio_complex_recip(F, m, u, v)
    Fp = Fq(F.p, 1)
    p = F.p
    a = F.mul(u, v)  # a root x of u v (or Z u v) gives y = x / v
    n = F.mul(a, F.conj(a))[:1]
    is_qr, s = _sqrt_ratio_prime(Fp, m.norm, n, Fp.one)
    if not is_qr:
        a = F.mul(m.z, a)
    a0, a1 = a
    delta = (a0 + s[0]) * pow(2, -1, p) % p
    if a1 == 0:
        delta = a0
    ok, r = _sqrt_ratio_prime(Fp, m.beta, (delta,), Fp.one)
    r = r[0]
    t = 2 * delta * r % p
    j = pow(t, -1, p) if t else 0
    if ok:
        x = (r, a1 * delta * j % p)
    else:
        x = (a1 * r * r * j % p, 2 * delta * delta * j % p)
    return is_qr, F.mul(x, F.inv(v))


def _sqrt_ratio_complex_recip(F: Fq, m: SqrtRatioModel, u: Elem, v: Elem) -> tuple[bool, Elem]:
    """The complex method without an inversion (p = 3 mod 4), as the generated C runs it: a root x
    of a = u v^3 (or Z u v^3) gives y = u v / x (or Z u v / x); both prime-field calls return their
    root's reciprocal too, so x's coefficients and 1/x = conj(x) / N(x), N(x) = +-sqrt(N(a)), need
    no division."""
    p = F.p
    half = pow(2, -1, p)
    uv = F.mul(u, v)
    a = F.mul(u, F.mul(F.mul(v, v), v))
    n = F.mul(a, F.conj(a))[0]
    is_qr, s, s_inv = _sqrt_ratio_prime_recip(p, m.norm, n)
    if not is_qr:
        a, uv = F.mul(m.z, a), F.mul(m.z, uv)
    a0, a1 = a
    delta = (a0 + s) * half % p
    if a1 == 0:
        delta = a0
    ok, r, r_inv = _sqrt_ratio_prime_recip(p, m.beta, delta)
    t = a1 * r_inv * half % p  # a1 / (2 r)
    if ok:  # r^2 = delta
        x = (r, t)
    else:  # r^2 = beta delta, so 1/delta = beta / r^2
        x = (m.beta.z[0] * t % p, delta * r_inv % p)
    norm_x = F.mul(x, F.conj(x))[0]
    if norm_x != s:
        s_inv = -s_inv % p
    return is_qr, F.mul(F.mul(F.conj(x), uv), F.elem(s_inv))


def _sqrt_ratio_prime_recip(p: int, m: SqrtRatioModel, u: int) -> tuple[bool, int, int]:
    """sqrt_ratio(u, 1) in Fp for p = 3 mod 4 with the reciprocal of the root, as the C computes
    them: t = u^c3; y = t u (a square u) or t u c7, and 1/y = t or -t / c7, since
    y u^c3 = u^((p - 1) / 2) c7^[u non-square] (0 for u = 0, as y)."""
    t = pow(u, m.c3, p)
    y = t * u % p
    is_qr = y * t % p == 1
    if not is_qr:
        y = y * m.c7[0] % p
        t = t * m.c7_neg_inv[0] % p
    return is_qr, y, t


def _sqrt_ratio_prime(F: Fq, m: SqrtRatioModel, u: Elem, v: Elem) -> tuple[bool, Elem]:
    """The straight-line algorithm of appendix F.2.1.1 (any field of odd order)."""
    tv1 = m.c6
    tv2 = F.pow(v, (1 << m.c1) - 1)
    tv3 = F.mul(F.mul(tv2, tv2), v)
    tv5 = F.mul(F.pow(F.mul(u, tv3), m.c3), tv2)
    tv2 = F.mul(tv5, v)
    tv3 = F.mul(tv5, u)
    tv4 = F.mul(tv3, tv2)
    is_qr = F.pow(tv4, 1 << (m.c1 - 1)) == F.one
    if not is_qr:
        tv3 = F.mul(tv3, m.c7)
        tv4 = F.mul(tv4, tv1)
    for k in range(m.c1, 1, -1):
        e1 = F.pow(tv4, 1 << (k - 2)) == F.one
        tv2 = F.mul(tv3, tv1)
        tv1 = F.mul(tv1, tv1)
        if not e1:
            tv3 = tv2
            tv4 = F.mul(tv4, tv1)
    return is_qr, tv3
