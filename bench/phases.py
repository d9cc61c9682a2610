"""delta-compactor's own phase timings (the report's `timings_ms`), collected per section and tool
and shown as a table of medians under each section of bench/run."""
import statistics

KEYS = ("inspect", "probe_before", "download", "rewrite", "verify", "upload", "commit", "probe_after",
        "vacuum_plan", "deliver", "wall")

_RUNS = {}


def note(section, tool, report):
    """Keeps one run's `timings_ms` (from its --json report) under section and tool."""
    timings = report.get("timings_ms")
    if timings:
        _RUNS.setdefault(section, {}).setdefault(tool, []).append(timings)


def table(section):
    """Markdown lines: the median of each phase per tool of the section (ms); empty when none."""
    tools = _RUNS.get(section)
    if not tools:
        return []
    lines = ["delta-compactor's phases (the report's `timings_ms`, in-process, median ms; on object stores "
             "download and upload overlap rewrite and verify, so the phases may add up to more than `wall`):", "",
             "| command | " + " | ".join(KEYS) + " |", "|---|" + "---|" * len(KEYS)]
    for tool, runs in tools.items():
        lines.append(f"| {tool} | " + " | ".join(f"{statistics.median(r[k] for r in runs):.0f}" for k in KEYS) + " |")
    return lines + [""]
