"""The known-answer vectors are self-contained: every set the tests read is in tests/vectors, with
a README giving its origin and licence, large text files are stored xz-compressed, the whole
folder stays under 10 MB, and no test looks for vectors outside the repository. (Static checks:
no compiled curve module is needed.)"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import TESTS_DIR
from vectors_util import VECTOR_SETS, VECTORS_DIR, find_vector

MAX_TOTAL_BYTES = 10_000_000
MAX_PLAIN_TEXT_BYTES = 100_000  # larger text files are stored as <name>.xz
TEXT_SUFFIXES = (".json", ".txt", ".yaml", ".md")
# the readers and fixtures whose first argument is a set name (tests/vectors_util.py, tests/conftest.py)
SET_ARGUMENT = {"vector_path", "find_vector", "read_vector_bytes", "read_vector_text", "read_vector_json",
                "load_json", "vector_files", "vector_on_disk", "collect_cases", "vector_file"}
# Built from pieces so that this file does not match itself.
FORBIDDEN = ("../" + "shared", "shared" + "/vectors", "PAIRFORGE" + "_VECTORS")
SHARED_PATH_CODE = re.compile(r"""["']shared["']\s*/\s*["']vectors["']""")
ISSUE_NUMBER = re.compile(r"(?<![\w&])#\d+\b")


def _python_files() -> list[Path]:
    return sorted(p for p in TESTS_DIR.rglob("*.py") if VECTORS_DIR not in p.parents)


def _set_folders() -> list[Path]:
    return sorted(p for p in VECTORS_DIR.iterdir() if p.is_dir())


def _string_constants(tree: ast.Module) -> dict[str, str]:
    """Module-level ``NAME = "text"`` assignments."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out[target.id] = node.value.value
    return out


def _value(node: ast.AST, names: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return names.get(node.id)
    return None


def _named_vectors() -> tuple[set[tuple[str, str]], set[tuple[str, str, str]]]:
    """({(file, set name)} of the helper calls, {(file, set, relpath)} of calls and table rows
    that name a file), from every test file's source."""
    sets, files = set(), set()
    for path in _python_files():
        if path.name in ("vectors_util.py", Path(__file__).name):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = _string_constants(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.args:
                func = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                name = _value(node.args[0], names)
                if func in SET_ARGUMENT and name is not None:
                    sets.add((path.name, name))
                    relpath = _value(node.args[1], names) if len(node.args) > 1 else None
                    if relpath and "." in relpath and "*" not in relpath:
                        files.add((path.name, name, relpath))
            elif isinstance(node, ast.Tuple):  # table rows such as (SET, "file.json", ...)
                values = [_value(e, names) for e in node.elts]
                for first, second in zip(values, values[1:], strict=False):
                    if first in VECTOR_SETS and second and second.endswith((".json", ".dat", ".txt")):
                        files.add((path.name, first, second))
    return sets, files


def test_no_test_looks_outside_the_repository() -> None:
    """No file of tests/ names the old vectors folder outside the repository or its environment
    variable, or builds a path to it."""
    hits = []
    for path in _python_files():
        text = path.read_text(encoding="utf-8")
        hits += [f"{path.relative_to(TESTS_DIR)}: {word!r}" for word in FORBIDDEN if word in text]
        hits += [f"{path.relative_to(TESTS_DIR)}: {m.group()!r}" for m in SHARED_PATH_CODE.finditer(text)]
    assert not hits, hits


def test_sets_are_the_registered_ones() -> None:
    """tests/vectors holds exactly the sets of vectors_util.VECTOR_SETS (the only names its
    readers accept), and each of them is read by some test."""
    assert [p.name for p in _set_folders()] == sorted(VECTOR_SETS)
    sources = {p: p.read_text(encoding="utf-8") for p in _python_files()
               if p.name not in ("vectors_util.py", Path(__file__).name)}
    unused = [name for name in VECTOR_SETS if not any(name in text for text in sources.values())]
    assert not unused, f"sets no test names: {unused}"


def test_every_set_and_file_a_test_names_exists() -> None:
    sets, files = _named_vectors()
    assert len({name for _, name in sets}) >= 10, sets  # the scan finds the helper calls
    missing_sets = sorted((f, name) for f, name in sets if not (VECTORS_DIR / name).is_dir())
    assert not missing_sets, missing_sets
    assert len(files) >= 50, len(files)
    missing = sorted(f"{f}: {name}/{rel}" for f, name, rel in files if find_vector(name, rel) is None)
    assert not missing, missing


def test_every_set_has_a_readme_with_origin_and_licence() -> None:
    problems = []
    for folder in _set_folders():
        readme = folder / "README.md"
        if not readme.is_file():
            problems.append(f"{folder.name}: no README.md")
            continue
        lines = readme.read_text(encoding="utf-8").splitlines()
        keys = {key: [line for line in lines if line.startswith(f"- {key}:")] for key in ("Repository", "Commit", "Licence")}
        for key, found in keys.items():
            if not found:
                problems.append(f"{folder.name}: no '- {key}:' line")
        if keys["Repository"] and not any(re.search(r"https://github\.com/[\w.-]+/[\w.-]+", line) for line in keys["Repository"]):
            problems.append(f"{folder.name}: the Repository line has no repository URL")
        if keys["Commit"] and not any(re.search(r"\b[0-9a-f]{40}\b", line) for line in keys["Commit"]):
            problems.append(f"{folder.name}: the Commit line has no full commit hash")
        if keys["Licence"] and not all(len(line.split(":", 1)[1].strip()) > 2 for line in keys["Licence"]):
            problems.append(f"{folder.name}: an empty Licence line")
    assert not problems, problems


def test_readmes_stand_alone() -> None:
    """The READMEs name no path outside the repository, no design note and no issue number; the
    index lists every set."""
    problems = []
    for readme in sorted(VECTORS_DIR.rglob("README.md")):
        text = readme.read_text(encoding="utf-8")
        where = readme.relative_to(VECTORS_DIR)
        problems += [f"{where}: {word!r}" for word in (*FORBIDDEN, "DESIGN") if word in text]
        problems += [f"{where}: {m.group()!r}" for m in ISSUE_NUMBER.finditer(text)]
    index = (VECTORS_DIR / "README.md").read_text(encoding="utf-8")
    problems += [f"README.md does not list {p.name}" for p in _set_folders() if f"`{p.name}`" not in index]
    assert not problems, problems


def test_size_and_compression() -> None:
    """Under 10 MB in all; text files over 100 KB are stored as <name>.xz, and never beside a plain
    copy."""
    files = [p for p in VECTORS_DIR.rglob("*") if p.is_file()]
    total = sum(p.stat().st_size for p in files)
    assert total < MAX_TOTAL_BYTES, f"tests/vectors holds {total} bytes"
    big = [str(p.relative_to(VECTORS_DIR)) for p in files
           if p.suffix in TEXT_SUFFIXES and p.stat().st_size > MAX_PLAIN_TEXT_BYTES]
    assert not big, f"compress these with xz -9e: {big}"
    doubled = [str(p.relative_to(VECTORS_DIR)) for p in files
               if p.suffix == ".xz" and p.with_suffix("").is_file()]
    assert not doubled, f"stored both plain and compressed: {doubled}"
