"""Our side: each operation set up through the Python API of a generated module (DESIGN §5)."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from types import ModuleType

from bench.ops import HASH_DST, MSM_N, MULTI_PAIRING_N

Setup = Callable[[], Callable[[], object]]  # prepares inputs, returns the call to time


def load(package: str) -> tuple[ModuleType | None, str]:
    """``(module, "")`` or ``(None, reason)`` for ``generated.<package>``."""
    try:
        return importlib.import_module(f"generated.{package}"), ""
    except Exception as exc:  # not rendered, not built, or broken: reported as n/a
        return None, f"generated.{package} not importable: {type(exc).__name__}: {exc}"


def setups(C: ModuleType, seed: int = 2024) -> dict[str, Setup]:
    """Operation name -> setup, for one curve module ``C``. A setup that raises means n/a."""
    rng = random.Random(seed)

    def scalar() -> int:
        return rng.randrange(1, C.R)

    def fp() -> object:
        return C.Fp(rng.randrange(1, C.P))

    def g1() -> object:
        return C.G1.generator() * scalar()

    def g2() -> object:
        return C.G2.generator() * scalar()

    def fp_mul():
        a, b = fp(), fp()
        return lambda: a * b

    def fp_inverse():
        a = fp()
        return a.inverse

    def g1_add():
        P, Q = g1(), g1()
        return lambda: P + Q

    def g1_double():
        return g1().double

    def g1_mul():
        P, k = g1(), scalar()
        return lambda: P * k

    def g2_add():
        P, Q = g2(), g2()
        return lambda: P + Q

    def g2_mul():
        P, k = g2(), scalar()
        return lambda: P * k

    def pairing():
        P, Q = g1(), g2()
        return lambda: C.pairing(P, Q)

    def g2_hash():
        msg = rng.randbytes(32)
        return lambda: C.G2.hash_to_curve(msg, HASH_DST)

    def miller_loop():
        Ps, Qs = [g1()], [g2()]
        return lambda: C.miller_loop(Ps, Qs)

    def final_exponentiation():
        f = C.miller_loop([g1()], [g2()])
        return lambda: C.final_exponentiation(f)

    def multi_pairing():
        Ps = [g1() for _ in range(MULTI_PAIRING_N)]
        Qs = [g2() for _ in range(MULTI_PAIRING_N)]
        return lambda: C.multi_pairing(Ps, Qs)

    def msm():
        points = [g1() for _ in range(MSM_N)]
        scalars = [scalar() for _ in range(MSM_N)]
        return lambda: C.G1.msm(points, scalars)

    def to_bytes(group: str):
        def setup():
            P = g1() if group == "G1" else g2()
            return lambda: P.to_bytes(compressed=True)

        return setup

    def from_bytes(group: str):
        def setup():
            cls = getattr(C, group)
            data = (g1() if group == "G1" else g2()).to_bytes(compressed=True)
            return lambda: cls.from_bytes(data)

        return setup

    return {
        "Fp mul": fp_mul,
        "Fp inverse": fp_inverse,
        "G1 add": g1_add,
        "G1 double": g1_double,
        "G1 scalar mul": g1_mul,
        "G2 add": g2_add,
        "G2 scalar mul": g2_mul,
        "pairing": pairing,
        "miller_loop": miller_loop,
        "final_exponentiation": final_exponentiation,
        "multi_pairing (n=4)": multi_pairing,
        "G1 msm (n=64)": msm,
        "G1 to_bytes (compressed)": to_bytes("G1"),
        "G1 from_bytes (compressed)": from_bytes("G1"),
        "G2 to_bytes (compressed)": to_bytes("G2"),
        "G2 from_bytes (compressed)": from_bytes("G2"),
        "G2 hash_to_curve": g2_hash,
    }
