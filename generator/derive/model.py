"""The CurveModel: everything the templates need, derived from a CurveSpec and checked.

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..params_common import parse_polynomial_in_x
from ..params_pairing import CurveSpec
from .algebra import Curve, Elem, Fq
from .bw6_formulas import BW6Data
from .checks import require
from .endomorphisms import EndomorphismModel, derive_endomorphisms
from .families import FamilyValues, derive_family
from .fft_domain import FftDomainModel, derive_fft_domain
from .fields import FieldModel, derive_field
from .final_exponentiation import FinalExpModel, derive_final_exponentiation
from .hash_to_curve import HashToCurveModel, derive_hash_to_curve
from .lazy_reduction import LazyReductionModel, derive_lazy_reduction
from .miller_loop import MillerLoopModel, derive_miller_loop
from .tower import TowerModel, derive_tower
from .twist import TwistModel, check_b, derive_generator, derive_twist, search_b

Progress = Callable[[str], None]


@dataclass(frozen=True)
class CurveModel:
    name: str
    package: str
    source: str
    family: str
    k: int
    x: int
    p: int
    r: int
    t: int
    h1: int
    b: int
    ht: int | None
    hy: int | None
    fp: FieldModel
    fr: FieldModel
    tower: TowerModel
    lazy: LazyReductionModel
    twist: TwistModel
    g1_gen: tuple[Elem, Elem]
    g2_gen: tuple[Elem, Elem]
    miller: MillerLoopModel
    final_exp: FinalExpModel
    endo: EndomorphismModel
    h2c: dict[str, HashToCurveModel]
    fft: FftDomainModel
    spec: CurveSpec

    @property
    def fields(self) -> dict[str, FieldModel]:
        """The prime fields of the package by their C prefix: the base field fp and the scalar field fr
        (the twisted Edwards model's are fq and fr)."""
        return {"fp": self.fp, "fr": self.fr}

    @property
    def h2(self) -> int:
        return self.twist.cofactor

    @property
    def E1(self) -> Curve:
        return Curve(Fq(self.p, 1), (self.b % self.p,))

    @property
    def E2(self) -> Curve:
        return self.twist.curve

    @property
    def fq_degree(self) -> int:
        return self.tower.fq.degree


@dataclass(frozen=True)
class PairingCore:
    """The pairing's foundation, derived and checked: the family values, b, the tower, the twist,
    the generators, the Miller loop and the final exponentiation (every family, k = 24 included)."""

    family: FamilyValues
    b: int
    tower: TowerModel
    twist: TwistModel
    g1: tuple[Elem, Elem]
    g2: tuple[Elem, Elem]
    miller: MillerLoopModel
    final_exp: FinalExpModel

    @property
    def E1(self) -> Curve:
        return Curve(Fq(self.family.p, 1), (self.b % self.family.p,))


def derive_core(spec: CurveSpec, progress: Progress | None = None) -> PairingCore:
    """Family, b, tower, twist, generators, Miller loop and final exponentiation of ``spec``;
    each step checks itself, and published p, r are compared with the derived ones."""
    say = progress or (lambda _msg: None)
    curve = f"{spec.name} ({spec.source})"
    say("family polynomials: p, r, t")
    fam = derive_family(spec.family, spec.x, curve, spec.ht, spec.hy, spec.inner_family, spec.trace_case)
    for key, value in spec.published.items():
        derived = {"p": fam.p, "r": fam.r}[key]
        require(derived == value, curve, f"published {key} equals the derived {key} ({derived:#x})")
    say("curve coefficient b")
    n1 = fam.p + 1 - fam.t
    if spec.b is None:
        b = search_b(fam.p, n1, curve)
    else:
        b = spec.b
        check_b(fam.p, b, n1, curve)
    say("tower: non-residues and Frobenius coefficients")
    tower = derive_tower(fam.k, fam.p, curve, spec.beta, spec.xi, spec.alpha, spec.nu, spec.omega)
    say("sextic twist: type and order on random points")
    twist = derive_twist(tower, fam.p, fam.t, fam.r, b, curve)
    say("generators")
    E1 = Curve(Fq(fam.p, 1), (b % fam.p,))
    g1 = derive_generator(E1, fam.h1, fam.r, spec.g1 and ((spec.g1[0],), (spec.g1[1],)), curve, "G1")
    g2 = derive_generator(twist.curve, twist.cofactor, fam.r, spec.g2, curve, "G2")
    say("Miller loop")
    miller = derive_miller_loop(spec.family, spec.x, fam.p, fam.r, tower, twist.kind, twist.curve, g2, curve, fam.loop)
    say("final exponentiation: hard part and exponent tracking")
    m_poly = parse_polynomial_in_x(spec.gt_exponent, "gt_exponent", spec.source) if spec.gt_exponent else None
    final_exp = derive_final_exponentiation(fam.p_poly, fam.r_poly, fam.k, spec.x, fam.p, fam.r, curve, m_poly,
                                           spec.hard_part)
    return PairingCore(family=fam, b=b, tower=tower, twist=twist, g1=g1, g2=g2, miller=miller, final_exp=final_exp)


def derive_hash_maps(spec: CurveSpec, core: PairingCore, endo: EndomorphismModel) -> dict[str, HashToCurveModel]:
    """The RFC 9380 map of G1 (over Fp) and of G2 (over the twist's field: Fp, Fp2 or Fp4), each
    with its constants checked, clearing with the groups' endomorphism-based h_eff."""
    fam, twist = core.family, core.twist
    curve = f"{spec.name} ({spec.source})"
    return {
        group: derive_hash_to_curve(group, spec.name, E, order, h, fam.r, spec.hash_to_curve.get(group), curve,
                                    endo_h_eff=ge.h_eff, security_bits=spec.security_bits)
        for group, E, order, h, ge in (("g1", core.E1, fam.p + 1 - fam.t, fam.h1, endo.g1),
                                       ("g2", twist.curve, twist.order, twist.cofactor, endo.g2))
    }


# Embedding degrees whose packages the templates render (generator/emit/context_pairing.pairing_package_files refuses
# the others).
RENDERED_EMBEDDING_DEGREES = (6, 12, 24, 48)


def xi_small_factors(p: int, k: int, tower: TowerModel) -> tuple[int, ...]:
    """The signed factors the multiplication by xi applies to coefficients (tower.h's
    fp2w_mul_by_xi, fpw_mul_by_xi): xi0 and xi1 and xi1 beta in Fp2, xi itself over Fp; at k = 24
    and 48, where xi (and omega) are shifts, nu0, nu1 and nu1 beta (fp2w_mul_by_nu)."""
    def signed(v: int) -> int:
        return v if v <= p // 2 else v - p
    xi = tuple(tower.xi)
    if k in (24, 48):
        return (signed(tower.nu[0]), signed(tower.nu[1]), signed(tower.nu[1]) * tower.beta)
    if k == 12:
        return (signed(xi[0]), signed(xi[1]), signed(xi[1]) * tower.beta)
    return (signed(xi[0]),)


def fp4_shift_xi(p: int, k: int, tower: TowerModel) -> bool:
    """Whether tower.h's double-width levels above Fp2 apply: nu with the small coefficients that
    fp2_mul_by_nu and fp2w_mul_by_nu take as sums (|nu_i|, |beta nu_1| <= 64), and every product by
    a level's non-residue a shift: xi = v (k = 24), or omega = +-v and xi = +-w (k = 48)."""
    if k not in (24, 48):
        return False
    small = [v if v <= p // 2 else v - p for v in tower.nu]
    if not all(abs(v) <= 64 for v in (*small, small[1] * tower.beta)):
        return False
    if k == 24:
        return tuple(tower.xi) == (0, 0, 1, 0)
    return tuple(tower.omega) in ((0, 0, 1, 0), (0, 0, p - 1, 0)) \
        and tuple(tower.xi) in ((0, 0, 0, 0, 1, 0, 0, 0), (0, 0, 0, 0, p - 1, 0, 0, 0))


def bw6_data(fam: FamilyValues) -> BW6Data | None:
    """What a BW6 curve's endomorphism formulas are written in (bw6_formulas.py); None otherwise."""
    if fam.inner is None or fam.trace_case is None or fam.ht is None or fam.hy is None or fam.loop is None \
            or fam.t_poly is None or fam.y_poly is None:
        return None
    return BW6Data(inner=fam.inner, trace_case=fam.trace_case, ht=fam.ht, hy=fam.hy, loop=fam.loop,
                   p_poly=fam.p_poly, r_poly=fam.r_poly, t_poly=fam.t_poly, y_poly=fam.y_poly)


def build_model(spec: CurveSpec, progress: Progress | None = None) -> CurveModel:
    """Derive every constant of the curve described by ``spec``; each step checks itself."""
    say = progress or (lambda _msg: None)
    curve = f"{spec.name} ({spec.source})"
    core = derive_core(spec, progress)
    fam, b, tower, twist, g1, g2 = core.family, core.b, core.tower, core.twist, core.g1, core.g2
    miller, final_exp = core.miller, core.final_exp
    say("prime fields: Montgomery constants, square roots, chains")
    fp = derive_field("fp", fam.p, curve)
    fr = derive_field("fr", fam.r, curve)
    lazy = derive_lazy_reduction(fam.p, fp.limbs64, fam.k, tower.beta, curve, xi_small_factors(fam.p, fam.k, tower),
                                 fp4_shift_xi(fam.p, fam.k, tower),
                                 tuple(v if v <= fam.p // 2 else v - fam.p for v in tower.nu) if fam.k == 24 else None)
    E1 = core.E1
    say("endomorphisms: GLV/GLS bases, subgroup tests, cofactor clearing")
    endo = derive_endomorphisms(dict(family=spec.family, x=spec.x, p=fam.p, r=fam.r, t=fam.t, k=fam.k,
                                     h1=fam.h1, h2=twist.cofactor, E1=E1, E2=twist.curve, g1=g1, g2=g2,
                                     psi=miller.psi, inner_family=spec.inner_family, bw6=bw6_data(fam)), curve)
    say("hash to curve: maps, Z, isogenies, sqrt_ratio")
    h2c = derive_hash_maps(spec, core, endo)
    say("FFT domain of Fr: 2-adicity, generator, root of unity")
    fft = derive_fft_domain(fam.r, curve)
    return CurveModel(
        name=spec.name, package=spec.package, source=spec.source, family=spec.family, k=fam.k, x=spec.x,
        p=fam.p, r=fam.r, t=fam.t, h1=fam.h1, b=b, ht=fam.ht, hy=fam.hy, fp=fp, fr=fr, tower=tower, lazy=lazy,
        twist=twist, g1_gen=g1, g2_gen=g2, miller=miller, final_exp=final_exp, endo=endo, h2c=h2c, fft=fft, spec=spec,
    )

