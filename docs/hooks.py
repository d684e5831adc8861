# SPDX-License-Identifier: MIT OR Apache-2.0
"""MkDocs hooks (mkdocs.yml, ``hooks:``): the pages are written to be read on GitHub as well, where a
relative link may point outside docs/ (``../curves/bls12-381.toml``). For the site, each such
link to a file of the repository is served from a copy of the file under ``repo/`` and rewritten
to it; a link to a file that does not exist is left alone, so ``mkdocs build --strict`` still
fails on it."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from mkdocs.structure.files import File

# an inline link or image whose target leaves docs/: ](../path) or ](../path#anchor)
OUTSIDE_LINK = re.compile(r"\]\((\.\./[^)\s#]+)(#[^)\s]*)?\)")
FENCE = re.compile(r"^\s*(```|~~~)")
PREFIX = "repo"


def _outside_targets(page_path: Path, docs_dir: Path, repo: Path) -> dict[str, str]:
    """{link as written: path relative to the repository} for the page's links to repository files
    outside docs/ (fenced code blocks skipped)."""
    found, fenced = {}, False
    for line in page_path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for match in OUTSIDE_LINK.finditer(line):
            target = (page_path.parent / match.group(1)).resolve()
            if target.is_file() and repo in target.parents and docs_dir not in target.parents:
                found[match.group(1)] = target.relative_to(repo).as_posix()
    return found


def on_files(files, config):
    docs_dir = Path(config["docs_dir"]).resolve()
    repo = Path(config["config_file_path"]).resolve().parent
    wanted = set()
    for file in files.documentation_pages():
        wanted.update(_outside_targets(Path(file.abs_src_path), docs_dir, repo).values())
    for rel in sorted(wanted):
        files.append(File.generated(config, f"{PREFIX}/{rel}", abs_src_path=str(repo / rel)))
    return files


def on_page_markdown(markdown, page, config, files):
    docs_dir = Path(config["docs_dir"]).resolve()
    repo = Path(config["config_file_path"]).resolve().parent
    targets = _outside_targets(Path(page.file.abs_src_path), docs_dir, repo)
    if not targets:
        return markdown
    here = posixpath.dirname(page.file.src_uri)

    def rewrite(match: re.Match) -> str:
        rel = targets.get(match.group(1))
        if rel is None:
            return match.group(0)
        return f"]({posixpath.relpath(f'{PREFIX}/{rel}', here or '.')}{match.group(2) or ''})"

    return OUTSIDE_LINK.sub(rewrite, markdown)
