"""Checks that the peer operations the benchmark compares are the operations we think they are.

    python bench/check_peers.py

Run at the start of every benchmark run (bench/run.py records the answers in bench.json and
lists them under the table):

- hash_to_curve: blspy (blst), py_arkworks_bls12381 (msg, dst), zksnake (dst, msg) and py_ecc
  (G2 only) give the same point for the benchmark's message and DST (RFC 9380, random oracle).
- from_bytes: each peer's checked decoder rejects a compressed BLS12-381 G1 point that is on the
  curve but outside the subgroup of order r (as ours does), its unchecked decoder accepts it.
- pymcl's curve: its group order is BLS12-381's r.

Layer: tools (bench/), above the generator: imports the generator, the generated packages, bench's
own modules and the peers' libraries; the generator never imports it.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.peers import H2C_DST, H2C_MSG, R_BLS12_381  # noqa: E402

P_BLS12_381 = int(
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 16
)


def non_subgroup_g1_compressed() -> bytes:
    """The compressed encoding (zcash flags) of the point of smallest x > 0 on y^2 = x^3 + 4 that
    is not in the subgroup (the cofactor is large: almost every point is outside)."""
    p = P_BLS12_381
    x = 0
    while True:
        x += 1
        rhs = (x**3 + 4) % p
        y = pow(rhs, (p + 1) // 4, p)  # p = 3 mod 4
        if y * y % p == rhs:
            break
    largest = y > p - y
    first = 0x80 | (0x20 if largest else 0)
    data = bytearray(x.to_bytes(48, "big"))
    data[0] |= first
    return bytes(data)


def _accepts(decode: Callable[[bytes], object], data: bytes) -> bool:
    try:
        decode(data)
    except Exception:
        return False
    return True


def checks() -> dict[str, str]:
    """Check name -> "ok", "FAILED: ..." or "skipped: ..." (a peer not installed)."""
    out: dict[str, str] = {}

    def record(name: str, fn: Callable[[], bool | str]) -> None:
        try:
            result = fn()
        except ImportError as exc:
            out[name] = f"skipped: {exc}"
            return
        except Exception as exc:
            out[name] = f"FAILED: {type(exc).__name__}: {exc}"
            return
        out[name] = "ok" if result is True else f"FAILED: {result}"

    def blst_g1() -> bytes:
        import blspy

        return bytes(blspy.G1Element.from_message(H2C_MSG, H2C_DST))

    def blst_g2() -> bytes:
        import blspy

        return bytes(blspy.G2Element.from_message(H2C_MSG, H2C_DST))

    def ark_h2c() -> bool:
        import py_arkworks_bls12381 as ark

        g1 = bytes(ark.G1Point.hash_to_curve(H2C_MSG, H2C_DST).to_compressed_bytes())
        g2 = bytes(ark.G2Point.hash_to_curve(H2C_MSG, H2C_DST).to_compressed_bytes())
        return (g1, g2) == (blst_g1(), blst_g2()) or "differs from blst"

    def zksnake_h2c() -> bool:
        from zksnake._algebra import ec_bls12_381 as E

        return bytes(E.PointG1.hash_to_curve(H2C_DST, H2C_MSG).to_bytes()) == blst_g1() or "differs from blst"

    def py_ecc_h2c() -> bool:
        from py_ecc.bls.hash_to_curve import hash_to_G2
        from py_ecc.bls.point_compression import compress_G2

        z1, z2 = compress_G2(hash_to_G2(H2C_MSG, H2C_DST, hashlib.sha256))
        return z1.to_bytes(48, "big") + z2.to_bytes(48, "big") == blst_g2() or "differs from blst"

    record("hash_to_curve: py_arkworks_bls12381 G1/G2 == blspy (blst)", ark_h2c)
    record("hash_to_curve: zksnake G1 == blspy (blst)", zksnake_h2c)
    record("hash_to_curve: py_ecc G2 == blspy (blst)", py_ecc_h2c)

    bad = non_subgroup_g1_compressed()

    def decoders() -> dict[str, tuple[Callable, Callable | None]]:
        found: dict[str, tuple[Callable, Callable | None]] = {}
        try:
            import blspy

            found["blspy"] = (blspy.G1Element.from_bytes, blspy.G1Element.from_bytes_unchecked)
        except ImportError:
            pass
        try:
            import chia_rs

            found["chia_rs"] = (chia_rs.G1Element.from_bytes, chia_rs.G1Element.from_bytes_unchecked)
        except ImportError:
            pass
        try:
            import py_arkworks_bls12381 as ark

            found["py_arkworks_bls12381"] = (
                ark.G1Point.from_compressed_bytes,
                ark.G1Point.from_compressed_bytes_unchecked,
            )
        except ImportError:
            pass
        try:
            from zksnake._algebra import ec_bls12_381 as E

            found["zksnake"] = (E.PointG1.from_bytes, None)
        except ImportError:
            pass
        try:
            import pymcl

            # mcl's serialization is the compressed encoding with the bytes reversed
            found["pymcl"] = (lambda d: pymcl.G1.deserialize(d[::-1]), None)
        except ImportError:
            pass
        return found

    def good_g1() -> bytes:
        return blst_g1()  # a hashed point: in the subgroup

    for name, (checked, unchecked) in decoders().items():
        record(
            f"from_bytes: {name} rejects a G1 point outside the subgroup and accepts a good one",
            lambda c=checked: (not _accepts(c, bad) and _accepts(c, good_g1())) or "accepted the bad point",
        )
        if unchecked is not None:
            record(
                f"from_bytes: {name} unchecked decoder accepts it (as ours with check=False)",
                lambda u=unchecked: _accepts(u, bad) or "rejected",
            )

    def pymcl_curve() -> bool:
        import pymcl

        return pymcl.r == R_BLS12_381 or f"r = {pymcl.r}"

    record("pymcl: group order is BLS12-381's r (no BN254 in this build)", pymcl_curve)
    return out


def main() -> int:
    results = checks()
    for name, result in results.items():
        print(f"{result:<8} {name}" if result == "ok" else f"{name}: {result}")
    return 0 if all(not r.startswith("FAILED") for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
