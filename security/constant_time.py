"""Constant-time checks under valgrind memcheck: secret inputs are marked undefined, so memcheck
reports every branch and every memory index computed from them.

Shared by tests/emit/test_group_c.py (the group template over mock fields) and
tests/security/test_constant_time.py (security/ct/ct_curve.c over each generated curve).

    python -m security.constant_time                # every curve, every variant, a table
    python -m security.constant_time --bits 64 bn254

A variant is a limb width, or "adx": 64-bit limbs with the x86_64-adx field kernels (MULX/ADCX/ADOX
inline assembly), the code the default module runs on such CPUs. It is checked on x86-64 hosts.

Layer: tools (security/), above the generator: imports the generator, the generated packages and
security's own modules; the generator never imports it.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from generator.build import ADX_COMPILE_ARGS, ADX_DEFINE, builds_adx, installed_packages

ROOT = Path(__file__).resolve().parents[1]
CT_SOURCE = Path(__file__).resolve().parent / "ct" / "ct_curve.c"
# The harness of the twisted Edwards packages (c/edwards_core.h instead of c/pairforge.h).
CT_EDWARDS_SOURCE = Path(__file__).resolve().parent / "ct" / "ct_edwards.c"
MEMCHECK_HEADER = Path("/usr/include/valgrind/memcheck.h")
# The flags of the real module (generator/build.py BASE_COMPILE_ARGS), so the checked machine code
# is what users run, plus -g for readable reports.
CT_CFLAGS = ("-O3", "-fno-tree-vectorize", "-Wno-unused-function", "-g")
LEAK_MARKERS = ("Conditional jump or move depends on uninitialised value", "Use of uninitialised value")


def have_memcheck() -> bool:
    return shutil.which("valgrind") is not None and MEMCHECK_HEADER.exists()


@dataclass(frozen=True)
class MemcheckResult:
    returncode: int
    log: str

    @property
    def leaks(self) -> int:
        """Reports of a branch or an address that depends on secret (undefined) data."""
        return sum(self.log.count(m) for m in LEAK_MARKERS)

    @property
    def clean(self) -> bool:
        return self.returncode == 0 and self.leaks == 0


MEMCHECK = ("valgrind", "--tool=memcheck", "--error-exitcode=99", "-q", "--track-origins=no")
# The marker lines a ct harness writes to stderr around each check (security/ct/ct_curve.c's main).
CHECK_BEGIN = "ct-check begin "
CHECK_END = "ct-check end "


def memcheck(cmd: list[str], timeout: float = 300) -> MemcheckResult:
    """Run a command under valgrind memcheck (exit status 99 on any error)."""
    proc = subprocess.run([*MEMCHECK, *cmd], capture_output=True, text=True, timeout=timeout)
    return MemcheckResult(proc.returncode, proc.stdout + proc.stderr)


def memcheck_checks(exe: Path, names: list[str], jobs: int | None = None,
                    timeout: float = 3600) -> dict[str, MemcheckResult]:
    """Run the named checks of a ct harness under memcheck, each valgrind process running a share of
    them in turn, the shares in parallel (``jobs``, default one per CPU).

    Valgrind's start-up (about 0.4 s) outweighs most single checks, so a process per check spent
    most of the constant-time session starting valgrind. A check's result is what one process per
    check would give: exit status 99 when memcheck counted an error during it (the count the
    harness prints in its end marker), and its log the reports between its two markers. Reports
    keep their whole call stack (--num-callers), so two checks never share one, and nothing caps
    them (--error-limit=no)."""
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(names)))
    shares = [names[i::jobs] for i in range(jobs)]
    results: dict[str, MemcheckResult] = {}
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for share_results in pool.map(lambda share: _memcheck_share(exe, share, timeout), shares):
            results.update(share_results)
    return {name: results[name] for name in names}


def _memcheck_share(exe: Path, names: list[str], timeout: float) -> dict[str, MemcheckResult]:
    cmd = [*MEMCHECK, "--error-limit=no", "--num-callers=64", str(exe), *names]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    results: dict[str, MemcheckResult] = {}
    current: str | None = None
    log: list[str] = []
    for line in proc.stderr.splitlines(keepends=True):
        if line.startswith(CHECK_BEGIN):
            current, log = line[len(CHECK_BEGIN):].strip(), []
        elif line.startswith(CHECK_END):
            name, errors = line[len(CHECK_END):].split()
            results[name] = MemcheckResult(99 if int(errors) else 0, "".join(log))
            current = None
        else:
            log.append(line)
    if current is not None:  # the harness stopped inside this check (a crash, say)
        results[current] = MemcheckResult(proc.returncode or -1, "".join(log) + proc.stdout)
    for name in names:
        if name not in results:
            results[name] = MemcheckResult(
                -1, f"not run: the harness stopped first (exit {proc.returncode})\n{proc.stderr[-3000:]}")
    return results


def is_edwards(pkg_dir: Path) -> bool:
    """A twisted Edwards companion package (its C is c/edwards_core.h)."""
    return (pkg_dir / "c" / "edwards_core.h").is_file()


def curve_defines(pkg_dir: Path) -> list[str]:
    """Properties of the curve the harness needs (from its rendered C, not its name)."""
    if is_edwards(pkg_dir):
        return []
    tower = (pkg_dir / "c" / "tower.h").read_text()
    top = re.search(r"typedef (\w+)_t gt_t;", tower)
    if top is None:
        raise ValueError(f"{pkg_dir / 'c' / 'tower.h'}: no `typedef ..._t gt_t;`")
    defines = [f"-DCT_TOP={top.group(1)}"]
    for level in ("fp2", "fp4"):  # the twist field's tower levels (G2 over Fp2, or Fp4 at k = 24)
        if f"{level}_t" in tower:
            defines.append(f"-DCT_HAVE_{level.upper()}")
    return defines


def ct_variants() -> list[str]:
    """The builds to check on this host: both limb widths, and the x86_64-adx kernels on x86-64."""
    return ["64", "32"] + (["adx"] if builds_adx(64) else [])


def variant_flags(variant: str) -> list[str]:
    """Compiler flags of one variant: its limb width, plus the ADX target and ISA flags for "adx"."""
    if variant == "adx":
        return ["-DPF_LIMB_BITS=64", f"-D{ADX_DEFINE}", *ADX_COMPILE_ARGS]
    return [f"-DPF_LIMB_BITS={int(variant)}"]


def build_ct(pkg_dir: Path, variant: int | str, out: Path) -> subprocess.Popen:
    """Start compiling ct_curve.c against one rendered package (returns the compiler process).

    `variant` is a limb width (64, 32) or "adx" (see `ct_variants`)."""
    cc = shutil.which("gcc") or shutil.which("cc") or "cc"
    cmd = [cc, *CT_CFLAGS, *variant_flags(str(variant)), *curve_defines(pkg_dir),
           "-I", str(pkg_dir / "c"), str(CT_EDWARDS_SOURCE if is_edwards(pkg_dir) else CT_SOURCE),
           "-o", str(out)]  # fmt: skip
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def list_checks(exe: Path) -> list[tuple[str, str]]:
    """(name, expectation) of every check compiled into a ct_curve binary."""
    out = subprocess.run([str(exe), "--list"], capture_output=True, text=True, check=True).stdout
    return [tuple(line.split()) for line in out.splitlines() if line.strip()]  # type: ignore[misc]


def verdict(expect: str, result: MemcheckResult) -> str | None:
    """None when the result is what the expectation requires, else the reason."""
    if expect == "ct" and not result.clean:
        return f"secret-dependent branch or index ({result.leaks} reports, exit {result.returncode})"
    if expect == "vartime" and (result.returncode != 99 or result.leaks == 0):
        return "the negative control was not flagged: the harness does not see secret-dependent code"
    return None


def main(argv: list[str] | None = None) -> int:
    import tempfile

    ap = argparse.ArgumentParser(description="constant-time checks of the generated curves under valgrind")
    ap.add_argument("curves", nargs="*", help="packages (default: those an install builds)")
    ap.add_argument("--bits", action="append", choices=("64", "32", "adx"),
                    help="a variant (limb width, or adx), repeatable (default: every one this host builds)")
    args = ap.parse_args(argv)
    if not have_memcheck():
        print("constant_time: needs valgrind and valgrind/memcheck.h", file=sys.stderr)
        return 2
    curves = args.curves or [p.name for p in installed_packages(ROOT / "generated")]
    failures = 0
    with tempfile.TemporaryDirectory(prefix="pairforge-ct-") as tmp:
        jobs = {}
        for pkg in curves:
            for bits in args.bits or ct_variants():
                exe = Path(tmp) / f"ct_{pkg}_{bits}"
                jobs[(pkg, bits)] = (exe, build_ct(ROOT / "generated" / pkg, bits, exe))
        for (pkg, bits), (exe, proc) in jobs.items():
            log = proc.communicate()[0]
            if proc.returncode != 0:
                print(f"{pkg} {bits}: compilation failed\n{log}")
                failures += 1
                continue
            checks = list_checks(exe)
            results = memcheck_checks(exe, [name for name, _ in checks])
            for name, expect in checks:
                result = results[name]
                problem = verdict(expect, result)
                failures += problem is not None
                state = "clean" if result.clean else f"flagged ({result.leaks} reports)"
                print(
                    f"{pkg:10s} {bits:>3s}  {name:34s} {expect:8s} {state}{'  FAIL: ' + problem if problem else ''}",
                    flush=True,
                )
    print(f"constant_time: {'all checks passed' if not failures else f'{failures} failures'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
