"""Our side: every operation of the Python API of a generated module, set up with
random inputs; an operation the module lacks raises in its setup and is reported as n/a.

Layer: tools (bench/), above the generator: imports the generator, the generated packages, bench's
own modules and the peers' libraries; the generator never imports it.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from types import ModuleType

from bench.ops import MSM_N, MULTI_PAIRING_N, PAIRING_CHECK_N

Setup = Callable[[], Callable[[], object]]  # prepares inputs, returns the call to time

H2C_MSG = b"pairforge benchmark message"
H2C_DST = b"PAIRFORGE-BENCH-V01-CS01-with-expander"


def load(package: str) -> tuple[ModuleType | None, str]:
    """``(module, "")`` or ``(None, reason)`` for ``generated.<package>``."""
    try:
        return importlib.import_module(f"generated.{package}"), ""
    except Exception as exc:  # not rendered, not built, or broken: reported as n/a
        return None, f"generated.{package} not importable: {type(exc).__name__}: {exc}"


def tower_classes(C: ModuleType) -> list[type]:
    """The extension-field classes from the top (the Miller loop's value) down to above Fp,
    found by walking ``c0`` (so no curve or tower names are assumed)."""
    f = C.miller_loop(C.G1.generator(), C.G2.generator())
    classes = []
    while type(f) is not C.Fp:
        classes.append(type(f))
        f = f.c0
    return classes


def setups(C: ModuleType, seed: int = 2024) -> dict[str, Setup]:
    """Operation name -> setup, for one curve module ``C``, in report order."""
    rng = random.Random(seed)

    def scalar() -> int:
        return rng.randrange(1, C.R)

    def fp() -> object:
        return C.Fp(rng.randrange(1, C.P))

    def point(G) -> object:
        return G.generator() * scalar()

    def miller_value() -> object:
        return C.miller_loop(point(C.G1), point(C.G2))

    def tower_element(cls: type) -> object:
        f = miller_value()
        while type(f) is not cls:
            f = f.c0
        return f

    def gt() -> object:
        return C.pairing(point(C.G1), point(C.G2))

    def binary(make, op):
        def setup():
            a, b = make(), make()
            return lambda: op(a, b)

        return setup

    def unary(make, op):
        def setup():
            a = make()
            return lambda: op(a)

        return setup

    def square(make):
        def setup():
            a = make()
            return lambda: a * a

        return setup

    ops: dict[str, Setup] = {}
    add, sub, mul, div = (lambda a, b: a + b), (lambda a, b: a - b), (lambda a, b: a * b), (lambda a, b: a / b)

    # -- prime fields ------------------------------------------------------------------------
    def fp_square():
        a = fp()
        return lambda: a * a

    def fp_pow():
        a, e = fp(), rng.randrange(C.P)
        return lambda: a**e

    def fp_sqrt():
        a = fp()
        a = a * a  # a square, so sqrt does the whole computation
        return a.sqrt

    def fp_from_bytes():
        data = fp().to_bytes()
        return lambda: C.Fp.from_bytes(data)

    def fr() -> object:
        return C.Fr(scalar())

    ops.update(
        {
            "Fp add": binary(fp, add),
            "Fp sub": binary(fp, sub),
            "Fp mul": binary(fp, mul),
            "Fp square (a * a)": fp_square,
            "Fp neg": unary(fp, lambda a: -a),
            "Fp div": binary(fp, div),
            "Fp pow (exponent < p)": fp_pow,
            "Fp inverse": lambda: fp().inverse,
            "Fp sqrt": fp_sqrt,
            "Fp is_square": lambda: fp().is_square,
            "Fp int()": unary(fp, int),
            "Fp to_bytes": lambda: fp().to_bytes,
            "Fp from_bytes": fp_from_bytes,
            "Fr add": binary(fr, add),
            "Fr mul": binary(fr, mul),
            "Fr inverse": lambda: fr().inverse,
        }
    )

    # -- extension fields: lowest first --------------------------------------------------------
    for cls in reversed(tower_classes(C)):
        name = cls.__name__

        def make(cls=cls):
            return tower_element(cls)

        ops[f"{name} mul"] = binary(make, mul)
        ops[f"{name} square (a * a)"] = square(make)
        ops[f"{name} inverse"] = lambda make=make: make().inverse

    # -- groups --------------------------------------------------------------------------------
    for G in (C.G1, C.G2):
        g = G.__name__

        def make(G=G):
            return point(G)

        def mul_int(make=make):
            P, k = make(), scalar()
            return lambda: P * k

        def mul_fr(make=make):
            P, k = make(), C.Fr(scalar())
            return lambda: P * k

        def eq(make=make):
            P = make()
            Q = P + P - P  # equal, other Jacobian coordinates
            return lambda: P == Q

        def from_affine(G=G, make=make):
            xy = make().to_affine()
            return lambda: G.from_affine(*xy)

        def to_bytes(make=make, compressed=True):
            P = make()
            return lambda: P.to_bytes(compressed=compressed)

        def from_bytes(G=G, make=make, compressed=True, check=True):
            data = make().to_bytes(compressed=compressed)
            return lambda: G.from_bytes(data, check=check)

        def msm(G=G, make=make):
            points = [make() for _ in range(MSM_N)]
            scalars = [scalar() for _ in range(MSM_N)]
            return lambda: G.msm(points, scalars)

        def hash_to_curve(G=G):
            h = G.hash_to_curve
            return lambda: h(H2C_MSG, H2C_DST)

        def encode_to_curve(G=G):
            h = G.encode_to_curve
            return lambda: h(H2C_MSG, H2C_DST)

        def map_to_curve(G=G):
            # u in the field of G's coordinates: one Fp, or the extension class of that degree
            x = G.generator().to_affine()[0]
            degree = len(x) if isinstance(x, tuple) else 1
            field = C.Fp if degree == 1 else getattr(C, f"Fp{degree}")
            u = field(*[rng.randrange(C.P) for _ in range(degree)])
            return lambda: G.map_to_curve(u)

        ops.update(
            {
                f"{g} add": binary(make, add),
                f"{g} sub": binary(make, sub),
                f"{g} neg": unary(make, lambda P: -P),
                f"{g} double": lambda make=make: make().double,
                f"{g} scalar mul (int)": mul_int,
                f"{g} scalar mul (Fr)": mul_fr,
                f"{g} ==": eq,
                f"{g} is_on_curve": lambda make=make: make().is_on_curve,
                f"{g} in_subgroup": lambda make=make: make().in_subgroup,
                f"{g} to_affine": lambda make=make: make().to_affine,
                f"{g} from_affine (checked)": from_affine,
                f"{g} to_bytes (compressed)": to_bytes,
                f"{g} to_bytes (uncompressed)": lambda make=make: to_bytes(make, compressed=False),
                f"{g} from_bytes (compressed)": from_bytes,
                f"{g} from_bytes (uncompressed)": lambda G=G, make=make: from_bytes(G, make, compressed=False),
                f"{g} from_bytes (compressed, check=False)": lambda G=G, make=make: from_bytes(G, make, check=False),
                f"{g} msm (n={MSM_N})": msm,
                f"{g} hash_to_curve": hash_to_curve,
                f"{g} encode_to_curve": encode_to_curve,
                f"{g} map_to_curve": map_to_curve,
            }
        )

    # -- GT ------------------------------------------------------------------------------------
    def gt_pow():
        a, k = gt(), scalar()
        return lambda: a**k

    def gt_eq():
        a = gt()
        b = C.GT.from_bytes(a.to_bytes())
        return lambda: a == b

    def gt_from_bytes():
        data = gt().to_bytes()
        return lambda: C.GT.from_bytes(data)

    ops.update(
        {
            "GT mul": binary(gt, mul),
            "GT div": binary(gt, div),
            "GT pow (exponent < r)": gt_pow,
            "GT ==": gt_eq,
            "GT is_one": lambda: gt().is_one,
            "GT to_bytes": lambda: gt().to_bytes,
            "GT from_bytes": gt_from_bytes,
        }
    )

    # -- pairings ------------------------------------------------------------------------------
    def pairing():
        P, Q = point(C.G1), point(C.G2)
        return lambda: C.pairing(P, Q)

    def miller_loop():
        P, Q = point(C.G1), point(C.G2)
        return lambda: C.miller_loop(P, Q)

    def final_exponentiation():
        f = miller_value()
        return lambda: C.final_exponentiation(f)

    def multi_pairing():
        Ps = [point(C.G1) for _ in range(MULTI_PAIRING_N)]
        Qs = [point(C.G2) for _ in range(MULTI_PAIRING_N)]
        return lambda: C.multi_pairing(Ps, Qs)

    def pairing_check():
        # e(aP, Q) * e(-P, aQ) == 1: a true check, as in a signature verification
        a = scalar()
        P, Q = point(C.G1), point(C.G2)
        Ps, Qs = [P * a, -P], [Q, Q * a]
        return lambda: C.pairing_check(Ps, Qs)

    ops.update(
        {
            "pairing": pairing,
            "miller_loop": miller_loop,
            "final_exponentiation": final_exponentiation,
            f"multi_pairing (n={MULTI_PAIRING_N})": multi_pairing,
            f"pairing_check (n={PAIRING_CHECK_N})": pairing_check,
        }
    )
    return ops
