"""sqrt_ratio (RFC 9380 appendix F.2.1): the square root that simplified SWU and the constant-time
square roots of hash to curve use, with its constants derived and checked by running it.

In a prime field it is the appendix's straight-line algorithm (one exponentiation by c3).  In a
quadratic extension the generated C takes the root by the complex method over two prime-field
calls; ``sqrt_ratio`` below runs the same steps, and ``derive_sqrt_ratio`` checks them.  In Fp4
(BLS24's G2, not rendered yet) it is the straight-line algorithm over the whole field, which the
appendix states for any field of odd order (a complex method over Fp2 is the rendering's choice).
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


def _prime_sqrt_ratio_model(F: Fq, z: Elem) -> SqrtRatioModel:
    q = F.order
    c1 = ((q - 1) & -(q - 1)).bit_length() - 1
    c2 = (q - 1) >> c1
    c3 = (c2 - 1) // 2
    chain = chain_for(c3) if F.degree == 1 and c1 > 1 else None
    return SqrtRatioModel(z=z, c1=c1, c3=c3, c3_chain=chain, c6=F.pow(z, c2), c7=F.pow(z, (c2 + 1) // 2))


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
