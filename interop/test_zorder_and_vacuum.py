"""Z-order and vacuum on tables delta-rs writes: delta-rs and DuckDB read exactly the same rows after
our Z-order, delta-rs sees the OPTIMIZE with its zOrderBy; our vacuum finds exactly the files
delta-rs's vacuum would delete, deletes them, records VACUUM START/END, and delta-rs still reads
the table."""
import json
import os
import time
from pathlib import Path

from deltalake import DeltaTable, write_deltalake

from history import age_table
from test_delta_rs_tables import fingerprint, many_types

def write_fragmented(path, batches=12):
    for batch in range(batches):
        write_deltalake(str(path), many_types(batch), mode="append", partition_by=["region"])


def test_zorder_of_a_delta_rs_table_keeps_every_row_and_delta_rs_sees_it(compactor, report_of, tmp_path):
    path = tmp_path / "zordered"
    write_fragmented(path)
    rows_before, checksum_before, table_before = fingerprint(path)

    code, out, err = compactor("run", "--work-dir", str(tmp_path), "--demo-mode", "false", "--table-uri", str(path),
                               "--z-order-columns", "i32,text", "--json")

    assert code == 0, err
    report = report_of(out)
    assert report["compacted"] is True
    assert report["compaction_plan"]["layout"] == "z_order"
    assert report["zorder_skipping"]["columns"] == ["i32", "text"]
    rows_after, checksum_after, table_after = fingerprint(path)
    assert (rows_after, checksum_after) == (rows_before, checksum_before)
    assert table_after.equals(table_before)
    optimize = [h for h in DeltaTable(str(path)).history() if h["operation"] == "OPTIMIZE"]
    assert optimize and all(h["operationParameters"]["zOrderBy"] == '["i32","text"]' for h in optimize)
    write_deltalake(str(path), many_types(99), mode="append", partition_by=["region"])
    assert DeltaTable(str(path)).to_pyarrow_table().num_rows == rows_before + 40

    code, out, err = compactor("run", "--work-dir", str(tmp_path), "--demo-mode", "false", "--table-uri", str(path),
                               "--z-order-columns", "i32,text", "--json")
    assert code == 0, err


def test_our_vacuum_finds_what_delta_rs_would_delete_deletes_it_and_delta_rs_still_reads(compactor, report_of, tmp_path):
    path = tmp_path / "vacuumed"
    write_fragmented(path)
    code, out, err = compactor("run", "--work-dir", str(tmp_path), "--demo-mode", "false", "--table-uri", str(path),
                               "--z-order-columns", "", "--json")
    assert code == 0, err
    compacted = report_of(out)
    assert compacted["compacted"] is True
    removed = age_table(path)
    rows, checksum, table = fingerprint(path)
    delta_rs_would_delete = sorted(DeltaTable(str(path)).vacuum(retention_hours=168, dry_run=True,
                                                                enforce_retention_duration=True))
    assert len(removed) == 24
    assert delta_rs_would_delete == removed

    code, out, err = compactor("vacuum", "--work-dir", str(tmp_path), "--table-uri", str(path), "--json")
    assert code == 0, err
    dry = report_of(out)
    assert dry["vacuum_dry_run"] is True
    assert dry["candidate_files_count"] == len(removed)
    assert len(dry["candidate_sample"]) == 20
    assert all(any(c.endswith("/" + r) for r in removed) for c in dry["candidate_sample"])
    assert all((path / f).exists() for f in removed)

    code, out, err = compactor("vacuum", "--work-dir", str(tmp_path), "--table-uri", str(path),
                               "--vacuum-dry-run", "false", "--json")
    assert code == 0, err
    applied = report_of(out)
    assert applied["deleted_files_count"] == len(removed)
    assert not any((path / f).exists() for f in removed)
    assert fingerprint(path)[:2] == (rows, checksum)
    assert fingerprint(path)[2].equals(table)
    operations = [h["operation"] for h in DeltaTable(str(path)).history()]
    assert operations[:2] == ["VACUUM END", "VACUUM START"]
    # delta-rs lists tombstones whether or not the files still exist: nothing it would delete is left.
    leftover = DeltaTable(str(path)).vacuum(retention_hours=168, dry_run=True, enforce_retention_duration=True)
    assert not any((path / f).exists() for f in leftover)


def test_vacuum_refuses_167_hours_before_touching_anything(compactor, tmp_path):
    path = tmp_path / "refused"
    write_fragmented(path, batches=2)
    listing = sorted(p.name for p in (path / "_delta_log").iterdir())

    code, out, err = compactor("vacuum", "--work-dir", str(tmp_path), "--table-uri", str(path),
                               "--vacuum-retention-hours", "167", "--vacuum-dry-run", "false")

    assert code == 2
    assert "vacuum_retention_hours=167: must be >= 168" in err
    assert sorted(p.name for p in (path / "_delta_log").iterdir()) == listing
