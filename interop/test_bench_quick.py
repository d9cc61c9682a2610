"""The benchmark command in its CI size: every section runs end to end against the peers on the
same inputs (the S3 one through S3Proxy and the shaping proxy, every phase of our run present), every correctness check inside it holds (rows and sums after each rewrite, the same
inspection figures as delta-rs, exactly the tombstoned files vacuumed by both tools), and it prints
one entry with a ratio per section. Times at this size say nothing; they are not asserted."""
import re
import subprocess

from conftest import ROOT


def test_quick_benchmark_runs_every_section_and_its_checks(tmp_path):
    results = (ROOT / "bench" / "RESULTS.md").read_bytes()

    proc = subprocess.run([str(ROOT / "bench" / "run"), "--quick", "--work", str(tmp_path / "bench")],
                          capture_output=True, text=True, timeout=1200)

    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out = proc.stdout
    for heading in ("#### Demo table", "#### Compaction (bin-packing)", "#### Z-order by customer_id",
                    "#### Metadata-heavy table: inspection and vacuum", "#### S3 (S3Proxy behind a shaping proxy)",
                    "#### Start-up: the demo command and the Lambda cold start"):
        assert heading in out
    for row in ("| delta-compactor | ", "| delta-rs optimize.compact | ", "| DuckDB COPY (upper bound) | ",
                "| delta-compactor Z-order | ", "| delta-rs optimize.z_order | ",
                "| delta-compactor inspect | ", "| delta-compactor vacuum (lite) | ", "| delta-rs vacuum | "):
        assert row in out, row
    summary = re.findall(r"^\| (compaction throughput \(bin-packing\)|Z-order throughput|Z-order throughput \(Z-order step\)|"
                         r"inspection of 2000 files|"
                         r"vacuum of 2000 tombstoned files|demo table, whole run) \| (\d+\.\d\d)x \|", out, re.M)
    assert sorted(name for name, _ in summary) == sorted(
        ["compaction throughput (bin-packing)", "Z-order throughput", "Z-order throughput (Z-order step)", "inspection of 2000 files", "vacuum of 2000 tombstoned files",
         "demo table, whole run"])
    # Skipping compared at equal file counts: ours re-run to the peer's files per partition.
    equal = re.search(r"^\| Z-order skipping vs delta-rs at equal file count \| files: (\d\.\d{3}) vs (\d\.\d{3}) \| "
                      r"(\d+\.\d) vs (\d+) files per partition", out, re.M)
    assert equal, out[-3000:]
    assert float(equal.group(3)) == float(equal.group(4)), equal.group(0)
    assert "2000 deleted, 20 left" in out
    # The S3 section: both tools through the shaping proxy, every phase of our run, the vacuum pair.
    s3 = out[out.index("#### S3 (S3Proxy behind a shaping proxy)"):]
    for row in ("| delta-compactor run | ", "| delta-rs optimize.compact | ", "| start, load, inspect | ",
                "| probe before | ", "| compaction | ", "| probe after (with the reload) | ", "| vacuum dry run | ",
                "| report, telemetry, exit | ", "| delta-compactor vacuum (dry run) | ",
                "| delta-compactor vacuum (dry run), no shaping | "):
        assert row in s3, row
    for name in ("S3 whole run vs optimize.compact", "S3 compaction step vs optimize.compact"):
        assert re.search(r"^\| " + re.escape(name) + r" \| \d+\.\d\dx \|", out, re.M), name
    requests = re.search(r"^\| delta-compactor run \| [^|]+ \| [^|]+ \| (\d+) \| ([\d.]+) \|", s3, re.M)
    assert requests and int(requests.group(1)) > 0 and float(requests.group(2)) > 0, s3[:2000]
    # The demo command beside its floor, both run in the same rounds.
    startup = out[out.index("#### Start-up: the demo command and the Lambda cold start"):]
    assert re.search(r"^\| demo floor \(`Floor demo`\) \| \d+\.\d\d \|", startup, re.M), startup[:3000]
    assert re.search(r"^\| demo floor wall \(`Floor demo`, same rounds\) \| \d+\.\d\d s \| the command [+-]\d+\.\d\d s above it \|",
                     out, re.M), out[:3000]
    # Every section shows our phase timings (the report's timings_ms) under their report names.
    headings = [m.start() for m in re.finditer(r"^#### ", out, re.M)] + [len(out)]
    for start, end in zip(headings, headings[1:]):
        section = out[start:end]
        if section.startswith("#### Start-up"):
            continue  # wall time of whole processes (the demo command, a cold start), no report phases
        assert "| command | inspect | probe_before | download | rewrite | verify | upload | commit | probe_after | " \
               "vacuum_plan | deliver | wall |" in section, section[:200]
    # --quick writes nothing.
    assert (ROOT / "bench" / "RESULTS.md").read_bytes() == results
