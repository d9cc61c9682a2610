"""On S3 (S3Proxy), delta-rs appends while bin/compactor compacts the same table: both commit by
conditional PUT, and afterwards every row is there exactly once."""
import threading
import time

import pyarrow as pa
import pyarrow.compute as pc
from deltalake import DeltaTable, write_deltalake


def test_delta_rs_appends_while_we_compact_on_s3_no_row_lost_or_duplicated(s3_table, compactor, report_of, tmp_path):
    uri, env, delta_rs = s3_table("interop")
    # Seed the demo on S3 without compacting it (no file is below this threshold).
    code, out, err = compactor("run", "--work-dir", str(tmp_path), "--table-uri", uri, "--json",
                               "--small-file-threshold-mb", "0.0001", env=env)
    assert code == 0, err
    assert DeltaTable(uri, storage_options=delta_rs).version() == 30

    appended = []
    batches = []
    compacted = threading.Event()

    def append():
        # Appends every ~0.5 s until the compactor has exited (at least 10): however short its
        # read-plan-rewrite-commit window is, appends land inside it.
        while not compacted.is_set() or len(batches) < 10:
            batch = len(batches)
            ids = [f"EXTRA_{batch}_{r}" for r in range(20)]
            write_deltalake(uri, pa.table({
                "event_id": ids, "customer_id": ["CUST_0001"] * 20, "event_type": ["click"] * 20,
                "amount": [1.0] * 20, "event_date": ["2026-10-17"] * 20}),
                mode="append", partition_by=["event_date"], storage_options=delta_rs)
            appended.extend(ids)
            batches.append(batch)
            time.sleep(0.5)

    writer = threading.Thread(target=append)
    writer.start()
    code, out, err = compactor("run", "--work-dir", str(tmp_path), "--table-uri", uri, "--demo-mode", "false",
                               "--z-order-columns", "", "--json", env=env)
    compacted.set()
    writer.join()

    assert code == 0, err
    report = report_of(out)
    assert report["compacted"] is True
    table = DeltaTable(uri, storage_options=delta_rs).to_pyarrow_table()
    assert len(appended) == 20 * len(batches) >= 200
    assert table.num_rows == 1500 + len(appended)
    assert pc.count_distinct(table["event_id"]).as_py() == 1500 + len(appended)
    assert pc.sum(table["amount"]).as_py() == 73125.0 + len(appended)
    history = DeltaTable(uri, storage_options=delta_rs).history()
    assert sum(1 for h in history if h["operation"] == "OPTIMIZE") == 3
    assert sum(1 for h in history if h["operation"] == "WRITE") == 30 + len(batches)
    # The race really happened: some appends landed after the version our compaction read and
    # before its commits, so those commits were rebased over them.
    optimize = [h for h in history if h["operation"] == "OPTIMIZE"]
    read_version = min(h["readVersion"] for h in optimize)
    writes_after_read = [h["version"] for h in history if h["operation"] == "WRITE" and h["version"] > read_version]
    assert writes_after_read and min(writes_after_read) < max(h["version"] for h in optimize), \
        [(h["version"], h["operation"], h.get("readVersion")) for h in history]


def test_a_steady_delta_rs_appender_does_not_stop_the_run(s3_table, compactor, report_of, tmp_path):
    """Appends as fast as delta-rs commits them (about 2 commits/s here), through the whole run: the
    run ends 0, each partition is committed (rebased over the appends) or, once other writers won
    every one of its bounded attempts, reported conflicted with that reason and its new files
    deleted; every row is there exactly once, and at least one partition landed between the appends.
    (Before commits stepped over harmless foreign commits themselves, kernel's rebase re-read every
    commit since the read version on each attempt, and in 2 of 4 runs no partition committed.)"""
    uri, env, delta_rs = s3_table("steady")
    code, out, err = compactor("run", "--work-dir", str(tmp_path), "--table-uri", uri, "--json",
                               "--small-file-threshold-mb", "0.0001", env=env)
    assert code == 0, err

    appended = []
    done = threading.Event()

    def append():
        batch = 0
        while not done.is_set():
            ids = [f"STEADY_{batch}_{r}" for r in range(5)]
            write_deltalake(uri, pa.table({
                "event_id": ids, "customer_id": ["CUST_0001"] * 5, "event_type": ["click"] * 5,
                "amount": [1.0] * 5, "event_date": ["2026-10-1" + str(7 + batch % 3)] * 5}),
                mode="append", partition_by=["event_date"], storage_options=delta_rs)
            appended.extend(ids)
            batch += 1

    writer = threading.Thread(target=append)
    writer.start()
    try:
        code, out, err = compactor("run", "--work-dir", str(tmp_path), "--table-uri", uri, "--demo-mode", "false",
                                   "--z-order-columns", "", "--json", env=env)
    finally:
        done.set()
        writer.join()

    assert code == 0, err
    report = report_of(out)
    details = "\n".join(f"{p['partition']}: {p['status']}: {p['detail']}" for p in report["compaction_partitions"])
    assert len(report["compaction_partitions"]) == 3, details
    for p in report["compaction_partitions"]:
        assert p["status"] == "committed" or (
            p["status"] == "conflicted" and p["detail"].startswith("other writers committed first on every one of 5 attempts")), details
    table = DeltaTable(uri, storage_options=delta_rs).to_pyarrow_table()
    assert any(p["status"] == "committed" for p in report["compaction_partitions"]), details
    assert len(appended) >= 10, "the appender must really have run during the compaction"
    assert table.num_rows == 1500 + len(appended)
    assert pc.count_distinct(table["event_id"]).as_py() == 1500 + len(appended)
