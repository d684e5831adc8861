"""KZG polynomial commitments as a protocol module: ``kzg.py``.

Commit, open, verify and batch verification over the curve's G1 MSM and pairing check, with
setups from c-kzg-4844's trusted_setup.txt, snarkjs .ptau files or point lists.  Evaluation form
works on the domains of Fr's FFT (generator/derive/fft_domain.py), so any pairing curve can
carry it.

Layer: protocols. Imports derive, the curve files and the leaves; never emit or the layers above,
nor generator/reference.
"""

from __future__ import annotations

from . import Protocol, register

KZG = register(
    Protocol(
        name="kzg",
        summary="KZG polynomial commitments: setups (c-kzg trusted_setup.txt, snarkjs .ptau), commit, open, verify, batch_verify",
        files={"kzg.py": "python/kzg.py.j2"},
    )
)
