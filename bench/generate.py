"""Writes a fragmented Delta table with delta-rs, the way streaming ingest leaves one:
many appends, each adding one small file to every partition.

    generate.py PATH --files N --partitions P --file-mb MB [--seed S]
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("path")
    ap.add_argument("--files", type=int, required=True, help="total data files")
    ap.add_argument("--partitions", type=int, default=10)
    ap.add_argument("--file-mb", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    shutil.rmtree(args.path, ignore_errors=True)
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
