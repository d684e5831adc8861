"""Every module of the generator starts with a docstring that says what it holds and names its layer
(``Layer: <name>.``, then what it may import), and the layer it names is the one the import
contracts of pyproject.toml ([tool.importlinter]) put it in, so the prose cannot drift from the
rules that lint-imports enforces."""

from __future__ import annotations

import ast
import re
import tomllib

from conftest import REPO_ROOT

GENERATOR = REPO_ROOT / "generator"
CONTRACTS = {c["id"]: c for c in tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]}
# The name a docstring gives each layer of the layers contract, by the first module of the layer.
LAYER_NAMES = {
    "generator.cli": "cli",
    "generator.pipeline": "drivers",
    "generator.emit": "emit",
    "generator.protocols": "protocols",
    "generator.derive": "derive",
    "generator.params": "curve files",
    "generator.params_edwards": "curve files",
    "generator.params_pairing": "curve files",
    "generator.params_common": "curve files",
    "generator.build": "leaf",
}
_LAYER_LINE = re.compile(r"^Layer: (?P<name>[a-z][a-z ]*?)[.,;]", re.M)


def _modules() -> dict[str, str]:
    """Every module of the generator (dotted name -> its docstring, "" where it has none)."""
    found = {}
    for path in sorted(GENERATOR.rglob("*.py")):
        rel = path.relative_to(REPO_ROOT).with_suffix("")
        if "_data" in rel.parts:
            continue
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        found[".".join(parts)] = ast.get_docstring(ast.parse(path.read_text())) or ""
    return found


def expected_layer(module: str) -> str:
    """The layer the import contracts put ``module`` in: the entry of the layers contract that names it
    or a package above it; the oracle (its own contracts); the package root."""
    if module == "generator":
        return "the package root"
    if module == "generator.reference" or module.startswith("generator.reference."):
        assert "generator.reference" in CONTRACTS["oracle-alone"]["source_modules"]
        return "oracle"
    for entry in CONTRACTS["layers"]["layers"]:
        members = [m.strip() for m in re.split(r"[:|]", entry)]
        if any(module == m or module.startswith(m + ".") for m in members):
            assert members[0] in LAYER_NAMES, f"name the layer of {members[0]} in LAYER_NAMES"
            return LAYER_NAMES[members[0]]
    raise AssertionError(f"{module} is in no layer of the import contracts (pyproject.toml [tool.importlinter])")


def test_every_module_names_its_layer() -> None:
    modules = _modules()
    assert len(modules) > 50 and "generator.derive.edwards.model" in modules
    wrong = []
    for module, doc in modules.items():
        match = _LAYER_LINE.search(doc)
        stated = match["name"] if match else None
        if len(doc.split()) < 5 or stated != expected_layer(module):
            wrong.append(f"{module}: states {stated!r}, the contracts say {expected_layer(module)!r}")
    assert not wrong, "module docstrings:\n" + "\n".join(wrong)


def test_the_layer_names_follow_the_contract() -> None:
    """A layer moved or renamed in the contract fails here rather than passing with stale names."""
    assert expected_layer("generator.derive.edwards.model") == "derive"
    assert expected_layer("generator.emit.context_edwards") == "emit"
    assert expected_layer("generator.params_edwards") == "curve files"
    assert expected_layer("generator.reference.edwards") == "oracle"
    firsts = [re.split(r"[:|]", entry)[0].strip() for entry in CONTRACTS["layers"]["layers"]]
    assert set(firsts) == set(LAYER_NAMES), firsts


def test_the_generator_imports_no_tool() -> None:
    """bench/, security/ and packaging/ sit above the generator (their docstrings say so): no module
    of the generator imports them, nor the tests."""
    tools = ("bench", "security", "packaging", "tests", "conftest")
    found = []
    for path in sorted(GENERATOR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            found += [f"{path.relative_to(REPO_ROOT)}: {n}" for n in names if n.split(".")[0] in tools]
    assert not found, found
