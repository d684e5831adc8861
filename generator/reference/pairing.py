"""Reference optimal ate pairing for BN, BLS12, BLS24, BLS48 and BW6 curves, built from explicit parameters.

This is the test oracle: everything happens in the full field Fp^k with affine points, so each
step can be checked by hand against the textbook definitions.

* Fields.  k = 12 (BN, BLS12): Fp2 = Fp[u]/(u^2 - beta), Fp12 = Fp2[w]/(w^6 - xi), xi in Fp2.
  k = 24 (BLS24): Fp2 = Fp[u]/(u^2 - beta), Fp4 = Fp2[v]/(v^2 - nu), nu in Fp2,
  Fp24 = Fp4[w]/(w^6 - xi), xi in Fp4.
  k = 48 (BLS48): Fp2, Fp4 as for k = 24, Fp8 = Fp4[w8]/(w8^2 - omega), omega in Fp4,
  Fp48 = Fp8[w]/(w^6 - xi), xi in Fp8 (w^2 spans the cubic level Fp24 = Fp8[w^2]).
  k = 6 (BW6): Fq = Fp, Fp6 = Fp[w]/(w^6 - alpha), xi = (alpha,).  "Fq" is the field of the
  sextic twist E': y^2 = x^3 + b' with b' = b/xi (D-type) or b*xi (M-type).
* Untwist.  D: (x', y') -> (x' w^2, y' w^3); M: (x', y') -> (x' / w^2, y' / w^3).
* Miller loops (Q' on E'(Fq) is untwisted to Q on E(Fp^k); lines are evaluated at P in E(Fp)):
    BN:    f_{6x+2,Q}(P) * l_{[6x+2]Q, pi(Q)}(P) * l_{[6x+2]Q + pi(Q), -pi^2(Q)}(P)
    BLS12: f_{x,Q}(P)
    BLS24: f_{x,Q}(P)                                        (x = p mod r)
    BLS48: f_{x,Q}(P)                                        (x = p mod r)
    BW6:   f_{x+1,Q}(P) * f_{x^3-x^2-x,Q}(P)^p          (HG20 optimal ate, eprint 2020/351), or
           f_{c0,Q}(P) * f_{c1,Q}(P)^p for given c0 + p c1 = 0 mod r (the other trace case)
* Final exponentiation: f^((p^k - 1)/r) as one plain power; for k = 24 as
  f^((p^12 - 1)(p^4 + 1)) (two Frobenius maps, one inversion) then the plain power Phi_24(p)/r,
  since p^24 - 1 = (p^12 - 1)(p^4 + 1) Phi_24(p). For k = 48 the plain power Phi_48(p)/r (8700
  bits in Fp48) would take minutes here, so after the easy part f^((p^24 - 1)(p^8 + 1)) the hard
  part is Barreto–Lynn–Scott's: 3 Phi_48(p)/r = 3 + (x - 1)^2 (x + p)(x^2 + p^2)(x^4 + p^4)(x^8 + p^8 - 1),
  an identity of integers checked when the pairing is built, evaluated with exponentiations by x and
  Frobenius powers; the cube this gives is undone by the power 3^-1 mod r (the value has order r).

GT values are therefore e_opt-ate(P, Q) with exponent multiple 1; optimised implementations
whose final exponentiation computes a multiple m of the exponent (a cheaper hard part) give e^m,
so compare with them through bilinearity or pairing-product identities, or raise this value to m.

The full-field element layout used by the generated C code is "quadratic over cubic":
``((a00, a01, a02), (a10, a11, a12))`` = a00 + a01 w^2 + a02 w^4 + a10 w + a11 w^3 + a12 w^5,
each a in Fq (an int for k = 6, a pair (c0, c1) meaning c0 + c1 u for k = 12); see
``to_tower``/``from_tower``.

Layer: oracle. Imports only generator/reference's own modules; no module of the generator imports it
(the tests do).
"""

from __future__ import annotations

from typing import Any, Iterable, Optional, Union

from .curve import Curve, Point
from .fields import ExtensionField, ExtensionFieldElement, FieldElement, PrimeField

__all__ = ["ReferencePairing", "FAMILIES"]

FAMILIES = {"BN": 12, "BLS12": 12, "BLS24": 24, "BLS48": 48, "BW6": 6}

FqInts = Union[int, tuple[int, int]]
TowerInts = tuple[tuple[FqInts, FqInts, FqInts], tuple[FqInts, FqInts, FqInts]]


class ReferencePairing:
    """Optimal ate pairing e: G1 x G2 -> GT for one curve, from explicit parameters.

    Attributes: ``family``, ``k``, ``x``, ``p``, ``r``, ``twist``; fields ``Fp``, ``Fq`` (Fp2 or
    Fp), ``Fk`` (the full field), ``Fp2`` (k = 12, 24, 48, else None); ``xi`` (in Fq), ``w`` (the
    generator of Fk over Fq, w^6 = xi); ``b`` (in Fp), ``b2`` (b' in Fq); curves ``E1`` (E over
    Fp), ``E2`` (E' over Fq) and ``Ek`` (E over Fk, where untwisted points live).
    """

    def __init__(
        self,
        family: str,
        x: int,
        p: int,
        r: int,
        b: int,
        twist: str,
        beta: Optional[int],
        xi: tuple,
        nu: Optional[tuple[int, int]] = None,
        bw6_loop: Optional[tuple[int, int]] = None,
        omega: Optional[tuple] = None,
    ) -> None:
        family = family.upper()
        if family not in FAMILIES:
            raise ValueError(f"unknown family {family!r}; expected one of {sorted(FAMILIES)}")
        twist = twist.upper()
        if twist not in ("D", "M"):
            raise ValueError("twist must be 'D' or 'M'")
        self.family = family
        self.k = k = FAMILIES[family]
        # BW6: the loop scalars (c0, c1) of f_{c0,Q} f_{c1,Q}^p, c0 + p c1 = 0 mod r (checked below);
        # (x + 1, x^3 - x^2 - x) is BW6 over BLS12 in the trace case t0(0) = 3 (BW6-761).
        self.bw6_loop = bw6_loop if bw6_loop is not None else (x + 1, x**3 - x**2 - x)
        self.x = int(x)
        self.p = int(p)
        self.r = int(r)
        self.twist = twist
        if (self.p**k - 1) % self.r:
            raise ValueError("r does not divide p^k - 1: the embedding degree is not k")
        if family == "BW6" and (self.bw6_loop[0] + self.p * self.bw6_loop[1]) % self.r:
            raise ValueError("the BW6 loop scalars must satisfy c0 + p c1 = 0 mod r")

        self.Fp = PrimeField(self.p)
        # Fq = the twist's field, Fp itself (k = 6) or a tower of quadratic levels over Fp: Fp2 = Fp[u]/(u^2 -
        # beta) (k >= 12), Fp4 = Fp2[v]/(v^2 - nu) (k >= 24), Fp8 = Fp4[w]/(w^2 - omega) (k = 48)
        levels = {6: (), 12: ("beta",), 24: ("beta", "nu"), 48: ("beta", "nu", "omega")}[k]
        given = {"beta": beta, "nu": nu, "omega": omega}
        xi_shape = {6: "(alpha,) in Fp", 12: "(c0, c1) in Fp2", 24: "((c0, c1), (c2, c3)) in Fp4",
                    48: "(((c0, c1), (c2, c3)), ((c4, c5), (c6, c7))) in Fp8"}[k]
        if any(given[name] is None for name in levels) or len(xi) != (1 if k == 6 else 2) \
                or (k == 6 and beta is not None):
            roots = ", ".join(f"{name} (the non-square adjoined at level {2 ** (i + 1)})" for i, name in enumerate(levels))
            raise ValueError(f"k = {k} takes {roots or 'beta = None'} and xi = {xi_shape}")
        self.Fp2: Optional[ExtensionField] = None
        self.Fp4: Optional[ExtensionField] = None
        self.Fp8: Optional[ExtensionField] = None
        field: PrimeField | ExtensionField = self.Fp
        for name in levels:
            below = "Fp" if field.degree == 1 else f"Fp{field.degree}"
            root = field(given[name])
            if root.is_square():
                raise ValueError(f"{name} must be a non-square in {below} for {below}[X]/(X^2 - {name}) to be a field")
            field = ExtensionField(field, 2, root, f"Fp{2 * field.degree}")
            setattr(self, field.name, field)
        self.Fq = field
        self.xi = self.Fq(xi[0] if k == 6 else xi)
        # X^6 - xi is irreducible over Fq iff xi is neither a square nor a cube (q = 1 mod 6).
        q = int(self.Fq.order)
        if (q - 1) % 6 or (self.xi ** ((q - 1) // 2)).is_one() or (self.xi ** ((q - 1) // 3)).is_one():
            raise ValueError("xi must be a sextic non-residue (neither a square nor a cube) in Fq")
        self.Fk = ExtensionField(self.Fq, 6, self.xi, f"Fp{k}")
        self.w = self.Fk.gen()

        self.b = self.Fp(b)
        self.b2 = self.Fq(b) / self.xi if twist == "D" else self.Fq(b) * self.xi
        self.E1 = Curve(self.Fp, self.b, "E")
        self.E2 = Curve(self.Fq, self.b2, "E'")
        self.Ek = Curve(self.Fk, self.b, f"E(Fp{k})")
        self.final_exponent = (self.p**k - 1) // self.r

    def __repr__(self) -> str:
        return f"ReferencePairing({self.family}, x={hex(self.x)}, {self.twist}-twist)"

    # -- maps between the curves ------------------------------------------------------------
    def untwist(self, Q: Any) -> Point:
        """E'(Fq) -> E(Fp^k): D-type (x' w^2, y' w^3), M-type (x' / w^2, y' / w^3)."""
        Q = self.E2.coerce(Q)
        if Q is None:
            return None
        x, y = self.Fk(Q[0]), self.Fk(Q[1])
        w2 = self.w * self.w
        w3 = w2 * self.w
        if self.twist == "D":
            return (x * w2, y * w3)
        return (x / w2, y / w3)

    def frobenius_point(self, T: Point, k: int = 1) -> Point:
        """pi^k: the p^k-power Frobenius applied to both coordinates of a point of E(Fp^k)."""
        if T is None:
            return None
        return (T[0].frobenius(k), T[1].frobenius(k))

    # -- Miller loop ------------------------------------------------------------------------
    def _line(
        self, T: Point, R: Point, P: tuple[FieldElement, FieldElement]
    ) -> tuple[ExtensionFieldElement, Point]:
        """(l_{T,R}(P), T + R): the chord through T and R (tangent if T = R) evaluated at P.

        Vertical lines (T = -R, or T or R at infinity) are omitted, i.e. return 1.  They are
        x_P - x_S with x_P in Fp and x_S in the subfield Fq(w^2) = Fp^(k/2) (untwisted points
        and their Frobenius images keep x there), and every element of Fp^(k/2) is killed by
        the final exponentiation, because (p^k - 1)/r is a multiple of p^(k/2) - 1.
        """
        one = self.Fk.one()
        if T is None or R is None:
            return one, self.Ek.add(T, R)
        (xt, yt), (xr, yr) = T, R
        if xt == xr and (yt != yr or yt.is_zero()):
            return one, None
        if xt == xr:
            lam = (xt * xt * 3) / (yt + yt)
        else:
            lam = (yr - yt) / (xr - xt)
        xp, yp = P
        line = (yp - yt) - lam * (xp - xt)
        xs = lam * lam - xt - xr
        S = (xs, lam * (xt - xs) - yt)
        return line, S

    def _miller(
        self, n: int, Q: Point, P: tuple[FieldElement, FieldElement]
    ) -> tuple[ExtensionFieldElement, Point]:
        """(f_{n,Q}(P), [n]Q) by the double-and-add Miller algorithm over the bits of |n|.

        f_{i+j} = f_i f_j l_{[i]Q,[j]Q} / v_{[i+j]Q}, verticals omitted (see ``_line``).
        For n < 0, f_{n,Q} = 1 / (f_{|n|,Q} v_{[|n|]Q}) -> 1 / f_{|n|,Q}, and [n]Q = -[|n|]Q.
        """
        one = self.Fk.one()
        if n == 0 or Q is None:
            return one, None
        f, T = one, Q
        for bit in bin(abs(n))[3:]:
            line, T = self._line(T, T, P)
            f = f.square() * line
            if bit == "1":
                line, T = self._line(T, Q, P)
                f = f * line
        if n < 0:
            f, T = f.inverse(), self.Ek.neg(T)
        return f, T

    def _embed_P(self, P: Any) -> Optional[tuple[ExtensionFieldElement, ExtensionFieldElement]]:
        P = self.E1.coerce(P)
        if P is None:
            return None
        return (self.Fk(P[0]), self.Fk(P[1]))

    def miller_loop(self, P: Any, Q: Any) -> ExtensionFieldElement:
        """Optimal ate Miller function at P in E(Fp) (ints or Fp elements) for Q on E'(Fq)
        (ints for Fp, (c0, c1) pairs for Fp2, or elements).  Infinity (None) gives 1."""
        Pk = self._embed_P(P)
        Qk = self.untwist(Q)
        if Pk is None or Qk is None:
            return self.Fk.one()
        x = self.x
        if self.family == "BN":
            f, T = self._miller(6 * x + 2, Qk, Pk)
            Q1 = self.frobenius_point(Qk, 1)
            Q2 = self.Ek.neg(self.frobenius_point(Qk, 2))
            line, T = self._line(T, Q1, Pk)
            f = f * line
            line, T = self._line(T, Q2, Pk)
            return f * line
        if self.family in ("BLS12", "BLS24", "BLS48"):
            f, _ = self._miller(x, Qk, Pk)
            return f
        # BW6: c0 + p c1 = 0 mod r; the joining line l_{[c1 p]Q, [c0]Q} is vertical because
        # [c1 p]Q = -[c0]Q, so it is omitted as well.
        c0, c1 = self.bw6_loop
        f0, _ = self._miller(c0, Qk, Pk)
        f1, _ = self._miller(c1, Qk, Pk)
        return f0 * f1.frobenius(1)

    def multi_miller_loop(self, pairs: Iterable[tuple[Any, Any]]) -> ExtensionFieldElement:
        """Product of the Miller loops of several (P, Q) pairs."""
        f = self.Fk.one()
        for P, Q in pairs:
            f = f * self.miller_loop(P, Q)
        return f

    # -- final exponentiation and the pairing -----------------------------------------------
    def _power_x(self, f: ExtensionFieldElement, n: int) -> ExtensionFieldElement:
        """f^n for a signed n (a negative n inverts)."""
        g = f ** abs(n)
        return g.inverse() if n < 0 else g

    def _bls48_hard_part(self, f: ExtensionFieldElement) -> ExtensionFieldElement:
        """f^(Phi_48(p)/r) for f after the easy part: f^(3 + (x - 1)^2 (x + p)(x^2 + p^2)(x^4 + p^4)
        (x^8 + p^8 - 1)) = f^(3 Phi_48(p)/r), then the power 3^-1 mod r (module docstring)."""
        x, p, r = self.x, self.p, self.r
        if 3 * ((p**16 - p**8 + 1) // r) != 3 + (x - 1) ** 2 * (x + p) * (x**2 + p**2) * (x**4 + p**4) * (x**8 + p**8 - 1):
            raise ValueError("3 Phi_48(p)/r is not the BLS48 hard-part exponent: the curve is not a BLS48 curve")
        a = self._power_x(self._power_x(f, x - 1), x - 1)
        for n in (1, 2, 4):                       # a <- a^(x^n + p^n)
            b = a
            for _ in range(n):
                b = self._power_x(b, x)
            a = b * a.frobenius(n)
        b = a
        for _ in range(8):
            b = self._power_x(b, x)
        cube = b * a.frobenius(8) / a * f * f * f
        return cube ** pow(3, -1, r)

    def final_exponentiation(self, f: Any) -> ExtensionFieldElement:
        """f^((p^k - 1)/r) as one plain power (k = 24: the Frobenius maps of the easy part first;
        k = 48: the easy part, then the hard part of ``_bls48_hard_part``)."""
        f = self.Fk(f)
        if self.k == 48:
            f = f.frobenius(24) / f
            f = f.frobenius(8) * f
            return self._bls48_hard_part(f)
        if self.k == 24:
            f = f.frobenius(12) / f
            f = f.frobenius(4) * f
            return f ** (self.final_exponent // ((self.p**12 - 1) * (self.p**4 + 1)))
        return f ** self.final_exponent

    def pairing(self, P: Any, Q: Any) -> ExtensionFieldElement:
        """e(P, Q) = final_exponentiation(miller_loop(P, Q)); 1 if either input is infinity."""
        return self.final_exponentiation(self.miller_loop(P, Q))

    def multi_pairing(self, pairs: Iterable[tuple[Any, Any]]) -> ExtensionFieldElement:
        """Product of pairings with one shared final exponentiation."""
        return self.final_exponentiation(self.multi_miller_loop(pairs))

    # -- the C tower layout -----------------------------------------------------------------
    def _fq_to_ints(self, a: FieldElement) -> FqInts:
        if self.k in (24, 48):
            return a.to_ints()  # type: ignore[attr-defined,return-value]
        if self.k == 12:
            c0, c1 = a.coeffs  # type: ignore[attr-defined]
            return (int(c0), int(c1))
        return int(a)

    def to_tower(self, f: Any) -> TowerInts:
        """Flat sum f_i w^i -> ((f0, f2, f4), (f1, f3, f5)) with each f_i as Fq ints
        (quadratic over cubic: C0 = f0 + f2 v + f4 v^2, C1 = f1 + f3 v + f5 v^2, v = w^2)."""
        c = [self._fq_to_ints(a) for a in self.Fk(f).coeffs]
        return ((c[0], c[2], c[4]), (c[1], c[3], c[5]))

    def from_tower(self, c: Any) -> ExtensionFieldElement:
        """Inverse of ``to_tower``: ((a00, a01, a02), (a10, a11, a12)) -> flat element."""
        (a00, a01, a02), (a10, a11, a12) = c
        return self.Fk([a00, a10, a01, a11, a02, a12])


def reference_for_model(model: Any) -> ReferencePairing:
    """The reference pairing of a derived curve model (generator.derive.model.CurveModel): its
    family, seed, primes, b, twist and tower, as the model holds them. The twist field's
    non-residue xi is flat in the model and split into Fp2 halves when the twist field is Fp4
    (k = 24, with v^2 = nu) and into Fp4 halves of Fp2 pairs when it is Fp8 (k = 48, with w^2 = omega);
    a BW6 curve takes its derived loop pair (c0, c1)."""
    tower = model.tower
    xi = tuple(tower.xi)
    if model.fq_degree == 4:
        xi = (xi[:2], xi[2:])
    if model.fq_degree == 8:
        xi = ((xi[0:2], xi[2:4]), (xi[4:6], xi[6:8]))
    omega = getattr(tower, "omega", None)
    return ReferencePairing(model.family, model.x, model.p, model.r, model.b, model.twist.kind, tower.beta, xi,
                            nu=tower.nu, bw6_loop=model.miller.signed_scalars if model.k == 6 else None,
                            omega=None if omega is None else (omega[:2], omega[2:]))
