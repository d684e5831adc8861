"""templates/c/group.h.j2 against a Python affine reference.

The template is rendered twice per curve, as G1 over fp and as G2 over fp2 = fp[u]/(u^2 + 1) (over
fp for BW6-761), into one C translation unit with a ctypes harness (tests/c_harness/group/).  fp is
a mock prime field (tests/c_harness/group/mock_fp.h), and also the real field template
(templates/c/field.h.j2) when it renders; fp2 is a mock over either.  Builds: BN254 and BLS12-381
with 64- and 32-bit limbs on both fields, BW6-761 with 64-bit limbs on the mock.  When valgrind is
installed, mul_ct and add_ct are also checked for secret-dependent branches and indices.
"""

from __future__ import annotations

import ctypes
import random
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest
from conftest import REPO_ROOT, TESTS_DIR, skip_or_fail

from generator.emit.render import c_limbs, render
from security.constant_time import have_memcheck, memcheck, verdict

HARNESS = TESTS_DIR / "c_harness" / "group"
CC = shutil.which("gcc") or shutil.which("cc")

# ------------------------------------------------------------------------------------------------
# Curves (published parameters)

CURVES = {
    "bn254": dict(
        p=0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47,
        r=0x30644E72E131A029B85045B68181585D2833E84879B9709143E1F593F0000001,
        b=3,
        b2=("div", 3, (9, 1)),  # 3 / (9 + u), D-twist
        g1=(1, 2),
        g2=(
            (
                10857046999023057135944570762232829481370756359578518086990519993285655852781,
                11559732032986387107991004021392285783925812861821192530917403151452391805634,
            ),
            (
                8495653923123431417604973247489272438418190587263600148770280649306958101930,
                4082367875863433681332203403145435568316851327593401208105741076214120093531,
            ),
        ),
        h1=1,
    ),
    "bls12_381": dict(
        p=0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB,
        r=0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001,
        b=4,
        b2=("mul", 4, (1, 1)),  # 4 (1 + u), M-twist
        g1=(
            0x17F1D3A73197D7942695638C4FA9AC0FC3688C4F9774B905A14E3A3F171BAC586C55E83FF97A1AEFFB3AF00ADB22C6BB,
            0x08B3F481E3AAA0F1A09E30ED741D8AE4FCF5E095D5D00AF600DB18CB2C04B3EDD03CC744A2888AE40CAA232946C5E7E1,
        ),
        g2=(
            (
                0x024AA2B2F08F0A91260805272DC51051C6E47AD4FA403B02B4510B647AE3D1770BAC0326A805BBEFD48056C8C121BDB8,
                0x13E02B6052719F607DACD3A088274F65596BD0D09920B61AB5DA61BBDC7F5049334CF11213945D57E5AC7D055D042B7E,
            ),
            (
                0x0CE5D527727D6E118CC9CDC6DA2E351AADFD9BAA8CBDD3A76D429A695160D12C923AC9CC3BACA289E193548608B82801,
                0x0606C4A02EA734CC32ACD2B02BC28B99CB3E287E85A763AF267492AB572E99AB3F370D275CEC1DA1AAA9075FF05F79BE,
            ),
        ),
        h1=0x396C8C005555E1568C00AAAB0000AAAB,
    ),
    # BW6-761 (§5.4): G2 lives on E'(Fp), y^2 = x^3 + 4; r has 6 64-bit words.  Mock field only.
    "bw6_761": dict(
        p=0x122E824FB83CE0AD187C94004FAFF3EB926186A81D14688528275EF8087BE41707BA638E584E91903CEBAFF25B423048689C8ED12F9FD9071DCD3DC73EBFF2E98A116C25667A8F8160CF8AEEAF0A437E6913E6870000082F49D00000000008B,
        r=0x01AE3A4617C510EAC63B05C06CA1493B1A22D9F300F5138F1EF3622FBA094800170B5D44300000008508C00000000001,
        b=-1,
        b2=("int", 4),
        g1=(
            0x01075B020EA190C8B277CE98A477BEAEE6A0CFB7551B27F0EE05C54B85F56FC779017FFAC15520AC11DBFCD294C2E746A17A54CE47729B905BD71FA0C9EA097103758F9A280CA27F6750DD0356133E82055928ACA6AF603F4088F3AF66E5B43D,
            0x0058B84E0A6FC574E6FD637B45CC2A420F952589884C9EC61A7348D2A2E573A3265909F1AF7E0DBAC5B8FA1771B5B806CC685D31717A4C55BE3FB90B6FC2CDD49F9DF141B3053253B2B08119CAD0FB93AD1CB2BE0B20D2A1BAFC8F2DB4E95363,
        ),
        g2=(
            0x0110133241D9B816C852A82E69D660F9D61053AAC5A7115F4C06201013890F6D26B41C5DAB3DA268734EC3F1F09FEB58C5BBCAE9AC70E7C7963317A300E1B6BACE6948CB3CD208D700E96EFBC2AD54B06410CF4FE1BF995BA830C194CD025F1C,
            0x017C3357761369F8179EB10E4B6D2DC26B7CF9ACEC2181C81A78E2753FFE3160A1D86C80B95A59C94C97EB733293FEF64F293DBD2C712B88906C170FFA823003EA96FCD504AFFC758AA2D3A3C5A02A591EC0594F9EAC689EB70A16728C73B61,
        ),
        h1=0xAD1972339049CE762C77D5AC34CB12EFC856A0853C9DB94CC61C554757551C0C832BA4061000003B3DE580000000007C,
    ),
}
G2_DEG = {"bn254": 2, "bls12_381": 2, "bw6_761": 1}

# ------------------------------------------------------------------------------------------------
# Python reference: Fp or Fp[u]/(u^2 + 1), affine points, None = identity


class Fq:
    __slots__ = ("p", "c")

    def __init__(self, p: int, c):
        self.p = p
        self.c = tuple(x % p for x in c)

    def _new(self, c):
        return Fq(self.p, c)

    def __add__(self, o):
        return self._new(a + b for a, b in zip(self.c, o.c, strict=True))

    def __sub__(self, o):
        return self._new(a - b for a, b in zip(self.c, o.c, strict=True))

    def __neg__(self):
        return self._new(-a for a in self.c)

    def __mul__(self, o):
        if isinstance(o, int):
            return self._new(a * o for a in self.c)
        if len(self.c) == 1:
            return self._new((self.c[0] * o.c[0],))
        a0, a1 = self.c
        b0, b1 = o.c
        return self._new((a0 * b0 - a1 * b1, a0 * b1 + a1 * b0))

    def inv(self):
        if len(self.c) == 1:
            return self._new((pow(self.c[0], -1, self.p),))
        a0, a1 = self.c
        n = pow(a0 * a0 + a1 * a1, -1, self.p)
        return self._new((a0 * n, -a1 * n))

    def __truediv__(self, o):
        return self * o.inv()

    def __eq__(self, o):
        return self.c == o.c

    def __hash__(self):
        return hash(self.c)

    def is_zero(self):
        return not any(self.c)

    def sqrt(self):
        """A square root, or None (p = 3 mod 4)."""
        p = self.p
        if len(self.c) == 1:
            s = pow(self.c[0], (p + 1) // 4, p)
            return self._new((s,)) if s * s % p == self.c[0] else None
        a0, a1 = self.c
        if a1 == 0:
            s = Fq(p, (a0,)).sqrt()
            if s is not None:
                return self._new((s.c[0], 0))
            s = Fq(p, (-a0,)).sqrt()
            return self._new((0, s.c[0]))
        n = Fq(p, (a0 * a0 + a1 * a1,)).sqrt()
        if n is None:
            return None
        half = pow(2, -1, p)
        for d in (n.c[0], -n.c[0]):
            x0 = Fq(p, ((a0 + d) * half,)).sqrt()
            if x0 is not None and x0.c[0] != 0:
                x1 = a1 * half * pow(x0.c[0], -1, p)
                root = self._new((x0.c[0], x1))
                assert root * root == self
                return root
        return None


class Group:
    """Affine arithmetic on y^2 = x^3 + b over Fp (deg 1) or Fp2 (deg 2)."""

    def __init__(self, name: str, curve: dict, deg: int):
        self.name = name
        self.p = curve["p"]
        self.r = curve["r"]
        self.deg = deg
        if name.endswith("g1"):
            self.b = self.el(curve["b"])
            self.gen = (self.el(curve["g1"][0]), self.el(curve["g1"][1]))
        else:
            if curve["b2"][0] == "int":
                self.b = self.el(curve["b2"][1])
            else:
                op, s, t = curve["b2"]
                s, t = self.el((s, 0)), self.el(t)
                self.b = s / t if op == "div" else s * t
            self.gen = (self.el(curve["g2"][0]), self.el(curve["g2"][1]))
        self.mul = lru_cache(maxsize=None)(self._mul)
        assert self.on_curve(self.gen)
        assert self.mul(self.gen, self.r) is None

    def el(self, v) -> Fq:
        return Fq(self.p, v if isinstance(v, tuple) else (v,) + (0,) * (self.deg - 1))

    def rand_el(self, rng) -> Fq:
        return self.el(tuple(rng.randrange(self.p) for _ in range(self.deg)))

    def on_curve(self, P) -> bool:
        if P is None:
            return True
        x, y = P
        return y * y == x * x * x + self.b

    def neg(self, P):
        return None if P is None else (P[0], -P[1])

    def add(self, P, Q):
        if P is None:
            return Q
        if Q is None:
            return P
        (x1, y1), (x2, y2) = P, Q
        if x1 == x2:
            if y1 != y2 or y1.is_zero():
                return None
            lam = x1 * x1 * 3 / (y1 * 2)
        else:
            lam = (y2 - y1) / (x2 - x1)
        x3 = lam * lam - x1 - x2
        return (x3, lam * (x1 - x3) - y1)

    def _mul(self, P, k: int):
        R = None
        for bit in bin(k)[2:] if k > 0 else "":
            R = self.add(R, R)
            if bit == "1":
                R = self.add(R, P)
        return R

    def rand_point(self, rng):
        """A random point of the curve, not multiplied by any cofactor."""
        while True:
            x = self.rand_el(rng)
            y = (x * x * x + self.b).sqrt()
            if y is not None:
                P = (x, y if rng.random() < 0.5 else -y)
                assert self.on_curve(P)
                return P


GROUPS = {
    (c, g): Group(f"{c}-{g}", CURVES[c], 1 if g == "g1" else G2_DEG[c]) for c in CURVES for g in ("g1", "g2")
}

# ------------------------------------------------------------------------------------------------
# Rendering and building


def fp_init(v: int, p: int, limbs64: int) -> str:
    return "{ { " + c_limbs(v * (1 << (64 * limbs64)) % p, limbs64) + " } }"


def prepare(tmp: Path, curve: str, bits: int, backend: str):
    """Render the headers of one build; returns (include dir, gcc base command) or a skip reason."""
    c = CURVES[curve]
    p, r = c["p"], c["r"]
    limbs64 = (p.bit_length() + 63) // 64
    inc = tmp / f"{curve}-{bits}-{backend}"
    inc.mkdir()
    fr64 = (r.bit_length() + 63) // 64
    cfg = f"#define HARNESS_FR_LIMBS64 {fr64}\n" + ("#define HARNESS_G2_FP 1\n" if G2_DEG[curve] == 1 else "")
    (inc / "limbs.h").write_text(render("c/limbs.h.j2", header="limbs (test build)"))
    (inc / "threads.h").write_text(render("c/threads.h.j2", header="threads (test build)"))
    if backend == "mock":
        R = 1 << (64 * limbs64)
        (inc / "harness_cfg.h").write_text(
            cfg + f"#define MOCK_LIMBS64 {limbs64}\n"
            f"#define MOCK_P {c_limbs(p, limbs64)}\n"
            f"#define MOCK_ONE {c_limbs(R % p, limbs64)}\n"
            f"#define MOCK_R2 {c_limbs(R * R % p, limbs64)}\n"
            f"#define MOCK_N0_64 0x{(-pow(p, -1, 1 << 64)) % (1 << 64):016x}ULL\n"
            f"#define MOCK_N0_32 0x{(-pow(p, -1, 1 << 32)) % (1 << 32):08x}UL\n"
        )
    else:
        if not (REPO_ROOT / "templates" / "c" / "field.h.j2").exists():
            return "templates/c/field.h.j2 does not exist yet"
        try:
            from generator.derive.fields import derive_field

            text = render("c/field.h.j2", field=derive_field("fp", p, curve), header="fp (test build)")
        except Exception as exc:  # the field template is someone else's and may be unfinished
            return f"templates/c/field.h.j2 does not render: {exc!r}"
        (inc / "fp.h").write_text(text)
        (inc / "harness_cfg.h").write_text(cfg + "#define HARNESS_REAL_FP 1\n")
    g1, g2 = GROUPS[(curve, "g1")], GROUPS[(curve, "g2")]
    common = dict(order_limbs=c_limbs(r, fr64), order_bits=r.bit_length())
    b1 = fp_init(g1.b.c[0], p, limbs64)
    g1_text = render("c/group.h.j2", header=f"{curve} G1", g="g1", F="fp", b_init=b1, **common)
    (inc / "g1.h").write_text(g1_text)
    if g2.deg == 1:
        f2, b2 = "fp", fp_init(g2.b.c[0], p, limbs64)
    else:
        f2, b2 = "fp2", "{ " + ", ".join(fp_init(v, p, limbs64) for v in g2.b.c) + " }"
    (inc / "g2.h").write_text(render("c/group.h.j2", header=f"{curve} G2", g="g2", F=f2, b_init=b2, **common))
    groups = [{"g": "g1", "F": "fp", "deg": 1}, {"g": "g2", "F": f2, "deg": g2.deg}]
    msm = render("c/msm.h.j2", header=f"{curve} msm", groups=groups, fp_bits=p.bit_length(), **common)
    (inc / "msm.h").write_text(msm)
    return inc, [CC, "-O2", "-std=c99", "-pthread", "-Wall", "-Wextra", "-Werror", f"-DPF_LIMB_BITS={bits}",
                 "-I", str(inc), "-I", str(HARNESS)]  # fmt: skip


# the module-scoped builds are shared by every test here: one worker under xdist
pytestmark = pytest.mark.xdist_group("group_c")
CONFIGS = [
    (curve, bits, backend)
    for backend in ("mock", "real")
    for curve in ("bn254", "bls12_381")
    for bits in (64, 32)
] + [("bw6_761", 64, "mock")]
HAVE_MEMCHECK = have_memcheck()


def spawn(cmd: list) -> subprocess.Popen:
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


@pytest.fixture(scope="module")
def builds(request, tmp_path_factory):
    """Render the configurations the selected tests use and start all their compilations at once
    (they run in parallel)."""
    if CC is None:
        skip_or_fail("no C compiler (gcc or cc)")
    tmp = tmp_path_factory.mktemp("group")
    jobs = {}
    if HAVE_MEMCHECK:
        cmd = [CC, "-O1", str(HARNESS / "ct_main.c"), "-o", str(tmp / "ct_main"), "-ldl"]
        jobs["ct_main"] = (cmd, spawn(cmd))
    wanted = set()
    for item in request.session.items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        wanted.update(params[k] for k in ("dll", "cfg") if k in params)
    for cfg in CONFIGS:
        if cfg not in wanted:
            continue
        prep = prepare(tmp, *cfg)
        if isinstance(prep, str):
            jobs[cfg] = prep
            continue
        inc, base = prep
        cmd = base + ["-fPIC", "-shared", str(HARNESS / "harness.c"), "-o", str(inc / "harness.so")]
        if HAVE_MEMCHECK:
            cmd.append("-DHARNESS_MEMCHECK")
        jobs[cfg] = (inc, cmd, spawn(cmd))
    return jobs


_LOGS: dict = {}


def finished(proc: subprocess.Popen) -> str:
    """Wait for a compiler process (once) and return its output."""
    if proc not in _LOGS:
        try:
            _LOGS[proc] = proc.communicate()[0]
        except ValueError:
            # The pipe was already drained and closed (seen once under heavy load): the exit
            # status is still valid, only the log is gone.
            proc.wait()
            _LOGS[proc] = "(compiler output unavailable)"
    return _LOGS[proc]


def built(builds, cfg) -> Path:
    job = builds[cfg]
    if isinstance(job, str):
        skip_or_fail(job)
    inc, cmd, proc = job
    log = finished(proc)
    if proc.returncode != 0:
        if cfg[2] == "real" and "g1.h" not in log and "g2.h" not in log:
            skip_or_fail(f"the real field header does not compile yet:\n{log[:2000]}")
        raise AssertionError(f"compilation failed:\n{' '.join(cmd)}\n{log}")
    return inc / "harness.so"


class Lib:
    """Typed access to one group of a built harness."""

    def __init__(self, dll: ctypes.CDLL, grp: Group, g: str):
        self.dll, self.grp, self.g = dll, grp, g
        self.w = dll.t_limb_bits()
        self.lt = ctypes.c_uint64 if self.w == 64 else ctypes.c_uint32
        self.nl = dll.t_fp_nlimbs()
        self.frn = dll.t_fr_nlimbs()
        self.el = self.nl * grp.deg  # limbs per field element
        fn = self.f("msm_window")
        fn.restype = ctypes.c_size_t
        fn.argtypes = [ctypes.c_size_t]
        fn = self.f("msm_scratch_size")
        fn.restype = ctypes.c_size_t
        fn.argtypes = [ctypes.c_size_t, ctypes.c_size_t, ctypes.c_size_t]
        self.f("msm_scalar_bits").restype = ctypes.c_size_t

    def f(self, name):
        return getattr(self.dll, f"t_{self.g}_{name}")

    # integers <-> limbs
    def limbs(self, v: int, n: int):
        mask = (1 << self.w) - 1
        return [(v >> (self.w * i)) & mask for i in range(n)]

    def arr(self, words):
        return (self.lt * max(len(words), 1))(*words)

    def enc_el(self, e: Fq):
        return [w for c in e.c for w in self.limbs(c, self.nl)]

    def dec_el(self, words) -> Fq:
        cs = []
        for i in range(self.grp.deg):
            chunk = words[i * self.nl : (i + 1) * self.nl]
            v = sum(int(x) << (self.w * j) for j, x in enumerate(chunk))
            assert v < self.grp.p, "output not fully reduced"
            cs.append(v)
        return self.grp.el(tuple(cs))

    def jac(self, P, rng, z=None):
        """Jacobian words of P with a random z (the identity: random x, y and z = 0)."""
        G = self.grp
        if P is None:
            x, y, zz = G.rand_el(rng), G.rand_el(rng), G.el(0)
        else:
            zz = z or G.rand_el(rng)
            if zz.is_zero():
                zz = G.el(1)
            z2 = zz * zz
            x, y = P[0] * z2, P[1] * z2 * zz
        return self.enc_el(x) + self.enc_el(y) + self.enc_el(zz)

    def aff(self, P):
        G = self.grp
        if P is None:
            return self.enc_el(G.el(0)) * 2
        return self.enc_el(P[0]) + self.enc_el(P[1])

    def dec_jac(self, words):
        e = self.el
        x, y, z = (self.dec_el(words[i * e : (i + 1) * e]) for i in range(3))
        if z.is_zero():
            return None
        zi = z.inv()
        zi2 = zi * zi
        return (x * zi2, y * zi2 * zi)

    def dec_aff(self, words):
        e = self.el
        x, y = self.dec_el(words[:e]), self.dec_el(words[e : 2 * e])
        if x.is_zero() and y.is_zero():
            return None
        return (x, y)

    def out(self, n_el: int):
        return (self.lt * n_el)()

    # operations (inputs: affine reference points or raw Jacobian words)
    def call_jac(self, name, *args):
        o = self.out(3 * self.el)
        self.f(name)(o, *args)
        return self.dec_jac(list(o))

    def add(self, a, b, op=0, alias=0):
        return self.call_jac("binop", self.arr(a), self.arr(b), op, alias)

    def unop(self, a, op, alias=0):
        return self.call_jac("unop", self.arr(a), op, alias)

    def add_affine(self, a, b, alias=0, ct=0):
        return self.call_jac("add_affine", self.arr(a), self.arr(b), alias, ct)

    def mul(self, a, k: int, ct: bool, nbits=None, alias=0):
        if ct:
            nbits = k.bit_length() if nbits is None else nbits
            words = self.limbs(k, max(1, -(-nbits // self.w)))
            return self.call_jac("mul", self.arr(a), self.arr(words), ctypes.c_size_t(nbits), 0, alias)
        n = max(1, -(-k.bit_length() // self.w)) if nbits is None else nbits
        return self.call_jac("mul", self.arr(a), self.arr(self.limbs(k, n)), ctypes.c_size_t(n), 1, alias)

    def pred(self, name, *words):
        return bool(self.f(name)(*(self.arr(w) for w in words)))

    def to_affine(self, a):
        o = self.out(2 * self.el)
        self.f("to_affine")(o, self.arr(a))
        return self.dec_aff(list(o))

    def from_affine(self, a):
        return self.call_jac("from_affine", self.arr(a))

    def batch_to_affine(self, jacs):
        n = len(jacs)
        o = self.out(max(1, 2 * self.el * n))
        assert self.f("batch_to_affine")(o, self.arr([w for j in jacs for w in j]), ctypes.c_size_t(n))
        e2 = 2 * self.el
        return [self.dec_aff(list(o)[i * e2 : (i + 1) * e2]) for i in range(n)]

    def msm(self, points, scalars, threads=1, bits=None):
        """The C MSM; bits: the bound the caller promises (default: the bit length of r)."""
        n = len(points)
        pts = [w for P in points for w in self.aff(P)]
        ks = [w for k in scalars for w in self.limbs(k, self.frn)]
        bits = self.grp.r.bit_length() if bits is None else bits
        o = self.out(3 * self.el)
        assert self.f("msm")(o, self.arr(pts), self.arr(ks), ctypes.c_size_t(n), ctypes.c_size_t(bits),
                             ctypes.c_size_t(threads))
        return self.dec_jac(list(o))

    def scalar_bits(self, scalars):
        ks = [w for k in scalars for w in self.limbs(k, self.frn)]
        return self.f("msm_scalar_bits")(self.arr(ks) if ks else None, ctypes.c_size_t(len(scalars)))


@pytest.fixture(scope="module", params=CONFIGS, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def dll(request, builds):
    return request.param[0], ctypes.CDLL(str(built(builds, request.param)))


@pytest.fixture(params=["g1", "g2"])
def lib(dll, request):
    curve, d = dll
    return Lib(d, GROUPS[(curve, request.param)], request.param)


def rng_for(lib: Lib, salt: str) -> random.Random:
    # the same inputs for every limb width and field backend, so Group.mul's cache is shared
    return random.Random(f"{lib.grp.name}-{salt}")


@lru_cache(maxsize=None)
def points_with_logs(name: str, n: int, seed: int):
    """n random subgroup points P_i = s_i G, from one scalar multiplication and n - 1 additions."""
    curve, g = name.split("-")
    G = GROUPS[(curve, g)]
    rng = random.Random(f"{name}-{seed}")
    s0, t = rng.randrange(1, G.r), rng.randrange(1, G.r)
    P, T = G.mul(G.gen, s0), G.mul(G.gen, t)
    pts, logs = [], []
    for i in range(n):
        pts.append(P)
        logs.append((s0 + i * t) % G.r)
        P = G.add(P, T)
    return pts, logs


def sample(lib: Lib, n: int, seed: int = 0):
    return points_with_logs(lib.grp.name, n, seed)


@lru_cache(maxsize=None)
def outside_point(name: str):
    """A point of the curve of order not dividing r (the cofactor is never applied)."""
    curve, g = name.split("-")
    G = GROUPS[(curve, g)]
    rng = random.Random(f"{name}-outside")
    P = G.rand_point(rng)
    assert G.mul(P, G.r) is not None
    return P


def has_outside(lib: Lib) -> bool:
    return lib.g == "g2" or CURVES[lib.grp.name.split("-")[0]]["h1"] != 1


# ------------------------------------------------------------------------------------------------
# Tests


def test_on_curve_and_identity(lib):
    G, rng = lib.grp, rng_for(lib, "curve")
    pts, _ = sample(lib, 3)
    for P in pts + [G.gen]:
        assert lib.pred("is_on_curve", lib.jac(P, rng))
        assert lib.pred("affine_is_on_curve", lib.aff(P))
        assert not lib.pred("is_identity", lib.jac(P, rng))
        assert not lib.pred("affine_is_identity", lib.aff(P))
        bad = (P[0], P[1] + G.el(1))
        assert not lib.pred("is_on_curve", lib.jac(bad, rng))
        assert not lib.pred("affine_is_on_curve", lib.aff(bad))
    ident = lib.jac(None, rng)
    assert lib.pred("is_identity", ident) and lib.pred("is_on_curve", ident)
    assert lib.pred("affine_is_identity", lib.aff(None)) and lib.pred("affine_is_on_curve", lib.aff(None))
    o = lib.out(3 * lib.el)
    lib.f("set_identity")(o)
    assert lib.pred("is_identity", list(o))
    if has_outside(lib):
        Q = outside_point(lib.grp.name)
        assert lib.pred("is_on_curve", lib.jac(Q, rng)) and lib.pred("affine_is_on_curve", lib.aff(Q))


@pytest.mark.parametrize("op", [0, 1], ids=["add", "add_ct"])
def test_add(lib, op):
    G, rng = lib.grp, rng_for(lib, f"add{op}")
    pts, _ = sample(lib, 6)
    extra = [outside_point(G.name)] if has_outside(lib) else []
    cases = []
    for P, Q in zip(pts + extra, pts[1:] + extra + pts[:1], strict=True):
        cases += [(P, Q), (P, P), (P, G.neg(P)), (None, P), (P, None), (None, None)]
    for P, Q in cases:
        want = G.add(P, Q)
        for alias in (0, 1, 2):
            assert lib.add(lib.jac(P, rng), lib.jac(Q, rng), op, alias) == want
        if P == Q:
            assert lib.add(lib.jac(P, rng), lib.jac(P, rng), op, 3) == want


def test_add_affine_dbl_neg(lib):
    G, rng = lib.grp, rng_for(lib, "madd")
    pts, _ = sample(lib, 6)
    extra = [outside_point(G.name)] if has_outside(lib) else []
    for P, Q in zip(pts + extra, pts[1:] + extra + pts[:1], strict=True):
        for A, B in [(P, Q), (P, P), (P, G.neg(P)), (None, P), (P, None), (None, None)]:
            for alias in (0, 1):
                for ct in (0, 1):  # add_affine, and the complete add_affine_ct
                    assert lib.add_affine(lib.jac(A, rng), lib.aff(B), alias, ct) == G.add(A, B)
    for P in pts + extra + [None]:
        for alias in (0, 1):
            assert lib.unop(lib.jac(P, rng), 0, alias) == G.add(P, P)
            assert lib.unop(lib.jac(P, rng), 1, alias) == G.neg(P)


def test_equal(lib):
    G, rng = lib.grp, rng_for(lib, "eq")
    pts, _ = sample(lib, 4)
    for P in pts:
        assert lib.pred("equal", lib.jac(P, rng), lib.jac(P, rng))
        assert not lib.pred("equal", lib.jac(P, rng), lib.jac(G.neg(P), rng))
        assert not lib.pred("equal", lib.jac(P, rng), lib.jac(pts[0] if P != pts[0] else pts[1], rng))
        assert not lib.pred("equal", lib.jac(P, rng), lib.jac(None, rng))
        assert not lib.pred("equal", lib.jac(None, rng), lib.jac(P, rng))
    assert lib.pred("equal", lib.jac(None, rng), lib.jac(None, rng))
    # an identity whose x is 0 against a point: X1 Z2^2 == X2 Z1^2 holds, Y may not decide alone
    zero_x_id = lib.enc_el(G.el(0)) + lib.enc_el(G.rand_el(rng)) + lib.enc_el(G.el(0))
    assert not lib.pred("equal", zero_x_id, lib.jac(pts[0], rng))
    # the all-zero identity makes both cross products vanish: only the identity flags decide
    zeros = lib.enc_el(G.el(0)) * 3
    assert not lib.pred("equal", zeros, lib.jac(pts[0], rng))
    assert not lib.pred("equal", lib.jac(pts[0], rng), zeros)
    assert lib.pred("equal", zeros, lib.jac(None, rng))


def test_affine_conversions(lib):
    rng = rng_for(lib, "aff")
    pts, _ = sample(lib, 7)
    for P in pts + [None]:
        assert lib.to_affine(lib.jac(P, rng)) == P
        assert lib.from_affine(lib.aff(P)) == P
    assert lib.batch_to_affine([]) == []
    for layout in ([None], [pts[0]], [None, pts[0], None, None, pts[1], pts[2], None], pts + [None]):
        assert lib.batch_to_affine([lib.jac(P, rng) for P in layout]) == list(layout)
    # identity outputs are exactly (0, 0)
    o = lib.out(2 * lib.el)
    lib.f("to_affine")(o, lib.arr(lib.jac(None, rng)))
    assert not any(o)


def scalars_for(G: Group, rng: random.Random):
    r = G.r
    return [0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 0xFFFF, r - 1, r, r + 1, 1 << 255, (1 << 256) - 1] + [
        rng.randrange(r) for _ in range(4)
    ]


def full_bits(G: Group) -> int:
    return max(256, -(-G.r.bit_length() // 64) * 64)


def test_mul(lib):
    G, rng = lib.grp, rng_for(lib, "mul")
    pts, logs = sample(lib, 2)
    for i, (P, s) in enumerate(zip(pts, logs, strict=True)):
        for k in scalars_for(G, rng) if i == 0 else [rng.randrange(G.r) for _ in range(3)]:
            want = G.mul(G.gen, s * k % G.r)
            assert lib.mul(lib.jac(P, rng), k, ct=False) == want, k
            assert lib.mul(lib.jac(P, rng), k, ct=True) == want, k
            assert lib.mul(lib.jac(P, rng), k, ct=True, nbits=full_bits(G)) == want, k
    # nbits is what mul_ct reads: bits at and above it are ignored
    P, s = pts[0], logs[0]
    k = rng.randrange(1 << 256)
    for nbits in (0, 1, 3, 4, 5, 63, 64, 65, 130, 254, 255, 256):
        kk = k % (1 << nbits)
        want = G.mul(G.gen, s * kk % G.r)
        words = lib.limbs(k, 256 // lib.w)
        got = lib.call_jac("mul", lib.arr(lib.jac(P, rng)), lib.arr(words), ctypes.c_size_t(nbits), 0, 0)
        assert got == want, nbits
    # vartime with extra zero limbs on top, aliasing, the identity
    k = rng.randrange(G.r)
    want = G.mul(P, k)
    assert lib.mul(lib.jac(P, rng), k, ct=False, nbits=512 // lib.w) == want
    assert lib.mul(lib.jac(P, rng), k, ct=False, alias=1) == want
    assert lib.mul(lib.jac(P, rng), k, ct=True, alias=1) == want
    assert lib.mul(lib.jac(None, rng), k, ct=False) is None
    assert lib.mul(lib.jac(None, rng), k, ct=True) is None
    # points outside the subgroup exercise P == Q and P == -Q inside the tables and loops
    if has_outside(lib):
        Q = outside_point(G.name)
        for k in [rng.randrange(1 << 256) for _ in range(2)] + [G.r, G.r - 1, 1 << 255]:
            want = G.mul(Q, k)
            assert lib.mul(lib.jac(Q, rng), k, ct=False) == want
            assert lib.mul(lib.jac(Q, rng), k, ct=True, nbits=full_bits(G)) == want
    sqrt_b = G.b.sqrt()
    if sqrt_b is not None:
        T3 = (G.el(0), sqrt_b)  # (0, sqrt(b)) has order 3
        assert G.on_curve(T3) and G.mul(T3, 3) is None
        for k in range(0, 40):
            want = G.mul(T3, k)
            assert lib.mul(lib.jac(T3, rng), k, ct=False) == want, k
            assert lib.mul(lib.jac(T3, rng), k, ct=True, nbits=8) == want, k


def test_in_subgroup(lib):
    G, rng = lib.grp, rng_for(lib, "sub")
    pts, _ = sample(lib, 3)
    for P in pts + [G.gen, None]:
        assert lib.pred("in_subgroup", lib.jac(P, rng))
    if has_outside(lib):
        Q = outside_point(G.name)
        assert not lib.pred("in_subgroup", lib.jac(Q, rng))
        assert not lib.pred("in_subgroup", lib.jac(G.add(Q, pts[0]), rng))
    sqrt_b = G.b.sqrt()
    if sqrt_b is not None:
        assert not lib.pred("in_subgroup", lib.jac((G.el(0), sqrt_b), rng))
    if lib.g == "g1" and has_outside(lib):
        h1 = CURVES[G.name.split("-")[0]]["h1"]
        assert lib.pred("in_subgroup", lib.jac(G.mul(outside_point(G.name), h1), rng))


def test_msm_window_and_scratch(lib):
    # the direct method (0) for a few points, then windows that never shrink as n grows
    bits = lib.grp.r.bit_length()
    size = lib.f("msm_scratch_size")
    assert lib.f("msm_window")(0) == 0 and size(0, bits, 1) == 0
    last = 0
    for n in (1, 2, 3, 4, 7, 31, 32, 100, 1000, 1 << 16, 1 << 20, 1 << 40):
        c = lib.f("msm_window")(n)
        assert c == 0 or 2 <= c <= 16
        assert c >= last
        last = c
        one = size(n, bits, 1)
        assert (one == 0) == (c == 0)
        # all-zero scalars (0 bits) need no scratch; short scalars need fewer windows
        assert size(n, 0, 1) == 0 and size(n, 0, 4) == 0
        if c:
            assert size(n, 2 * bits, 1) == one  # bits above the scalar length are clamped
            assert size(n, bits, 2) > one
            # at most PF_MSM_MAX_THREADS (64) threads: more asked for change nothing
            assert size(n, bits, 64) == size(n, bits, 69)
    assert last >= 12


def test_msm_scalar_bits(lib):
    rng = rng_for(lib, "scalar-bits")
    assert lib.scalar_bits([]) == 0 and lib.scalar_bits([0, 0, 0]) == 0
    for width in (1, 2, 31, 32, 33, 63, 64, 65, 127, 128, 129, lib.grp.r.bit_length()):
        ks = [rng.randrange(1 << width) for _ in range(5)]
        ks[rng.randrange(5)] |= 1 << (width - 1)
        assert lib.scalar_bits(ks) == width
        assert lib.scalar_bits([0] * 3 + [ks[0] | 1 << (width - 1)]) == width


@pytest.mark.parametrize("n", [5, 60, 300])
def test_msm_short_scalars(lib, n):
    """Windows cut to the longest scalar (batch verification's 64-bit multipliers) give the same sum."""
    if n > 100 and "-mock" in lib.dll._name:
        pytest.skip("batch-affine buckets are run on the real field builds only (time)")
    G, rng = lib.grp, rng_for(lib, f"msm-short{n}")
    pts, logs = sample(lib, n, seed=2)
    pts, logs = list(pts), list(logs)
    for width in (1, 3, 17, 64):
        ks = [rng.randrange(1 << width) for _ in range(n)]
        ks[n // 2] = (1 << width) - 1  # the top bit set: the top window's Booth digit
        want = G.mul(G.gen, sum(k * s for k, s in zip(ks, logs, strict=True)) % G.r)
        bits = lib.scalar_bits(ks)
        assert bits == width
        assert lib.msm(pts, ks, bits=bits) == want
        assert lib.msm(pts, ks, threads=3, bits=bits) == want
        assert lib.msm(pts, ks, bits=bits + 7) == want
    assert lib.msm(pts, [0] * n, bits=0) is None


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 7, 33, 100, 1024, 4096])
def test_msm(lib, n):
    if n > 100 and "-mock" in lib.dll._name:
        pytest.skip("batch-affine buckets (n >= 1024) are run on the real field builds only (time)")
    if n == 4096 and lib.w == 64:
        # wide windows: the two-level reduction (with [d] J_d for the repeated point below); with
        # 32-bit limbs (Fermat inversion, dearer) the cost model keeps the running sums
        assert lib.f("msm_two_level")(n)
    G, rng = lib.grp, rng_for(lib, f"msm{n}")
    pts, logs = sample(lib, n, seed=1)
    pts, logs = list(pts), list(logs)
    top = (1 << G.r.bit_length()) - 1  # the largest scalar the contract allows
    ks = [rng.randrange(G.r) for _ in range(n)]
    specials = [0, 1, G.r - 1, top, 0, 2]
    for i in range(min(n, len(specials))):
        ks[(i * 5) % n] = specials[i]
    if n >= 3:
        pts[1], logs[1] = None, 0  # identity points
        pts[n - 1], logs[n - 1] = None, 0
    want = G.mul(G.gen, sum(k * s for k, s in zip(ks, logs, strict=True)) % G.r)
    assert lib.msm(pts, ks) == want
    assert lib.msm(pts, ks, threads=3) == want
    # against the C vartime multiplications, and with a repeated point (P + P in a bucket)
    if 0 < n <= 7:
        acc = None
        for P, k in zip(pts, ks, strict=True):
            acc = G.add(acc, lib.mul(lib.jac(P, rng), k, ct=False, nbits=lib.frn))
        assert acc == want
    if n >= 4:
        same = [pts[0]] * n
        ks2 = [5] * n
        assert lib.msm(same, ks2) == G.mul(pts[0], 5 * n)
        negs = [pts[0], G.neg(pts[0])] * (n // 2)
        assert lib.msm(negs, [7] * len(negs)) is None
    if has_outside(lib) and n >= 4:
        Q = outside_point(G.name)
        mixed = [Q] + pts[1:]
        k0 = rng.randrange(1 << G.r.bit_length())
        want2 = G.add(G.mul(Q, k0), G.mul(G.gen, sum(k * s for k, s in zip(ks[1:], logs[1:], strict=True)) % G.r))
        assert lib.msm(mixed, [k0] + ks[1:]) == want2


def test_msm_two_level_tree_exceptions(lib):
    """The two-level reduction adds bucket sums in binary trees: equal sums (a doubling), opposite
    sums (the identity) and empty buckets all occur when every point is one of P, -P, 2P, -2P and the
    scalars fill two windows (so most buckets of the other windows stay empty)."""
    n = 4096
    if "-mock" in lib.dll._name or lib.w != 64:
        pytest.skip("the two-level reduction runs on the 64-bit real field builds (see test_msm)")
    assert lib.f("msm_two_level")(n)
    G, rng = lib.grp, rng_for(lib, "msm-tree")
    c = lib.f("msm_window")(n)
    P = sample(lib, 1, seed=3)[0][0]
    P2 = G.add(P, P)
    choices = [(P, 1), (G.neg(P), -1), (P2, 2), (G.neg(P2), -2)]
    pts, ks, total = [], [], 0
    for _ in range(n):
        Q, m = rng.choice(choices)
        k = rng.randrange(1 << (2 * c))
        pts.append(Q)
        ks.append(k)
        total += m * k
    want = G.mul(P, total % G.r)
    assert lib.msm(pts, ks) == want
    assert lib.msm(pts, ks, threads=2) == want
    # every bucket of the lowest window holds 2P: each tree addition is a doubling
    ks = [i % (1 << (c - 1)) + 1 for i in range(n)]
    assert lib.msm([P] * n, ks) == G.mul(P, sum(ks) % G.r)


@pytest.mark.skipif(not HAVE_MEMCHECK, reason="needs valgrind and valgrind/memcheck.h")
@pytest.mark.parametrize(
    "cfg",
    [("bls12_381", 64, "mock"), ("bls12_381", 32, "real"), ("bn254", 64, "real")],
    ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}",
)
def test_constant_time_valgrind(builds, cfg):
    """mul_ct and add_ct on an undefined (secret) scalar and point: no branch or index on them."""
    so = built(builds, cfg)
    cmd, proc = builds["ct_main"]
    log = finished(proc)
    assert proc.returncode == 0, log
    exe = cmd[cmd.index("-o") + 1]
    ct = memcheck([exe, str(so), "ct"], timeout=120)
    assert verdict("ct", ct) is None, ct.log[-4000:]
    # control: the variable-time multiplication on the same secret must be caught
    var = memcheck([exe, str(so), "vartime"], timeout=120)
    assert verdict("vartime", var) is None, var.log[-4000:]
