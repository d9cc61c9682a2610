"""Delta Lake on Spark reads our compacted demo table exactly, and can append to it."""
import pytest
from pyspark.sql import SparkSession, functions as F

DELTA_SPARK = "io.delta:delta-spark_2.12:3.3.2"


@pytest.fixture(scope="module")
def spark():
    session = (
        SparkSession.builder.master("local[2]")
        .appName("delta-compactor-interop")
        .config("spark.jars.packages", DELTA_SPARK)
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_spark_reads_the_compacted_demo_table_exactly_and_appends(spark, compactor, report_of, tmp_path):
    code, out, err = compactor("run", "--work-dir", str(tmp_path), "--json")
    assert code == 0, err
    path = str(tmp_path / "demo_delta_table")

    df = spark.read.format("delta").load(path)
    assert df.count() == 1500
    assert df.agg(F.sum("amount")).first()[0] == 73125.0
    assert df.select("event_id").distinct().count() == 1500
    per_date = {r["event_date"]: r["count"] for r in df.groupBy("event_date").count().collect()}
    assert per_date == {"2026-10-17": 500, "2026-10-18": 500, "2026-10-19": 500}
    detail = spark.sql(f"DESCRIBE DETAIL delta.`{path}`").first()
    assert detail["numFiles"] == 3
    assert list(detail["partitionColumns"]) == ["event_date"]
    history = spark.sql(f"DESCRIBE HISTORY delta.`{path}`")
    assert history.count() == 34
    assert history.filter("operation = 'OPTIMIZE'").count() == 3

    spark.createDataFrame(
        [("EVT_S_00000", "CUST_0002", "search", 2.5, "2026-10-19")], df.schema
    ).write.format("delta").mode("append").save(path)

    code, out, err = compactor("inspect", "--table-uri", path, "--json")
    assert code == 0, err
    report = report_of(out)
    assert (report["table_version"], report["total_files"], report["total_rows"]) == (34, 4, 1501)


def test_spark_reads_the_seeded_demo_table_exactly(spark, compactor, report_of, tmp_path):
    # A threshold no demo file is below: seeded and inspected, not compacted.
    code, out, err = compactor("run", "--work-dir", str(tmp_path), "--json", "--small-file-threshold-mb", "0.0001")
    assert code == 0, err
    assert report_of(out)["compacted"] is False
    path = str(tmp_path / "demo_delta_table")

    df = spark.read.format("delta").load(path)
    assert df.count() == 1500
    assert df.agg(F.sum("amount")).first()[0] == 73125.0
    assert spark.sql(f"DESCRIBE DETAIL delta.`{path}`").first()["numFiles"] == 30
    assert spark.sql(f"DESCRIBE HISTORY delta.`{path}`").count() == 31


def test_spark_skips_compacted_files_of_a_table_with_nested_columns(spark, compactor, report_of, tmp_path):
    """Stats of a table with struct, array and map columns, as we write them, let Spark skip files."""
    import hashlib

    import pyarrow as pa
    from deltalake import DeltaTable, write_deltalake

    path = str(tmp_path / "nested")
    for batch in range(4):
        ids = list(range(batch * 50000, (batch + 1) * 50000))
        write_deltalake(path, pa.table({
            "id": pa.array(ids, pa.int64()),
            # Digests do not compress: about 7 MB in all, several 1 MB files after.
            "info": pa.array([{"x": i % 1000, "s": hashlib.md5(str(i).encode()).hexdigest()} for i in ids],
                             pa.struct([("x", pa.int32()), ("s", pa.string())])),
            "tags": pa.array([[i] for i in ids], pa.list_(pa.int64())),
            "attrs": pa.array([[("k", i)] for i in ids], pa.map_(pa.string(), pa.int64())),
        }), mode="append")

    code, out, err = compactor("run", "--work-dir", str(tmp_path), "--demo-mode", "false", "--table-uri", path,
                               "--z-order-columns", "id", "--target-file-size-mb", "1", "--json")
    assert code == 0, err
    files = len(DeltaTable(path).file_uris())
    assert files >= 3

    spark.conf.set("spark.sql.adaptive.enabled", "false")
    df = spark.read.format("delta").load(path).where("id = 123456")
    rows = df.collect()
    assert [(r["id"], r["info"]["x"], r["info"]["s"], list(r["tags"]), dict(r["attrs"])) for r in rows] == [
        (123456, 456, hashlib.md5(b"123456").hexdigest(), [123456], {"k": 123456})]
    leaves = df._jdf.queryExecution().executedPlan().collectLeaves()
    scanned = [leaves.apply(i).metrics().apply("numFiles").value() for i in range(leaves.size())]
    assert scanned == [1], f"Spark read {scanned} of {files} files"
    assert spark.read.format("delta").load(path).count() == 200000
