"""Our demo table, seeded and then compacted by bin/compactor, read by delta-rs and DuckDB:
same rows, stats, history; delta-rs can append afterwards."""
import duckdb
import pyarrow as pa
import pyarrow.compute as pc
from deltalake import DeltaTable, write_deltalake

APPENDS, ROWS = 30, 50
DATES = ["2026-10-17", "2026-10-18", "2026-10-19"]
TOTAL_AMOUNT = APPENDS * sum(((r % 25) + 1) * 3.75 for r in range(ROWS))
# A threshold no demo file is below: the demo is seeded and inspected, never compacted.
NO_COMPACTION = ["--small-file-threshold-mb", "0.0001"]


def run(compactor, report_of, tmp_path, *extra):
    code, out, err = compactor("run", "--work-dir", str(tmp_path), "--json", *extra)
    assert code == 0, err
    return report_of(out), tmp_path / "demo_delta_table"


def assert_demo_rows(table):
    data = table.to_pyarrow_table()
    assert data.num_rows == 1500
    assert pc.sum(data["amount"]).as_py() == TOTAL_AMOUNT == 73125.0
    assert pc.count_distinct(data["event_id"]).as_py() == 1500
    assert pc.count_distinct(data["customer_id"]).as_py() == 40
    per_date = data.group_by("event_date").aggregate([("event_id", "count")]).to_pylist()
    assert sorted((r["event_date"], r["event_id_count"]) for r in per_date) == [(d, 500) for d in DATES]
    return data


def test_delta_rs_reads_the_seeded_demo_table_exactly(compactor, report_of, tmp_path):
    report, path = run(compactor, report_of, tmp_path, *NO_COMPACTION)
    table = DeltaTable(str(path))

    assert report["compacted"] is False
    assert table.version() == report["table_version"] == 30
    assert table.metadata().partition_columns == ["event_date"]
    assert [f.name for f in table.schema().fields] == [
        "event_id", "customer_id", "event_type", "amount", "event_date"]
    assert_demo_rows(table)
    adds = pa.table(table.get_add_actions(flatten=True)).to_pylist()
    assert len(adds) == report["total_files"] == 30
    assert sum(a["size_bytes"] for a in adds) == sum(p["total_bytes"] for p in report["partitions"])
    assert all(a["num_records"] == ROWS for a in adds)
    assert all(a["min.amount"] == 3.75 and a["max.amount"] == 93.75 for a in adds)


def test_delta_rs_reads_the_compacted_demo_same_rows_fewer_files(compactor, report_of, tmp_path):
    report, path = run(compactor, report_of, tmp_path)
    table = DeltaTable(str(path))

    assert (report["version_before"], report["version_after"]) == (30, 33)
    assert (report["files_before"], report["files_after"]) == (30, 3)
    assert table.version() == 33
    assert_demo_rows(table)
    adds = pa.table(table.get_add_actions(flatten=True)).to_pylist()
    assert sorted(a["partition.event_date"] for a in adds) == DATES
    assert all(a["num_records"] == 500 for a in adds)
    assert all(a["min.amount"] == 3.75 and a["max.amount"] == 93.75 for a in adds)
    assert all(a["min.customer_id"] == "CUST_0000" and a["max.customer_id"] == "CUST_0039" for a in adds)
    history = table.history()
    assert len(history) == 34
    optimize = [h for h in history if h["operation"] == "OPTIMIZE"]
    assert len(optimize) == 3
    assert all(h["readVersion"] == 30 for h in optimize)
    assert sorted(int(h["operationMetrics"]["numRemovedFiles"]) for h in optimize) == [10, 10, 10]


def test_duckdb_reads_the_files_delta_rs_lists_after_compaction(compactor, report_of, tmp_path):
    _, path = run(compactor, report_of, tmp_path)
    local = [f.removeprefix("file://") for f in DeltaTable(str(path)).file_uris()]

    rows, total = duckdb.execute(
        "SELECT count(*), sum(amount) FROM read_parquet($files, hive_partitioning=false)",
        {"files": local},
    ).fetchone()
    assert len(local) == 3
    assert (rows, total) == (1500, TOTAL_AMOUNT)


def test_delta_rs_appends_after_compaction_and_we_see_it(compactor, report_of, tmp_path):
    _, path = run(compactor, report_of, tmp_path)
    extra = pa.table({
        "event_id": ["EVT_X_00000"], "customer_id": ["CUST_0001"], "event_type": ["click"],
        "amount": [1.0], "event_date": ["2026-10-20"]})
    write_deltalake(str(path), extra, mode="append", partition_by=["event_date"])

    code, out, err = compactor("inspect", "--table-uri", str(path), "--json")
    assert code == 0, err
    report = report_of(out)
    assert (report["table_version"], report["total_files"], report["total_rows"]) == (34, 4, 1501)
    assert "event_date=2026-10-20" in [p["partition"] for p in report["partitions"]]
    assert DeltaTable(str(path)).to_pyarrow_table().num_rows == 1501
