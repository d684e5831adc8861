"""The protocol modules a curve file can ask for (``protocols = [...]``).

Each protocol is one entry: the Python/Cython templates it renders into the curve's package and a
check that says, from derived properties of the curve (never its name), why it cannot apply.  A
curve file naming an unknown protocol, or one its curve cannot support, is refused with a message
naming the key and the reason.  Protocol data that is not a property of the curve (gas schedules,
precompile addresses, ciphersuite tags) lives with the protocol's entry, not in the curve file.

The registry is resolved when a package is rendered (generator/emit); parsing a curve file checks
names only, against ``generator.params.PROTOCOL_NAMES``, so that params imports nothing downstream
of it.  A new protocol is registered here and named there (tests/derive/test_derive.py checks that the
two agree).

Layer: protocols. Imports derive, the curve files and the leaves; never emit or the layers above,
nor generator/reference.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping

if TYPE_CHECKING:
    from ..derive.model import CurveModel


@dataclass(frozen=True)
class Protocol:
    """One protocol module family.

    ``files`` maps a file of the package (e.g. ``"bls.py"``) to its template (relative to
    templates/); ``data`` maps a file of the package to a file of generator/protocols/data that
    is copied byte for byte (public parameters of the protocol); ``unsupported`` returns None when
    the curve can carry the protocol, else the reason; ``context`` adds the protocol's own
    template variables (derived from the model).
    """

    name: str
    summary: str
    files: Mapping[str, str]
    data: Mapping[str, str] = field(default_factory=dict)
    unsupported: Callable[["CurveModel"], str | None] = lambda _model: None
    context: Callable[["CurveModel"], dict[str, object]] = lambda _model: {}


PROTOCOLS: dict[str, Protocol] = {}
# The files that Protocol.data names.
DATA_DIR = Path(__file__).resolve().parent / "data"


def data_file(name: str) -> bytes:
    """The bytes of one file of generator/protocols/data."""
    return (DATA_DIR / name).read_bytes()


def register(protocol: Protocol) -> Protocol:
    """Add one protocol to the registry (each protocol module calls this at import)."""
    if protocol.name in PROTOCOLS:
        raise ValueError(f"protocol {protocol.name!r} registered twice")
    PROTOCOLS[protocol.name] = protocol
    return protocol


def protocol_names() -> tuple[str, ...]:
    return tuple(sorted(PROTOCOLS))


# The protocol entries: each module of this package registers one (or more) at import; keep the
# import list sorted.
from . import bls_signatures  # noqa: E402,F401,I001
from . import ecvrf  # noqa: E402,F401,I001
from . import eip2333  # noqa: E402,F401,I001
from . import eip4844  # noqa: E402,F401,I001
from . import evm  # noqa: E402,F401,I001
from . import groth16  # noqa: E402,F401,I001
from . import kzg  # noqa: E402,F401,I001
