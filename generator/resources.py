"""Where the generator finds its templates and curve files, in a checkout and in an install.

In a checkout (or an editable install of one) they are the repository's ``templates/`` and
``curves/``, and ``gen-curve NAME`` writes to its ``generated/``. An installed wheel has no
repository: its build copies both folders into the package as ``generator/_data/templates``
and ``generator/_data/curves`` (setup.py), and ``gen-curve`` needs ``--out`` or ``--wheel``
to know where to write.

Layer: leaf. Imports the standard library only, no module of the generator.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
# The copies an installed wheel carries (setup.py's build step writes them).
PACKAGED_DATA_DIR = PACKAGE_DIR / "_data"


def _checkout_root() -> Path | None:
    """The repository this package sits in, or None where it was installed from a wheel.

    A checkout is recognised by its own files beside the package (pyproject.toml, templates/,
    curves/): site-packages holds none of them.
    """
    root = PACKAGE_DIR.parent
    markers = (root / "pyproject.toml", root / "templates", root / "curves")
    return root if all(path.exists() for path in markers) else None


REPO_ROOT: Path | None = _checkout_root()
TEMPLATES_DIR: Path = (REPO_ROOT or PACKAGED_DATA_DIR) / "templates"
CURVES_DIR: Path = (REPO_ROOT or PACKAGED_DATA_DIR) / "curves"
# The licence texts that a standalone curve distribution carries (gen-curve --out, --wheel).
LICENSE_FILES: tuple[Path, ...] = tuple((REPO_ROOT or PACKAGED_DATA_DIR) / name for name in ("LICENSE-MIT", "LICENSE-APACHE"))
# Where `gen-curve NAME` writes without --out: the checkout's generated/, none in an install.
GENERATED_DIR: Path | None = REPO_ROOT / "generated" if REPO_ROOT is not None else None
