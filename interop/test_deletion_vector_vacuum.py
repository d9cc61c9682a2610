"""Full vacuum of a real Spark deletion-vector table, aged nine days: every deletion-vector file the
current version reads survives, one that only expired tombstones reference goes with them, and Spark
and delta-rs read exactly the expected rows afterwards (issue 15, item 1). The same holds when log
cleanup has left the removes, with their deletion vectors, only in a checkpoint."""
import json
import uuid
from pathlib import Path

import pyarrow as pa
from deltalake import DeltaTable, QueryBuilder
from pyspark.sql import functions as F

from history import age_table
from test_spark_reads import spark  # noqa: F401 (the module-scoped Spark session with delta-spark)

Z85 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"


def dv_file(descriptor):
    """The file of a storage-type-u deletion vector, relative to the table root, as the Delta protocol
    derives it: optional random prefix, then the Z85-encoded UUID (20 characters)."""
    assert descriptor["storageType"] == "u", descriptor
    encoded = descriptor["pathOrInlineDv"]
    prefix, z85 = encoded[:-20], encoded[-20:]
    raw = b""
    for i in range(0, 20, 5):
        n = 0
        for c in z85[i:i + 5]:
            n = n * 85 + Z85.index(c)
        raw += n.to_bytes(4, "big")
    name = f"deletion_vector_{uuid.UUID(bytes=raw)}.bin"
    return f"{prefix}/{name}" if prefix else name


def deletion_vector_files(path):
    """(live, released): the deletion-vector files the latest version reads, and those only remove
    actions still reference. Replays the JSON log (these tables stay below the first checkpoint); a
    logical file is its path and its deletion vector, as in the protocol."""
    def key(action):
        dv = action.get("deletionVector")
        return action["path"], None if dv is None else (dv["pathOrInlineDv"], dv.get("offset"))

    active, removed = {}, set()
    for log in sorted((Path(path) / "_delta_log").glob("*.json")):
        adds, removes = [], []
        for line in log.read_text().splitlines():
            action = json.loads(line)
            adds += [action["add"]] if "add" in action else []
            removes += [action["remove"]] if "remove" in action else []
        for remove in removes:
            active.pop(key(remove), None)
            if remove.get("deletionVector"):
                removed.add(dv_file(remove["deletionVector"]))
        for add in adds:
            active[key(add)] = dv_file(add["deletionVector"]) if add.get("deletionVector") else None
    live = {f for f in active.values() if f}
    return live, removed - live


def test_dv_file_derivation_matches_the_protocols_example():
    assert dv_file({"storageType": "u", "pathOrInlineDv": "ab^-aqEH.-t@S}K{vb[*k^"}) == \
        "ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin"


def test_full_vacuum_keeps_the_deletion_vectors_spark_reads_and_spark_and_delta_rs_read_every_row(
        spark, compactor, report_of, tmp_path):  # noqa: F811
    path = str(tmp_path / "dv")
    (spark.range(0, 120).withColumn("part", (F.col("id") % 3).cast("int")).repartition(2)
     .write.format("delta").partitionBy("part").option("delta.enableDeletionVectors", "true").save(path))
    # Two DELETEs that write deletion vectors, then one that drops partition 2's files whole.
    for predicate in ("id % 10 = 3", "id % 10 = 7", "part = 2"):
        spark.sql(f"DELETE FROM delta.`{path}` WHERE {predicate}")
    expected = [(i, i % 3) for i in range(120) if i % 10 not in (3, 7) and i % 3 != 2]
    live, released = deletion_vector_files(path)
    assert live, "the DELETEs left deletion vectors the current version reads"
    assert released, "and one that only tombstones reference"
    assert all((Path(path) / f).exists() for f in live | released)
    age_table(path, days=9, patterns=("*.parquet", "*.bin"))

    code, out, err = compactor("vacuum", "--work-dir", str(tmp_path), "--table-uri", path,
                               "--vacuum-mode", "full", "--vacuum-dry-run", "false", "--json")

    assert code == 0, err
    report = report_of(out)
    assert [f for f in sorted(live) if not (Path(path) / f).exists()] == [], "live deletion vectors were deleted"
    assert [f for f in sorted(released) if (Path(path) / f).exists()] == [], "expired ones stay behind"
    assert report["deleted_files_count"] == report["candidate_files_count"] > 0
    rows = sorted((r["id"], r["part"]) for r in spark.read.format("delta").load(path).collect())
    assert rows == expected
    read = QueryBuilder().register("t", DeltaTable(path)).execute("SELECT id, part FROM t ORDER BY id").read_all()
    assert [(r["id"], r["part"]) for r in pa.table(read).to_pylist()] == expected


def test_deletion_vectors_only_a_checkpoint_still_tombstones_are_kept_until_those_tombstones_expire(
        spark, compactor, report_of, tmp_path):  # noqa: F811
    path = str(tmp_path / "checkpointed")
    (spark.range(0, 200).withColumn("part", (F.col("id") % 2).cast("int")).repartition(2)
     .write.format("delta").partitionBy("part").option("delta.enableDeletionVectors", "true").save(path))
    for k in range(10):  # versions 1..10; Spark checkpoints version 10
        spark.sql(f"DELETE FROM delta.`{path}` WHERE id % 20 = {k}")
    log = Path(path) / "_delta_log"
    assert (log / "00000000000000000010.checkpoint.parquet").exists()
    expected = [(i, i % 2) for i in range(200) if i % 20 >= 10]
    live, released = deletion_vector_files(path)
    at_10 = {dv_file(json.loads(line)["remove"]["deletionVector"])
             for line in (log / "00000000000000000010.json").read_text().splitlines()
             if '"remove"' in line and json.loads(line)["remove"].get("deletionVector")}
    only_in_checkpoint = released - at_10
    assert live and only_in_checkpoint and at_10 - live
    # Log cleanup took the commits before the checkpoint: the removes of versions 1..9, with their
    # deletion vectors, are now only in the checkpoint, with their real (recent) deletion times.
    # Version 10's JSON stays and is aged with the rest, so its removes expire.
    for version in range(10):
        for leftover in (log / f"{version:020d}.json", log / f".{version:020d}.json.crc", log / f"{version:020d}.crc"):
            leftover.unlink(missing_ok=True)
    age_table(path, days=9, patterns=("*.parquet", "*.bin"))

    code, out, err = compactor("vacuum", "--work-dir", str(tmp_path), "--table-uri", path,
                               "--vacuum-mode", "full", "--vacuum-dry-run", "false", "--json")

    assert code == 0, err
    assert [f for f in sorted(live | only_in_checkpoint) if not (Path(path) / f).exists()] == [], \
        "a deletion vector the current version reads, or one an unexpired tombstone references, was deleted"
    assert [f for f in sorted(at_10 - live) if (Path(path) / f).exists()] == [], "expired with version 10's removes"
    rows = sorted((r["id"], r["part"]) for r in spark.read.format("delta").load(path).collect())
    assert rows == expected
    read = QueryBuilder().register("t", DeltaTable(path)).execute("SELECT id, part FROM t ORDER BY id").read_all()
    assert [(r["id"], r["part"]) for r in pa.table(read).to_pylist()] == expected
