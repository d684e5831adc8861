"""expand_message.h (the C behind G1/G2.hash_to_curve, encode_to_curve and the WebAssembly ABI):
SHA-256 and expand_message_xmd against hashlib, on message lengths around every SHA-256 block and
padding boundary, DSTs of 1, 255 (the longest used as is) and 256+ bytes (hashed first, RFC 9380
section 5.3.3), and output lengths from 1 to 255 blocks; once as shipped (the SHA-extension block on
processors that have them) and once with the portable block only (-DPF_NO_SHA_NI)."""

from __future__ import annotations

import hashlib
import random
import subprocess
from pathlib import Path

import pytest
from c_kernel_harness import PACKAGES, compile_harness
from conftest import TESTS_DIR

HARNESS = TESTS_DIR / "c_harness" / "expand_message.c"


def xmd_sha256(msg: bytes, dst: bytes, length: int) -> bytes:
    """RFC 9380 section 5.3.1 with SHA-256, written here from the RFC with hashlib."""
    if len(dst) > 255:
        dst = hashlib.sha256(b"H2C-OVERSIZE-DST-" + dst).digest()
    dst_prime = dst + bytes([len(dst)])
    b0 = hashlib.sha256(bytes(64) + msg + length.to_bytes(2, "big") + b"\0" + dst_prime).digest()
    blocks = [hashlib.sha256(b0 + b"\1" + dst_prime).digest()]
    while 32 * len(blocks) < length:
        x = bytes(a ^ b for a, b in zip(b0, blocks[-1], strict=True))
        blocks.append(hashlib.sha256(x + bytes([len(blocks) + 1]) + dst_prime).digest())
    return b"".join(blocks)[:length]


def cases() -> list[tuple[bytes, bytes, int]]:
    rng = random.Random(5331)
    dsts = [b"Q", b"QUUX-V01-CS02-with-expander-SHA256-128", bytes(range(255)), bytes(256), b"x" * 300]
    out = []
    # b0 hashes 64 + len(msg) + 3 + len(dst) + 1 bytes: cross every padding boundary for each DST
    for dst in dsts:
        for n in range(0, 140):
            out.append((rng.randbytes(n), dst, rng.choice((32, 64, 128, 256, 96, 1, 33))))
    out += [(rng.randbytes(rng.randrange(2000)), rng.choice(dsts), rng.randrange(1, 8161)) for _ in range(40)]
    out += [(b"", b"D", 8160), (b"abc", bytes(1000), 512)]
    return out


@pytest.mark.parametrize("portable_block", [False, True], ids=["as-shipped", "portable-block"])
def test_expand_message_xmd_matches_hashlib(portable_block: bool) -> None:
    pkg = PACKAGES[0]
    exe = compile_harness(HARNESS, pkg, "portable", defines=("PF_NO_SHA_NI",) if portable_block else ())
    todo = cases()
    lines = [f"{m.hex() or '-'} {d.hex()} {n}" for m, d, n in todo]
    run = subprocess.run([str(exe)], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    outs = run.stdout.split("\n")
    assert len(outs) == len(todo) + 2 and outs[-1] == "" and outs[-2].startswith("ni ")
    if portable_block:
        assert outs[-2] == "ni 0"
    for (msg, dst, n), got in zip(todo, outs, strict=False):
        assert bytes.fromhex(got) == xmd_sha256(msg, dst, n), (len(msg), len(dst), n)


def test_sha_extensions_used_where_present() -> None:
    """On a processor with SHA-NI the shipped header takes the SHA-extension block (so the test above
    compares both blocks with hashlib); elsewhere it reports 0."""
    flags = Path("/proc/cpuinfo").read_text(encoding="utf-8") if Path("/proc/cpuinfo").exists() else ""
    want = "1" if " sha_ni" in flags and " sse4_1" in flags else "0"
    exe = compile_harness(HARNESS, PACKAGES[0], "portable")
    run = subprocess.run([str(exe)], input="", capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout == f"ni {want}\n"
