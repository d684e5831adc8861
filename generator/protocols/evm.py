"""EVM precompiles of pairing-friendly curves: one shared template, one protocol entry per EIP.

Each entry holds only what its EIP fixes and the curve does not: the precompile addresses and names,
the operation behind each, the gas schedule, the input rules (exact length or EVM zero padding,
which operations check the subgroup) and the encoding sizes the EIP writes down.  ``unsupported``
compares those sizes with the ones derived from the curve's serialization profile, and checks the
family, embedding degree, G2's coordinate field and, for the map precompiles, the hash-to-curve map.

Sources (facts only):
  EIP-2537 (Final, ethereum/EIPs EIPS/eip-2537.md): addresses 0x0b-0x11, G1ADD 375, G2ADD 600,
      MSM k * mul_cost * discount(k) // 1000 with mul_cost 12000 (G1) / 22500 (G2), discount tables
      of 128 entries capped at 519 (G1) / 524 (G2), pairing 32600 k + 37700, MAP 5500 / 23800;
      ADD without subgroup check, MSM and pairing with it, empty MSM / pairing input is an error.
      The tables below also agree with the Gas field of every vector in the EIP's assets and geth.
  EIP-196 / EIP-197 with EIP-1108 (Istanbul) prices: ecAdd 0x06 150, ecMul 0x07 6000, ecPairing 0x08
      45000 + 34000 k; short ecAdd / ecMul input is zero-padded on the right, longer is cut; pairing
      input a multiple of 192 bytes (empty: true); G2 points must lie in the subgroup.
  EIP-2539 (Stagnant): addresses 0x13-0x19, G1ADD 600, G1MUL 12000, G2ADD 4500, G2MUL 55000,
      MULTIEXP discount table (the EIP-1962 one, capped at 174), pairing 55000 k + 65000; only the
      pairing checks the subgroup.  (Celo's deployment put these at other addresses, 0xe3-0xe9;
      the EIP's own are used here, and the names work everywhere.)  EIP-2539's MAP precompiles are
      left out: no vectors pin the map it means.
  EIP-3026 (Draft): addresses 0x13-0x19, 96-byte field elements, 64-byte scalars (its G2 MULTIEXP
      section's 240 k / 48-byte scalars contradicts its G1 section and every published vector; the
      64-byte form is used); its gas schedule is still "XXX", so no gas is charged (None).

Layer: protocols. Imports derive, the curve files and the leaves; never emit or the layers above,
nor generator/reference.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..derive.serialization import derive_serialization
from . import Protocol, register

if TYPE_CHECKING:
    from ..derive.model import CurveModel

# Kinds of operation: ADD (two points), MUL (one point, one scalar), MSM (k pairs), PAIRING (k pairs
# of a G1 and a G2 point, a 32-byte boolean out), MAP (a field element of the group's coordinate
# field to a point of the subgroup: RFC 9380 map_to_curve, then cofactor clearing).
ADD, MUL, MSM, PAIRING, MAP = "add", "mul", "msm", "pairing", "map"

# EIP-2537 final MSM discount tables: discount(k) for k = 1..128, then the last entry.
EIP2537_G1_DISCOUNT = (
    1000, 949, 848, 797, 764, 750, 738, 728, 719, 712, 705, 698, 692, 687, 682, 677, 673, 669, 665, 661,
    658, 654, 651, 648, 645, 642, 640, 637, 635, 632, 630, 627, 625, 623, 621, 619, 617, 615, 613, 611,
    609, 608, 606, 604, 603, 601, 599, 598, 596, 595, 593, 592, 591, 589, 588, 586, 585, 584, 582, 581,
    580, 579, 577, 576, 575, 574, 573, 572, 570, 569, 568, 567, 566, 565, 564, 563, 562, 561, 560, 559,
    558, 557, 556, 555, 554, 553, 552, 551, 550, 549, 548, 547, 547, 546, 545, 544, 543, 542, 541, 540,
    540, 539, 538, 537, 536, 536, 535, 534, 533, 532, 532, 531, 530, 529, 528, 528, 527, 526, 525, 525,
    524, 523, 522, 522, 521, 520, 520, 519,
)
EIP2537_G2_DISCOUNT = (
    1000, 1000, 923, 884, 855, 832, 812, 796, 782, 770, 759, 749, 740, 732, 724, 717, 711, 704, 699, 693,
    688, 683, 679, 674, 670, 666, 663, 659, 655, 652, 649, 646, 643, 640, 637, 634, 632, 629, 627, 624,
    622, 620, 618, 615, 613, 611, 609, 607, 606, 604, 602, 600, 598, 597, 595, 593, 592, 590, 589, 587,
    586, 584, 583, 582, 580, 579, 578, 576, 575, 574, 573, 571, 570, 569, 568, 567, 566, 565, 563, 562,
    561, 560, 559, 558, 557, 556, 555, 554, 553, 552, 552, 551, 550, 549, 548, 547, 546, 545, 545, 544,
    543, 542, 541, 541, 540, 539, 538, 537, 537, 536, 535, 535, 534, 533, 532, 532, 531, 530, 530, 529,
    528, 528, 527, 526, 526, 525, 524, 524,
)
# EIP-2539 / EIP-3026 MULTIEXP discount table (from EIP-1962), k = 1..128, capped at 174.
EIP1962_DISCOUNT = (
    1200, 888, 764, 641, 594, 547, 500, 453, 438, 423, 408, 394, 379, 364, 349, 334, 330, 326, 322, 318,
    314, 310, 306, 302, 298, 294, 289, 285, 281, 277, 273, 269, 268, 266, 265, 263, 262, 260, 259, 257,
    256, 254, 253, 251, 250, 248, 247, 245, 244, 242, 241, 239, 238, 236, 235, 233, 232, 231, 229, 228,
    226, 225, 223, 222, 221, 220, 219, 219, 218, 217, 216, 216, 215, 214, 213, 213, 212, 211, 211, 210,
    209, 208, 208, 207, 206, 205, 205, 204, 203, 202, 202, 201, 200, 199, 199, 198, 197, 196, 196, 195,
    194, 193, 193, 192, 191, 191, 190, 189, 188, 188, 187, 186, 185, 185, 184, 183, 182, 182, 181, 180,
    179, 179, 178, 177, 176, 176, 175, 174,
)


@dataclass(frozen=True)
class Precompile:
    """One precompile: its address, name, operation, group, gas and input rules.

    Gas: ``gas`` is the constant price (ADD, MUL, MAP), ``gas + gas_per_item * k`` for PAIRING, and
    ``k * gas_per_item * discount[min(k, len) - 1] // 1000`` for MSM; None where the EIP sets none.
    ``subgroup``: every input point must lie in the subgroup of order r.  ``padded``: EVM-style
    input (shorter zero-padded on the right, longer cut).  ``empty_ok``: a pairing of no pairs is true
    rather than an error.
    """

    address: int
    name: str
    op: str
    group: str = "G1"          # "G1" | "G2" (PAIRING: both; MAP: the target group)
    gas: int | None = None
    gas_per_item: int | None = None
    discount: tuple[int, ...] = ()
    subgroup: bool = False
    padded: bool = False
    empty_ok: bool = False

    def __post_init__(self) -> None:
        if self.op == MSM and self.gas_per_item is not None and len(self.discount) != 128:
            raise ValueError(f"{self.name}: an MSM discount table has 128 entries, not {len(self.discount)}")


@dataclass(frozen=True)
class EvmSpec:
    """One EIP's precompile set and the encoding sizes it writes down (bytes)."""

    eip: str
    profile: str               # the serialization profile of its encodings
    families: tuple[str, ...]
    k: int                     # embedding degree
    g2_degree: int             # degree of G2's coordinate field over Fp
    fp_bytes: int              # one base-field element, padding included
    scalar_bytes: int
    precompiles: tuple[Precompile, ...]
    map_rfc: bool = True       # MAP precompiles need RFC 9380's own map for the group


EIP2537 = EvmSpec(
    eip="EIP-2537", profile="eip2537", families=("BLS12",), k=12, g2_degree=2, fp_bytes=64, scalar_bytes=32,
    precompiles=(
        Precompile(0x0B, "G1ADD", ADD, "G1", gas=375),
        Precompile(0x0C, "G1MSM", MSM, "G1", gas_per_item=12000, discount=EIP2537_G1_DISCOUNT, subgroup=True),
        Precompile(0x0D, "G2ADD", ADD, "G2", gas=600),
        Precompile(0x0E, "G2MSM", MSM, "G2", gas_per_item=22500, discount=EIP2537_G2_DISCOUNT, subgroup=True),
        Precompile(0x0F, "PAIRING_CHECK", PAIRING, gas=37700, gas_per_item=32600, subgroup=True),
        Precompile(0x10, "MAP_FP_TO_G1", MAP, "G1", gas=5500),
        Precompile(0x11, "MAP_FP2_TO_G2", MAP, "G2", gas=23800),
    ),
)

EIP197 = EvmSpec(
    eip="EIP-196/197", profile="eip197", families=("BN",), k=12, g2_degree=2, fp_bytes=32, scalar_bytes=32,
    precompiles=(
        Precompile(0x06, "ECADD", ADD, "G1", gas=150, padded=True),
        Precompile(0x07, "ECMUL", MUL, "G1", gas=6000, padded=True),
        Precompile(0x08, "ECPAIRING", PAIRING, gas=45000, gas_per_item=34000, subgroup=True, empty_ok=True),
    ),
)

EIP2539 = EvmSpec(
    eip="EIP-2539", profile="eip2537", families=("BLS12",), k=12, g2_degree=2, fp_bytes=64, scalar_bytes=32,
    precompiles=(
        Precompile(0x13, "G1ADD", ADD, "G1", gas=600),
        Precompile(0x14, "G1MUL", MUL, "G1", gas=12000),
        Precompile(0x15, "G1MULTIEXP", MSM, "G1", gas_per_item=12000, discount=EIP1962_DISCOUNT),
        Precompile(0x16, "G2ADD", ADD, "G2", gas=4500),
        Precompile(0x17, "G2MUL", MUL, "G2", gas=55000),
        Precompile(0x18, "G2MULTIEXP", MSM, "G2", gas_per_item=55000, discount=EIP1962_DISCOUNT),
        Precompile(0x19, "PAIRING", PAIRING, gas=65000, gas_per_item=55000, subgroup=True),
    ),
)

EIP3026 = EvmSpec(
    eip="EIP-3026", profile="eip2537", families=("BW6",), k=6, g2_degree=1, fp_bytes=96, scalar_bytes=64,
    precompiles=(
        Precompile(0x13, "G1ADD", ADD, "G1"),
        Precompile(0x14, "G1MUL", MUL, "G1"),
        Precompile(0x15, "G1MULTIEXP", MSM, "G1"),
        Precompile(0x16, "G2ADD", ADD, "G2"),
        Precompile(0x17, "G2MUL", MUL, "G2"),
        Precompile(0x18, "G2MULTIEXP", MSM, "G2"),
        Precompile(0x19, "PAIRING", PAIRING, subgroup=True),
    ),
)


def unsupported(spec: EvmSpec, model: "CurveModel") -> str | None:
    """Why the curve cannot carry ``spec``'s precompiles (None: it can), from derived properties."""
    if model.family not in spec.families:
        return f"{spec.eip} is defined for the {'/'.join(spec.families)} family, not {model.family}"
    if model.k != spec.k:
        return f"{spec.eip} needs embedding degree {spec.k}, the curve has {model.k}"
    if model.fq_degree != spec.g2_degree:
        return f"{spec.eip} encodes G2 over an extension of degree {spec.g2_degree}, the curve's twist field has degree {model.fq_degree}"
    ser = derive_serialization(model.fp, model.fr)
    profile = next(p for p in ser.profiles if p.name == spec.profile)
    if not profile.usable:
        return f"{spec.eip} needs the {spec.profile} serialization profile: {profile.reason}"
    if profile.width != spec.fp_bytes:
        return f"{spec.eip} writes field elements in {spec.fp_bytes} bytes, the {spec.profile} profile gives {profile.width} for this p"
    if profile.scalar_width != spec.scalar_bytes:
        return f"{spec.eip} writes scalars in {spec.scalar_bytes} bytes, the {spec.profile} profile gives {profile.scalar_width} for this r"
    for pc in spec.precompiles:
        if pc.op == MAP:
            h2c = model.h2c.get(pc.group.lower())
            if h2c is None:
                return f"{spec.eip} {pc.name} needs a hash-to-curve map for {pc.group}, the curve file gives none"
            if spec.map_rfc and not h2c.rfc:
                return f"{spec.eip} {pc.name} is RFC 9380's map for {pc.group}; the curve's suite {h2c.suite_ro} is not an RFC 9380 suite"
    return None


def context(spec: EvmSpec, model: "CurveModel") -> dict[str, object]:
    """Template variables: the EIP's precompiles and sizes."""
    return {"evm": spec}


# The registered precompile sets by protocol name (the WebAssembly ABI renders one entry point each)
EVM_SPECS: dict[str, EvmSpec] = {}


def _register(name: str, summary: str, spec: EvmSpec) -> None:
    EVM_SPECS[name] = spec
    register(Protocol(
        name=name,
        summary=summary,
        files={f"{name}.py": "python/evm_precompiles.py.j2"},
        unsupported=lambda model: unsupported(spec, model),
        context=lambda model: context(spec, model),
    ))


_register("eip2537", "EIP-2537 precompiles (final): G1/G2 ADD and MSM, pairing check, field-to-curve maps", EIP2537)
_register("eip197", "EIP-196/197 precompiles: ecAdd, ecMul, ecPairing with Istanbul gas", EIP197)
_register("eip2539", "EIP-2539 precompiles: G1/G2 ADD, MUL, MULTIEXP and pairing", EIP2539)
_register("eip3026", "EIP-3026 precompiles: G1/G2 ADD, MUL, MULTIEXP and pairing", EIP3026)
