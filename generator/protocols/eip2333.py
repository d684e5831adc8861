"""EIP-2333 (BLS12-381 key generation, now ERC-2333) and the EIP-2334 path syntax: ``eip2333.py``.

The standard is written for the BLS12-381 group order, but nothing in it depends on more than r:
HKDF_mod_r reduces mod r with L = ceil(3 * ceil(log2(r)) / 16) bytes of output, the parent key is
I2OSP(SK, ceil(log2(r) / 8)) bytes (32 for a 255-bit r, the standard's value), and the Lamport part
works on bytes.  So any curve whose file asks for it can carry it; for curves other than the one
the standard names, the output is this generalisation, not a standardised value.

Layer: protocols. Imports derive, the curve files and the leaves; never emit or the layers above,
nor generator/reference.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import Protocol, register

if TYPE_CHECKING:
    from ..derive.model import CurveModel


# EIP-2334: purpose 12381, coin type 3600 (Ethereum), account 0, use 0 (the withdrawal key)
EIP2334_WITHDRAWAL_PATH = "m/12381/3600/0/0"


def context(model: CurveModel) -> dict[str, object]:
    """L (HKDF_mod_r's output length) and the byte length of a secret key, both from r."""
    bits = (model.r - 1).bit_length()  # ceil(log2(r))
    return {"hkdf_L": -(-3 * bits // 16), "sk_bytes": -(-bits // 8), "path_example": EIP2334_WITHDRAWAL_PATH}


EIP2333 = register(
    Protocol(
        name="eip2333",
        summary="EIP-2333 hierarchical key derivation (Lamport-based tree of secret keys) and EIP-2334 paths",
        files={"eip2333.py": "python/eip2333.py.j2"},
        context=context,
    )
)
