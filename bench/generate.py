"""Writes a fragmented Delta table with delta-rs, the way streaming ingest leaves one:
many appends, each adding one small file to every partition.

    generate.py PATH --files N --partitions P --file-mb MB [--seed S]
    generate.py PATH --metadata --files N --partitions P [--checkpoint-every C]

--metadata writes the metadata-heavy shape: N tiny files (a few rows each) over P partitions, one
file per partition per append, with a checkpoint every C appends, so reading the log (checkpoint
plus JSON tail) dominates and the data does not.
"""
import argparse
import math
import shutil

import numpy as np
import pyarrow as pa
from deltalake import write_deltalake

ROWS_PER_MB = 24_800  # measured: delta-rs writes ~42 bytes/row for the columns below


def batch(rng, rows, partitions, offset):
    part = np.arange(rows) % partitions
    return pa.table({
        "event_id": pa.array(np.arange(offset, offset + rows, dtype=np.int64)),
        "customer_id": pa.array([f"CUST_{c:06d}" for c in rng.integers(0, 200_000, rows)]),
        "event_type": pa.array(rng.choice(["click", "purchase", "search", "view"], rows)),
        "amount": pa.array(np.round(rng.random(rows) * 500, 2)),
        "quantity": pa.array(rng.integers(1, 20, rows, dtype=np.int32)),
        "ts": pa.array((1_790_000_000_000_000 + rng.integers(0, 86_400_000_000, rows)).astype("datetime64[us]")).cast(pa.timestamp("us", tz="UTC")),
        "note": pa.array([f"note-{x:x}" for x in rng.integers(0, 1 << 40, rows)]),
        "day": pa.array([f"2026-10-{(p % 28) + 1:02d}" for p in part]),
    })


def metadata_batch(rng, partitions, offset, rows_per_file):
    rows = partitions * rows_per_file
    part = np.arange(rows) % partitions
    return pa.table({
        "event_id": pa.array(np.arange(offset, offset + rows, dtype=np.int64)),
        "customer_id": pa.array([f"CUST_{c:06d}" for c in rng.integers(0, 200_000, rows)]),
        "amount": pa.array(np.round(rng.random(rows) * 500, 2)),
        "hour": pa.array([f"h{p:05d}" for p in part]),
    })


def metadata_table(path, files, partitions, checkpoint_every, seed, rows_per_file=8):
    from deltalake import DeltaTable
    rng = np.random.default_rng(seed)
    appends = math.ceil(files / partitions)
    offset = 0
    for i in range(appends):
        write_deltalake(path, metadata_batch(rng, partitions, offset, rows_per_file), mode="append", partition_by=["hour"])
        offset += partitions * rows_per_file
        if (i + 1) % checkpoint_every == 0:
            DeltaTable(path).create_checkpoint()
        if (i + 1) % 20 == 0:
            print(f"generate: {i + 1}/{appends} appends ({(i + 1) * partitions} files)", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("path")
    ap.add_argument("--files", type=int, required=True, help="total data files")
    ap.add_argument("--partitions", type=int, default=10)
    ap.add_argument("--file-mb", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--metadata", action="store_true", help="the metadata-heavy shape: tiny files, checkpoints")
    ap.add_argument("--checkpoint-every", type=int, default=50, help="with --metadata: appends between checkpoints")
    args = ap.parse_args()
    shutil.rmtree(args.path, ignore_errors=True)
    if args.metadata:
        metadata_table(args.path, args.files, args.partitions, args.checkpoint_every, args.seed)
        return
    rng = np.random.default_rng(args.seed)
    appends = math.ceil(args.files / args.partitions)
    rows = int(args.file_mb * ROWS_PER_MB) * args.partitions
    offset = 0
    for i in range(appends):
        write_deltalake(args.path, batch(rng, rows, args.partitions, offset), mode="append", partition_by=["day"])
        offset += rows
        if (i + 1) % 20 == 0:
            print(f"generate: {i + 1}/{appends} appends", flush=True)


if __name__ == "__main__":
    main()
