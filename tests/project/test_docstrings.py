"""Every public name of every generated package is documented, with an example.

For each package of generated/: every name of its ``__all__`` is declared in its stub
``_core.pyi``, and every public class, method, property and function of the stub has a docstring
with an example (``>>>``, run by tests/project/test_doctests.py); every public name of its Python modules
(the protocol modules and ``distributed``: their ``__all__`` and the public functions and classes
they define, with the methods and properties of each class, and the schemes reached through
``bls.MinPk``/``MinSig``) likewise.  Module-level constants need no docstring.
"""

from __future__ import annotations

import pytest
from api_docs import Doc, module_docs, python_modules, stub_docs, stub_names
from conftest import REPO_ROOT, edwards_packages, generated_packages, load_curve_module

PACKAGES = generated_packages() + edwards_packages()

# Documented without an example, each with its reason.
NO_EXAMPLE: dict[str, str] = {}


def _undocumented(docs: list[Doc]) -> list[str]:
    """The names whose docstring is missing, or has no example where one is due."""
    bad = []
    for doc in docs:
        where = f"{doc.path.relative_to(REPO_ROOT)}:{doc.lineno + 1}"
        if not (doc.doc or "").strip():
            bad.append(f"{doc.name} ({where}): no docstring")
        elif ">>>" not in doc.doc and doc.name not in NO_EXAMPLE and not doc.name.endswith("._core"):
            bad.append(f"{doc.name} ({where}): no example")
    return bad


@pytest.mark.parametrize("pkg", PACKAGES)
def test_the_stub_documents_every_public_name(pkg: str) -> None:
    package = load_curve_module(pkg)
    declared = stub_names(package)
    missing = sorted(set(package.__all__) - declared)
    assert not missing, f"generated.{pkg}.__all__ names {missing}, which _core.pyi does not declare"
    docs = stub_docs(package)
    assert len(docs) > 20, f"generated/{pkg}/_core.pyi: too few documented names ({len(docs)})"
    bad = _undocumented(docs)
    assert not bad, f"generated/{pkg}/_core.pyi: {len(bad)} public names undocumented:\n" + "\n".join(bad)


@pytest.mark.parametrize("pkg", PACKAGES)
def test_the_python_modules_document_every_public_name(pkg: str) -> None:
    package = load_curve_module(pkg)
    modules = python_modules(package)
    if not modules:
        pytest.skip(f"generated.{pkg} has no Python protocol modules")
    docs = [doc for module in modules for doc in module_docs(module, package)]
    bad = _undocumented(docs)
    assert not bad, f"generated.{pkg}: {len(bad)} public names undocumented:\n" + "\n".join(bad)


def test_the_checks_see_the_schemes_and_methods() -> None:
    """The walk reaches what it must: bls's schemes through MinPk, the methods of a class."""
    pkg = next((p for p in generated_packages() if "bls" in load_curve_module(p).PROTOCOL_MODULES), None)
    if pkg is None:
        pytest.skip("no package with BLS signatures")
    package = load_curve_module(pkg)
    names = {doc.name for doc in module_docs(package.bls, package)}
    assert {"bls.key_gen", "bls.MinPk.Pop (_PopScheme).fast_aggregate_verify", "bls.MinSig.Basic (_Scheme).sign"} <= names
    kzg = {doc.name for doc in module_docs(package.kzg, package)}
    assert {"kzg.Setup", "kzg.Setup.size", "kzg.Setup.insecure_from_tau", "kzg.commit"} <= kzg


def test_gen_curve_documents_every_public_name() -> None:
    """gen-curve's module (generator/cli.py): every public function, class and method has a docstring."""
    import inspect

    from generator import cli

    missing = []
    for name, obj in vars(cli).items():
        if name.startswith("_") or getattr(obj, "__module__", None) != cli.__name__:
            continue
        if not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue
        # a class's own docstring (not its base's, nor the signature a dataclass writes in its place)
        doc = (vars(obj).get("__doc__") if inspect.isclass(obj) else obj.__doc__) or ""
        if not doc.strip() or doc.startswith(f"{name}("):
            missing.append(name)
        if inspect.isclass(obj):
            for member, value in vars(obj).items():
                if not member.startswith("_") and (inspect.isfunction(value) or isinstance(value, property)):
                    if not (value.__doc__ or "").strip():
                        missing.append(f"{name}.{member}")
    assert not missing, f"generator/cli.py: public names without a docstring: {missing}"
