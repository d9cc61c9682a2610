"""Compaction of Spark tables whose files carry deletion vectors, after DELETE, UPDATE and MERGE
(issue 17): `inspect` counts the rows Spark counts; `run` rewrites the files without their deleted
rows, so Spark and delta-rs read the same rows and checksum as before, no active file keeps a
deletion vector, each remove names the file with the vector it had, and Spark can still append."""
import json
from pathlib import Path

import pyarrow as pa
import pytest
from deltalake import DeltaTable, QueryBuilder
from pyspark.sql import functions as F

from test_spark_reads import spark  # noqa: F401 (the module-scoped Spark session with delta-spark)

COLUMNS = ["id", "part", "name", "amount"]


def active_adds(path):
    """The active add actions, replaying the JSON log (these tables stay below a checkpoint); a
    logical file is its path and its deletion vector, as in the protocol."""
    def key(action):
        dv = action.get("deletionVector")
        return action["path"], None if dv is None else (dv["pathOrInlineDv"], dv.get("offset"))

    active = {}
    for log in sorted((Path(path) / "_delta_log").glob("*.json")):
        actions = [json.loads(line) for line in log.read_text().splitlines()]
        for action in actions:
            if "remove" in action:
                active.pop(key(action["remove"]), None)
        for action in actions:
            if "add" in action:
                active[key(action["add"])] = action["add"]
    return list(active.values())


def spark_rows(spark, path):  # noqa: F811
    df = spark.read.format("delta").load(path)
    rows = sorted(tuple(r[c] for c in COLUMNS) for r in df.collect())
    checksum = df.agg(F.sum(F.xxhash64(*COLUMNS))).first()[0]
    return rows, checksum


def delta_rs_rows(path):
    read = QueryBuilder().register("t", DeltaTable(path)).execute(
        "SELECT id, part, name, amount FROM t").read_all()
    return sorted(tuple(r[c] for c in COLUMNS) for r in pa.table(read).to_pylist())


def delete(spark, path):  # noqa: F811
    spark.sql(f"DELETE FROM delta.`{path}` WHERE id % 7 = 0")


def update(spark, path):  # noqa: F811
    spark.sql(f"UPDATE delta.`{path}` SET amount = amount + 1000, name = concat(name, '-u') WHERE id % 5 = 0")


def merge(spark, path):  # noqa: F811
    source = spark.range(0, 400, 7).select(
        F.col("id"), (F.col("id") % 3).cast("int").alias("part"),
        F.concat(F.lit("m-"), F.col("id").cast("string")).alias("name"), (F.col("id") * 2.5).alias("amount"))
    source.createOrReplaceTempView("merge_source")
    spark.sql(f"""
        MERGE INTO delta.`{path}` t USING merge_source s ON t.id = s.id
        WHEN MATCHED AND s.id % 2 = 0 THEN DELETE
        WHEN MATCHED THEN UPDATE SET t.name = s.name, t.amount = s.amount
        WHEN NOT MATCHED THEN INSERT *""")


@pytest.mark.parametrize("change", [delete, update, merge], ids=["delete", "update", "merge"])
def test_run_purges_deletion_vectors_and_spark_and_delta_rs_read_the_same_rows(
        spark, compactor, report_of, tmp_path, change):  # noqa: F811
    path = str(tmp_path / "dv")
    (spark.range(0, 300).select(
        F.col("id"), (F.col("id") % 3).cast("int").alias("part"),
        F.concat(F.lit("n-"), F.col("id").cast("string")).alias("name"), (F.col("id") * 1.5).alias("amount"))
     .repartition(4).write.format("delta").partitionBy("part")
     .option("delta.enableDeletionVectors", "true").save(path))
    change(spark, path)
    with_dv = [a for a in active_adds(path) if a.get("deletionVector")]
    assert with_dv, f"{change.__name__} wrote deletion vectors"
    before, checksum = spark_rows(spark, path)
    assert delta_rs_rows(path) == before

    code, out, err = compactor("inspect", "--work-dir", str(tmp_path), "--table-uri", path, "--json")
    assert code == 0, err
    inspected = report_of(out)
    assert inspected["total_rows"] == len(before) == spark.read.format("delta").load(path).count()
    assert inspected["deleted_rows"] == sum(a["deletionVector"]["cardinality"] for a in with_dv) > 0

    code, out, err = compactor("run", "--work-dir", str(tmp_path), "--demo-mode", "false", "--table-uri", path,
                               "--z-order-columns", "", "--json")

    assert code == 0, err
    report = report_of(out)
    assert report["compaction_plan"]["deletion_vectors_to_purge"] == len(with_dv)
    assert report["compacted"] is True
    compacted = {p["partition"] for p in report["compaction_partitions"] if p["status"] == "committed"}
    assert compacted == {"part=0", "part=1", "part=2"}
    after_adds = active_adds(path)
    assert [a["path"] for a in after_adds if a.get("deletionVector")] == [], "a compacted file kept a vector"
    after, after_checksum = spark_rows(spark, path)
    assert after == before
    assert after_checksum == checksum
    assert delta_rs_rows(path) == before
    ours = [log for log in sorted((Path(path) / "_delta_log").glob("*.json"))
            if int(log.stem) > report["version_before"]]
    assert len(ours) == 3, "one commit per partition"
    removes = [json.loads(line)["remove"] for log in ours for line in log.read_text().splitlines()
               if '"remove"' in line]
    by_path = {a["path"]: a.get("deletionVector") for a in with_dv}
    assert {r["path"]: r.get("deletionVector") for r in removes if r["path"] in by_path} == by_path, \
        "each remove names its file with the deletion vector it had"

    code, out, err = compactor("inspect", "--work-dir", str(tmp_path), "--table-uri", path, "--json")
    assert code == 0, err
    assert (report_of(out)["total_rows"], report_of(out)["deleted_rows"]) == (len(before), 0)

    spark.createDataFrame([(1000, 1, "appended", 1.0)], "id long, part int, name string, amount double") \
        .write.format("delta").mode("append").save(path)
    assert spark.read.format("delta").load(path).count() == len(before) + 1
    assert len(delta_rs_rows(path)) == len(before) + 1
