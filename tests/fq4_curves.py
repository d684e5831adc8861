"""The shipped curves whose G2 lies over Fp4 (BLS24), for the tests that treat them apart: the
wasm32 module's size bound, the slow wasm32 known-answer run and the Node loader test over Fp4
(tests/wasm/test_wasm.py, tests/wasm/test_wasm_node.py). Read from what the generator wrote (the tower has
an Fp4 level, which it renders only as the twist field of k = 24), never from a name."""

from __future__ import annotations

from functools import lru_cache

from conftest import GENERATED_DIR, generated_packages


@lru_cache(maxsize=None)
def fq4_packages() -> tuple[str, ...]:
    """The pairing packages in generated/ whose tower defines fp4_t, sorted."""
    return tuple(pkg for pkg in generated_packages()
                 if "} fp4_t;" in (GENERATED_DIR / pkg / "c" / "tower.h").read_text(encoding="utf-8"))
