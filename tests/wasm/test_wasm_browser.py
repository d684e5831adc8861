"""A headless-browser smoke test of the ES module loader (generated/<pkg>/wasm/<pkg>.mjs): a page
served by Python's http.server imports BLS12-381's .mjs, which fetches the .wasm beside it (the
browser path of load()), runs a pairing check and a BLS verification with values made by the
Python module, and writes its results into the page; `chromium --headless --dump-dom` prints the
page after its scripts ran.

Needs Debian's chromium (apt-get install chromium: about 80 MB to download, 290 MB installed);
without it the test skips, also under CI, which does not install it (docs/targets.md, "WebAssembly":
`nox -s wasm` runs it where chromium is installed)."""

from __future__ import annotations

import functools
import html
import json
import re
import shutil
import subprocess
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import REPO_ROOT
from wasm_util import cached_wasm

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>pairforge wasm</title></head>
<body><pre id="out">pending</pre>
<script type="module">
const fx = JSON.parse(%(fixture)s);
const hex = (s) => Uint8Array.from(s.match(/../g).map((b) => parseInt(b, 16)));
const out = document.getElementById('out');
try {
  const { load } = await import('./bls12_381.mjs');
  const curve = await load();
  const msg = new TextEncoder().encode(fx.message);
  const results = {
    pairing_check: curve.pairingCheck([hex(fx.p), hex(fx.neg_p)], [hex(fx.q), hex(fx.q)]),
    pairing_check_false: curve.pairingCheck([hex(fx.p), hex(fx.p)], [hex(fx.q), hex(fx.q)]),
    verify: curve.verify(hex(fx.pk), msg, hex(fx.sig)),
    verify_forged: curve.verify(hex(fx.pk), msg, hex(fx.forged_sig)),
  };
  out.textContent = 'RESULT ' + JSON.stringify(results);
} catch (err) {
  out.textContent = 'ERROR ' + err;
}
</script></body></html>
"""


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class _Handler(SimpleHTTPRequestHandler):
    """Static files with the MIME types module scripts and streaming compilation ask for."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript", ".wasm": "application/wasm"}

    def log_message(self, *args) -> None:  # quiet
        pass


def test_browser_smoke(curve_module, tmp_path) -> None:
    browser = _chromium()
    if browser is None:
        pytest.skip("chromium is not installed (apt-get install chromium); `nox -s wasm` runs this where it is")
    C = curve_module("bls12_381")
    from generated.bls12_381 import bls

    pop = bls.MinPk.Pop
    sk, other = pop.key_gen(bytes(range(32))), pop.key_gen(bytes(range(1, 33)))
    message = "pairforge in a browser"
    P, Q = C.G1.generator() * 424242, C.G2.generator() * 171717
    fixture = {
        "message": message, "pk": pop.sk_to_pk(sk).hex(), "sig": pop.sign(sk, message.encode()).hex(),
        "forged_sig": pop.sign(other, message.encode()).hex(),
        "p": P.to_bytes().hex(), "neg_p": (-P).to_bytes().hex(), "q": Q.to_bytes().hex(),
    }
    site = tmp_path / "site"
    site.mkdir()
    shutil.copyfile(REPO_ROOT / "generated" / "bls12_381" / "wasm" / "bls12_381.mjs", site / "bls12_381.mjs")
    shutil.copyfile(cached_wasm(REPO_ROOT / "generated" / "bls12_381"), site / "bls12_381.wasm")
    (site / "index.html").write_text(PAGE % {"fixture": json.dumps(json.dumps(fixture))})
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
        proc = subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
             f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=60000", "--dump-dom", url],
            capture_output=True, text=True, timeout=240,
        )
    finally:
        server.shutdown()
        server.server_close()
    found = re.search(r"<pre id=\"out\">(.*?)</pre>", proc.stdout, re.S)
    assert found, f"no page in chromium's output (exit {proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    text = html.unescape(found.group(1))
    assert text.startswith("RESULT "), text
    assert json.loads(text[len("RESULT "):]) == {
        "pairing_check": True, "pairing_check_false": False, "verify": True, "verify_forged": False}
