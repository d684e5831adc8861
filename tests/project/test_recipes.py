"""The documentation site's parts stay in step (the site itself is built, and the recipes run, by
`nox -s docs`): every page under docs/ is in mkdocs.yml's nav, every recipe script of docs/examples
is run by docs/examples/run_all.py and shown by docs/recipes.md, and each API reference page
renders modules that exist."""

from __future__ import annotations

import ast
import re

from conftest import REPO_ROOT

DOCS = REPO_ROOT / "docs"
EXAMPLES = DOCS / "examples"
MKDOCS = (REPO_ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def _nav_pages() -> set[str]:
    """The pages named in mkdocs.yml's nav (``- Title: page.md`` lines)."""
    nav = MKDOCS.split("\nnav:\n", 1)[1]
    nav = re.split(r"\n(?=\S)", nav, maxsplit=1)[0]  # up to the next top-level key
    return set(re.findall(r":\s*(\S+\.md)\s*$", nav, flags=re.M))


def _run_all_recipes() -> list[str]:
    tree = ast.parse((EXAMPLES / "run_all.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "RECIPES" for t in node.targets):
            return [script for script, _ in ast.literal_eval(node.value)]
    raise AssertionError("docs/examples/run_all.py has no RECIPES list")


def test_every_page_is_in_the_nav() -> None:
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    nav = _nav_pages()
    assert nav <= pages, f"mkdocs.yml's nav names missing pages: {sorted(nav - pages)}"
    assert pages <= nav, f"pages missing from mkdocs.yml's nav: {sorted(pages - nav)}"


def test_every_recipe_runs_and_is_shown() -> None:
    scripts = sorted(p.name for p in EXAMPLES.glob("*.py") if p.name != "run_all.py")
    recipes = _run_all_recipes()
    assert sorted(recipes) == scripts, "docs/examples/run_all.py's RECIPES and the scripts differ"
    page = (DOCS / "recipes.md").read_text(encoding="utf-8")
    shown = re.findall(r'^--8<-- "([^"]+)"$', page, flags=re.M)
    missing = [name for name in [*scripts, *(p.name for p in EXAMPLES.glob("*.mjs"))] if name not in shown]
    assert not missing, f"docs/recipes.md does not show {missing}"
    assert all((EXAMPLES / name).is_file() for name in shown)


def test_reference_pages_name_existing_modules() -> None:
    for page in sorted((DOCS / "reference").glob("*.md")):
        for ident in re.findall(r"^::: ([\w.]+)$", page.read_text(encoding="utf-8"), flags=re.M):
            parts = ident.split(".")
            module = next((parts[:i] for i in range(len(parts), 1, -1)
                           if (REPO_ROOT.joinpath(*parts[:i]).with_suffix(".py")).is_file()
                           or (REPO_ROOT.joinpath(*parts[:i]).with_suffix(".pyi")).is_file()), None)
            assert module is not None, f"{page.name}: {ident} names no module of the repository"
