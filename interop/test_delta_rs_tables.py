"""Tables written by delta-rs in several shapes, compacted by bin/compactor: delta-rs and DuckDB
read exactly the same rows afterwards, delta-rs sees our OPTIMIZE commits and can append again."""
import datetime
import decimal

import duckdb
import pyarrow as pa
import pytest
from deltalake import DeltaTable, write_deltalake


def many_types(batch, rows=40):
    base = batch * rows
    def maybe(values):
        return [None if (base + i) % 7 == 0 else v for i, v in enumerate(values)]
    return pa.table({
        "id": pa.array(range(base, base + rows), pa.int64()),
        "i32": pa.array(maybe([i * 3 for i in range(rows)]), pa.int32()),
        "f64": pa.array(maybe([i / 7 for i in range(rows)]), pa.float64()),
        "dec": pa.array(maybe([decimal.Decimal(i) / 100 for i in range(rows)]), pa.decimal128(10, 2)),
        "flag": pa.array(maybe([i % 2 == 0 for i in range(rows)]), pa.bool_()),
        "text": pa.array(maybe([f"zürich-{base + i}" for i in range(rows)]), pa.string()),
        "day": pa.array(maybe([datetime.date(1969, 12, 1) + datetime.timedelta(days=i) for i in range(rows)]), pa.date32()),
        "ts": pa.array(maybe([datetime.datetime(2026, 10, 17, tzinfo=datetime.timezone.utc) + datetime.timedelta(seconds=i * 1.5) for i in range(rows)]), pa.timestamp("us", tz="UTC")),
        "tags": pa.array(maybe([[i, None, i + 1] for i in range(rows)]), pa.list_(pa.int32())),
        "region": pa.array([["eu", "us"][i % 2] for i in range(rows)]),
        "tier": pa.array([["gold", "silver", None][i % 3] for i in range(rows)]),
    })


SHAPES = {
    "unpartitioned": None,
    "one_partition_column": ["region"],
    "two_partition_columns_with_nulls": ["region", "tier"],
}


def fingerprint(path):
    files = [f.removeprefix("file://") for f in DeltaTable(str(path)).file_uris()]
    data_columns = "id, i32, f64, dec, flag, text, day, ts, tags"
    rows, checksum = duckdb.execute(
        f"SELECT count(*), sum(hash({data_columns}))::VARCHAR FROM read_parquet($files, hive_partitioning=false, union_by_name=true)",
        {"files": files}).fetchone()
    table = DeltaTable(str(path)).to_pyarrow_table().sort_by("id")
    return rows, checksum, table


@pytest.mark.parametrize("shape", SHAPES)
def test_compacting_delta_rs_tables_keeps_every_row(compactor, report_of, tmp_path, shape):
    path = tmp_path / shape
    for batch in range(12):
        write_deltalake(str(path), many_types(batch), mode="append", partition_by=SHAPES[shape])
    rows_before, checksum_before, table_before = fingerprint(path)
    files_before = len(DeltaTable(str(path)).file_uris())

    code, out, err = compactor("run", "--work-dir", str(tmp_path), "--demo-mode", "false", "--table-uri", str(path),
                               "--z-order-columns", "", "--json")
    assert code == 0, err
    report = report_of(out)

    rows_after, checksum_after, table_after = fingerprint(path)
    assert report["compacted"] is True
    assert report["files_before"] == files_before
    assert report["files_after"] == len(DeltaTable(str(path)).file_uris()) < files_before
    assert (rows_after, checksum_after) == (rows_before, checksum_before) == (480, checksum_before)
    assert table_after.equals(table_before)
    history = DeltaTable(str(path)).history()
    assert any(h["operation"] == "OPTIMIZE" for h in history)

    write_deltalake(str(path), many_types(99), mode="append", partition_by=SHAPES[shape])
    assert DeltaTable(str(path)).to_pyarrow_table().num_rows == 520
