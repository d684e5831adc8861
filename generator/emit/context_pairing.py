"""The files of a pairing curve's package (BN, BLS12, BLS24, BW6): the C of its fields, tower,
groups, MSM, FFT, pairing and hash to curve, the known-answer program, the WebAssembly ABI with its
ES module loader, the Cython module and the Python modules, from the frozen CurveModel.

Layer: emit. Imports derive (the model), the protocols' EVM sets, the curve files' error and emit's
context.py (what every package shares), api.py and render.py; never generator/reference.
"""

from __future__ import annotations

from ..derive.algebra import Elem
from ..derive.ifma import derive_ifma_field, ifma_constant
from ..derive.model import RENDERED_EMBEDDING_DEGREES, CurveModel
from ..derive.serialization import SerializationModel, derive_serialization
from ..params import CurveFileError
from ..protocols.evm import EVM_SPECS
from .api import own_units
from .context import FieldLiterals, Progress, base_context, extension_files, field_files, package_init_files
from .host_calls import pairing_host_context
from .render import render


class Literals(FieldLiterals):
    """C initializers of field constants in Montgomery form, for one pairing curve."""

    model: CurveModel

    def fp(self, value: int) -> str:
        return self.mont(self.model.fp, value)

    def fq(self, elem: Elem) -> str:
        """An element of the twist field (Fp8, Fp4, Fp2 or Fp); Fp4's flat (c0.c0, c0.c1, c1.c0, c1.c1)
        nests as two Fp2 initializers, Fp8's as two Fp4 ones."""
        if len(elem) == 1:
            return self.fp(elem[0])
        if len(elem) in (4, 8):
            half = len(elem) // 2
            return "{ " + self.fq(elem[:half]) + ", " + self.fq(elem[half:]) + " }"
        return "{ " + ", ".join(self.fp(c) for c in elem) + " }"


def pairing_package_files(model: CurveModel, target: str, progress: Progress | None = None) -> dict[str, str | bytes]:
    """Render every file of the generated package of a pairing curve's ``model`` (text, or bytes for
    a protocol's data)."""
    say = progress or (lambda _msg: None)
    if model.k not in RENDERED_EMBEDDING_DEGREES:
        raise CurveFileError(f"{model.name} ({model.source}): embedding degree {model.k}: the model is derived "
                             "(build_model) but the templates do not render this package yet")
    lit = Literals(model)
    names = model.tower.names
    ser = derive_serialization(model.fp, model.fr, model.spec.serialization, f"{model.name} ({model.source})")
    common = {**base_context(model, lit, target), "names": names, "ser": ser}
    say("rendering C: fields")
    files: dict[str, str | bytes] = {**field_files(model, common)}  # c/limbs.h, c/asm_*.h, c/fp.h, c/fr.h
    say("rendering C: tower")
    files["c/tower.h"] = render("c/tower.h.j2", **common)
    say("rendering C: groups")
    group_common = {"order_limbs": lit.fr_int(model.r), "order_bits": model.r.bit_length(), **common}
    files["c/g1.h"] = render("c/group.h.j2", g="g1", F="fp", b_init=lit.fp(model.b), **group_common)
    files["c/g2.h"] = render("c/group.h.j2", g="g2", F=names["fq"], b_init=lit.fq(model.twist.b), **group_common)
    files["c/endomorphism.h"] = render("c/endomorphism.h.j2", **common)
    # G1 (a = 0 in every pairing family) also gets the AVX-512 IFMA bucket kernel (c/msm/_ifma.j2)
    ifma = derive_ifma_field(model.fp.modulus, model.fp.limbs64, f"{model.name} ({model.source})")
    g1 = {"g": "g1", "F": "fp", "deg": 1, "ifma": ifma}
    if model.endo.g1.zeta is not None:  # phi's zeta and zeta^2 for the batch subgroup test (c/msm/_subgroup.j2)
        zeta = model.endo.g1.zeta[0]
        g1["ifma_zeta"] = (ifma_constant(ifma, zeta), ifma_constant(ifma, zeta * zeta % model.p))
    groups = [g1, {"g": "g2", "F": names["fq"], "deg": model.fq_degree}]
    files["c/msm.h"] = render("c/msm.h.j2", groups=groups, fp_bits=model.p.bit_length(), **group_common)
    files["c/fft.h"] = render("c/fft.h.j2", **common)
    say("rendering C: pairing")
    files["c/pairing.h"] = render("c/pairing.h.j2", **common)
    say("rendering C: hash to curve")
    fq_members = FQ_MEMBERS[model.fq_degree]
    files["c/hash_to_curve.h"] = render("c/hash_to_curve.h.j2", fq_members=fq_members, **common)
    files["c/expand_message.h"] = render("c/expand_message.h.j2", fq_members=fq_members, **common)
    files["c/pairforge.h"] = render("c/pairforge.h.j2", **common)
    # the known-answer test program of the cross-target tests
    files["c/kat_main.c"] = render("c/kat_main.c.j2", fq_members=fq_members, **common)
    # the byte-level ABI of the WebAssembly module and its ES module loader (generator/wasm.py)
    wasm_common = {"bls": "bls_signatures" in model.spec.protocols, "groth16": "groth16" in model.spec.protocols,
                   "evms": evm_sets(model, ser), "fq_members": fq_members, **pairing_host_context(model, ser), **common}
    files["c/wasm_abi.c"] = render("c/wasm_abi.c.j2", **wasm_common)
    files[f"wasm/{model.package}.mjs"] = render("js/wasm_loader.mjs.j2", **wasm_common)
    files[f"wasm/{model.package}.d.mts"] = render("js/wasm_loader.d.mts.j2", **wasm_common)  # its TypeScript declarations
    files["wasm_host.py"] = render("python/wasm_host.py.j2", **wasm_common)  # the host of the --host-calls build
    say("rendering the Python module")
    core_pyx = render("cython/_core.pyx.j2", own_api_units=own_units(model.fp.limbs64), flat_members=FQ_MEMBERS, **common)
    files.update(extension_files(common, core_pyx, "pairforge.h", "python/_core.pyi.j2",
                                 {"pairing": True, "groups": ("G1", "G2")}))
    # helpers shared by the Python modules, and the Dask entry points (every curve)
    files["_runtime.py"] = render("python/_runtime.py.j2", **common)
    files["distributed.py"] = render("python/distributed.py.j2", **common)
    files["_msm_inputs.py"] = render("python/_msm_inputs.py.j2", **common)
    files["_snarkjs.py"] = render("python/_snarkjs.py.j2", **common)  # .ptau/.zkey layouts: kzg, distributed
    files.update(package_init_files(model, common, say, "python/__init__.py.j2", protocols=model.spec.protocols))
    return files


# The C members of a twist-field element, one per Fp coefficient, in the flat order of the Python
# layer and of gnark (Fp4: B0.A0, B0.A1, B1.A0, B1.A1), by the field's degree over Fp.  The
# byte-level programs (c/kat_main.c, c/wasm_abi.c) read and write G2 coordinates through it; the
# protocol modules take any degree, and each protocol's own ``unsupported`` refuses what its
# definition does not cover.
FQ_MEMBERS: dict[int, tuple[str, ...]] = {1: ("",), 2: ("c0", "c1"), 4: ("c0.c0", "c0.c1", "c1.c0", "c1.c1"),
                                           8: tuple(f"c{i}.c{j}.c{k}" for i in (0, 1) for j in (0, 1) for k in (0, 1))}


def evm_sets(model: CurveModel, ser: SerializationModel) -> list[dict[str, object]]:
    """The EVM precompile sets the curve carries, for the WebAssembly ABI: the protocol name, its
    EvmSpec and the resolved serialization profile of its encodings."""
    profiles = {p.name: p for p in ser.profiles}
    return [{"name": name, "spec": EVM_SPECS[name], "profile": profiles[EVM_SPECS[name].profile]}
            for name in model.spec.protocols if name in EVM_SPECS]
