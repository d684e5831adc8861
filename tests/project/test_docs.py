"""The documentation a user reads: a short README, docs/ pages whose relative links resolve, and no
pointer outside the repository (a sibling checkout, a design note, an issue number) in the README,
the docs, the generator, the templates or the generated packages."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from conftest import REPO_ROOT

README = REPO_ROOT / "README.md"
DOCS = REPO_ROOT / "docs"
README_MAX_LINES = 300

# The trees whose text must not point outside the repository (besides README.md and docs/).
SCANNED_TREES = ("generator", "templates", "generated")
# Build products and binary data: never scanned (compiled modules, their stamps, .wasm, images,
# archives, and the C that Cython writes beside a .pyx).
SKIPPED_SUFFIXES = {".so", ".pyd", ".dll", ".dylib", ".o", ".a", ".wasm", ".stamp", ".png", ".jpg", ".gif",
                    ".xz", ".gz", ".zip", ".pyc", ".ptau", ".zkey", ".bin"}

FORBIDDEN = {
    "a path to a sibling checkout": re.compile(r"\.\./" + "shared"),
    "a design-note reference (DESIGN.md, DESIGN §N)": re.compile(r"DESIGN(\.md)?\s*§|DESIGN\.md"),
    "an issue number (say what is meant instead)": re.compile(r"\b[Ii]ssues? #?\d+"),
}


def _git_files(trees: tuple[str, ...]) -> list[Path] | None:
    """The git-tracked files under ``trees``, or None where git or the repository is unavailable."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--", *trees], cwd=REPO_ROOT, capture_output=True,
                             check=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return [REPO_ROOT / name for name in out.decode("utf-8", "surrogateescape").split("\0") if name]


def _is_build_product(path: Path) -> bool:
    if path.suffix in SKIPPED_SUFFIXES or "__pycache__" in path.parts:
        return True
    # Cython's output: <name>.c beside <name>.pyx
    return path.suffix == ".c" and path.with_suffix(".pyx").is_file()


def _text(path: Path) -> str | None:
    """The file's text, or None for a binary file (a NUL byte, or not UTF-8)."""
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def doc_files() -> list[Path]:
    """README.md and every Markdown page under docs/ (tracked or not: a new page is checked too)."""
    return [README, *sorted(DOCS.rglob("*.md"))]


def scanned_files() -> list[Path]:
    tracked = _git_files(SCANNED_TREES)
    if tracked is None:  # no git: walk the trees
        tracked = [p for tree in SCANNED_TREES for p in (REPO_ROOT / tree).rglob("*") if p.is_file()]
    files = {p for p in tracked if p.is_file() and not _is_build_product(p)}
    files |= {p for p in DOCS.rglob("*") if p.is_file() and not _is_build_product(p)}
    files.add(README)
    return sorted(files)


def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, (
        f"README.md has {len(lines)} lines (at most {README_MAX_LINES}): move details to docs/")


def test_no_pointer_outside_the_repository() -> None:
    problems = []
    for path in scanned_files():
        text = _text(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for what, pattern in FORBIDDEN.items():
                match = pattern.search(line)
                if match:
                    problems.append(f"{path.relative_to(REPO_ROOT)}:{number}: {what}: {match.group(0)!r}")
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------------------------------------------
# Links

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+).*?\1")
INLINE_LINK = re.compile(r"(?<!\\)!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")


def github_slug(heading: str) -> str:
    """GitHub's anchor for a heading: the rendered text lower-cased, every character that is not a
    letter, digit, space, '-' or '_' dropped, spaces turned into '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading: its text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def _outside_code(text: str) -> list[tuple[int, str]]:
    """(line number, line) of the lines outside fenced code blocks, inline code removed."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, INLINE_CODE.sub("", line)))
    return lines


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings (a repeated slug gets -1, -2, ... as on GitHub)."""
    seen: dict[str, int] = {}
    found = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else HEADING.match(line)
        if match:
            slug = github_slug(match.group(2))
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def links(path: Path) -> list[tuple[int, str]]:
    found = []
    for number, line in _outside_code(path.read_text(encoding="utf-8")):
        found += [(number, m.group(1)) for m in INLINE_LINK.finditer(line)]
        ref = REFERENCE_DEF.match(line)
        if ref:
            found.append((number, ref.group(1)))
    return found


def test_github_slug() -> None:
    assert github_slug("Run the tests") == "run-the-tests"
    assert github_slug("4. The generated C") == "4-the-generated-c"
    assert github_slug("`nox` sessions, and CI") == "nox-sessions-and-ci"
    assert github_slug("G1 MSM on AVX-512 IFMA") == "g1-msm-on-avx-512-ifma"
    assert github_slug("constant_time and _vartime") == "constant_time-and-_vartime"


@pytest.mark.parametrize("path", doc_files(), ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_relative_links_resolve(path: Path) -> None:
    problems = []
    for number, target in links(path):
        if not target or SCHEME.match(target) or target.startswith("//"):
            continue  # an absolute URL (http:, https:, mailto:, ...)
        file_part, _, anchor = target.partition("#")
        file_part = file_part.split("?", 1)[0]
        where = f"{path.relative_to(REPO_ROOT)}:{number}: {target}"
        dest = (path.parent / file_part).resolve() if file_part else path
        if file_part.startswith("/"):
            problems.append(f"{where}: an absolute path (use a relative link)")
            continue
        if not dest.exists():
            problems.append(f"{where}: no such file")
            continue
        if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            problems.append(f"{where}: no heading with the anchor #{anchor} in {dest.relative_to(REPO_ROOT)}")
    assert not problems, "\n".join(problems)


def test_docs_pages_are_linked_from_the_index() -> None:
    """Every page under docs/ is reachable: docs/index.md links to it."""
    index = DOCS / "index.md"
    assert index.is_file(), "docs/index.md (the landing page) is missing"
    linked = {(index.parent / target.partition("#")[0]).resolve() for _, target in links(index)
              if target and not SCHEME.match(target)}
    missing = [p.relative_to(REPO_ROOT).as_posix() for p in sorted(DOCS.rglob("*.md"))
               if p != index and p.resolve() not in linked]
    assert not missing, f"docs/index.md does not link to: {missing}"
