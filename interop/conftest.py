"""Shared fixtures: the project's CLI, run as users run it."""
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
COMPACTOR = ROOT / "bin" / "compactor"


def run_compactor(*args, cwd=None):
    """Runs bin/compactor; returns (exit code, stdout, stderr)."""
    proc = subprocess.run(
        [str(COMPACTOR), *args], cwd=cwd, capture_output=True, text=True, timeout=600
    )
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture
def compactor():
    if not (ROOT / "target" / "cli-lib").is_dir():
        pytest.fail("bin/compactor is not built; run ./mvnw -DskipTests package first")
    return run_compactor


@pytest.fixture
def report_of():
    def parse(stdout):
        return json.loads(stdout)

    return parse
