"""Our demo table, read by delta-rs and DuckDB: same rows, stats, history; delta-rs can append."""
import duckdb
import pyarrow as pa
import pyarrow.compute as pc
from deltalake import DeltaTable, write_deltalake

APPENDS, ROWS = 30, 50
DATES = ["2026-10-17", "2026-10-18", "2026-10-19"]
TOTAL_AMOUNT = APPENDS * sum(((r % 25) + 1) * 3.75 for r in range(ROWS))


def seed(compactor, report_of, tmp_path):
    code, out, err = compactor("run", "--work-dir", str(tmp_path), "--json")
    assert code == 0, err
    return report_of(out), tmp_path / "demo_delta_table"


def test_delta_rs_reads_the_demo_table_exactly(compactor, report_of, tmp_path):
    report, path = seed(compactor, report_of, tmp_path)
    table = DeltaTable(str(path))

    assert table.version() == report["table_version"] == 30
    assert table.metadata().partition_columns == ["event_date"]
    assert [f.name for f in table.schema().fields] == [
        "event_id", "customer_id", "event_type", "amount", "event_date"]
    data = table.to_pyarrow_table()
    assert data.num_rows == report["total_rows"] == 1500
    assert pc.sum(data["amount"]).as_py() == TOTAL_AMOUNT == 73125.0
    assert pc.count_distinct(data["event_id"]).as_py() == 1500
    assert pc.count_distinct(data["customer_id"]).as_py() == 40
    per_date = data.group_by("event_date").aggregate([("event_id", "count")]).to_pylist()
    assert sorted((r["event_date"], r["event_id_count"]) for r in per_date) == [
        (d, 500) for d in DATES]


def test_delta_rs_sees_the_same_files_and_stats_we_report(compactor, report_of, tmp_path):
    report, path = seed(compactor, report_of, tmp_path)
    adds = pa.table(DeltaTable(str(path)).get_add_actions(flatten=True)).to_pylist()

    assert len(adds) == report["total_files"] == 30
    assert sum(a["size_bytes"] for a in adds) == sum(p["total_bytes"] for p in report["partitions"])
    assert all(a["num_records"] == ROWS for a in adds)
    assert all(a["min.amount"] == 3.75 and a["max.amount"] == 93.75 for a in adds)
    by_partition = {}
    for a in adds:
        by_partition[a["partition.event_date"]] = by_partition.get(a["partition.event_date"], 0) + 1
    assert by_partition == {d: 10 for d in DATES}
    history = DeltaTable(str(path)).history()
    assert len(history) == 31
    assert sorted(h["operation"] for h in history).count("WRITE") == 30


def test_duckdb_reads_the_files_delta_rs_lists(compactor, report_of, tmp_path):
    _, path = seed(compactor, report_of, tmp_path)
    files = DeltaTable(str(path)).file_uris()
    local = [f.removeprefix("file://") for f in files]

    rows, total = duckdb.execute(
        "SELECT count(*), sum(amount) FROM read_parquet($files, hive_partitioning=false)",
        {"files": local},
    ).fetchone()
    assert (rows, total) == (1500, TOTAL_AMOUNT)


def test_delta_rs_can_append_to_the_demo_table_and_we_see_it(compactor, report_of, tmp_path):
    _, path = seed(compactor, report_of, tmp_path)
    extra = pa.table({
        "event_id": ["EVT_X_00000"], "customer_id": ["CUST_0001"], "event_type": ["click"],
        "amount": [1.0], "event_date": ["2026-10-20"]})
    write_deltalake(str(path), extra, mode="append", partition_by=["event_date"])

    code, out, err = compactor("inspect", "--table-uri", str(path), "--json")
    assert code == 0, err
    report = report_of(out)
    assert report["table_version"] == 31
    assert report["total_files"] == 31
    assert report["total_rows"] == 1501
    assert "event_date=2026-10-20" in [p["partition"] for p in report["partitions"]]
