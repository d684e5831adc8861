"""The documented API of the generated packages, for tests/project/test_doctests.py and tests/project/test_docstrings.py.

A package documents itself in two places: the compiled classes and functions in its typing stub
``_core.pyi`` (rendered from templates/python/_core.pyi.j2 or edwards_core.pyi.j2; not importable,
so read with ``ast``), and its Python modules (the protocol modules and ``distributed``) in their
own docstrings.  "Public" is a name without a leading underscore: the dunder methods are the
operators, documented in their class's docstring.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import inspect
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType


@dataclass(frozen=True)
class Doc:
    """One documented name: its qualified name, docstring (None: none), file and line."""

    name: str
    doc: str | None
    path: Path
    lineno: int


def stub_path(package: ModuleType) -> Path:
    return Path(package.__file__).with_name("_core.pyi")


def stub_docs(package: ModuleType) -> list[Doc]:
    """The module docstring and every public class, method, property and function of the stub.
    An overloaded function counts once, with the first docstring among its definitions."""
    path = stub_path(package)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: dict[str, Doc] = {}

    def lineno(node: ast.AST) -> int:
        body = getattr(node, "body", None)
        first = body[0] if body else node
        return first.lineno - 1  # doctest counts from the docstring's first line, 0-based

    out[package.__name__] = Doc(package.__name__ + "._core", ast.get_docstring(tree), path, 0)

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.ClassDef, ast.FunctionDef)) or child.name.startswith("_"):
                continue
            name = prefix + child.name
            doc = ast.get_docstring(child)
            if name not in out or (out[name].doc is None and doc is not None):
                out[name] = Doc(name, doc, path, lineno(child))
            if isinstance(child, ast.ClassDef):
                visit(child, name + ".")

    visit(tree, "")
    return list(out.values())


def stub_names(package: ModuleType) -> set[str]:
    """The top-level names the stub declares (classes, functions, annotated constants)."""
    names = set()
    for node in ast.parse(stub_path(package).read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def python_modules(package: ModuleType) -> list[ModuleType]:
    """The package's documented Python modules: its protocol modules and, on pairing curves,
    ``distributed``."""
    names = list(getattr(package, "PROTOCOL_MODULES", []))
    if (Path(package.__file__).parent / "distributed.py").is_file():
        names.append("distributed")
    return [importlib.import_module(f"{package.__name__}.{name}") for name in names]


def _own(module: ModuleType, package: ModuleType, obj: object) -> bool:
    """obj is a function or class defined in the package's Python code (not the compiled module)."""
    where = getattr(obj, "__module__", "") or ""
    return (inspect.isfunction(obj) or inspect.isclass(obj)) and where.startswith(package.__name__ + ".") \
        and not where.rpartition(".")[2].startswith("_core")


def _members(cls: type, package: ModuleType) -> Iterator[tuple[str, object]]:
    """Public methods and properties of cls and of its bases defined in the package."""
    seen = set()
    for klass in cls.__mro__:
        if not (klass.__module__ or "").startswith(package.__name__ + "."):
            continue
        for name, value in vars(klass).items():
            if name.startswith("_") or name in seen:
                continue
            if isinstance(value, (classmethod, staticmethod)):
                value = value.__func__
            if inspect.isfunction(value) or isinstance(value, property):
                seen.add(name)
                yield name, value


def module_docs(module: ModuleType, package: ModuleType) -> list[Doc]:
    """Every public name of a Python module: the names of ``__all__`` and the public functions and
    classes defined in it; with each class its public methods and properties; with each public
    instance of a package class (``bls.MinPk``) its class and, in turn, its attributes of
    package classes (``bls.MinPk.Pop``)."""
    out: dict[str, Doc] = {}

    def path_of(obj: object) -> tuple[Path, int]:
        try:
            return Path(inspect.getsourcefile(obj)), inspect.getsourcelines(obj)[1]
        except (TypeError, OSError):
            return Path(module.__file__), 0

    def add(name: str, obj: object) -> None:
        target = obj.fget if isinstance(obj, property) else obj
        out[name] = Doc(name, inspect.getdoc(obj) if not isinstance(obj, property) else obj.__doc__, *path_of(target))

    def add_class(name: str, cls: type) -> None:
        add(name, cls)
        for member, value in _members(cls, package):
            add(f"{name}.{member}", value)

    def add_instance(name: str, obj: object, depth: int = 0) -> None:
        add_class(f"{name} ({type(obj).__name__})", type(obj))
        for attr, value in vars(obj).items() if hasattr(obj, "__dict__") and depth < 2 else ():
            if not attr.startswith("_") and _own(module, package, type(value)):
                add_instance(f"{name}.{attr}", value, depth + 1)

    names = list(getattr(module, "__all__", []))
    names += [n for n, v in vars(module).items() if not n.startswith("_") and n not in names
              and _own(module, package, v) and v.__module__ == module.__name__]
    prefix = module.__name__.rpartition(".")[2] + "."
    for name in names:
        obj = getattr(module, name)
        if inspect.isclass(obj) and _own(module, package, obj):
            add_class(prefix + name, obj)
        elif inspect.isfunction(obj) and _own(module, package, obj):
            add(prefix + name, obj)
        elif _own(module, package, type(obj)):
            add_instance(prefix + name, obj)
        # anything else is a constant (or a name of the compiled module, documented in the stub)
    return list(out.values())


def module_doctests(module: ModuleType, package: ModuleType) -> list[doctest.DocTest]:
    """The doctests of a Python module: its own docstrings (doctest's finder) and those of the
    classes and functions its ``__all__`` re-exports from the package's private modules
    (``distributed.PointFile``), run with the module's namespace."""
    finder = doctest.DocTestFinder()
    tests = finder.find(module)
    for name in getattr(module, "__all__", []):
        obj = getattr(module, name)
        if _own(module, package, obj) and obj.__module__ != module.__name__:
            tests += finder.find(obj, f"{module.__name__}.{name}", module=False, globs=dict(vars(module)))
    return [test for test in tests if test.examples]


def stub_doctests(package: ModuleType) -> list[doctest.DocTest]:
    """The doctests of the stub's docstrings, run with the package's namespace as globals."""
    parser = doctest.DocTestParser()
    namespace = {name: value for name, value in vars(package).items()}
    tests = []
    for doc in stub_docs(package):
        if doc.doc:
            test = parser.get_doctest(doc.doc, dict(namespace), f"{package.__name__}._core.pyi:{doc.name}", str(doc.path),
                                      doc.lineno)
            if test.examples:
                tests.append(test)
    return tests
