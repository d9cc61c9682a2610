"""Compaction of Spark tables with column mapping (issue 17), modes `name` and `id`: the outputs
name every column by its physical name (nested struct fields too) and carry the field ids; data of
a dropped column stays dropped, a column re-added under a dropped column's name reads NULL from old
files, stats and partition values are keyed by physical names, Z-order and partition filters take
logical names. Spark reads the same rows and checksum afterwards and can still append; delta-rs
reads and appends where it supports the mode."""
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pyspark.sql import functions as F

from test_spark_reads import spark  # noqa: F401 (the module-scoped Spark session with delta-spark)


def log_actions(path):
    return [json.loads(line) for log in sorted((Path(path) / "_delta_log").glob("*.json"))
            for line in log.read_text().splitlines()]


def active_adds(path):
    """The active add actions, replaying the JSON log (these tables stay below a checkpoint)."""
    active = {}
    for log in sorted((Path(path) / "_delta_log").glob("*.json")):
        actions = [json.loads(line) for line in log.read_text().splitlines()]
        for action in actions:
            if "remove" in action:
                active.pop(action["remove"]["path"], None)
        for action in actions:
            if "add" in action:
                active[action["add"]["path"]] = action["add"]
    return list(active.values())


def latest_schema(path):
    metadata = [a["metaData"] for a in log_actions(path) if "metaData" in a][-1]
    return json.loads(metadata["schemaString"]), metadata


def physical(schema_fields, name):
    field = next(f for f in schema_fields if f["name"] == name)
    return field["metadata"].get("delta.columnMapping.physicalName", name), field


def plain(value):
    return value.asDict(recursive=True) if hasattr(value, "asDict") else value


def snapshot_of(spark, path):  # noqa: F811
    df = spark.read.format("delta").load(path)
    columns = sorted(df.columns)
    rows = sorted((tuple(plain(r[c]) for c in columns) for r in df.collect()), key=lambda t: t[columns.index("id")])
    checksum = df.agg(F.sum(F.xxhash64(*columns))).first()[0]
    return columns, rows, checksum


def delta_rs_rows(path, columns):
    from deltalake import DeltaTable

    table = DeltaTable(path).to_pyarrow_table()
    return sorted((tuple(r[c] for c in columns) for r in table.to_pylist()), key=repr)


def run(compactor, report_of, tmp_path, path, *extra):
    code, out, err = compactor("run", "--work-dir", str(tmp_path), "--demo-mode", "false", "--table-uri", path,
                               "--json", *extra)
    assert code == 0, err + out
    return report_of(out)


def file_fields(path, add):
    """(name, field id) of each top-level field, and of each struct's fields, in a data file."""
    schema = pq.read_schema(Path(path) / add["path"])

    def describe(field):
        fid = (field.metadata or {}).get(b"PARQUET:field_id")
        entry = (field.name, int(fid) if fid else None)
        if pa.types.is_struct(field.type):
            return entry, [describe(field.type.field(i)) for i in range(field.type.num_fields)]
        return entry

    return [describe(f) for f in schema]


def test_name_mode_after_renames_swaps_drops_and_readds_compacts_by_physical_names(
        spark, compactor, report_of, tmp_path):  # noqa: F811
    path = str(tmp_path / "cm_name")
    spark.sql(f"""CREATE TABLE delta.`{path}` (id BIGINT, part INT, a STRING, b STRING,
                  s STRUCT<x: INT, y: STRING>, gone DOUBLE, c STRING) USING delta PARTITIONED BY (part)
                  TBLPROPERTIES ('delta.columnMapping.mode' = 'name')""")

    def append(start):
        (spark.range(start, start + 40)
         .select(F.col("id"), (F.col("id") % 2).cast("int").alias("part"),
                 F.concat(F.lit("a-"), F.col("id").cast("string")).alias("a"),
                 F.concat(F.lit("b-"), F.col("id").cast("string")).alias("b"),
                 F.struct((F.col("id") * 3).cast("int").alias("x"),
                          F.concat(F.lit("y-"), F.col("id").cast("string")).alias("y")).alias("s"),
                 (F.col("id") * 1.5).alias("gone"), F.concat(F.lit("c-"), F.col("id").cast("string")).alias("c"))
         .repartition(2).write.format("delta").mode("append").save(path))

    append(0)
    append(40)
    # Swapped names: a -> b, b -> a; a column renamed to another's former name.
    spark.sql(f"ALTER TABLE delta.`{path}` RENAME COLUMN a TO tmp")
    spark.sql(f"ALTER TABLE delta.`{path}` RENAME COLUMN b TO a")
    spark.sql(f"ALTER TABLE delta.`{path}` RENAME COLUMN tmp TO b")
    # A nested field renamed, a partition column renamed.
    spark.sql(f"ALTER TABLE delta.`{path}` RENAME COLUMN s.x TO sx")
    spark.sql(f"ALTER TABLE delta.`{path}` RENAME COLUMN part TO region")
    # Dropped, then re-added under the same name (a new physical name: old data must not return);
    # a case variant of a dropped name re-added too.
    spark.sql(f"ALTER TABLE delta.`{path}` DROP COLUMN gone")
    spark.sql(f"ALTER TABLE delta.`{path}` ADD COLUMNS (gone DOUBLE)")
    spark.sql(f"ALTER TABLE delta.`{path}` DROP COLUMN c")
    spark.sql(f"ALTER TABLE delta.`{path}` ADD COLUMNS (C STRING)")
    (spark.range(80, 120)
     .select(F.col("id"), (F.col("id") % 2).cast("int").alias("region"),
             F.concat(F.lit("na-"), F.col("id").cast("string")).alias("a"),
             F.concat(F.lit("nb-"), F.col("id").cast("string")).alias("b"),
             F.struct((F.col("id") * 3).cast("int").alias("sx"),
                      F.concat(F.lit("y-"), F.col("id").cast("string")).alias("y")).alias("s"),
             (F.col("id") * 2.5).alias("gone"), F.concat(F.lit("C-"), F.col("id").cast("string")).alias("C"))
     .repartition(2).write.format("delta").mode("append").save(path))

    columns, before, checksum = snapshot_of(spark, path)
    assert columns == ["C", "a", "b", "gone", "id", "region", "s"]
    old = next(r for r in before if r[columns.index("id")] == 5)
    assert old[columns.index("a")] == "b-5" and old[columns.index("b")] == "a-5"
    assert old[columns.index("gone")] is None and old[columns.index("C")] is None
    assert old[columns.index("s")]["sx"] == 15
    # delta-rs 1.6.6 reads this Spark-written name-mode table with every data column NULL (only the
    # partition column has values); it must read the same after the compaction.
    delta_rs_before = delta_rs_rows(path, columns)
    assert all(r[columns.index("id")] is None and r[columns.index("region")] is not None for r in delta_rs_before)

    report = run(compactor, report_of, tmp_path, path, "--z-order-columns", "b",
                 "--partition-filter", "region = 1")
    assert report["compacted"] is True
    committed = [p for p in report["compaction_partitions"] if p["status"] == "committed"]
    assert [p["partition_values"] for p in committed] == [{"region": "1"}], report["compaction_partitions"]

    assert snapshot_of(spark, path) == (columns, before, checksum)
    assert delta_rs_rows(path, columns) == delta_rs_before
    fields, metadata = latest_schema(path)
    fields = fields["fields"]
    region_phys, _ = physical(fields, "region")
    assert region_phys != "region" and region_phys.startswith("col-")
    ours = [a for a in active_adds(path) if a["dataChange"] is False]
    assert ours, "the compactor added files"
    for add in ours:
        assert set(add["partitionValues"]) == {region_phys}
        assert add["partitionValues"][region_phys] == "1"
        stats = json.loads(add["stats"])
        assert set(stats["minValues"]) <= {physical(fields, n)[0] for n in ["id", "a", "b", "s", "gone", "C"]}
        assert physical(fields, "b")[0] in stats["minValues"]
        # Every column and struct field by its physical name, with its field id.
        expected = []
        for f in fields:
            if f["name"] == "region":
                continue
            entry = (f["metadata"]["delta.columnMapping.physicalName"], f["metadata"]["delta.columnMapping.id"])
            if isinstance(f["type"], dict):
                expected.append((entry, [(g["metadata"]["delta.columnMapping.physicalName"],
                                          g["metadata"]["delta.columnMapping.id"]) for g in f["type"]["fields"]]))
            else:
                expected.append(entry)
        assert file_fields(path, add) == expected
    history = spark.sql(f"DESCRIBE HISTORY delta.`{path}`").first()
    assert history["operation"] == "OPTIMIZE"

    spark.sql(f"INSERT INTO delta.`{path}` (id, region, a, b, s, gone, C) VALUES "
              f"(1000, 1, 'x', 'y', named_struct('sx', 1, 'y', 'z'), 1.0, 'q')")
    assert spark.read.format("delta").load(path).count() == len(before) + 1
    # Another full run compacts the rest, Z-ordered by a logical name again.
    run(compactor, report_of, tmp_path, path, "--z-order-columns", "id")
    after_columns, after, _ = snapshot_of(spark, path)
    assert after_columns == columns
    assert [r for r in after if r[columns.index("id")] != 1000] == before

    # delta-rs appends by physical names: Spark reads the appended row's id and partition.
    from deltalake import DeltaTable, write_deltalake

    row = DeltaTable(path).to_pyarrow_table().slice(0, 1)
    write_deltalake(path, row.set_column(row.column_names.index("id"), "id", pa.array([2000], pa.int64())),
                    mode="append")
    final = spark.read.format("delta").load(path)
    assert final.count() == len(before) + 2
    assert final.filter("id = 2000").select("region").first()["region"] == row.column("region")[0].as_py()


def test_id_mode_table_compacts_by_field_id(spark, compactor, report_of, tmp_path):  # noqa: F811
    path = str(tmp_path / "cm_id")
    spark.sql(f"""CREATE TABLE delta.`{path}` (id BIGINT, a STRING, s STRUCT<x: INT, y: STRING>, gone INT)
                  USING delta TBLPROPERTIES ('delta.columnMapping.mode' = 'id')""")
    for start in (0, 30, 60):
        (spark.range(start, start + 30)
         .select(F.col("id"), F.concat(F.lit("a-"), F.col("id").cast("string")).alias("a"),
                 F.struct((F.col("id") * 3).cast("int").alias("x"),
                          F.concat(F.lit("y-"), F.col("id").cast("string")).alias("y")).alias("s"),
                 (F.col("id") * 7).cast("int").alias("gone"))
         .repartition(2).write.format("delta").mode("append").save(path))
    spark.sql(f"ALTER TABLE delta.`{path}` RENAME COLUMN a TO b")
    spark.sql(f"ALTER TABLE delta.`{path}` RENAME COLUMN s.y TO yy")
    spark.sql(f"ALTER TABLE delta.`{path}` DROP COLUMN gone")
    spark.sql(f"ALTER TABLE delta.`{path}` ADD COLUMNS (gone INT)")
    columns, before, checksum = snapshot_of(spark, path)
    assert columns == ["b", "gone", "id", "s"]
    assert all(r[columns.index("gone")] is None for r in before)

    report = run(compactor, report_of, tmp_path, path, "--z-order-columns", "b")

    assert report["compacted"] is True
    assert snapshot_of(spark, path) == (columns, before, checksum)
    fields = latest_schema(path)[0]["fields"]
    ours = [a for a in active_adds(path) if a["dataChange"] is False]
    assert len(ours) == 1
    ids = {f["metadata"]["delta.columnMapping.physicalName"]: f["metadata"]["delta.columnMapping.id"] for f in fields}
    assert [entry if not isinstance(entry[0], tuple) else entry[0] for entry in file_fields(path, ours[0])] == \
        [(f["metadata"]["delta.columnMapping.physicalName"], f["metadata"]["delta.columnMapping.id"]) for f in fields]
    assert set(json.loads(ours[0]["stats"])["minValues"]) <= set(ids)
    spark.sql(f"INSERT INTO delta.`{path}` (id, b, s, gone) VALUES (1000, 'x', named_struct('x', 1, 'yy', 'z'), 5)")
    assert spark.read.format("delta").load(path).count() == len(before) + 1


def test_table_upgraded_to_column_mapping_after_its_data_keeps_old_names_as_physical(
        spark, compactor, report_of, tmp_path):  # noqa: F811
    path = str(tmp_path / "cm_upgraded")
    for start in (0, 30, 60):
        (spark.range(start, start + 30)
         .select(F.col("id"), (F.col("id") % 2).cast("int").alias("part"),
                 F.concat(F.lit("a-"), F.col("id").cast("string")).alias("a"),
                 F.concat(F.lit("b-"), F.col("id").cast("string")).alias("b"))
         .repartition(2).write.format("delta").mode("append").partitionBy("part").save(path))
    spark.sql(f"""ALTER TABLE delta.`{path}` SET TBLPROPERTIES ('delta.minReaderVersion' = '2',
                  'delta.minWriterVersion' = '5', 'delta.columnMapping.mode' = 'name')""")
    # Old files keep the original names, which are now the physical names of a, b and part.
    spark.sql(f"ALTER TABLE delta.`{path}` RENAME COLUMN a TO b2")
    spark.sql(f"ALTER TABLE delta.`{path}` DROP COLUMN b")
    spark.sql(f"ALTER TABLE delta.`{path}` ADD COLUMNS (b STRING)")
    spark.sql(f"ALTER TABLE delta.`{path}` RENAME COLUMN part TO p")
    (spark.range(90, 120)
     .select(F.col("id"), (F.col("id") % 2).cast("int").alias("p"),
             F.concat(F.lit("n-"), F.col("id").cast("string")).alias("b2"),
             F.concat(F.lit("nb-"), F.col("id").cast("string")).alias("b"))
     .repartition(2).write.format("delta").mode("append").save(path))
    columns, before, checksum = snapshot_of(spark, path)
    old = next(r for r in before if r[columns.index("id")] == 5)
    assert (old[columns.index("b2")], old[columns.index("b")]) == ("a-5", None)
    fields = latest_schema(path)[0]["fields"]
    assert physical(fields, "b2")[0] == "a" and physical(fields, "p")[0] == "part"

    report = run(compactor, report_of, tmp_path, path, "--z-order-columns", "")

    assert report["compacted"] is True
    assert {p["status"] for p in report["compaction_partitions"]} == {"committed"}
    assert snapshot_of(spark, path) == (columns, before, checksum)
    for add in (a for a in active_adds(path) if a["dataChange"] is False):
        assert set(add["partitionValues"]) == {"part"}
        assert [f[0] for f in file_fields(path, add)] == [
            physical(fields, n)[0] for n in ["id", "b2", "b"]]
