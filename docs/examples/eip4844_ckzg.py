# SPDX-License-Identifier: MIT OR Apache-2.0
"""EIP-4844 blobs and EIP-7594 cells with ckzg's function names and argument order
(generated.bls12_381.eip4844), byte for byte against ckzg (c-kzg-4844 over blst).

Run from the repository root: python docs/examples/eip4844_ckzg.py
Needs: ckzg (in the test extra).
"""

import lzma
import random
import tempfile
from pathlib import Path

import ckzg

from generated.bls12_381 import eip4844

# pairforge ships Ethereum's mainnet KZG setup: load_trusted_setup() with no argument reads it, checks
# every point (decoded, subgroup-checked, powers of one tau) and keeps it for the next call. ckzg reads
# the same setup from c-kzg-4844's trusted_setup.txt, which the repository keeps xz-compressed.
ts = eip4844.load_trusted_setup()
ROOT = Path(__file__).resolve().parents[2]
packed = ROOT / "tests" / "vectors" / "eip4844_kzg" / "trusted_setup.txt.xz"
tmp = tempfile.TemporaryDirectory(prefix="eip4844-recipe-")
setup_file = Path(tmp.name) / "trusted_setup.txt"
setup_file.write_bytes(lzma.decompress(packed.read_bytes()))
cts = ckzg.load_trusted_setup(str(setup_file), 0)
tmp.cleanup()  # both setups are in memory now

# A blob: 4096 field elements of 32 bytes, big-endian, each below r (random here, seeded).
rng = random.Random(4844)
r = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
blob = b"".join(rng.randrange(r).to_bytes(32, "big") for _ in range(eip4844.FIELD_ELEMENTS_PER_BLOB))
assert len(blob) == eip4844.BYTES_PER_BLOB == 131072

# --- EIP-4844 ------------------------------------------------------------------------------------
commitment = eip4844.blob_to_kzg_commitment(blob, ts)  # 48 bytes, a compressed G1 point
assert commitment == ckzg.blob_to_kzg_commitment(blob, cts)

proof = eip4844.compute_blob_kzg_proof(blob, commitment, ts)
assert proof == ckzg.compute_blob_kzg_proof(blob, commitment, cts)
assert eip4844.verify_blob_kzg_proof(blob, commitment, proof, ts)
assert ckzg.verify_blob_kzg_proof(blob, commitment, proof, cts)  # each accepts the other's proof

# A blob with one element changed no longer matches the commitment.
tampered = bytes(31) + b"\x01" + blob[32:]
assert not eip4844.verify_blob_kzg_proof(tampered, commitment, proof, ts)

# The opening at a point z: proof and y = p(z), then verify_kzg_proof.
z = rng.randrange(r).to_bytes(32, "big")
proof_z, y = eip4844.compute_kzg_proof(blob, z, ts)
assert (proof_z, y) == tuple(ckzg.compute_kzg_proof(blob, z, cts))
assert eip4844.verify_kzg_proof(commitment, z, y, proof_z, ts)
other_y = (int.from_bytes(y, "big") ^ 1).to_bytes(32, "big")
assert not eip4844.verify_kzg_proof(commitment, z, other_y, proof_z, ts)

# Batches take lists of bytes, or ckzg's concatenated bytes.
assert eip4844.verify_blob_kzg_proof_batch([blob], [commitment], [proof], ts)
assert eip4844.verify_blob_kzg_proof_batch(blob, commitment, proof, ts)

# --- EIP-7594 (PeerDAS): 128 cells with their proofs, recovery from half of them ------------------
cells, cell_proofs = eip4844.compute_cells_and_kzg_proofs(blob, ts)  # FK20, as c-kzg computes them
theirs_cells, theirs_proofs = ckzg.compute_cells_and_kzg_proofs(blob, cts)
assert (cells, cell_proofs) == (list(theirs_cells), list(theirs_proofs))

indices = list(range(0, 128, 2))  # any 64 of the 128 cells, indices strictly increasing
recovered = eip4844.recover_cells_and_kzg_proofs(indices, [cells[i] for i in indices], ts)
assert tuple(recovered) == (cells, cell_proofs)

some = [3, 64, 127]
assert eip4844.verify_cell_kzg_proof_batch([commitment] * 3, some, [cells[i] for i in some],
                                           [cell_proofs[i] for i in some], ts)
assert not eip4844.verify_cell_kzg_proof_batch([commitment] * 3, some, [cells[i] for i in some],
                                               [cell_proofs[i] for i in (3, 64, 126)], ts)

print("EIP-4844 and EIP-7594: commitment, proofs, cells and recovery equal ckzg's: OK")
