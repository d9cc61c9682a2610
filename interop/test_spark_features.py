"""Spark's table features through `bin/compactor run` (issue 17): a small, fragmented table per
feature, written by Spark (delta-spark, the session of `test_spark_reads`). A handled feature is
compacted: Spark reads the same rows and checksum afterwards, our commits are `dataChange=false`
removes and adds only, and Spark and delta-rs can still append (delta-rs where it writes the
feature; where it does not, what it does is asserted). A refused feature stops the run with an
error naming it, exit 1, and the table's `_delta_log` and data files byte for byte as they were."""
import datetime
import hashlib
import json
from pathlib import Path

import pyarrow as pa
import pytest
from deltalake import DeltaTable, write_deltalake
from pyspark.sql import functions as F

from test_spark_reads import spark  # noqa: F401 (the module-scoped Spark session with delta-spark)

LEGACY_WRITER_FEATURES = [(2, "appendOnly"), (2, "invariants"), (3, "checkConstraints"),
                          (4, "changeDataFeed"), (4, "generatedColumns"), (5, "columnMapping"),
                          (6, "identityColumns")]
INSERTS = 4  # one small file per partition per insert: 4 files in each of 2 partitions


def create(spark, path, columns, properties=None, partitioned="part", clause=""):  # noqa: F811
    props = ", ".join(f"'{k}' = '{v}'" for k, v in (properties or {}).items())
    spark.sql(f"CREATE TABLE delta.`{path}` ({columns}) USING delta"
              + (f" PARTITIONED BY ({partitioned})" if partitioned else "") + clause
              + (f" TBLPROPERTIES ({props})" if props else ""))


def insert_fragments(spark, path, select, inserts=INSERTS):  # noqa: F811
    """`inserts` INSERTs of 10 rows each, `select` a SELECT over `id` (0..9 shifted per insert)
    and `part` (id % 2), coalesced so each insert writes one file per partition."""
    for i in range(inserts):
        spark.range(i * 10, i * 10 + 10).withColumn("part", (F.col("id") % 2).cast("int")) \
            .coalesce(1).createOrReplaceTempView("fragment")
        spark.sql(f"INSERT INTO delta.`{path}` {select}")


def rows_and_checksum(spark, path):  # noqa: F811
    df = spark.read.format("delta").load(path)
    columns = df.columns
    rows = sorted((tuple(r) for r in df.collect()), key=repr)
    checksum = df.agg(F.sum(F.xxhash64(*columns))).first()[0]
    return rows, checksum


def commits(path):
    log = Path(path) / "_delta_log"
    return {int(f.name[:20]): [json.loads(line) for line in f.read_text().splitlines() if line.strip()]
            for f in sorted(log.glob("*.json")) if f.name[:20].isdigit() and len(f.name) == 25}


def protocol_features(path):
    protocol = {}
    for _, actions in sorted(commits(path).items()):
        for action in actions:
            if "protocol" in action:
                protocol = action["protocol"]
    # A legacy protocol (no feature lists) implies the features of its writer version.
    implied = [f for version, f in LEGACY_WRITER_FEATURES if protocol.get("minWriterVersion", 0) >= version]
    return set(protocol.get("readerFeatures", implied)) | set(protocol.get("writerFeatures", implied))


def table_bytes(path):
    """Every file of the table outside the compactor's own `_compactor` directory, with a digest:
    the `_delta_log` listing and every data file, byte for byte."""
    root = Path(path)
    return {str(f.relative_to(root)): hashlib.sha256(f.read_bytes()).hexdigest()
            for f in sorted(root.rglob("*"))
            if f.is_file() and f.relative_to(root).parts[0] != "_compactor"}


def run(compactor, tmp_path, path):
    return compactor("run", "--work-dir", str(tmp_path), "--demo-mode", "false", "--table-uri", path,
                     "--z-order-columns", "", "--json")


def compact_and_compare(spark, compactor, report_of, tmp_path, path, partitions=2):  # noqa: F811
    """Runs `run`, asserts it compacted every partition into one file with commits of ours that
    only remove and add with dataChange=false, and that Spark reads the same rows and checksum.
    Returns (report, our commits by version)."""
    before, checksum = rows_and_checksum(spark, path)
    assert len(before) == 10 * INSERTS
    code, out, err = run(compactor, tmp_path, path)
    assert code == 0, err
    report = report_of(out)
    assert report["compacted"] is True, out
    committed = [p for p in report["compaction_partitions"] if p["status"] == "committed"]
    assert len(committed) == partitions
    ours = {v: a for v, a in commits(path).items() if v > report["version_before"]}
    assert len(ours) == partitions, "one commit per partition"
    for actions in ours.values():
        kinds = {next(iter(a)) for a in actions}
        assert kinds <= {"commitInfo", "add", "remove"}, kinds
        changes = [a.get("add") or a.get("remove") for a in actions if "add" in a or "remove" in a]
        assert changes and all(c["dataChange"] is False for c in changes)
    after, after_checksum = rows_and_checksum(spark, path)
    assert after == before
    assert after_checksum == checksum
    assert spark.sql(f"DESCRIBE DETAIL delta.`{path}`").first()["numFiles"] == partitions
    return report, ours


def spark_append(spark, path, values, columns):  # noqa: F811
    count = spark.read.format("delta").load(path).count()
    spark.sql(f"INSERT INTO delta.`{path}` ({columns}) VALUES {values}")
    assert spark.read.format("delta").load(path).count() == count + values.count("(")


def assert_refused(spark, compactor, tmp_path, path, feature):  # noqa: F811
    assert feature in protocol_features(path), protocol_features(path)
    before = table_bytes(path)
    code, out, err = run(compactor, tmp_path, path)
    assert code == 1, (code, out, err)
    assert f"is not supported: it uses table feature(s) " in err, err
    assert feature in err.split("it uses table feature(s) ", 1)[1], err
    assert table_bytes(path) == before, "nothing written or removed in the table"
    return err


# ---- handled features ---------------------------------------------------------------------------

def test_change_data_feed_writes_no_cdc_and_table_changes_are_unchanged(
        spark, compactor, report_of, tmp_path):  # noqa: F811
    path = str(tmp_path / "cdf")
    create(spark, path, "id BIGINT, part INT, name STRING", {"delta.enableChangeDataFeed": "true"})
    insert_fragments(spark, path, "SELECT id, part, concat('n-', id) FROM fragment")
    spark.sql(f"UPDATE delta.`{path}` SET name = 'updated' WHERE id = 3")  # a real CDC file
    assert list(Path(path).glob("_change_data/**/*.parquet")), "Spark wrote change data"

    def changes():
        df = spark.sql(f"SELECT * FROM table_changes_by_path('{path}', 0)")
        return sorted((tuple(r) for r in df.collect()), key=repr)

    changes_before = changes()
    change_files = sorted(str(p) for p in Path(path).glob("_change_data/**/*"))

    _, ours = compact_and_compare(spark, compactor, report_of, tmp_path, path)

    assert not any("cdc" in a for actions in ours.values() for a in actions)
    assert sorted(str(p) for p in Path(path).glob("_change_data/**/*")) == change_files
    assert changes() == changes_before, "table_changes over every version is unchanged"
    spark_append(spark, path, "(100, 0, 'spark')", "id, part, name")
    write_deltalake(path, pa.table({"id": pa.array([101], pa.int64()), "part": pa.array([1], pa.int32()),
                                    "name": ["delta-rs"]}), mode="append")
    assert DeltaTable(path).to_pyarrow_table().num_rows == 10 * INSERTS + 2
    inserted = spark.sql(f"SELECT id FROM table_changes_by_path('{path}', 0) "
                         "WHERE _change_type = 'insert' AND id >= 100").collect()
    assert sorted(r.id for r in inserted) == [100, 101]


def test_append_only_tables_are_compacted_and_still_refuse_deletes(
        spark, compactor, report_of, tmp_path):  # noqa: F811
    path = str(tmp_path / "append_only")
    create(spark, path, "id BIGINT, part INT", {"delta.appendOnly": "true"})
    insert_fragments(spark, path, "SELECT id, part FROM fragment")

    compact_and_compare(spark, compactor, report_of, tmp_path, path)

    with pytest.raises(Exception, match="(?i)append.?only"):
        spark.sql(f"DELETE FROM delta.`{path}` WHERE id = 1")
    spark_append(spark, path, "(100, 0)", "id, part")
    write_deltalake(path, pa.table({"id": pa.array([101], pa.int64()), "part": pa.array([1], pa.int32())}),
                    mode="append")
    assert DeltaTable(path).to_pyarrow_table().num_rows == 10 * INSERTS + 2


def test_timestamp_ntz_stays_naive(spark, compactor, report_of, tmp_path):  # noqa: F811
    path = str(tmp_path / "ntz")
    create(spark, path, "id BIGINT, part INT, local TIMESTAMP_NTZ, utc TIMESTAMP")
    insert_fragments(spark, path, "SELECT id, part, "
                     "timestamp_ntz'2026-03-29 01:30:00' + make_interval(0, 0, 0, 0, id, 0, 0), "
                     "timestamp'2026-03-29 01:30:00' + make_interval(0, 0, 0, 0, id, 0, 0) FROM fragment")
    assert "timestampNtz" in protocol_features(path)
    spark.conf.set("spark.sql.session.timeZone", "America/Los_Angeles")
    try:
        compact_and_compare(spark, compactor, report_of, tmp_path, path)
        first = spark.read.format("delta").load(path).filter("id = 0").first()
        assert first["local"] == datetime.datetime(2026, 3, 29, 1, 30)
    finally:
        spark.conf.unset("spark.sql.session.timeZone")

    spark_append(spark, path, "(100, 0, timestamp_ntz'2000-01-01 00:00:00', timestamp'2000-01-01 00:00:00')",
                 "id, part, local, utc")
    write_deltalake(path, pa.table({
        "id": pa.array([101], pa.int64()), "part": pa.array([1], pa.int32()),
        "local": pa.array([datetime.datetime(2000, 1, 1)], pa.timestamp("us")),
        "utc": pa.array([datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone.utc)], pa.timestamp("us", "UTC"))}),
        mode="append")
    assert spark.read.format("delta").load(path).filter("local = timestamp_ntz'2000-01-01 00:00:00'").count() == 2


def test_v2_checkpoints_with_sidecars(spark, compactor, report_of, tmp_path):  # noqa: F811
    path = str(tmp_path / "v2_checkpoint")
    create(spark, path, "id BIGINT, part INT", {"delta.checkpointPolicy": "v2"})
    insert_fragments(spark, path, "SELECT id, part FROM fragment")
    spark._jvm.org.apache.spark.sql.delta.DeltaLog.forTable(spark._jsparkSession, path).checkpoint()
    assert "v2Checkpoint" in protocol_features(path)
    log = Path(path) / "_delta_log"
    assert list(log.glob("*.checkpoint.*.*")), sorted(p.name for p in log.iterdir())
    assert list((log / "_sidecars").glob("*.parquet")), "Spark wrote sidecars"

    compact_and_compare(spark, compactor, report_of, tmp_path, path)

    spark_append(spark, path, "(100, 0)", "id, part")
    spark._jvm.org.apache.spark.sql.delta.DeltaLog.forTable(spark._jsparkSession, path).checkpoint()
    assert spark.read.format("delta").load(path).count() == 10 * INSERTS + 1
    write_deltalake(path, pa.table({"id": pa.array([101], pa.int64()), "part": pa.array([1], pa.int32())}),
                    mode="append")
    assert spark.read.format("delta").load(path).count() == 10 * INSERTS + 2


def test_in_commit_timestamps_our_commits_carry_a_monotonic_one(
        spark, compactor, report_of, tmp_path):  # noqa: F811
    path = str(tmp_path / "ict")
    create(spark, path, "id BIGINT, part INT", {"delta.enableInCommitTimestamps": "true"})
    insert_fragments(spark, path, "SELECT id, part FROM fragment")
    assert "inCommitTimestamp" in protocol_features(path)

    _, ours = compact_and_compare(spark, compactor, report_of, tmp_path, path)

    timestamps = {v: actions[0]["commitInfo"]["inCommitTimestamp"] for v, actions in commits(path).items()}
    versions = sorted(timestamps)
    assert all(timestamps[a] < timestamps[b] for a, b in zip(versions, versions[1:])), timestamps
    for actions in ours.values():
        assert next(iter(actions[0])) == "commitInfo", "the ICT is in the commit's first action"
    history = {r["version"]: r["timestamp"] for r in spark.sql(f"DESCRIBE HISTORY delta.`{path}`").collect()}
    for v in ours:
        assert int(history[v].timestamp() * 1000) == timestamps[v]
    spark_append(spark, path, "(100, 0)", "id, part")
    last = max(commits(path))
    assert commits(path)[last][0]["commitInfo"]["inCommitTimestamp"] > timestamps[versions[-1]]
    # delta-rs 1.6 does not write the feature: it refuses the append and leaves the log as it was.
    log_before = table_bytes(path)
    with pytest.raises(Exception, match=r"Unsupported table features required: \[InCommitTimestamp\]"):
        write_deltalake(path, pa.table({"id": pa.array([101], pa.int64()), "part": pa.array([1], pa.int32())}),
                        mode="append")
    assert {k: v for k, v in table_bytes(path).items() if k.startswith("_delta_log")} == \
        {k: v for k, v in log_before.items() if k.startswith("_delta_log")}


# ---- refused features ---------------------------------------------------------------------------

def test_type_widening_is_refused_by_name_with_nothing_written(spark, compactor, tmp_path):  # noqa: F811
    path = str(tmp_path / "type_widening")
    create(spark, path, "id BIGINT, part INT, small SMALLINT", {"delta.enableTypeWidening": "true"})
    insert_fragments(spark, path, "SELECT id, part, CAST(id AS SMALLINT) FROM fragment", inserts=2)
    spark.sql(f"ALTER TABLE delta.`{path}` CHANGE COLUMN small TYPE INT")  # files before: INT16
    insert_fragments(spark, path, "SELECT id + 20, part, CAST(id AS INT) * 100000 FROM fragment", inserts=2)
    feature = next(f for f in protocol_features(path) if f.startswith("typeWidening"))

    assert_refused(spark, compactor, tmp_path, path, feature)


def test_row_tracking_is_refused_by_name_with_nothing_written(spark, compactor, tmp_path):  # noqa: F811
    path = str(tmp_path / "row_tracking")
    create(spark, path, "id BIGINT, part INT", {"delta.enableRowTracking": "true"})
    insert_fragments(spark, path, "SELECT id, part FROM fragment")

    assert_refused(spark, compactor, tmp_path, path, "rowTracking")


def test_liquid_clustering_is_refused_by_name_with_nothing_written(spark, compactor, tmp_path):  # noqa: F811
    path = str(tmp_path / "clustering")
    create(spark, path, "id BIGINT, part INT", partitioned=None, clause=" CLUSTER BY (id)")
    insert_fragments(spark, path, "SELECT id, part FROM fragment")

    assert_refused(spark, compactor, tmp_path, path, "clustering")


def builder(spark, path, *columns):  # noqa: F811
    """A table made with Delta's table builder (SQL on a path has no generated or identity columns):
    `columns` as (name, type, extra) where extra configures the column builder."""
    jvm = spark._jvm
    table = jvm.io.delta.tables.DeltaTable.create(spark._jsparkSession).location(path)
    for name, kind, extra in columns:
        column = jvm.io.delta.tables.DeltaTable.columnBuilder(spark._jsparkSession, name).dataType(kind)
        table = table.addColumn(extra(column).build() if extra else column.build())
    table.partitionedBy(jvm.PythonUtils.toSeq(["part"])).execute()


def test_check_constraints_in_use_are_refused_by_name_with_nothing_written(
        spark, compactor, tmp_path):  # noqa: F811
    """Kernel 4.4 commits to a checkConstraints table only while no constraint is defined: the run
    refuses before writing (it used to rewrite and upload, then fail at the commit)."""
    path = str(tmp_path / "check")
    create(spark, path, "id BIGINT, part INT, amount DOUBLE")
    spark.sql(f"ALTER TABLE delta.`{path}` ADD CONSTRAINT positive CHECK (amount > 0)")
    insert_fragments(spark, path, "SELECT id, part, id + 0.5 FROM fragment")

    err = assert_refused(spark, compactor, tmp_path, path, "checkConstraints")
    assert "(checkConstraints: a CHECK constraint is defined; " in err

    with pytest.raises(Exception, match="(?i)CHECK constraint positive"):
        spark.sql(f"INSERT INTO delta.`{path}` VALUES (101, 1, -1.0)")


def test_check_constraints_dropped_are_compacted(spark, compactor, report_of, tmp_path):  # noqa: F811
    """The feature stays in the protocol after DROP CONSTRAINT; unused, it is written correctly."""
    path = str(tmp_path / "check_dropped")
    create(spark, path, "id BIGINT, part INT, amount DOUBLE")
    spark.sql(f"ALTER TABLE delta.`{path}` ADD CONSTRAINT positive CHECK (amount > 0)")
    insert_fragments(spark, path, "SELECT id, part, id + 0.5 FROM fragment")
    spark.sql(f"ALTER TABLE delta.`{path}` DROP CONSTRAINT positive")
    assert "checkConstraints" in protocol_features(path)

    compact_and_compare(spark, compactor, report_of, tmp_path, path)

    spark_append(spark, path, "(100, 0, -1.5)", "id, part, amount")
    write_deltalake(path, pa.table({"id": pa.array([102], pa.int64()), "part": pa.array([1], pa.int32()),
                                    "amount": [2.5]}), mode="append")
    assert spark.read.format("delta").load(path).count() == 10 * INSERTS + 2


def test_generated_columns_are_refused_by_name_with_nothing_written(spark, compactor, tmp_path):  # noqa: F811
    path = str(tmp_path / "generated")
    builder(spark, path, ("id", "BIGINT", None), ("part", "INT", None),
            ("id_times_ten", "BIGINT", lambda c: c.generatedAlwaysAs("id * 10")))
    insert_fragments(spark, path, "(id, part) SELECT id, part FROM fragment")

    err = assert_refused(spark, compactor, tmp_path, path, "generatedColumns")
    assert "(generatedColumns: a column is generated; " in err


def test_identity_columns_are_refused_by_name_with_nothing_written(spark, compactor, tmp_path):  # noqa: F811
    path = str(tmp_path / "identity")
    builder(spark, path, ("key", "BIGINT", lambda c: c.generatedAlwaysAsIdentity(1, 1)),
            ("id", "BIGINT", None), ("part", "INT", None))
    insert_fragments(spark, path, "(id, part) SELECT id, part FROM fragment")

    err = assert_refused(spark, compactor, tmp_path, path, "identityColumns")
    assert "(identityColumns: a column is an identity column; " in err


# ---- dates before the Gregorian cutover ---------------------------------------------------------

def test_spark_reads_ancient_dates_after_run_under_default_rebase_settings(
        spark, compactor, report_of, tmp_path):  # noqa: F811
    """Spark 3 writes dates before 1582-10-15 only when told the calendar (CORRECTED: proleptic)
    and marks its files with `org.apache.spark.version`; it reads such a file as is, but refuses
    one without the mark under its default `datetimeRebaseModeInRead=EXCEPTION`. Our outputs carry
    the inputs' mark, so Spark reads after `run` what it read before."""
    path = str(tmp_path / "ancient")
    create(spark, path, "id BIGINT, part INT, born DATE, seen TIMESTAMP")
    spark.conf.set("spark.sql.parquet.datetimeRebaseModeInWrite", "CORRECTED")
    spark.conf.set("spark.sql.parquet.int96RebaseModeInWrite", "CORRECTED")  # Spark's timestamps: INT96
    try:
        insert_fragments(spark, path, "SELECT id, part, date_add(DATE'1000-01-01', CAST(id AS INT)), "
                         "timestamp'1000-01-01 12:00:00' + make_interval(0, 0, 0, CAST(id AS INT)) FROM fragment")
    finally:
        spark.conf.unset("spark.sql.parquet.datetimeRebaseModeInWrite")
        spark.conf.unset("spark.sql.parquet.int96RebaseModeInWrite")
    assert spark.conf.get("spark.sql.parquet.datetimeRebaseModeInRead") == "EXCEPTION"
    def first():
        return tuple(spark.read.format("delta").load(path).filter("id = 1")
                     .selectExpr("CAST(born AS STRING)", "CAST(seen AS STRING)").first())

    assert first() == ("1000-01-02", "1000-01-02 12:00:00")

    compact_and_compare(spark, compactor, report_of, tmp_path, path)

    assert first() == ("1000-01-02", "1000-01-02 12:00:00")
    import pyarrow.parquet as pq
    outputs = [f for f in Path(path).rglob("part-*.parquet")
               if b"org.apache.spark.version" in (pq.read_metadata(f).metadata or {})]
    assert len(outputs) == 2 * INSERTS + 2, "every input and both outputs carry the mark"
