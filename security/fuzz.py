"""Fuzz every byte-level entry point of every curve module (security/fuzz_targets.py) with atheris.

    python -m security.fuzz --seconds 60                 # all curves, all targets, one process
    python -m security.fuzz --seconds 600 --curves bn254 --corpus .fuzz-corpus
    python -m security.fuzz --replay 200                 # no atheris: seeds + 200 mutations each

One fuzzing process serves every target: the first two bytes of an input pick the target, the
rest is its data; the corpus is seeded with every target's seeds (security/fuzz_seeds.py) under
that prefix.  atheris instruments the Python side (the targets and the generated package's
Python); the C of the extension is not coverage-instrumented (that needs clang's
-fsanitize=fuzzer-no-link; gcc has no equivalent), so on the C side atheris is a mutation fuzzer
steered by the Python coverage and the seeds.  Run it against the sanitizer build (security/
sanitize.py --fuzz) to catch memory errors that do not crash.

A failure is any exception other than ValueError/TypeError, or a failed check: atheris stops,
prints the traceback and writes the input to build/fuzz-artifacts/crash-<sha1> (replay it with
--input FILE).

Layer: tools (security/), above the generator: imports the generator, the generated packages and
security's own modules; the generator never imports it.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from generator import build  # noqa: E402
from security.fuzz_seeds import VECTORS_DIR, seeds_for  # noqa: E402
from security.fuzz_targets import REJECTIONS, Target, targets_for  # noqa: E402


def vectors_dir() -> Path:
    """The known-answer vectors the seeds are harvested from: tests/vectors (fuzz_seeds.VECTORS_DIR;
    harvesting raises FileNotFoundError when it is missing)."""
    return VECTORS_DIR


def curve_packages() -> list[str]:
    """The packages an install builds (PAIRFORGE_CURVES's, or every one but the opt-in ones)."""
    return [p.name for p in build.installed_packages(ROOT / "generated")]


def load_targets(curves: list[str]) -> list[Target]:
    targets: list[Target] = []
    for pkg in curves:
        targets += targets_for(importlib.import_module(f"generated.{pkg}"))
    return targets


def run_one(target: Target, data: bytes) -> bool:
    """Run a target; True if it accepted the input, False if it rejected it cleanly."""
    try:
        target.run(data)
    except REJECTIONS:
        return False
    return True


def mutations(seed: bytes, rng: random.Random, n: int) -> list[bytes]:
    """n cheap structured mutations: flag bits of the first byte, bit flips, byte values at the
    edges, truncation and extension, splices of the top bytes."""
    out = []
    for _ in range(n):
        b = bytearray(seed)
        kind = rng.randrange(6)
        if kind == 0 and b:
            b[0] ^= rng.choice((0x80, 0x40, 0x20, 0xC0, 0xE0, 0x60, 0xA0))
        elif kind == 1 and b:
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        elif kind == 2 and b:
            i = rng.randrange(len(b))
            b[i] = rng.choice((0x00, 0xFF, 0x7F, 0x80, 0x01, 0x1A, 0x30))
        elif kind == 3:
            b = b[: rng.randrange(len(b) + 1)]
        elif kind == 4:
            b += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4)))
        else:
            i = rng.randrange(len(b) + 1)
            b[:i] = b"\xff" * i
        out.append(bytes(b))
    return out


def replay(targets: list[Target], n_mutations: int, seed: int = 0) -> dict[str, tuple[int, int]]:
    """Every seed and n_mutations mutations of them per target (deterministic); returns
    {target name: (inputs run, inputs accepted)}.  Raises on the first failure, naming the input."""
    vec = vectors_dir()
    stats = {}
    for t in targets:
        rng = random.Random(f"{seed}-{t.name}")
        seeds = seeds_for(t, vec)
        inputs = (
            seeds + [mutations(rng.choice(seeds), rng, 1)[0] for _ in range(n_mutations)] if seeds else []
        )
        runs = accepted = 0
        for data in inputs:
            try:
                accepted += run_one(t, data)
            except Exception as exc:
                raise AssertionError(f"{t.name}: {type(exc).__name__}: {exc} on input {data.hex()}") from exc
            runs += 1
        stats[t.name] = (runs, accepted)
    return stats


def write_corpus(targets: list[Target], corpus: Path) -> int:
    vec = vectors_dir()
    corpus.mkdir(parents=True, exist_ok=True)
    count = 0
    for i, t in enumerate(targets):
        for j, data in enumerate(seeds_for(t, vec)):
            (corpus / f"seed-{i:03d}-{j:03d}").write_bytes(i.to_bytes(2, "big") + data)
            count += 1
    return count


def fuzz(targets: list[Target], seconds: int, corpus: Path, extra: list[str]) -> None:
    import atheris

    def one_input(data: bytes) -> None:
        if len(data) < 2:
            return
        run_one(targets[int.from_bytes(data[:2], "big") % len(targets)], data[2:])

    atheris.instrument_all()  # the targets' checks: which branch (accept, reject, why) an input took
    artifacts = ROOT / "build" / "fuzz-artifacts"  # crash-<sha1> files (build/ is ignored by git)
    artifacts.mkdir(parents=True, exist_ok=True)
    argv = [sys.argv[0], str(corpus), f"-max_total_time={seconds}", "-print_final_stats=1",
            f"-artifact_prefix={artifacts}/",
            "-timeout=60", "-rss_limit_mb=4096", *extra]  # fmt: skip
    atheris.Setup(argv, one_input)
    atheris.Fuzz()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=int, default=60, help="atheris time budget (default 60)")
    ap.add_argument("--curves", nargs="*", default=None, help="curve packages (default: those an install builds)")
    ap.add_argument(
        "--corpus", type=Path, default=None, help="corpus folder (default: a fresh temporary one)"
    )
    ap.add_argument(
        "--replay", type=int, default=None, metavar="N", help="no atheris: seeds + N mutations per target"
    )
    ap.add_argument(
        "--input", type=Path, default=None, help="run one saved input (a crash file) and show the result"
    )
    ap.add_argument("--list", action="store_true", help="list the targets and their seed counts")
    ap.add_argument("libfuzzer", nargs="*", help="extra libFuzzer flags (after --), e.g. -jobs=2")
    args = ap.parse_args(argv)
    curves = args.curves or curve_packages()
    targets = load_targets(curves)
    print(f"fuzz: {len(targets)} targets over {', '.join(curves)}", flush=True)
    if args.list:
        vec = vectors_dir()
        for i, t in enumerate(targets):
            print(f"{i:4d}  {t.name}  ({len(seeds_for(t, vec))} seeds)")
        return 0
    if args.input is not None:
        data = args.input.read_bytes()
        t = targets[int.from_bytes(data[:2], "big") % len(targets)]
        print(f"{t.name}: {'accepted' if run_one(t, data[2:]) else 'rejected cleanly'}")
        return 0
    if args.replay is not None:
        start = time.monotonic()
        stats = replay(targets, args.replay)
        runs = sum(r for r, _ in stats.values())
        print(
            f"replay: {runs} inputs over {len(stats)} targets in {time.monotonic() - start:.1f} s, no failure"
        )
        return 0
    corpus = args.corpus or Path(tempfile.mkdtemp(prefix="pairforge-fuzz-"))
    print(f"fuzz: {write_corpus(targets, corpus)} seeds in {corpus}; budget {args.seconds} s", flush=True)
    fuzz(targets, args.seconds, corpus, args.libfuzzer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
