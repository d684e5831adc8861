"""``python -m bench <command>``: the benchmarks that run as subcommands.

    python -m bench host-calls [options]    bench/host_calls.py (the wasm32 host-call build)
"""

from __future__ import annotations

import sys

COMMANDS = {"host-calls": "bench.host_calls"}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    import importlib

    return importlib.import_module(COMMANDS[argv[0]]).main(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
