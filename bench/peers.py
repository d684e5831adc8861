"""Other libraries' implementations of the same operations, measured beside ours in one run.

Each peer is a function ``package -> {op: PeerOp}`` (empty when the peer lacks the curve); a
peer that is not installed raises ImportError and is listed as missing. Operation names are
ours (bench/ours.py); a peer operation that is not exactly ours carries a note, printed under
the table. The inputs are random points of the same kind as ours (a random multiple of the
generator).

Installed peers covered here: blspy and chia_rs (blst, assembly), pymcl (mcl; BLS12-381 only),
py_arkworks_bls12381 and zksnake (arkworks), py_ecc (the Ethereum Foundation's pure-Python
reference: slow, timed once or twice). Checked by experiment: the G1/G2 hash_to_curve of
blspy, py_arkworks_bls12381 (msg, dst), zksnake (dst, msg) and py_ecc give the same bytes (RFC
9380, random oracle, SHA-256) for our message and DST. Also checked: blspy, chia_rs,
py_arkworks_bls12381, zksnake and pymcl reject a compressed G1 point that is on the curve but
outside the subgroup, as ours does; the ``_unchecked`` decoders accept it, as ours does with
``check=False``. To add a peer, write one more function and list it in PEERS.

Layer: tools (bench/), above the generator: imports the generator, the generated packages, bench's
own modules and the peers' libraries; the generator never imports it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from bench.ops import MSM_N, MULTI_PAIRING_N, PAIRING_CHECK_N

# RFC 9380 test DST shape; the same message and DST as ours where the peer takes them
H2C_MSG = b"pairforge benchmark message"
H2C_DST = b"PAIRFORGE-BENCH-V01-CS01-with-expander"

R_BLS12_381 = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
R_BN254 = 0x30644E72E131A029B85045B68181585D2833E84879B9709143E1F593F0000001


@dataclass(frozen=True)
class PeerOp:
    setup: Callable[[], Callable[[], object]]
    max_calls: int | None = None  # cap for very slow implementations
    note: str = ""  # what differs from our operation, if anything


def _rng(package: str, peer: str) -> random.Random:
    return random.Random(f"peer-{peer}-{package}")


def _binary(make, op):
    def setup():
        a, b = make(), make()
        return lambda: op(a, b)

    return setup


def _unary(make, op):
    def setup():
        a = make()
        return lambda: op(a)

    return setup


def _add(a, b):
    return a + b


def _sub(a, b):
    return a - b


def _mul(a, b):
    return a * b


def _div(a, b):
    return a / b


def _eq_setup(make, copy):
    def setup():
        P = make()
        Q = copy(P)
        return lambda: P == Q

    return setup


def _blst_ops(package: str, lib, name: str) -> dict[str, PeerOp]:
    """blspy and chia_rs: the same blst operations behind two bindings."""
    if package != "bls12_381":
        return {}
    G1Element, G2Element, PrivateKey = lib.G1Element, lib.G2Element, lib.PrivateKey
    rng = _rng(package, name)

    def key() -> object:
        return PrivateKey.from_bytes(rng.randrange(1, R_BLS12_381).to_bytes(32, "big"))

    def g1() -> object:
        return key().get_g1()  # sk * G1 generator

    def g2() -> object:
        # no G2 scalar multiplication in these APIs: a signature is a random point of G2
        return lib.AugSchemeMPL.sign(key(), rng.randbytes(32))

    def g1_mul():
        # get_g1() caches its result on the key object: parse a fresh key each call (~1 µs)
        data = rng.randrange(1, R_BLS12_381).to_bytes(32, "big")
        return lambda: PrivateKey.from_bytes(data).get_g1()

    def pairing():
        P, Q = g1(), g2()
        return lambda: P.pair(Q)

    def gt():
        return g1().pair(g2())

    def to_bytes(make):
        def setup():
            P = make()
            return lambda: bytes(P)

        return setup

    def from_bytes(make, decode):
        def setup():
            data = bytes(make())
            return lambda: decode(data)

        return setup

    def copy(P):
        return type(P).from_bytes(bytes(P))

    ops = {
        "G1 add": PeerOp(_binary(g1, _add)),
        "G1 double": PeerOp(_unary(g1, lambda P: P + P), note="P + P (no doubling call)"),
        "G1 scalar mul (int)": PeerOp(
            g1_mul, note="PrivateKey.from_bytes(k).get_g1(): fixed base (the generator), k parsed from 32 bytes"
        ),
        "G1 ==": PeerOp(_eq_setup(g1, copy)),
        "G2 add": PeerOp(_binary(g2, _add)),
        "G2 double": PeerOp(_unary(g2, lambda P: P + P), note="P + P (no doubling call)"),
        "G2 ==": PeerOp(_eq_setup(g2, copy)),
        "GT mul": PeerOp(_binary(gt, _mul)),
        "pairing": PeerOp(pairing),
        "G1 to_bytes (compressed)": PeerOp(to_bytes(g1)),
        "G1 from_bytes (compressed)": PeerOp(from_bytes(g1, G1Element.from_bytes)),
        "G1 from_bytes (compressed, check=False)": PeerOp(from_bytes(g1, G1Element.from_bytes_unchecked)),
        "G2 to_bytes (compressed)": PeerOp(to_bytes(g2)),
        "G2 from_bytes (compressed)": PeerOp(from_bytes(g2, G2Element.from_bytes)),
        "G2 from_bytes (compressed, check=False)": PeerOp(from_bytes(g2, G2Element.from_bytes_unchecked)),
    }
    if name == "blspy":
        ops["G1 neg"] = PeerOp(_unary(g1, lambda P: P.negate()))
        ops["G2 neg"] = PeerOp(_unary(g2, lambda P: P.negate()))
        ops["G1 hash_to_curve"] = PeerOp(lambda: lambda: G1Element.from_message(H2C_MSG, H2C_DST))
        ops["G2 hash_to_curve"] = PeerOp(lambda: lambda: G2Element.from_message(H2C_MSG, H2C_DST))
    else:
        ops["G2 hash_to_curve"] = PeerOp(
            lambda: lambda: lib.AugSchemeMPL.g2_from_message(H2C_MSG),
            note="AugSchemeMPL.g2_from_message: RFC 9380 G2 hash with chia's fixed DST",
        )
    return ops


def blspy_ops(package: str) -> dict[str, PeerOp]:
    import blspy

    return _blst_ops(package, blspy, "blspy")


def chia_rs_ops(package: str) -> dict[str, PeerOp]:
    import chia_rs

    return _blst_ops(package, chia_rs, "chia_rs")


def pymcl_ops(package: str) -> dict[str, PeerOp]:
    """pymcl wraps mcl configured for BLS12-381 only (its r is BLS12-381's; no BN254)."""
    import pymcl

    if package != "bls12_381" or pymcl.r != R_BLS12_381:
        return {}
    rng = _rng(package, "pymcl")

    def fr() -> object:
        return pymcl.Fr(str(rng.randrange(1, R_BLS12_381)))

    def g1() -> object:
        return pymcl.g1 * fr()

    def g2() -> object:
        return pymcl.g2 * fr()

    def gt() -> object:
        return pymcl.pairing(g1(), g2())

    def mul(make):
        def setup():
            P, k = make(), fr()
            return lambda: P * k

        return setup

    def pairing():
        P, Q = g1(), g2()
        return lambda: pymcl.pairing(P, Q)

    def gt_pow():
        a, k = gt(), fr()
        return lambda: a**k

    def fr_inverse():
        one, a = pymcl.Fr("1"), fr()
        return lambda: one / a

    def to_bytes(make):
        def setup():
            P = make()
            return P.serialize

        return setup

    def from_bytes(make, cls):
        def setup():
            data = make().serialize()
            return lambda: cls.deserialize(data)

        return setup

    def copy(P):
        return type(P).deserialize(P.serialize())

    fmt = "mcl's own format (the compressed encoding, byte-reversed)"
    fmt_in = "mcl's own format (the compressed encoding, byte-reversed); checks the subgroup"
    return {
        "Fr add": PeerOp(_binary(fr, _add)),
        "Fr mul": PeerOp(_binary(fr, _mul)),
        "Fr inverse": PeerOp(fr_inverse, note="Fr(1) / a"),
        "G1 add": PeerOp(_binary(g1, _add)),
        "G1 sub": PeerOp(_binary(g1, _sub)),
        "G1 neg": PeerOp(_unary(g1, lambda P: -P)),
        "G1 scalar mul (Fr)": PeerOp(mul(g1)),
        "G1 ==": PeerOp(_eq_setup(g1, copy)),
        "G1 to_bytes (compressed)": PeerOp(to_bytes(g1), note=fmt),
        "G1 from_bytes (compressed)": PeerOp(from_bytes(g1, pymcl.G1), note=fmt_in),
        "G1 hash_to_curve": PeerOp(
            lambda: lambda: pymcl.G1.hash(H2C_MSG.decode()),
            note="G1.hash: mcl's hash-and-map as pymcl configures it (no DST argument; not checked to be RFC 9380)",
        ),
        "G2 add": PeerOp(_binary(g2, _add)),
        "G2 sub": PeerOp(_binary(g2, _sub)),
        "G2 neg": PeerOp(_unary(g2, lambda P: -P)),
        "G2 scalar mul (Fr)": PeerOp(mul(g2)),
        "G2 ==": PeerOp(_eq_setup(g2, copy)),
        "G2 to_bytes (compressed)": PeerOp(to_bytes(g2), note=fmt),
        "G2 from_bytes (compressed)": PeerOp(from_bytes(g2, pymcl.G2), note=fmt_in),
        "GT mul": PeerOp(_binary(gt, _mul)),
        "GT div": PeerOp(_binary(gt, _div)),
        "GT pow (exponent < r)": PeerOp(gt_pow, note="exponent given as an Fr"),
        "pairing": PeerOp(pairing),
    }


def arkworks_ops(package: str) -> dict[str, PeerOp]:
    """py_arkworks_bls12381 (crate-crypto's bindings of arkworks, BLS12-381)."""
    import py_arkworks_bls12381 as ark

    if package != "bls12_381":
        return {}
    rng = _rng(package, "arkworks")

    def sc() -> object:
        return ark.Scalar(rng.randrange(1, R_BLS12_381))

    def g1() -> object:
        return ark.G1Point() * sc()  # G1Point() is the generator

    def g2() -> object:
        return ark.G2Point() * sc()

    def gt() -> object:
        return ark.GT.pairing(g1(), g2())

    def mul(make):
        def setup():
            P, k = make(), sc()
            return lambda: P * k

        return setup

    def pairing():
        P, Q = g1(), g2()
        return lambda: ark.GT.pairing(P, Q)

    def multi_pairing():
        Ps = [g1() for _ in range(MULTI_PAIRING_N)]
        Qs = [g2() for _ in range(MULTI_PAIRING_N)]
        return lambda: ark.GT.multi_pairing(Ps, Qs)

    def pairing_check():
        a = sc()
        P, Q = g1(), g2()
        Ps, Qs = [P * a, -P], [Q, Q * a]
        return lambda: ark.GT.pairing_check(Ps, Qs)

    def msm(cls, make):
        def setup():
            points = [make() for _ in range(MSM_N)]
            scalars = [sc() for _ in range(MSM_N)]
            return lambda: cls.multiexp_unchecked(points, scalars)

        return setup

    def encode(make, method):
        def setup():
            P = make()
            return getattr(P, method)

        return setup

    def decode(make, enc, dec):
        def setup():
            data = bytes(getattr(make(), enc)())
            return lambda: dec(data)

        return setup

    def copy(P):
        return type(P).from_compressed_bytes(bytes(P.to_compressed_bytes()))

    ops: dict[str, PeerOp] = {
        "Fr add": PeerOp(_binary(sc, _add)),
        "Fr mul": PeerOp(_binary(sc, _mul)),
        "Fr inverse": PeerOp(_unary(sc, lambda a: a.inverse())),
    }
    for G, cls, make in (("G1", ark.G1Point, g1), ("G2", ark.G2Point, g2)):
        ops.update(
            {
                f"{G} add": PeerOp(_binary(make, _add)),
                f"{G} sub": PeerOp(_binary(make, _sub)),
                f"{G} neg": PeerOp(_unary(make, lambda P: -P)),
                f"{G} double": PeerOp(_unary(make, lambda P: P + P), note="P + P"),
                f"{G} scalar mul (Fr)": PeerOp(mul(make)),
                f"{G} ==": PeerOp(_eq_setup(make, copy)),
                f"{G} in_subgroup": PeerOp(_unary(make, lambda P: P.is_in_subgroup())),
                f"{G} to_bytes (compressed)": PeerOp(encode(make, "to_compressed_bytes")),
                f"{G} from_bytes (compressed)": PeerOp(decode(make, "to_compressed_bytes", cls.from_compressed_bytes)),
                f"{G} from_bytes (compressed, check=False)": PeerOp(
                    decode(make, "to_compressed_bytes", cls.from_compressed_bytes_unchecked)
                ),
                f"{G} to_bytes (uncompressed)": PeerOp(
                    encode(make, "to_xy_bytes_be"), note="to_xy_bytes_be: x || y, no flag bits"
                ),
                f"{G} from_bytes (uncompressed)": PeerOp(
                    decode(make, "to_xy_bytes_be", cls.from_xy_bytes_be), note="from_xy_bytes_be: x || y, no flag bits (checks the subgroup)"
                ),
                f"{G} msm (n={MSM_N})": PeerOp(msm(cls, make), note="multiexp_unchecked"),
                f"{G} hash_to_curve": PeerOp(lambda cls=cls: lambda: cls.hash_to_curve(H2C_MSG, H2C_DST)),
            }
        )
    ops.update(
        {
            "GT mul": PeerOp(_binary(gt, _mul)),
            "GT ==": PeerOp(_eq_setup(gt, lambda a: a * ark.GT.one())),
            "pairing": PeerOp(pairing),
            f"multi_pairing (n={MULTI_PAIRING_N})": PeerOp(multi_pairing),
            f"pairing_check (n={PAIRING_CHECK_N})": PeerOp(pairing_check),
        }
    )
    return ops


def zksnake_ops(package: str) -> dict[str, PeerOp]:
    from zksnake._algebra import ec_bls12_381, ec_bn254

    curves = {"bn254": (ec_bn254, R_BN254), "bls12_381": (ec_bls12_381, R_BLS12_381)}
    if package not in curves:
        return {}
    E, r = curves[package]
    rng = _rng(package, "zksnake")

    def scalar() -> int:
        return rng.randrange(1, r)

    def g1() -> object:
        return E.g1() * scalar()

    def g2() -> object:
        return E.g2() * scalar()

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

    def msm(fn, make):
        def setup():
            points = [make() for _ in range(MSM_N)]
            scalars = [scalar() for _ in range(MSM_N)]
            return lambda: fn(points, scalars)

        return setup

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

    ops: dict[str, PeerOp] = {}
    for G, cls, make, msm_fn in (
        ("G1", E.PointG1, g1, E.multiscalar_mul_g1),
        ("G2", E.PointG2, g2, E.multiscalar_mul_g2),
    ):
        ops.update(
            {
                f"{G} add": PeerOp(_binary(make, _add)),
                f"{G} sub": PeerOp(_binary(make, _sub)),
                f"{G} neg": PeerOp(_unary(make, lambda P: -P)),
                f"{G} double": PeerOp(_unary(make, lambda P: P + P), note="P + P"),
                f"{G} scalar mul (int)": PeerOp(mul(make)),
                f"{G} msm (n={MSM_N})": PeerOp(msm(msm_fn, make)),
                f"{G} to_bytes (compressed)": PeerOp(to_bytes(make), note="returns a list of ints"),
                f"{G} from_bytes (compressed)": PeerOp(from_bytes(make, cls)),
            }
        )
        if hasattr(cls, "hash_to_curve"):
            # zksnake takes (dst, msg); checked to equal blst's RFC 9380 hash on BLS12-381
            ops[f"{G} hash_to_curve"] = PeerOp(lambda cls=cls: lambda: cls.hash_to_curve(H2C_DST, H2C_MSG))
    ops.update(
        {
            "pairing": PeerOp(pairing),
            f"multi_pairing (n={MULTI_PAIRING_N})": PeerOp(multi_pairing),
        }
    )
    return ops


def py_ecc_ops(package: str) -> dict[str, PeerOp]:
    if package == "bn254":
        from py_ecc import optimized_bn128 as E
    elif package == "bls12_381":
        from py_ecc import optimized_bls12_381 as E
    else:
        return {}
    rng = _rng(package, "py_ecc")
    slow = 2  # py_ecc's pairing takes about half a second: time it once or twice

    def scalar() -> int:
        return rng.randrange(1, E.curve_order)

    def g1():
        return E.multiply(E.G1, scalar())

    def g2():
        return E.multiply(E.G2, scalar())

    def fq():
        return E.FQ(rng.randrange(1, E.field_modulus))

    def fq2():
        return E.FQ2([rng.randrange(E.field_modulus), rng.randrange(E.field_modulus)])

    def fq12():
        return E.FQ12([rng.randrange(E.field_modulus) for _ in range(12)])

    def fp_inverse():
        a, one = fq(), E.FQ.one()
        return lambda: one / a

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

    fq12_note = "FQ12: degree-12 extension in one step (no tower)"
    ops = {
        "Fp add": PeerOp(_binary(fq, _add)),
        "Fp mul": PeerOp(_binary(fq, _mul)),
        "Fp inverse": PeerOp(fp_inverse),
        "Fp2 mul": PeerOp(_binary(fq2, _mul)),
        "Fp12 mul": PeerOp(_binary(fq12, _mul), note=fq12_note),
        "G1 add": PeerOp(_binary(g1, E.add)),
        "G1 neg": PeerOp(_unary(g1, E.neg)),
        "G1 double": PeerOp(_unary(g1, E.double)),
        "G1 ==": PeerOp(_eq_setup(g1, lambda P: E.add(E.double(P), E.neg(P)))),
        "G1 scalar mul (int)": PeerOp(mul(g1), max_calls=20),
        "G2 add": PeerOp(_binary(g2, E.add)),
        "G2 double": PeerOp(_unary(g2, E.double)),
        "G2 scalar mul (int)": PeerOp(mul(g2), max_calls=10),
        "GT mul": PeerOp(_binary(fq12, _mul), note=fq12_note),
        "pairing": PeerOp(pairing, max_calls=slow),
        "miller_loop": PeerOp(miller_loop, max_calls=slow),
        "final_exponentiation": PeerOp(final_exponentiation, max_calls=slow),
    }
    if package == "bls12_381":
        import hashlib

        from py_ecc.bls.hash_to_curve import hash_to_G2

        ops["G2 hash_to_curve"] = PeerOp(
            lambda: lambda: hash_to_G2(H2C_MSG, H2C_DST, hashlib.sha256), max_calls=slow
        )
    return ops


PEERS: dict[str, Callable[[str], dict[str, PeerOp]]] = {
    "blspy": blspy_ops,
    "chia_rs": chia_rs_ops,
    "pymcl": pymcl_ops,
    "py_arkworks_bls12381": arkworks_ops,
    "zksnake": zksnake_ops,
    "py_ecc": py_ecc_ops,
}
