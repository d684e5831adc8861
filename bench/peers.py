"""Other libraries' implementations of the same operations, measured beside ours in one run.

Each peer is a function ``package -> {op: PeerOp}`` (empty when the peer lacks the curve); a
peer that is not installed raises ImportError and is listed as missing. The inputs are random
points of the same kind as ours (a random multiple of the generator).

Installed peers covered here: blspy (blst via chia's bindings), zksnake (arkworks), py_ecc
(the Ethereum Foundation's pure-Python reference: slow, timed once or twice). To add a peer,
write one more function and list it in PEERS.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from bench.ops import HASH_DST, MSM_N, MULTI_PAIRING_N


@dataclass(frozen=True)
class PeerOp:
    setup: Callable[[], Callable[[], object]]
    max_calls: int | None = None  # cap for very slow implementations
    note: str = ""  # what differs from our operation, if anything


def _rng(package: str) -> random.Random:
    return random.Random(f"peer-{package}")


def blspy_ops(package: str) -> dict[str, PeerOp]:
    import blspy
    from blspy import AugSchemeMPL, G1Element, G2Element, PrivateKey

    if package != "bls12_381":
        return {}
    rng = _rng(package)

    def key() -> object:
        return AugSchemeMPL.key_gen(rng.randbytes(32))

    def g1() -> object:
        return key().get_g1()  # sk * G1 generator

    def g2() -> object:
        # no scalar multiplication on G2 in blspy's API: a signature is a random G2 point
        return AugSchemeMPL.sign(key(), rng.randbytes(32))

    def add(make):
        def setup():
            P, Q = make(), make()
            return lambda: P + Q

        return setup

    def double(make):
        def setup():
            P = make()
            return lambda: P + P

        return setup

    def g1_mul():
        # get_g1() caches its result on the key object: parse a fresh key each call (~1 µs)
        data = bytes(key())
        return lambda: PrivateKey.from_bytes(data).get_g1()

    def pairing():
        P, Q = g1(), g2()
        return lambda: P.pair(Q)

    def g2_hash():
        msg = rng.randbytes(32)
        return lambda: G2Element.from_message(msg, HASH_DST)

    def to_bytes(make):
        def setup():
            P = make()
            return lambda: bytes(P)

        return setup

    def from_bytes(make, cls):
        def setup():
            data = bytes(make())
            return lambda: cls.from_bytes(data)

        return setup

    del blspy
    return {
        "G1 add": PeerOp(add(g1)),
        "G1 double": PeerOp(double(g1), note="P + P (no doubling call in blspy)"),
        "G1 scalar mul": PeerOp(g1_mul, note="PrivateKey.from_bytes(k).get_g1(): the generator times a scalar"),
        "G2 add": PeerOp(add(g2)),
        "pairing": PeerOp(pairing),
        "G1 to_bytes (compressed)": PeerOp(to_bytes(g1)),
        "G1 from_bytes (compressed)": PeerOp(from_bytes(g1, G1Element)),
        "G2 to_bytes (compressed)": PeerOp(to_bytes(g2)),
        "G2 from_bytes (compressed)": PeerOp(from_bytes(g2, G2Element)),
        "G2 hash_to_curve": PeerOp(g2_hash, note="G2Element.from_message(msg, dst)"),
    }


def zksnake_ops(package: str) -> dict[str, PeerOp]:
    from zksnake._algebra import ec_bls12_381, ec_bn254

    curves = {"bn254": (ec_bn254, 0x30644E72E131A029B85045B68181585D2833E84879B9709143E1F593F0000001),
              "bls12_381": (ec_bls12_381, 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001)}
    if package not in curves:
        return {}
    E, r = curves[package]
    rng = _rng(package)

    def scalar() -> int:
        return rng.randrange(1, r)

    def g1() -> object:
        return E.g1() * scalar()

    def g2() -> object:
        return E.g2() * scalar()

    def add(make):
        def setup():
            P, Q = make(), make()
            return lambda: P + Q

        return setup

    def double(make):
        def setup():
            P = make()
            return lambda: P + P

        return setup

    def mul(make):
        def setup():
            P, k = make(), scalar()
            return lambda: P * k

        return setup

    def pairing():
        P, Q = g1(), g2()
        return lambda: E.pairing(P, Q)

    def multi_pairing():
        Ps = [g1() for _ in range(MULTI_PAIRING_N)]
        Qs = [g2() for _ in range(MULTI_PAIRING_N)]
        return lambda: E.multi_pairing(Ps, Qs)

    def msm():
        points = [g1() for _ in range(MSM_N)]
        scalars = [scalar() for _ in range(MSM_N)]
        return lambda: E.multiscalar_mul_g1(points, scalars)

    def to_bytes(make):
        def setup():
            P = make()
            return P.to_bytes

        return setup

    def from_bytes(make, cls):
        def setup():
            data = bytes(make().to_bytes())
            return lambda: cls.from_bytes(data)

        return setup

    return {
        "G1 add": PeerOp(add(g1)),
        "G1 double": PeerOp(double(g1), note="P + P"),
        "G1 scalar mul": PeerOp(mul(g1)),
        "G2 add": PeerOp(add(g2)),
        "G2 scalar mul": PeerOp(mul(g2)),
        "pairing": PeerOp(pairing),
        "multi_pairing (n=4)": PeerOp(multi_pairing),
        "G1 msm (n=64)": PeerOp(msm),
        "G1 to_bytes (compressed)": PeerOp(to_bytes(g1), note="returns a list of ints"),
        "G1 from_bytes (compressed)": PeerOp(from_bytes(g1, E.PointG1)),
        "G2 to_bytes (compressed)": PeerOp(to_bytes(g2), note="returns a list of ints"),
        "G2 from_bytes (compressed)": PeerOp(from_bytes(g2, E.PointG2)),
    }


def py_ecc_ops(package: str) -> dict[str, PeerOp]:
    if package == "bn254":
        from py_ecc import optimized_bn128 as E
    elif package == "bls12_381":
        from py_ecc import optimized_bls12_381 as E
    else:
        return {}
    rng = _rng(package)
    slow = 2  # py_ecc's pairing takes about half a second: time it once or twice

    def scalar() -> int:
        return rng.randrange(1, E.curve_order)

    def g1():
        return E.multiply(E.G1, scalar())

    def g2():
        return E.multiply(E.G2, scalar())

    def fp_mul():
        a, b = E.FQ(rng.randrange(1, E.field_modulus)), E.FQ(rng.randrange(1, E.field_modulus))
        return lambda: a * b

    def fp_inverse():
        a = E.FQ(rng.randrange(1, E.field_modulus))
        one = E.FQ.one()
        return lambda: one / a

    def add(make):
        def setup():
            P, Q = make(), make()
            return lambda: E.add(P, Q)

        return setup

    def double():
        P = g1()
        return lambda: E.double(P)

    def mul(make):
        def setup():
            P, k = make(), scalar()
            return lambda: E.multiply(P, k)

        return setup

    def pairing():
        P, Q = g1(), g2()
        return lambda: E.pairing(Q, P)

    def miller_loop():
        P, Q = g1(), g2()
        return lambda: E.pairing(Q, P, final_exponentiate=False)

    def final_exponentiation():
        f = E.pairing(g2(), g1(), final_exponentiate=False)
        return lambda: E.final_exponentiate(f)

    return {
        "Fp mul": PeerOp(fp_mul),
        "Fp inverse": PeerOp(fp_inverse),
        "G1 add": PeerOp(add(g1)),
        "G1 double": PeerOp(double),
        "G1 scalar mul": PeerOp(mul(g1), max_calls=20),
        "G2 add": PeerOp(add(g2)),
        "G2 scalar mul": PeerOp(mul(g2), max_calls=10),
        "pairing": PeerOp(pairing, max_calls=slow),
        "miller_loop": PeerOp(miller_loop, max_calls=slow),
        "final_exponentiation": PeerOp(final_exponentiation, max_calls=slow),
    }


PEERS: dict[str, Callable[[str], dict[str, PeerOp]]] = {
    "blspy": blspy_ops,
    "zksnake": zksnake_ops,
    "py_ecc": py_ecc_ops,
}
