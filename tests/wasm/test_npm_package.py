"""The wasm32 build as an npm package (``gen-curve <curve> --target wasm32 --npm DIR``,
generator/emit/npm.py, templates/npm/): BLS12-381's and Bandersnatch's packages, made from their
modules (built once: tests/wasm_util.py's cached_wasm), go through ``npm pack`` and an offline
``npm install`` of the tarballs into a fresh project, where Node verifies a BLS signature made by
the native module, ark-vrf's proofs and the READMEs' examples, and ``tsc --noEmit`` (strict)
compiles a TypeScript file that uses the declarations (and refuses one that misuses them).

The TypeScript declarations (wasm/<pkg>.d.mts) are checked against their loader for every
curve: the names each declares, and, under Node, the names the module and its class really have.
Needs node, npm (Debian's nodejs) and tsc (Debian's node-typescript); without them this skips
locally and fails under CI.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import REPO_ROOT, skip_or_fail
from vectors_util import read_vector_json
from wasm_util import VRF_SUITES, cached_wasm, curve_file, require_wasm

from generator import __version__
from generator.cli import main as gen_curve
from generator.emit.npm import npm_version

GENERATED = REPO_ROOT / "generated"
# semver.org's regular expression of a version
SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)"
    r"(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?")
CURVE_CLASS = re.compile(r"^export (?:declare )?class (Curve|EdwardsCurve)\b")


def _loaders() -> list[str]:
    return sorted(p.parent.parent.name for p in GENERATED.glob("*/wasm/*.mjs"))


# --------------------------------------------------------------------------------------------
# The names the loader has and the names its declarations declare


def _class_body(lines: list[str]) -> list[str]:
    start = next(i for i, line in enumerate(lines) if CURVE_CLASS.match(line))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("}"))
    return lines[start + 1 : end]


def loader_names(text: str) -> tuple[set[str], set[str]]:
    """(exported names, public members of the curve class) of a rendered loader (.mjs)."""
    exports = set(re.findall(r"^export (?:const|class|async function|function) (\w+)", text, re.M))
    body = _class_body(text.splitlines())
    members = {m.group(1) for line in body if (m := re.match(r"  (?:async )?(\w+)\(", line))}
    members |= {m for line in body for m in re.findall(r"\bthis\.(\w+) = ", line)}
    return exports, {name for name in members if name != "constructor" and not name.startswith("_")}


def declared_names(text: str) -> tuple[set[str], set[str]]:
    """(declared values, members of the declared curve class) of a rendered .d.mts."""
    exports = set(re.findall(r"^export declare (?:const|class|function) (\w+)", text, re.M))
    body = _class_body(text.splitlines())
    members = {m.group(1) for line in body if (m := re.match(r"  (?:readonly )?(\w+)[<(:?]", line))}
    return exports, members - {"constructor"}


@pytest.mark.parametrize("pkg", _loaders())
def test_declarations_name_what_the_loader_has(pkg) -> None:
    """Every curve's .d.mts declares exactly the loader's exports and its curve class's public members."""
    wasm_dir = GENERATED / pkg / "wasm"
    loader = loader_names((wasm_dir / f"{pkg}.mjs").read_text())
    declared = declared_names((wasm_dir / f"{pkg}.d.mts").read_text())
    assert declared[0] == loader[0], f"exports: {sorted(declared[0] ^ loader[0])}"
    assert declared[1] == loader[1], f"members: {sorted(declared[1] ^ loader[1])}"
    assert {"load", "PairforgeError", "NAME", "ERRORS"} <= loader[0] and len(loader[1]) > 10


def test_npm_version() -> None:
    """PEP 440 versions become semantic versions that keep their order where semver has one."""
    cases = {
        "0.1.1.dev544+g8938862a0.d20261206": "0.1.1-dev.544+g8938862a0.d20261206",
        "1.2": "1.2.0", "1.2.3": "1.2.3", "1.0.0rc1": "1.0.0-rc.1", "2.0.0b2.dev1": "2.0.0-beta.2.dev.1",
        "2.0.0.post3": "2.0.0+post.3", "0.0.0+unknown": "0.0.0+unknown",
    }
    for pep440, semver in cases.items():
        assert npm_version(pep440) == semver
    assert SEMVER.fullmatch(npm_version(__version__))
    for bad in ("1.2.3.4", "v1.0", "1.0-beta"):
        with pytest.raises(ValueError):
            npm_version(bad)


@pytest.mark.parametrize("argv, words", [
    (["bls12-381", "--npm", "{d}"], "--npm packages the WebAssembly module: give --target wasm32"),
    (["bls12-381", "--target", "wasm32", "--npm", "{d}", "--check"], "does not go with --check or --no-build"),
    (["bls12-381", "--target", "wasm32", "--npm", "{d}", "--no-build"], "does not go with --check or --no-build"),
    (["bls12-381", "--target", "wasm32", "--npm", "{d}", "--out", "{d}"], "not several"),
    (["bls12-381", "--npm", "{d}", "--wheel", "{d}"], "not several"),
    (["bls12-381", "--target", "wasm32", "--npm", "{d}", "--package", "x"], "--package names the package of --out"),
])
def test_npm_usage_errors(argv, words, tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "npm"
    assert gen_curve([a.format(d=out) for a in argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1, err
    assert not out.exists()


def test_gen_curve_npm_writes_the_package(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    """gen-curve --npm end to end (one zig build of Bandersnatch): the package's files, the loader and
    declarations as generated/ has them, a module that loads, and generated/ left alone."""
    require_wasm()
    before = sorted((GENERATED / "bandersnatch").rglob("*"))
    assert gen_curve(["bandersnatch", "--target", "wasm32", "--npm", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    package_dir = tmp_path / "pairforge-bandersnatch"
    assert "@pairforge/bandersnatch" in out and f"npm pack {package_dir}" in out, out
    assert sorted(p.name for p in package_dir.iterdir()) == sorted([
        "LICENSE-APACHE", "LICENSE-MIT", "README.md", "bandersnatch.d.mts", "bandersnatch.mjs", "bandersnatch.wasm",
        "package.json"])
    for name in ("bandersnatch.mjs", "bandersnatch.d.mts"):
        assert (package_dir / name).read_bytes() == (GENERATED / "bandersnatch" / "wasm" / name).read_bytes()
    meta = json.loads((package_dir / "package.json").read_text())
    assert meta["name"] == "@pairforge/bandersnatch" and meta["files"][:3] == [
        "bandersnatch.mjs", "bandersnatch.d.mts", "bandersnatch.wasm"]
    import wasmtime

    module = wasmtime.Module.from_file(wasmtime.Engine(), str(package_dir / "bandersnatch.wasm"))
    assert not module.imports and any(e.name == "pf_ecvrf_verify_vartime" for e in module.exports)
    assert sorted((GENERATED / "bandersnatch").rglob("*")) == before


# --------------------------------------------------------------------------------------------
# Pack, install offline, verify under Node, type-check


def _tools() -> dict[str, str]:
    tools = {name: shutil.which(name) for name in ("node", "npm", "tsc")}
    missing = [name for name, path in tools.items() if path is None]
    if missing:
        skip_or_fail(f"{', '.join(missing)} not installed (apt-get install nodejs npm node-typescript)")
    return tools  # type: ignore[return-value]


def _run(cmd: list[str], cwd: Path, env: dict[str, str], ok: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    if ok:
        assert proc.returncode == 0, f"{' '.join(cmd)}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


def _write_npm_package(pkg: str, out: Path) -> Path:
    """gen-curve --npm's steps for generated/<pkg>, with the module from the test cache (no second zig build)."""
    from generator import pipeline
    from generator.cli import write_npm_package
    from generator.emit.npm import npm_dir_name

    model = pipeline.derive_model(curve_file(pkg))
    files = pipeline.render_package(model, "wasm32")
    package_dir = out / npm_dir_name(model)
    write_npm_package(package_dir, pipeline.render_npm(model, files, cached_wasm(GENERATED / pkg).read_bytes(), __version__))
    return package_dir


def _readme_example(readme: Path) -> str:
    match = re.search(r"^```js\n(.*?)^```", readme.read_text(), re.M | re.S)
    assert match, f"{readme} has no js example"
    return match.group(1)


VERIFY_SCRIPT = r"""
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as bls from '@pairforge/bls12-381';
import * as ed from '@pairforge/bandersnatch';

const fx = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const hex = (s) => Uint8Array.from(Buffer.from(s, 'hex'));
const str = (b) => Buffer.from(b).toString('hex');
const counts = { bls: 0, vrf: 0 };

// a BLS signature made by the native module, through the installed package (the .wasm beside it)
const curve = await bls.load();
const [pk, sig, msg] = [hex(fx.pk), hex(fx.sig), fx.message];
assert.equal(curve.verify(pk, msg, sig, { dst: bls.BLS_DST_MINPK }), true); counts.bls++;
assert.equal(curve.verify(pk, msg + '!', sig), false); counts.bls++;
assert.equal(curve.verify(hex(fx.other_pk), msg, sig), false); counts.bls++;
assert.equal(curve.verify(pk, msg, sig.slice(1)), false); counts.bls++;
const { verifySignature } = await import('./readme_bls12-381.mjs');
assert.equal(verifySignature(pk, msg, sig), true); counts.bls++;
assert.equal(verifySignature(pk, 'another message', sig), false); counts.bls++;

// ark-vrf's proofs
const edwards = await ed.load();
const { vrfOutput } = await import('./readme_bandersnatch.mjs');
for (const v of fx.vrf) {
  const proof = hex(v.gamma + v.proof_c + v.proof_s);
  const args = [hex(v.pk), hex(v.alpha), hex(v.ad)];
  assert.equal(edwards.vrfVerify(...args, proof, { suite: v.suite }), true, v.comment);
  assert.equal(str(edwards.vrfProofToHash(proof, { suite: v.suite })), v.beta, v.comment);
  assert.equal(str(vrfOutput(...args, proof, v.suite)), v.beta, v.comment);
  const flipped = proof.slice();
  flipped[hex(v.gamma).length] ^= 1;
  assert.equal(edwards.vrfVerify(...args, flipped, { suite: v.suite }), false, v.comment);
  assert.equal(vrfOutput(...args, flipped, v.suite), null, v.comment);
  counts.vrf++;
}

// the names each module exports and its curve class has, for the check against the declarations
const names = (mod, cls, instance) => ({
  exports: Object.keys(mod),
  members: [...Object.getOwnPropertyNames(cls.prototype), ...Object.keys(instance)]
    .filter((n) => n !== 'constructor' && !n.startsWith('_')),
});
console.log(JSON.stringify({ counts, names: { 'bls12-381': names(bls, bls.Curve, curve),
  bandersnatch: names(ed, ed.EdwardsCurve, edwards) } }));
"""

USAGE_TS = """
import { load, Curve, PairforgeError, BLS_DST_MINPK, BLS_DST_MINSIG, EVM, NAME, type BlsVariant } from '@pairforge/bls12-381';
import { load as loadEdwards, EdwardsCurve, PROFILES, DEFAULT_PROFILE, VRF_SUITES, type VrfSuite } from '@pairforge/bandersnatch';

const curve: Curve = await load();
const name: 'BLS12-381' = NAME;
const variant: BlsVariant = 'minsig';
const pk: Uint8Array = new Uint8Array(curve.sizes.g1[1]);
const ok: boolean = curve.verify(pk, 'message', new Uint8Array(curve.sizes.g2[1]), { dst: BLS_DST_MINPK });
const sig: Uint8Array = curve.sign(new Uint8Array(32), new Uint8Array([1, 2]), { dst: BLS_DST_MINSIG, variant });
const gt: Uint8Array = curve.pairing(curve.hashToCurve('g1', 'a', 'DST'), curve.g2Mul(pk, pk, { compressed: false }));
const both: boolean = curve.pairingCheck([pk, pk], [sig, sig]) && curve.groth16Verify(pk, pk, [pk]);
const sum: Uint8Array = curve.msm('g2', [sig], [pk]);
const out: Uint8Array = curve.evm('eip2537', 'G1ADD', pk);
const address: number = EVM.eip2537.PAIRING_CHECK;
const agg: boolean = curve.aggregateVerify([pk], ['m'], sig) || curve.fastAggregateVerify([pk], 'm', sig, { variant: 'minpk' });

const ed: EdwardsCurve = await loadEdwards('./bandersnatch.wasm');
const suite: VrfSuite = VRF_SUITES[VRF_SUITES.length - 1];
const g: Uint8Array = ed.generator({ compressed: false });
const xy: [Uint8Array, Uint8Array] = ed.toAffine(g, { profile: PROFILES[0] });
const p: Uint8Array = ed.decode(ed.fromAffine(xy[0], xy[1]), { profile: DEFAULT_PROFILE, outProfile: PROFILES[0] });
const sw: Uint8Array = ed.swMsm([ed.swFromEdwards(p)], [new Uint8Array(ed.sizes.scalar)]);
const proof: Uint8Array = ed.vrfProve(new Uint8Array(32), 'input', undefined, { suite });
const parts: [Uint8Array, Uint8Array, Uint8Array] = ed.vrfSplitProof(proof);
const valid: boolean = ed.vrfVerify(ed.vrfPublicKey(new Uint8Array(32)), 'input', '', proof, { suite });
export let failure: [number, string] | undefined;
try {
  ed.mul(g, new Uint8Array(3));
} catch (err) {
  if (err instanceof PairforgeError) failure = [err.code, err.message];
}
export const results = [name, ok, gt, both, sum, out, address, agg, sw, parts, valid];
"""

# Misuses the declarations must refuse: a number as a point, an unknown profile, a missing argument
MISUSE_TS = """
import { load } from '@pairforge/bls12-381';
import { load as loadEdwards } from '@pairforge/bandersnatch';

const curve = await load();
const ed = await loadEdwards();
curve.verify(1, 'message', new Uint8Array(96));
ed.decode(ed.generator(), { profile: 'no-such-profile' });
ed.vrfVerify(new Uint8Array(32), 'input', new Uint8Array(64));
"""


# With the DOM's types, load() takes a URL too
URL_TS = """
import { load } from '@pairforge/bls12-381';

const curve = await load(new URL('./bls12_381.wasm', import.meta.url));
export const gtSize: number = curve.sizes.gt;
"""


def _tsconfig(path: Path, file: str, lib: tuple[str, ...] = ("es2022",)) -> None:
    path.write_text(json.dumps({
        "compilerOptions": {"strict": True, "noEmit": True, "target": "es2022", "module": "nodenext",
                            "moduleResolution": "nodenext", "lib": list(lib), "types": []},
        "files": [file],
    }))


def test_npm_package_installs_offline_and_verifies(curve_module, tmp_path) -> None:
    tools = _tools()
    curve_module("bls12_381")
    from generated.bls12_381 import bls

    env = {**os.environ, "npm_config_cache": str(tmp_path / "npm-cache"), "npm_config_update_notifier": "false"}
    packages = {name: _write_npm_package(pkg, tmp_path / "npm") for name, pkg in
                (("bls12-381", "bls12_381"), ("bandersnatch", "bandersnatch"))}

    # package.json, and what `npm pack` puts in the tarball
    tarballs = tmp_path / "tarballs"
    tarballs.mkdir()
    for name, package_dir in packages.items():
        stem = package_dir.name.removeprefix("pairforge-").replace("-", "_")
        meta = json.loads((package_dir / "package.json").read_text())
        assert meta["name"] == f"@pairforge/{name}" and meta["version"] == npm_version(__version__)
        assert meta["type"] == "module" and meta["license"] == "MIT OR Apache-2.0"
        assert meta["exports"]["."] == {"types": f"./{stem}.d.mts", "default": f"./{stem}.mjs"}
        assert not {"dependencies", "peerDependencies", "optionalDependencies"} & set(meta)
        packed = json.loads(_run([tools["npm"], "pack", "--json", "--offline", "--pack-destination", str(tarballs)],
                                 package_dir, env).stdout)[0]
        shipped = {f"{stem}.mjs", f"{stem}.d.mts", f"{stem}.wasm", "package.json", "README.md", "LICENSE-MIT",
                   "LICENSE-APACHE"}
        assert {entry["path"] for entry in packed["files"]} == shipped
        assert (package_dir / f"{stem}.mjs").read_bytes() == (GENERATED / stem / "wasm" / f"{stem}.mjs").read_bytes()
        assert (package_dir / f"{stem}.d.mts").read_bytes() == (GENERATED / stem / "wasm" / f"{stem}.d.mts").read_bytes()
        assert (package_dir / "LICENSE-APACHE").read_text() == (REPO_ROOT / "LICENSE-APACHE").read_text()

    # a fresh project installs both tarballs with no network
    app = tmp_path / "app"
    app.mkdir()
    (app / "package.json").write_text(json.dumps({"name": "app", "private": True, "type": "module"}))
    _run([tools["npm"], "install", "--offline", "--no-audit", "--no-fund", *map(str, sorted(tarballs.glob("*.tgz")))],
         app, env)
    for name in packages:
        installed = app / "node_modules" / "@pairforge" / name
        assert json.loads((installed / "package.json").read_text())["name"] == f"@pairforge/{name}"
        (app / f"readme_{name}.mjs").write_text(_readme_example(installed / "README.md"))

    pop = bls.MinPk.Pop
    sk, other = pop.key_gen(bytes(range(32))), pop.key_gen(bytes(range(1, 33)))
    message = "pairforge from npm"
    vrf = []
    for prefix, (owner, suite) in VRF_SUITES.items():
        if owner == "bandersnatch":
            vrf += [{**v, "suite": suite} for v in read_vector_json("edwards_companions", f"ark-vrf/{prefix}_tiny.json")]
    fixture = {"pk": pop.sk_to_pk(sk).hex(), "sig": pop.sign(sk, message.encode()).hex(), "message": message,
               "other_pk": pop.sk_to_pk(other).hex(), "vrf": vrf}
    (app / "fixture.json").write_text(json.dumps(fixture))
    (app / "verify.mjs").write_text(VERIFY_SCRIPT)
    result = json.loads(_run([tools["node"], "verify.mjs", "fixture.json"], app, env).stdout.splitlines()[-1])
    assert result["counts"] == {"bls": 6, "vrf": len(vrf)} and len(vrf) >= 14

    # the module's real names are the declared ones
    for name, package_dir in packages.items():
        stem = package_dir.name.removeprefix("pairforge-").replace("-", "_")
        exports, members = declared_names((package_dir / f"{stem}.d.mts").read_text())
        assert set(result["names"][name]["exports"]) == exports, name
        assert set(result["names"][name]["members"]) == members, name

    # the declarations type-check a strict TypeScript program, and refuse misuses
    (app / "usage.ts").write_text(USAGE_TS)
    _tsconfig(app / "tsconfig.json", "usage.ts")
    _run([tools["tsc"], "-p", "tsconfig.json"], app, env)
    (app / "url.ts").write_text(URL_TS)
    _tsconfig(app / "tsconfig.url.json", "url.ts", ("es2022", "dom"))
    _run([tools["tsc"], "-p", "tsconfig.url.json"], app, env)
    (app / "misuse.ts").write_text(MISUSE_TS)
    _tsconfig(app / "tsconfig.misuse.json", "misuse.ts")
    proc = _run([tools["tsc"], "-p", "tsconfig.misuse.json"], app, env, ok=False)
    errors = re.findall(r"misuse\.ts\((\d+),\d+\): error TS\d+", proc.stdout)
    assert proc.returncode != 0 and sorted(set(errors)) == ["7", "8", "9"], proc.stdout[-3000:]


@pytest.mark.slow
@pytest.mark.parametrize("pkg", ["bn254", "ed_on_bls12_377"])
def test_readme_example_without_signatures(pkg, tmp_path) -> None:
    """The README example of a pairing curve without BLS (bilinearity) and of an Edwards curve
    without the VRF (the group law) prints true from an offline install of the package folder."""
    tools = _tools()
    env = {**os.environ, "npm_config_cache": str(tmp_path / "npm-cache"), "npm_config_update_notifier": "false"}
    package_dir = _write_npm_package(pkg, tmp_path / "npm")
    app = tmp_path / "app"
    app.mkdir()
    (app / "package.json").write_text(json.dumps({"name": "app", "private": True, "type": "module"}))
    _run([tools["npm"], "install", "--offline", "--no-audit", "--no-fund", str(package_dir)], app, env)
    example = _readme_example(package_dir / "README.md")
    assert "verify" not in example  # the example of a curve without signatures or a VRF
    (app / "example.mjs").write_text(example)
    assert _run([tools["node"], "example.mjs"], app, env).stdout == "true\n"
