"""EIP-4844 blob KZG commitments (the Ethereum consensus specs' polynomial-commitments.md) as a
protocol module: ``eip4844.py``, with the function names, argument order and byte formats of the
``ckzg`` Python binding of c-kzg-4844.

The EIP fixes the field and the encodings, not just the algorithm: BLS_MODULUS, 32-byte
big-endian field elements, 48-byte compressed G1 points in the ZCash format, and the roots of
unity pow(7, (BLS_MODULUS - 1) / 4096).  Those are this entry's data, compared below with the
curve's derived values; a curve that differs cannot carry the module.

Layer: protocols. Imports derive, the curve files and the leaves; never emit or the layers above,
nor generator/reference.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..derive.serialization import derive_serialization
from . import Protocol, register

if TYPE_CHECKING:
    from ..derive.model import CurveModel

# polynomial-commitments.md (deneb): the constants of the EIP
BLS_MODULUS = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
PRIMITIVE_ROOT_OF_UNITY = 7
FIELD_ELEMENTS_PER_BLOB = 4096
BYTES_PER_G1 = 48
POINT_PROFILE = "zcash"
# Ethereum's mainnet KZG setup in the package (generator/protocols/data/README.md says where it is from).
TRUSTED_SETUP_FILE = "trusted_setup.txt.xz"


def unsupported(model: CurveModel) -> str | None:
    """Why the curve cannot carry EIP-4844, or None."""
    if model.r != BLS_MODULUS:
        return f"its group order r = {model.r:#x} is not the EIP's BLS_MODULUS"
    if model.fft.generator != PRIMITIVE_ROOT_OF_UNITY:
        return f"the derived generator of Fr* ({model.fft.generator}) is not the EIP's PRIMITIVE_ROOT_OF_UNITY"
    if FIELD_ELEMENTS_PER_BLOB > 1 << model.fft.two_adicity:
        return "Fr has no domain of FIELD_ELEMENTS_PER_BLOB roots of unity"
    ser = derive_serialization(model.fp, model.fr, model.spec.serialization, model.name)
    if ser.default != POINT_PROFILE or model.fp.nbytes != BYTES_PER_G1:
        return f"its default point encoding is {ser.default!r} with {model.fp.nbytes}-byte coordinates, not 48-byte zcash"
    return None


def context(model: CurveModel) -> dict[str, object]:
    return {"field_elements_per_blob": FIELD_ELEMENTS_PER_BLOB, "trusted_setup_file": TRUSTED_SETUP_FILE}


EIP4844 = register(
    Protocol(
        name="eip4844",
        summary="EIP-4844 blob commitments and proofs, byte-exact with c-kzg-4844's ckzg binding",
        files={"eip4844.py": "python/eip4844.py.j2"},
        # the mainnet setup that load_trusted_setup() reads when given no file
        data={TRUSTED_SETUP_FILE: "ethereum_mainnet_trusted_setup.txt.xz"},
        unsupported=unsupported,
        context=context,
    )
)
