"""Writes src/test/resources/tables/spark-dv: a small Delta table Spark (delta-spark, the interop
session's version) left with deletion-vector files after a DELETE, for the Java integration tests
(Delta kernel cannot write deletion vectors). Ids 0..59, `part` = id % 2, one file per partition
written in each of three appends; then `DELETE WHERE id % 10 = 3`, which puts a vector (storage
type `u`, a deletion_vector_<uuid>.bin file) on every file holding such an id. Readers see the 54
ids whose last digit is not 3. Hadoop's hidden .crc files are dropped; the log keeps Spark's
spelling. Run from the repository root: .venv/bin/python interop/make_spark_dv_fixture.py"""
import shutil
import sys
from pathlib import Path

from pyspark.sql import SparkSession, functions as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_spark_reads import DELTA_SPARK  # noqa: E402

TARGET = Path(__file__).resolve().parent.parent / "src" / "test" / "resources" / "tables" / "spark-dv"


def main():
    spark = (
        SparkSession.builder.master("local[1]")
        .config("spark.jars.packages", DELTA_SPARK)
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    shutil.rmtree(TARGET, ignore_errors=True)
    path = str(TARGET)
    for batch in range(3):
        (spark.range(batch * 20, (batch + 1) * 20)
         .select(F.col("id"), (F.col("id") % 2).cast("int").alias("part"),
                 F.concat(F.lit("n-"), F.col("id").cast("string")).alias("name"))
         .repartition(1).write.format("delta").mode("append").partitionBy("part")
         .option("delta.enableDeletionVectors", "true").save(path))
    spark.sql(f"DELETE FROM delta.`{path}` WHERE id % 10 = 3")
    assert spark.read.format("delta").load(path).count() == 54
    spark.stop()
    for crc in TARGET.rglob(".*.crc"):
        crc.unlink()
    print("wrote", TARGET, sorted(str(p.relative_to(TARGET)) for p in TARGET.rglob("*") if p.is_file()))


if __name__ == "__main__":
    main()
