"""Compaction benchmark: delta-compactor vs delta-rs optimize.compact vs a pure DuckDB rewrite,
on copies of the same input, in the same run. Prints a table and appends it to bench/RESULTS.md.
With --zorder: Z-order by customer_id, delta-compactor vs delta-rs optimize.z_order (and Delta Lake
on Spark with --spark), with wall time, peak RSS and the data-skipping fraction of each result.

    bench.py [--files 2000 --partitions 10 --file-mb 1.0] [--repeat 3] [--zorder [--spark]] [--no-write]
"""
import argparse
import datetime
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
TARGET_MB = 128


def measured(cmd, env=None):
    """Runs cmd in a fresh child; returns (wall seconds, peak RSS MB of that child, stdout)."""
    code = (
        "import resource, subprocess, sys, time, json\n"
        "t = time.perf_counter()\n"
        "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "wall = time.perf_counter() - t\n"
        "rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
        "print(json.dumps({'rc': p.returncode, 'wall': wall, 'rss': rss, 'out': p.stdout, 'err': p.stderr[-3000:]}))\n"
    )
    res = subprocess.run([PY, "-c", code, *cmd], capture_output=True, text=True, env=env, check=True)
    data = json.loads(res.stdout)
    if data["rc"] != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{data['err']}")
    return data["wall"], data["rss"], data["out"]


def table_bytes(path):
    from deltalake import DeltaTable
    import pyarrow as pa
    adds = pa.table(DeltaTable(str(path)).get_add_actions(flatten=True)).to_pylist()
    return len(adds), sum(a["size_bytes"] for a in adds)


def rows_and_sum(path):
    from deltalake import DeltaTable
    import pyarrow.compute as pc
    t = DeltaTable(str(path)).to_pyarrow_table(columns=["amount"])
    return t.num_rows, round(pc.sum(t["amount"]).as_py(), 2)


def ours(path, compression="zstd"):
    env = dict(os.environ, COMPACTOR_PARQUET_COMPRESSION=compression)
    wall, rss, out = measured([str(ROOT / "bin" / "compactor"), "run", "--demo-mode", "false", "--table-uri", str(path),
                               "--z-order-columns", "", "--target-file-size-mb", str(TARGET_MB), "--json"], env=env)
    report = json.loads(out)
    assert report["compacted"], report["steps"]
    return wall, rss, report["files_after"]


DELTA_RS = """
import sys
from deltalake import DeltaTable
m = DeltaTable(sys.argv[1]).optimize.compact(target_size={target})
print(m["numFilesRemoved"], m["numFilesAdded"])
"""


def delta_rs(path):
    wall, rss, out = measured([PY, "-c", DELTA_RS.format(target=TARGET_MB * 1024 * 1024), str(path)])
    removed, added = out.split()
    return wall, rss, None


DUCKDB = """
import sys, duckdb, glob
con = duckdb.connect()
con.execute("SET preserve_insertion_order = true")
for part in sorted(glob.glob(sys.argv[1] + '/day=*')):
    files = sorted(glob.glob(part + '/*.parquet'))
    con.execute(f"COPY (SELECT * FROM read_parquet({files}, hive_partitioning=false)) TO '{sys.argv[2]}/{part.rsplit('/',1)[1]}' (FORMAT parquet, COMPRESSION zstd, FILE_SIZE_BYTES TARGET_BYTES)")
"""


def duckdb_rewrite(path, out):
    wall, rss, _ = measured([PY, "-c", DUCKDB.replace("TARGET_BYTES", str(TARGET_MB * 1024 * 1024)), str(path), str(out)])
    return wall, rss, None


def ours_zorder(path, compression="zstd"):
    env = dict(os.environ, COMPACTOR_PARQUET_COMPRESSION=compression)
    wall, rss, out = measured([str(ROOT / "bin" / "compactor"), "run", "--demo-mode", "false", "--table-uri", str(path),
                               "--z-order-columns", ZORDER_COLUMN, "--target-file-size-mb", str(ZORDER_TARGET_MB), "--json"],
                              env=env)
    report = json.loads(out)
    assert report["compacted"], report["steps"]
    return wall, rss, report.get("zorder_skipping")


DELTA_RS_ZORDER = """
import sys
from deltalake import DeltaTable
m = DeltaTable(sys.argv[1]).optimize.z_order([sys.argv[2]], target_size={target})
print(m["numFilesRemoved"], m["numFilesAdded"])
"""


def delta_rs_zorder(path):
    wall, rss, _ = measured([PY, "-c", DELTA_RS_ZORDER.format(target=ZORDER_TARGET_MB * 1024 * 1024), str(path), ZORDER_COLUMN])
    return wall, rss, None


SPARK_ZORDER = """
import sys
from pyspark.sql import SparkSession
spark = (SparkSession.builder.master("local[2]").config("spark.jars.packages", "io.delta:delta-spark_2.12:3.3.2")
         .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
         .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
         .config("spark.databricks.delta.optimize.maxFileSize", str({target}))
         .config("spark.driver.memory", "2g").getOrCreate())
spark.sql(f"OPTIMIZE delta.`{sys.argv[1]}` ZORDER BY ({sys.argv[2]})").collect()
"""


def spark_zorder(path):
    wall, rss, _ = measured([PY, "-c", SPARK_ZORDER.replace("{target}", str(ZORDER_TARGET_MB * 1024 * 1024)), str(path), ZORDER_COLUMN])
    return wall, rss, None


ZORDER_COLUMN = "customer_id"
# Clustering only pays when a partition holds several files: 200 MB partitions at 128 MB would be
# one file each and nothing could be skipped, so Z-order runs target smaller files.
ZORDER_TARGET_MB = 16
SKIPPING_SAMPLES = 32


def bounds_by_partition(path, column):
    """{partition: [(min, max)]} of the active files, from delta-rs's add actions (stats)."""
    from deltalake import DeltaTable
    import pyarrow as pa
    adds = pa.table(DeltaTable(str(path)).get_add_actions(flatten=True)).to_pylist()
    out = {}
    for a in adds:
        part = a.get("partition.day")
        out.setdefault(part, []).append((a.get(f"min.{column}"), a.get(f"max.{column}")))
    return out


def skipping_fraction(bounds, values):
    """Average over partitions and sampled values of the fraction of files whose min/max could hold the value."""
    fractions = []
    for files in bounds.values():
        for v in values:
            could = sum(1 for lo, hi in files if lo is None or hi is None or lo <= v <= hi)
            fractions.append(could / len(files))
    return sum(fractions) / len(fractions)


def sampled_values(path):
    """Point-lookup values drawn uniformly (seeded) from the column's actual rows, the same for every tool."""
    import random
    from deltalake import DeltaTable
    column = DeltaTable(str(path)).to_pyarrow_table(columns=[ZORDER_COLUMN])[ZORDER_COLUMN].to_pylist()
    return random.Random(42).sample(column, SKIPPING_SAMPLES)


def zorder_bench(args, work, source, files, mb, expected):
    before = bounds_by_partition(source, ZORDER_COLUMN)
    values = sampled_values(source)
    fraction_before = skipping_fraction(before, values)
    tools = [("delta-compactor Z-order", ours_zorder)]
    if args.snappy:
        tools.append(("delta-compactor Z-order (snappy)", lambda p: ours_zorder(p, "snappy")))
    if not args.only_ours:
        tools.append(("delta-rs optimize.z_order", delta_rs_zorder))
    if args.spark and not args.only_ours:
        tools.append(("Delta Lake on Spark OPTIMIZE ZORDER BY (local[2])", spark_zorder))
    results = {name: [] for name, _ in tools}
    for i in range(args.repeat):
        for name, fn in tools:
            copy = work / f"z-{i}-{len(results[name])}-{name.split()[0]}"
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(source, copy)
            try:
                wall, rss, reported = fn(copy)
            except SystemExit as e:
                print(f"bench: run {i + 1} {name} failed: {str(e)[-500:]}", flush=True)
                results[name].append(None)
                shutil.rmtree(copy)
                continue
            got = rows_and_sum(copy)
            assert got == expected, f"{name} changed the data: {got} != {expected}"
            after = bounds_by_partition(copy, ZORDER_COLUMN)
            fraction = skipping_fraction(after, values)
            files_after = sum(len(f) for f in after.values())
            results[name].append((wall, rss, files_after, fraction, reported))
            print(f"bench: run {i + 1} {name}: {wall:.1f} s, {mb / wall:.1f} MB/s, peak RSS {rss:.0f} MB, {files_after} files, "
                  f"skipping fraction {fraction:.3f} (before {fraction_before:.3f})"
                  + (f", reported {reported['file_fraction_after']}" if reported else ""), flush=True)
            shutil.rmtree(copy)
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"### Z-order by {ZORDER_COLUMN}, {now}", "", machine_line(),
             f"Input: {files} files, {mb:.1f} MB over {args.partitions} partitions, {expected[0]} rows, written by delta-rs; "
             f"target file size {ZORDER_TARGET_MB} MB (several files per partition, so lookups can skip). Each tool clustered its own copy of the same input by `{ZORDER_COLUMN}`; rows "
             f"and sum(amount) checked equal after every run. {args.repeat} runs each, median shown (min-max in brackets).",
             "",
             f"Skipping fraction: for {len(values)} values of `{ZORDER_COLUMN}` drawn at random (seeded) from the input's "
             f"rows, the average (over partitions and values) fraction of a partition's files "
             f"whose min/max could hold the value, read from each result's add actions by delta-rs. Lower is better; "
             f"before clustering it is {fraction_before:.3f}. Files a lookup reads = that fraction times the files per "
             f"partition (1.0 is the best any layout can do for a value held by one file).",
             "",
             "Peak RSS is that of the measured process and the processes it waited for; Spark's JVM is started by py4j "
             "and not waited for, so its row shows the Python driver only.",
             "",
             "| tool | wall s | MB/s | peak RSS MB | files after | skipping fraction after | files a lookup reads | vs delta-rs (throughput) |",
             "|---|---|---|---|---|---|---|---|"]
    ok = {name: [r for r in runs if r is not None] for name, runs in results.items()}
    rs = ok.get("delta-rs optimize.z_order") or []
    rs_wall = statistics.median(r[0] for r in rs) if rs else None
    for name, runs in ok.items():
        failed = len(results[name]) - len(runs)
        if not runs:
            lines.append(f"| {name} | failed ({failed} of {len(results[name])} runs) | | | | | | |")
            continue
        walls = [r[0] for r in runs]
        w = statistics.median(walls)
        ratio = f"{rs_wall / w:.2f}x" if rs_wall else "n/a"
        lines.append(f"| {name} | {w:.1f} ({min(walls):.1f}-{max(walls):.1f}){' ' + str(failed) + ' failed' if failed else ''} | "
                     f"{mb / w:.1f} | {statistics.median(r[1] for r in runs):.0f} | {runs[0][2]} | "
                     f"{statistics.median(r[3] for r in runs):.3f} | "
                     f"{statistics.median(r[3] for r in runs) * runs[0][2] / args.partitions:.2f} | {ratio} |")
    lines.append("")
    text = "\n".join(lines) + "\n"
    print(text)
    return text


def machine_line():
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
    return (f"Machine: {os.cpu_count()} cores ({cpu}), {round(os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30)} GiB RAM, "
            f"{platform.system()} {platform.release()}, Java {java_version()}, Python {platform.python_version()}.")


def write_results(text):
    results_md = ROOT / "bench" / "RESULTS.md"
    if not results_md.exists():
        results_md.write_text("# Benchmark results\n\nProduced by `bench/run`; newest last.\n\n")
    with results_md.open("a") as f:
        f.write("\n" + text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--partitions", type=int, default=10)
    ap.add_argument("--file-mb", type=float, default=1.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--work", default=None, help="scratch directory (default: a temp dir)")
    ap.add_argument("--no-write", action="store_true", help="do not append to bench/RESULTS.md")
    ap.add_argument("--zorder", action="store_true", help="benchmark Z-order clustering instead of bin-packing")
    ap.add_argument("--spark", action="store_true", help="with --zorder: also Delta Lake on Spark (local[2])")
    ap.add_argument("--snappy", action="store_true", help="with --zorder: also delta-compactor writing snappy, the peers' codec")
    ap.add_argument("--only-ours", action="store_true", help="with --zorder: skip the peers (supplementary runs)")
    args = ap.parse_args()
    work = Path(args.work or tempfile.mkdtemp(prefix="compactor-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    source = work / "source"
    print(f"bench: generating {args.files} files over {args.partitions} partitions into {source}", flush=True)
    subprocess.run([PY, str(ROOT / "bench" / "generate.py"), str(source), "--files", str(args.files),
                    "--partitions", str(args.partitions), "--file-mb", str(args.file_mb)], check=True)
    files, size = table_bytes(source)
    expected = rows_and_sum(source)
    mb = size / 1048576
    print(f"bench: input {files} files, {mb:.1f} MB, {expected[0]} rows", flush=True)
    if args.zorder:
        text = zorder_bench(args, work, source, files, mb, expected)
        if not args.no_write:
            write_results(text)
        shutil.rmtree(source)
        return

    results = {"delta-compactor": [], "delta-compactor (snappy)": [], "delta-rs optimize.compact": [],
               "DuckDB COPY (upper bound)": []}
    tools = (("delta-compactor", ours), ("delta-compactor (snappy)", lambda p: ours(p, "snappy")),
             ("delta-rs optimize.compact", delta_rs))
    for i in range(args.repeat):
        for name, fn in tools:
            copy = work / f"run-{i}-{name.replace(' ', '_').replace('(', '').replace(')', '')}"
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(source, copy)
            wall, rss, _ = fn(copy)
            files_after, _ = table_bytes(copy)
            got = rows_and_sum(copy)
            assert got == expected, f"{name} changed the data: {got} != {expected}"
            results[name].append((wall, rss, files_after, table_bytes(copy)[1] / 1048576))
            print(f"bench: run {i + 1} {name}: {wall:.1f} s, {mb / wall:.1f} MB/s, peak RSS {rss:.0f} MB, "
                  f"{files_after} files, {table_bytes(copy)[1] / 1048576:.0f} MB", flush=True)
            shutil.rmtree(copy)
        out = work / f"duckdb-{i}"
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir()
        wall, rss, _ = duckdb_rewrite(source, out)
        outputs = list(out.rglob("*.parquet"))
        results["DuckDB COPY (upper bound)"].append((wall, rss, len(outputs), sum(f.stat().st_size for f in outputs) / 1048576))
        print(f"bench: run {i + 1} duckdb: {wall:.1f} s", flush=True)
        shutil.rmtree(out)

    def med(name, k):
        return statistics.median(r[k] for r in results[name])

    ours_wall = med("delta-compactor", 0)
    rs_wall = med("delta-rs optimize.compact", 0)
    lines = []
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
    lines.append(f"### Compaction (bin-packing), {now}")
    lines.append("")
    lines.append(f"Machine: {os.cpu_count()} cores ({cpu}), {round(os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30)} GiB RAM, "
                 f"{platform.system()} {platform.release()}, Java {java_version()}, Python {platform.python_version()}.")
    lines.append(f"Input: {files} files, {mb:.1f} MB over {args.partitions} partitions, {expected[0]} rows, written by delta-rs; "
                 f"target file size {TARGET_MB} MB. Each tool rewrote its own copy of the same input; rows and sum(amount) "
                 f"checked equal after every run. {args.repeat} runs each, median shown (min-max in brackets). Wall time is "
                 f"the whole command, process start included; peak RSS is the process's maximum resident set.")
    lines.append("")
    lines.append("delta-compactor writes zstd level 1 by default (`COMPACTOR_PARQUET_COMPRESSION`); the snappy row "
                 "shows the codec's share. delta-compactor reads the input twice more than a plain rewrite: once to "
                 "checksum the inputs, once to checksum and collect stats of the outputs (verification before commit).")
    lines.append("")
    lines.append("| tool | wall s | MB/s | peak RSS MB | files after | MB after | vs delta-rs (throughput) |")
    lines.append("|---|---|---|---|---|---|---|")
    for name in results:
        walls = [r[0] for r in results[name]]
        w = statistics.median(walls)
        lines.append(f"| {name} | {w:.1f} ({min(walls):.1f}-{max(walls):.1f}) | {mb / w:.1f} | {med(name, 1):.0f} | "
                     f"{results[name][0][2]} | {results[name][0][3]:.0f} | {rs_wall / w:.2f}x |")
    lines.append("")
    snappy_wall = med("delta-compactor (snappy)", 0)
    lines.append(f"delta-compactor / delta-rs throughput ratio: **{rs_wall / ours_wall:.2f}x** (zstd), "
                 f"**{rs_wall / snappy_wall:.2f}x** (snappy); delta-compactor peak RSS {med('delta-compactor', 1):.0f} MB.")
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.no_write:
        results_md = ROOT / "bench" / "RESULTS.md"
        if not results_md.exists():
            results_md.write_text("# Benchmark results\n\nProduced by `bench/run`; newest last.\n\n")
        with results_md.open("a") as f:
            f.write("\n" + text)
    shutil.rmtree(source)


def java_version():
    try:
        out = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
        return out.split('"')[1]
    except Exception:  # noqa: BLE001 - only a label in the results
        return "unknown"


if __name__ == "__main__":
    main()
