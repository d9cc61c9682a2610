"""The floor of a verified bin-packing rewrite on this machine, for bench/RESULTS.md: per partition
of a delta-rs table (bench/generate.py), DuckDB's COPY of its files into zstd level-1 files of
128 MB (what delta-compactor's rewrite runs), then one decode-and-hash of every column of the
inputs and one of the outputs (the least an independent verification reads), DuckDB with 2
threads and a 1 GB memory limit as in delta-compactor. Seconds summed over the partitions.

    .venv/bin/python bench/floor.py /path/to/table     (e.g. bench/generate.py --files 2000 --partitions 10)
"""
import glob
import shutil
import sys
import tempfile
import time

import duckdb


def main(root):
    totals = {"copy": 0.0, "hash_inputs": 0.0, "hash_outputs": 0.0}
    partitions = sorted(glob.glob(root + "/*=*"))
    out = tempfile.mkdtemp(prefix="floor-")
    try:
        for part in partitions:
            con = duckdb.connect()
            con.execute("SET threads = 2")
            con.execute("SET memory_limit = '1GB'")
            files = "[" + ", ".join(f"'{f}'" for f in sorted(glob.glob(part + "/*.parquet"))) + "]"
            source = f"read_parquet({files}, hive_partitioning = false)"
            columns = [r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {source}").fetchall()]
            shutil.rmtree(out, ignore_errors=True)
            t0 = time.perf_counter()
            con.execute(f"COPY (SELECT * FROM {source}) TO '{out}' (FORMAT parquet, COMPRESSION zstd,"
                        " COMPRESSION_LEVEL 1, FILE_SIZE_BYTES 134217728, FILENAME_PATTERN 'part-{uuid}')")
            t1 = time.perf_counter()
            digest = f"count(*), sum(hash({', '.join(columns)}))"
            con.execute(f"SELECT {digest} FROM {source}").fetchall()
            t2 = time.perf_counter()
            con.execute(f"SELECT {digest} FROM read_parquet('{out}/*.parquet', hive_partitioning = false)").fetchall()
            t3 = time.perf_counter()
            totals["copy"] += t1 - t0
            totals["hash_inputs"] += t2 - t1
            totals["hash_outputs"] += t3 - t2
            con.close()
    finally:
        shutil.rmtree(out, ignore_errors=True)
    floor = sum(totals.values())
    print(f"{len(partitions)} partitions: COPY {totals['copy']:.2f} s, inputs hashed {totals['hash_inputs']:.2f} s,"
          f" outputs hashed {totals['hash_outputs']:.2f} s; floor {floor:.2f} s")


if __name__ == "__main__":
    main(sys.argv[1])
