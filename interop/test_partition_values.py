"""Partition values and column spellings that once moved or blanked data: random values with
`/ = % . space`, unicode, empty and NULL over 1-3 partition columns, and files that spell a column
in another case, compacted by bin/compactor; delta-rs reads exactly the rows each partition had.
Nested columns keep statistics delta-rs can read."""
import json
import os
import pathlib
import random
import time
import uuid

import pyarrow as pa
import pyarrow.parquet as pq
from deltalake import DeltaTable, write_deltalake

VALUES = ["a/b", "x=y", "100%", "a.b", "with space", "ünï", "日本", "", None, "a%2Fb", "b=c/d=e", "."]
PARTITION_NAMES = ["p", "Région", "part col"]


def reader_value(value):
    # Delta readers (delta-rs, Spark) read an empty partition value as NULL.
    return None if value == "" else value


def rows_by_partition(table, partition_columns):
    """{partition tuple: sorted (id, amount, note) rows} as delta-rs reads the table."""
    found = {}
    for row in DeltaTable(str(table)).to_pyarrow_table().to_pylist():
        key = tuple(row[c] for c in partition_columns)
        found.setdefault(key, []).append((row["id"], row["Amount"], row["Note"]))
    return {k: sorted(v) for k, v in found.items()}


def commit_misspelled_file(table, partition, ids):
    """Appends a file whose columns are spelt in lower case (as some writers do) by a JSON commit."""
    name = f"manual/{uuid.uuid4()}.parquet"
    path = pathlib.Path(table) / name
    path.parent.mkdir(exist_ok=True)
    pq.write_table(pa.table({
        "id": pa.array(ids, pa.int64()),
        "amount": pa.array([i * 1.5 for i in ids], pa.float64()),
        "note": pa.array([f"n{i}" for i in ids], pa.string()),
    }), path)
    log = pathlib.Path(table) / "_delta_log"
    version = max(int(f.name.split(".")[0]) for f in log.glob("*.json")) + 1
    now = int(time.time() * 1000)
    actions = [
        {"add": {"path": name, "partitionValues": partition, "size": path.stat().st_size,
                 "modificationTime": now, "dataChange": True}},
        {"commitInfo": {"timestamp": now, "operation": "WRITE", "operationParameters": {"mode": "Append"}}},
    ]
    (log / f"{version:020d}.json").write_text("\n".join(json.dumps(a) for a in actions) + "\n")


def test_random_partition_values_and_spellings_keep_every_row_in_its_partition(compactor, report_of, tmp_path):
    rng = random.Random(20261130)
    for trial in range(5):
        columns = PARTITION_NAMES[: 1 + trial % 3]
        table = tmp_path / f"t{trial}"
        partitions = [tuple(rng.choice(VALUES) for _ in columns) for _ in range(3)]
        if len(columns) >= 2:
            # Two partitions whose unescaped labels read alike: p=x/Région=y/Région=z.
            rest = tuple(rng.choice(VALUES) for _ in columns[2:])
            partitions[:2] = [("x/Région=y", "z") + rest, ("x", "y/Région=z") + rest]
        expected = {}
        next_id = 0
        for append in range(6):
            values = partitions[(append + 1) % len(partitions)]
            ids = list(range(next_id, next_id + 4))
            next_id += 4
            key = tuple(reader_value(v) for v in values)
            expected.setdefault(key, []).extend((i, i * 1.5, f"n{i}") for i in ids)
            if append == 2:
                # The partition's first file spells the columns in lower case.
                commit_misspelled_file(table, dict(zip(columns, values)), ids)
                continue
            data = {"id": pa.array(ids, pa.int64()), "Amount": pa.array([i * 1.5 for i in ids], pa.float64()),
                    "Note": pa.array([f"n{i}" for i in ids], pa.string())}
            for column, value in zip(columns, values):
                data[column] = pa.array([value] * len(ids), pa.string())
            write_deltalake(str(table), pa.table(data), mode="append", partition_by=columns)
        expected = {k: sorted(v) for k, v in expected.items()}

        code, out, err = compactor("run", "--work-dir", str(tmp_path), "--demo-mode", "false", "--table-uri", str(table),
                                   "--z-order-columns", "", "--json")

        assert code == 0, f"trial {trial} ({columns}, {partitions}): {err}"
        report = report_of(out)
        assert report["compacted"], f"trial {trial}: {err}"
        assert all(p["status"] == "committed" for p in report["compaction_partitions"]), report["compaction_partitions"]
        assert rows_by_partition(table, columns) == expected, f"trial {trial} ({columns}, {partitions})"
        for add in pa.table(DeltaTable(str(table)).get_add_actions(flatten=True)).to_pylist():
            assert add["num_records"] is not None


def test_nested_columns_get_statistics_delta_rs_reads(compactor, report_of, tmp_path):
    table = tmp_path / "nested"
    for batch in range(4):
        ids = list(range(batch * 10, batch * 10 + 10))
        write_deltalake(str(table), pa.table({
            "id": pa.array(ids, pa.int64()),
            "info": pa.array([None if i % 5 == 0 else {"x": i, "s": f"s{i}"} for i in ids],
                             pa.struct([("x", pa.int32()), ("s", pa.string())])),
            "tags": pa.array([[i, i + 1] for i in ids], pa.list_(pa.int32())),
            "attrs": pa.array([[("k", i)] for i in ids], pa.map_(pa.string(), pa.int32())),
            "region": pa.array(["eu"] * len(ids)),
        }), mode="append", partition_by=["region"])
    before = DeltaTable(str(table)).to_pyarrow_table().sort_by("id").to_pylist()

    code, out, err = compactor("run", "--work-dir", str(tmp_path), "--demo-mode", "false", "--table-uri", str(table),
                               "--z-order-columns", "", "--json")

    assert code == 0, err
    assert report_of(out)["files_after"] == 1
    dt = DeltaTable(str(table))
    assert dt.to_pyarrow_table().sort_by("id").to_pylist() == before
    [add] = pa.table(dt.get_add_actions(flatten=True)).to_pylist()
    assert add["num_records"] == 40
    assert (add["min.id"], add["max.id"]) == (0, 39)
    assert (add["min.info.x"], add["max.info.x"]) == (1, 39)
    assert add["null_count.info.x"] == 8
    assert add["null_count.tags"] == 0
