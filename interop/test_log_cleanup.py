"""Log hygiene on a 1,000-commit table delta-rs writes: once its early commits are past the 30-day
log retention, `bin/compactor cleanup-log` writes the due checkpoint (through Delta kernel) and
deletes every commit before the oldest checkpoint a retained version needs, keeping the newest
checkpoints; Spark and delta-rs still time travel to every retained version (each holds exactly
its rows) and refuse an older one cleanly."""
import json
import os
import re
import time
from pathlib import Path

import pyarrow as pa
import pytest
from deltalake import DeltaTable, write_deltalake
from deltalake.exceptions import TableNotFoundError
from deltalake.transaction import PostCommitHookProperties

from test_spark_reads import spark  # noqa: F401  (the module's Spark session fixture)

DAY = 24 * 3600
COMMITS = 1000     # versions 0..999, one row each: version v holds v + 1 rows
HOOKED_UNTIL = 989  # delta-rs checkpoints every 10 commits (9, 19, .., 989), then stops
FRESH_FROM = 995    # commits 995..999 are recent, everything before is 40 days old
LOG_NAME = re.compile(r"(\d{20})\.(json|crc|checkpoint.*)")


def write_history(path):
    """1,000 one-row commits. delta-rs checkpoints every delta.checkpointInterval (10) commits up to
    HOOKED_UNTIL and none after, so the compactor finds its own checkpoint due at 999 (10 commits
    since 989). Nothing is cleaned while writing: every file is new then."""
    hooked = PostCommitHookProperties(create_checkpoint=True, cleanup_expired_logs=False)
    unhooked = PostCommitHookProperties(create_checkpoint=False, cleanup_expired_logs=False)
    write_deltalake(str(path), pa.table({"id": pa.array([0], pa.int64())}),
                    configuration={"delta.checkpointInterval": "10"}, post_commithook_properties=hooked)
    table = DeltaTable(str(path))
    for version in range(1, COMMITS):
        write_deltalake(table, pa.table({"id": pa.array([version], pa.int64())}), mode="append",
                        post_commithook_properties=hooked if version <= HOOKED_UNTIL else unhooked)


def age_log(path):
    """Moves every log file of a version before FRESH_FROM 40 days (plus its version, in seconds,
    so times rise with versions) into the past; later versions keep their real, recent times."""
    base = time.time() - 40 * DAY
    for file in (path / "_delta_log").iterdir():
        match = LOG_NAME.fullmatch(file.name)
        if match and int(match.group(1)) < FRESH_FROM:
            stamp = base + int(match.group(1))
            os.utime(file, (stamp, stamp))


def log_files(path):
    return sorted(f.name for f in (path / "_delta_log").iterdir() if not f.name.startswith("."))


def test_a_thousand_commits_past_the_log_retention_keep_every_retained_version(
        compactor, report_of, spark, tmp_path):  # noqa: F811
    path = tmp_path / "long_log"
    started = time.time()
    write_history(path)
    print(f"written: {time.time() - started:.1f} s")
    assert DeltaTable(str(path)).version() == COMMITS - 1
    age_log(path)
    before = log_files(path)
    assert [f for f in before if ".checkpoint." in f] == [
        f"{v:020d}.checkpoint.parquet" for v in range(9, HOOKED_UNTIL + 1, 10)]

    code, out, err = compactor("cleanup-log", "--work-dir", str(tmp_path), "--table-uri", str(path), "--json")
    assert code == 0, err
    dry = report_of(out)["log_cleanup"]
    assert (dry["dry_run"], dry["checkpoint_status"], dry["checkpoint_version"]) == (True, "would_write", 999)
    assert dry["commits_since_checkpoint"] == 10
    # Commits 0..988 and the checkpoints 9..979: the stretch 989..998 holds recent commits, so the
    # checkpoint at 989 that starts it stays, with everything after it.
    assert dry["expired_files_count"] == 989 + 98
    assert dry["oldest_version_after"] == 989
    assert log_files(path) == before

    code, out, err = compactor("cleanup-log", "--work-dir", str(tmp_path), "--table-uri", str(path),
                               "--dry-run", "false", "--json")
    assert code == 0, err
    done = report_of(out)["log_cleanup"]
    assert (done["checkpoint_status"], done["checkpoint_version"]) == ("written", 999)
    assert done["deleted_files_count"] == 989 + 98
    assert (done["oldest_version_before"], done["oldest_version_after"], done["latest_version"]) == (0, 989, 999)
    after = log_files(path)
    assert after == ["00000000000000000989.checkpoint.parquet"] + [
        f"{v:020d}.json" for v in range(989, 999)] + [
        "00000000000000000999.checkpoint.parquet", "00000000000000000999.json", "_last_checkpoint"]
    assert json.loads((path / "_delta_log" / "_last_checkpoint").read_text())["version"] == 999

    print(f"cleaned: {time.time() - started:.1f} s")
    # One snapshot partition: each time travel rebuilds a snapshot of a few hundred actions.
    spark.conf.set("spark.databricks.delta.snapshotPartitions", "1")
    for version in range(989, COMMITS):
        assert len(DeltaTable(str(path), version=version).file_uris()) == version + 1, version
        # count(*) and max(id) come from the file stats: the version's snapshot is all they read.
        rows = spark.sql(f"SELECT count(*) AS n, max(id) AS top FROM delta.`{path}` VERSION AS OF {version}").first()
        assert (rows["n"], rows["top"]) == (version + 1, version), version
    print(f"time travelled: {time.time() - started:.1f} s")
    assert DeltaTable(str(path)).to_pyarrow_table().num_rows == COMMITS
    assert spark.read.format("delta").load(str(path)).count() == COMMITS

    with pytest.raises(TableNotFoundError, match="No files in log segment"):
        DeltaTable(str(path), version=988)
    with pytest.raises(Exception) as spark_refusal:
        spark.sql(f"SELECT count(*) FROM delta.`{path}` VERSION AS OF 988").collect()
    assert "Cannot time travel Delta table to version 988" in str(spark_refusal.value)
    assert "[989, 999]" in str(spark_refusal.value)

    # Both can still append on top of the kernel-written checkpoint.
    write_deltalake(str(path), pa.table({"id": pa.array([COMMITS], pa.int64())}), mode="append")
    assert DeltaTable(str(path)).version() == COMMITS
    assert spark.read.format("delta").load(str(path)).count() == COMMITS + 1
    spark.conf.unset("spark.databricks.delta.snapshotPartitions")
    print(f"log cleanup interop: {time.time() - started:.1f} s")
