"""Moving a Delta table's history into the past, shared by the interop tests and the benchmark."""
import json
import os
import time
from pathlib import Path

DAY_MS = 24 * 3600 * 1000
EIGHT_DAYS_MS = 8 * DAY_MS


def age_table(path, days=8, patterns=("*.parquet",)):
    """Moves the whole history `days` (eight) days into the past, as if every commit (ours included)
    had been made then: commit timestamps, tombstones and the mtimes of log files and of the files
    matching `patterns` (data files; add "*.bin" for deletion vectors). The only way to test a
    168-hour floor without waiting a week. Returns the tombstoned paths."""
    old_ms = int(time.time() * 1000) - days * DAY_MS
    removed = []
    for log in sorted((Path(path) / "_delta_log").glob("*.json")):
        version = int(log.stem)
        lines = []
        for line in log.read_text().splitlines():
            action = json.loads(line)
            if "commitInfo" in action:
                action["commitInfo"]["timestamp"] = old_ms + version
            if "remove" in action:
                action["remove"]["deletionTimestamp"] = old_ms + version
                removed.append(action["remove"]["path"])
            lines.append(json.dumps(action, separators=(",", ":")))
        log.write_text("\n".join(lines) + "\n")
        # Hadoop's local checksum beside a Spark-written commit no longer matches: Spark would refuse it.
        log.with_name("." + log.name + ".crc").unlink(missing_ok=True)
        os.utime(log, ((old_ms + version) / 1000, (old_ms + version) / 1000))
    for pattern in patterns:
        for file in Path(path).rglob(pattern):
            os.utime(file, (old_ms / 1000, old_ms / 1000))
    return sorted(removed)
