"""The EVM precompile vector files (tests/vectors: geth's and the EIPs' EIP-2537 assets, geth's
EIP-196/197, Celo's EIP-2539 and EIP-3026), which package and protocol module each one exercises,
and the rule each implementation's error wording stands for: read by
tests/protocols/test_evm_precompiles.py (the Python modules) and tests/wasm/test_wasm_protocols.py
(the WebAssembly ABI)."""

from __future__ import annotations

from functools import lru_cache

from vectors_util import read_vector_json

GETH_2537 = "eip2537_bls12381_precompiles_geth"
ASSETS_2537 = "eip2537_bls12381_precompiles_eips_assets"
GETH_197 = "eip196_197_bn254_precompiles_geth"
CELO = "bls12377_bw6761_precompiles_celo"

# (folder, file, package, protocol module, precompile name, gas is normative)
FILES = [
    (GETH_2537, "blsG1Add.json", "bls12_381", "eip2537", "G1ADD", True),
    (GETH_2537, "blsG1Mul.json", "bls12_381", "eip2537", "G1MSM", True),
    (GETH_2537, "blsG1MultiExp.json", "bls12_381", "eip2537", "G1MSM", True),
    (GETH_2537, "blsG2Add.json", "bls12_381", "eip2537", "G2ADD", True),
    (GETH_2537, "blsG2Mul.json", "bls12_381", "eip2537", "G2MSM", True),
    (GETH_2537, "blsG2MultiExp.json", "bls12_381", "eip2537", "G2MSM", True),
    (GETH_2537, "blsPairing.json", "bls12_381", "eip2537", "PAIRING_CHECK", True),
    (GETH_2537, "blsMapG1.json", "bls12_381", "eip2537", "MAP_FP_TO_G1", True),
    (GETH_2537, "blsMapG2.json", "bls12_381", "eip2537", "MAP_FP2_TO_G2", True),
    (GETH_2537, "fail-blsG1Add.json", "bls12_381", "eip2537", "G1ADD", True),
    (GETH_2537, "fail-blsG1Mul.json", "bls12_381", "eip2537", "G1MSM", True),
    (GETH_2537, "fail-blsG1MultiExp.json", "bls12_381", "eip2537", "G1MSM", True),
    (GETH_2537, "fail-blsG2Add.json", "bls12_381", "eip2537", "G2ADD", True),
    (GETH_2537, "fail-blsG2Mul.json", "bls12_381", "eip2537", "G2MSM", True),
    (GETH_2537, "fail-blsG2MultiExp.json", "bls12_381", "eip2537", "G2MSM", True),
    (GETH_2537, "fail-blsPairing.json", "bls12_381", "eip2537", "PAIRING_CHECK", True),
    (GETH_2537, "fail-blsMapG1.json", "bls12_381", "eip2537", "MAP_FP_TO_G1", True),
    (GETH_2537, "fail-blsMapG2.json", "bls12_381", "eip2537", "MAP_FP2_TO_G2", True),
    (ASSETS_2537, "add_G1_bls.json", "bls12_381", "eip2537", "G1ADD", True),
    (ASSETS_2537, "add_G2_bls.json", "bls12_381", "eip2537", "G2ADD", True),
    (ASSETS_2537, "mul_G1_bls.json", "bls12_381", "eip2537", "G1MSM", True),
    (ASSETS_2537, "mul_G2_bls.json", "bls12_381", "eip2537", "G2MSM", True),
    (ASSETS_2537, "msm_G1_bls.json", "bls12_381", "eip2537", "G1MSM", True),
    (ASSETS_2537, "pairing_check_bls.json", "bls12_381", "eip2537", "PAIRING_CHECK", True),
    (ASSETS_2537, "map_fp_to_G1_bls.json", "bls12_381", "eip2537", "MAP_FP_TO_G1", True),
    (ASSETS_2537, "map_fp2_to_G2_bls.json", "bls12_381", "eip2537", "MAP_FP2_TO_G2", True),
    (ASSETS_2537, "fail-add_G1_bls.json", "bls12_381", "eip2537", "G1ADD", True),
    (ASSETS_2537, "fail-add_G2_bls.json", "bls12_381", "eip2537", "G2ADD", True),
    (ASSETS_2537, "fail-mul_G1_bls.json", "bls12_381", "eip2537", "G1MSM", True),
    (ASSETS_2537, "fail-mul_G2_bls.json", "bls12_381", "eip2537", "G2MSM", True),
    (ASSETS_2537, "fail-msm_G1_bls.json", "bls12_381", "eip2537", "G1MSM", True),
    (ASSETS_2537, "fail-msm_G2_bls.json", "bls12_381", "eip2537", "G2MSM", True),
    (ASSETS_2537, "fail-pairing_check_bls.json", "bls12_381", "eip2537", "PAIRING_CHECK", True),
    (ASSETS_2537, "fail-map_fp_to_G1_bls.json", "bls12_381", "eip2537", "MAP_FP_TO_G1", True),
    (ASSETS_2537, "fail-map_fp2_to_G2_bls.json", "bls12_381", "eip2537", "MAP_FP2_TO_G2", True),
    (GETH_197, "bn256Add.json", "bn254", "eip197", "ECADD", True),
    (GETH_197, "bn256ScalarMul.json", "bn254", "eip197", "ECMUL", True),
    (GETH_197, "bn256Pairing.json", "bn254", "eip197", "ECPAIRING", True),
]
# Celo: gas fields are Celo's own (mostly 0), not normative; G1Add_matter's 600 is EIP-2539's price.
for _g in ("G1", "G2"):
    for _src in ("matter", "zexe"):
        FILES += [
            (CELO, f"bls12_377/bls12377{_g}Add_{_src}.json", "bls12_377", "eip2539", f"{_g}ADD", _g == "G1" and _src == "matter"),
            (CELO, f"bls12_377/bls12377{_g}Mul_{_src}.json", "bls12_377", "eip2539", f"{_g}MUL", False),
        ]
    FILES += [
        (CELO, f"bls12_377/bls12377{_g}MultiExp_zexe_first16.json", "bls12_377", "eip2539", f"{_g}MULTIEXP", False),
        (CELO, f"bls12_377/fail-bls12377{_g}Add.json", "bls12_377", "eip2539", f"{_g}ADD", False),
        (CELO, f"bls12_377/fail-bls12377{_g}Mul.json", "bls12_377", "eip2539", f"{_g}MUL", False),
        (CELO, f"bls12_377/fail-bls12377{_g}Multiexp.json", "bls12_377", "eip2539", f"{_g}MULTIEXP", False),
        (CELO, f"bw6_761/bw6{_g}Add_zexe.json", "bw6_761", "eip3026", f"{_g}ADD", False),
        (CELO, f"bw6_761/bw6{_g}Mul_zexe.json", "bw6_761", "eip3026", f"{_g}MUL", False),
        (CELO, f"bw6_761/bw6{_g}MultiExp_zexe_first16.json", "bw6_761", "eip3026", f"{_g}MULTIEXP", False),
        (CELO, f"bw6_761/fail-bw6{_g}Add.json", "bw6_761", "eip3026", f"{_g}ADD", False),
        (CELO, f"bw6_761/fail-bw6{_g}Mul.json", "bw6_761", "eip3026", f"{_g}MUL", False),
        (CELO, f"bw6_761/fail-bw6{_g}MultiExp.json", "bw6_761", "eip3026", f"{_g}MULTIEXP", False),
    ]
FILES += [
    (CELO, "bls12_377/bls12377Pairing_matter.json", "bls12_377", "eip2539", "PAIRING", False),
    (CELO, "bls12_377/fail-bls12377Pairing.json", "bls12_377", "eip2539", "PAIRING", False),
    (CELO, "bw6_761/fail-bw6Pairing.json", "bw6_761", "eip3026", "PAIRING", False),
]

# The implementations' error wording -> the rule the EIPs state.
ERROR_RULES = {
    "invalid input length": "length",
    "invalid field element top bytes": "padding",
    "invalid fp.element encoding": "field",
    "must be less than modulus": "field",
    "invalid point: not on curve": "curve",
    "point is not on curve": "curve",
    "g1 point is not in the correct subgroup": "subgroup",
    "g2 point is not in the correct subgroup": "subgroup",
    "g1 point is not on correct subgroup": "subgroup",
    "g2 point is not on correct subgroup": "subgroup",
}


@lru_cache(maxsize=None)
def load(folder: str, filename: str) -> list[dict]:
    """The cases of tests/vectors/<folder>/<filename> (parsed once per process)."""
    cases = read_vector_json(folder, filename)
    # the Celo BW6 files spell their keys in lower case
    return [{key[0].upper() + key[1:]: value for key, value in case.items()} for case in cases]
