"""Ready data for the Python layer of a pairing curve's package: the extension module
(templates/cython/_core.pyx.j2 and its parts under templates/cython/core/), its typing stub
(templates/python/_core.pyi.j2) and the package's ``__init__``.

The tower levels above Fp, with their names, degrees, defining relations and the shapes of their
nested coefficient tuples, are computed here from the frozen CurveModel, so that the templates only
lay them out. ``core_emit(m, ser)`` gathers them; the templates reach it through the Jinja global of
the same name (generator/emit/render.py). Imports the model and the serialization profiles only.

Layer: emit.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..derive.model import CurveModel
from ..derive.serialization import ResolvedProfile, SerializationModel
from .tower import signed


def class_name(c: str) -> str:
    """The Python class of a C prefix: fp2 -> Fp2."""
    return c[:1].upper() + c[1:]


@dataclass(frozen=True)
class ExtensionLevel:
    """One level of the tower above Fp as the Python layer shows it: the class ``cls`` (C prefix
    ``c``) with ``n`` coefficients in ``sub``, of degree ``deg`` over Fp, adjoining ``var`` with the
    relation ``rel``."""

    c: str
    sub: str
    n: int
    deg: int
    var: str
    rel: str
    quadratic: bool
    shape: tuple[int, ...]  # the arities from this level down to Fp, e.g. (2, 3, 2)
    below: tuple[str, ...]  # the Python classes under this level, the nearest first, Fp last

    @property
    def cls(self) -> str:
        return class_name(self.c)

    @property
    def sub_cls(self) -> str:
        return class_name(self.sub)

    @property
    def sub_deg(self) -> int:
        """The degree of the coefficients' field over Fp."""
        return self.deg // self.n

    @property
    def coeffs(self) -> tuple[str, ...]:
        """The C members of the coefficients: c0, c1, ..."""
        return tuple(f"c{i}" for i in range(self.n))


@dataclass(frozen=True)
class CoreEmit:
    """What the extension module, its stub and the package's ``__init__`` take ready: the tower
    levels bottom up, and the profiles that write GT c0 first although they write the tower levels
    most significant first (gnark's E24)."""

    levels: tuple[ExtensionLevel, ...]
    gt_flip: tuple[ResolvedProfile, ...]
    fq_cls: str   # the class of the twist field (G2's coordinates): Fp2, Fp4, or Fp
    fq6_cls: str  # the class of the full extension field, GT's


def _relations(m: CurveModel) -> list[tuple[str, str, int, str, str, bool]]:
    """(C prefix, C prefix of the coefficients, arity, variable, relation, quadratic) of each
    level above Fp, bottom up."""
    names, tw, p = m.tower.names, m.tower, m.p
    fq, fq3, fq6 = names["fq"], names["fq3"], names["fq6"]
    xi = [signed(v, p) for v in tw.xi]
    if m.fq_degree == 2:
        return [(fq, "fp", 2, "u", f"u^2 = {tw.beta}", True),
                (fq3, fq, 3, "v", f"v^3 = xi = {xi[0]} + {xi[1]} u", False),
                (fq6, fq3, 2, "w", "w^2 = v", False)]
    if m.fq_degree == 4:
        assert tw.nu is not None
        nu = [signed(v, p) for v in tw.nu]
        return [("fp2", "fp", 2, "u", f"u^2 = {tw.beta}", True),
                (fq, "fp2", 2, "v", f"v^2 = nu = {nu[0]} + {nu[1]} u", True),
                (fq3, fq, 3, "w", f"w^3 = xi = ({xi[0]} + {xi[1]} u) + ({xi[2]} + {xi[3]} u) v", False),
                (fq6, fq3, 2, "z", "z^2 = w", False)]
    if m.fq_degree == 8:
        assert tw.nu is not None and tw.omega is not None
        nu = [signed(v, p) for v in tw.nu]
        omega = [signed(v, p) for v in tw.omega]
        return [("fp2", "fp", 2, "u", f"u^2 = {tw.beta}", True),
                ("fp4", "fp2", 2, "v", f"v^2 = nu = {nu[0]} + {nu[1]} u", True),
                (fq, "fp4", 2, "w", f"w^2 = omega = {_nested(omega, 'uv')}", True),
                (fq3, fq, 3, "z", f"z^3 = xi = {_nested(xi, 'uvw')}", False),
                (fq6, fq3, 2, "W", "W^2 = z", False)]
    return [(fq3, fq, 3, "u", f"u^3 = alpha = {xi[0]}", False),
            (fq6, fq3, 2, "v", "v^2 = u", False)]


def _nested(c: list[int], variables: str) -> str:
    """A flat element over the quadratic levels as text, its halves nested: ``(c0 + c1 u) + (c2 + c3 u) v``."""
    if len(c) == 1:
        return str(c[0])
    half = len(c) // 2
    low, high = _nested(c[:half], variables[:-1]), _nested(c[half:], variables[:-1])
    if half > 1:
        low, high = f"({low})", f"({high})"
    return f"{low} + {high} {variables[-1]}"


def extension_levels(m: CurveModel) -> tuple[ExtensionLevel, ...]:
    """The tower levels above Fp, bottom up, each with its absolute degree, the shape of its
    nested tuples and the classes below it."""
    levels: list[ExtensionLevel] = []
    deg = 1
    for c, sub, n, var, rel, quadratic in _relations(m):
        deg *= n
        shape = (n, *(lv.n for lv in reversed(levels)))
        below = (*(lv.cls for lv in reversed(levels)), "Fp")
        levels.append(ExtensionLevel(c, sub, n, deg, var, rel, quadratic, shape, below))
    return tuple(levels)


def core_emit(m: CurveModel, ser: SerializationModel) -> CoreEmit:
    """The ready data of one pairing curve's extension module, stub and package ``__init__``."""
    flip = tuple(p for p in ser.profiles if p.gt and p.high_first != p.gt_high_first(m.k))
    names = m.tower.names
    return CoreEmit(extension_levels(m), flip, class_name(names["fq"]), class_name(names["fq6"]))
