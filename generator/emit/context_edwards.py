"""The files of a twisted Edwards companion package: the base-field and scalar-field kernels of
their limb counts (the same field template and assembly kernels as the pairing curves), the group
in extended coordinates, the Cython module and its stub, and the byte-level ABI of the wasm32
target (c/wasm_abi.c) with its ES module loader (wasm/<package>.mjs).

Layer: emit. Imports derive (the model, its Elligator 2 constants), the protocol registry and emit's
context.py (what every package shares) and render.py; never generator/reference.
"""

from __future__ import annotations

from ..derive.checks import require
from ..derive.edwards import EdwardsModel
from ..derive.edwards.hash_to_curve import Elligator2Model, derive_elligator2
from ..derive.ifma import derive_ifma_field, ifma_constant
from ..protocols import PROTOCOLS
from .context import (
    FieldLiterals,
    Progress,
    base_context,
    extension_files,
    field_files,
    package_init_files,
    source_path,
)
from .host_calls import edwards_host_context
from .render import render


class EdwardsLiterals(FieldLiterals):
    """C initializers for one Edwards curve: fq constants in Montgomery form, canonical fr-width limbs."""

    model: EdwardsModel

    def fq(self, value: int) -> str:
        return self.mont(self.model.fq, value)


# From this many points on the MSM runs in batch-affine form on the Weierstrass model, by the
# cost of an extended-coordinate bucket addition: 8 multiplications where a = -1, 9 or more
# elsewhere (against about 6 plus a share of an inversion in batch-affine form).  Measured on
# every shipped curve (the crossover: 1536-2048 points for jubjub, ed_on_bls12_377 and
# ed_on_bw6_761; 512-1024 for bandersnatch and babyjubjub; docs/api.md, "Twisted Edwards curves").
SW_MSM_MIN_N_A_MINUS_ONE = 2048
SW_MSM_MIN_N_GENERAL_A = 1024


def sw_msm_min_n(model: EdwardsModel) -> int | None:
    """From how many points te_msm_vartime runs on the Weierstrass model (None: never, the model
    has b = 0)."""
    if model.weierstrass.b % model.p == 0:
        return None
    return SW_MSM_MIN_N_A_MINUS_ONE if model.a_is_minus_one else SW_MSM_MIN_N_GENERAL_A


def sw_map_constants(model: EdwardsModel) -> dict[str, int]:
    """The constants of the maps between the Edwards curve and its derived Weierstrass model
    through the Montgomery model B v² = u³ + A u² + u (generator/derive/edwards/model.py, c = 1)."""
    p, (A, B) = model.p, model.montgomery
    assert model.weierstrass.c == 1
    return {"binv": pow(B, -1, p), "k": A * pow(3 * B, -1, p) % p, "b": B, "a3": A * pow(3, -1, p) % p}


def sw_msm_files(model: EdwardsModel, common: dict) -> dict[str, str]:
    """The short Weierstrass group (group.h.j2, with a_init where a != 0) and its batch-affine MSM
    (msm.h.j2), where the derived Weierstrass model has b != 0 (so (0, 0), the identity marker of
    group.h, is not on it); empty otherwise, and the MSM stays in extended Edwards coordinates.
    The MSM also gets the AVX-512 IFMA bucket kernel (c/msm/_ifma.j2), as the pairing curves' G1:
    Fq in 52-bit limbs, with a in the kernel's form for its doubling where a != 0."""
    W, p = model.weierstrass, model.p
    if sw_msm_min_n(model) is None:
        return {}
    lit = common["lit"]
    group = {"order_limbs": lit.fr_int(model.r), "order_bits": model.r.bit_length(), "header": common["header"]}
    ifma = derive_ifma_field(p, model.fq.limbs64, f"{model.name} ({source_path(model)})")
    sw = {"g": "sw", "F": "fq", "deg": 1, "a_nonzero": W.a % p != 0, "ifma": ifma, "ifma_a": ifma_constant(ifma, W.a)}
    return {
        "c/sw.h": render("c/group.h.j2", g="sw", F="fq", b_init=lit.fq(W.b),
                         a_init=lit.fq(W.a) if W.a % p else None, **group),
        "c/sw_msm.h": render("c/msm.h.j2", groups=[sw], fp_bits=p.bit_length(), **group),
    }


def sw_point_in_c(model: EdwardsModel, msm_files: dict[str, str]) -> bool:
    """Whether SWPoint (the curve file's [weierstrass] section) is rendered, in C: its model must be
    the derived one of sw.h (c = 1, the same a and b, b != 0), so that sw.h's group code and
    edwards_msm.h's map constants serve it. A curve file whose published model is another scaling
    is refused here rather than given a model the C does not implement."""
    w = model.published_weierstrass
    if w is None:
        return False
    W, p = model.weierstrass, model.p
    require(w.c == 1 and (w.a - W.a) % p == 0 and (w.b - W.b) % p == 0 and bool(msm_files), model.name,
            "SWPoint's C needs the [weierstrass] model to be the derived one (scale c = 1, b != 0)")
    return True


def wasm_files(model: EdwardsModel, common: dict, e: Elligator2Model, sw_msm: bool, sw_point: bool) -> dict[str, str]:
    """The byte-level ABI of the WebAssembly module (c/wasm_abi.c: templates/c/edwards_wasm_abi.c.j2
    and its partials templates/c/_edwards_wasm_*.j2: hashing, SWPoint, and ark-vrf's VRF where the
    curve file lists "ecvrf") and its ES module loader (templates/js/edwards_wasm_loader.mjs.j2) with
    its TypeScript declarations (edwards_wasm_loader.d.mts.j2, from the same context);
    generator/wasm.py builds the module. The Elligator 2 constants and the VRF suites are the
    Python modules' own (derive_elligator2, generator/protocols/ecvrf.py's context)."""
    p = model.p
    require(e.L <= 16 * model.fq.limbs64, model.name,
            "a hash-to-field string fits the C reduction (two Montgomery words)")
    ell = {"e": e, "z": e.Z % p, "k": e.K % p, "c1": e.J * pow(e.K, -1, p) % p, "c2": pow(e.K * e.K, -1, p)}
    vrf = None
    if "ecvrf" in model.spec.protocols:
        vrf = dict(PROTOCOLS["ecvrf"].context(model))
        vrf["suites"] = [{**s, "scale_inv": pow(s["scale"], -1, p)} for s in vrf["suites"]]
        require(vrf["scalar_len"] == model.fr.nbytes and vrf["point_len"] == model.fq.nbytes, model.name,
                "the VRF's scalars and Edwards points have the widths of Fr and Fq")
        require(vrf["nonce_len"] <= 16 * model.fr.limbs64, model.name,
                "the VRF nonce fits the C reduction (two Montgomery words)")
    names = [prof.name for prof in model.profiles]
    context = {**common, "default_profile": names.index(model.default_profile), "sw_msm": sw_msm,
               "sw_msm_min_n": sw_msm_min_n(model), "sw_point": sw_point, "ell": ell, "vrf": vrf,
               "vrf_shake": bool(vrf) and any(s["transcript"] == "shake128" for s in vrf["suites"]),
               **edwards_host_context(model)}
    return {"c/wasm_abi.c": render("c/edwards_wasm_abi.c.j2", **context),
            "wasm_host.py": render("python/edwards_wasm_host.py.j2", **context),  # the host of --host-calls
            f"wasm/{model.package}.mjs": render("js/edwards_wasm_loader.mjs.j2", **context),
            f"wasm/{model.package}.d.mts": render("js/edwards_wasm_loader.d.mts.j2", **context)}


def edwards_package_files(model: EdwardsModel, target: str, progress: Progress | None = None) -> dict[str, str | bytes]:
    """Render every file of the generated package of a twisted Edwards ``model``."""
    say = progress or (lambda _msg: None)
    common = base_context(model, EdwardsLiterals(model), target)
    say("rendering C: fields")
    files: dict[str, str | bytes] = {**field_files(model, common)}  # c/limbs.h, c/asm_*.h, c/fq.h, c/fr.h
    say("rendering C: twisted Edwards group and MSM")
    files["c/edwards.h"] = render("c/edwards.h.j2", **common)
    msm = sw_msm_files(model, common)
    files.update(msm)
    files["c/edwards_msm.h"] = render("c/edwards_msm.h.j2", sw_msm=bool(msm), sw_msm_min_n=sw_msm_min_n(model),
                                      sw_map=sw_map_constants(model), **common)
    sw_point = sw_point_in_c(model, msm)
    if sw_point:
        files["c/edwards_sw.h"] = render("c/edwards_sw.h.j2", **common)
    files["c/edwards_core.h"] = render("c/edwards_core.h.j2", sw_msm=bool(msm), sw_point=sw_point, **common)
    files["c/kat_main.c"] = render("c/edwards_kat_main.c.j2", **common)  # cross-target tests only
    say("rendering the Python module")
    common["e"] = derive_elligator2(model.p, model.a, model.d, model.name, f"{model.name} ({source_path(model)})")
    files["_hash_to_curve.py"] = render("python/edwards_hash.py.j2", **common)
    say("rendering the WebAssembly ABI and its ES module")
    files.update(wasm_files(model, common, common["e"], bool(msm), sw_point))
    if model.published_weierstrass is not None:   # the curve file's [weierstrass]: SWPoint
        files["_weierstrass.py"] = render("python/edwards_weierstrass.py.j2", **common)
    core_pyx = render("cython/edwards_core.pyx.j2", sw_msm=bool(msm), **common)
    files.update(extension_files(common, core_pyx, "edwards_core.h", "python/edwards_core.pyi.j2",
                                 {"pairing": False, "groups": ("Point",)}))
    # ark-vrf's VRF where the curve file lists "ecvrf"
    files.update(package_init_files(model, common, say, "python/edwards_init.py.j2"))
    return files
