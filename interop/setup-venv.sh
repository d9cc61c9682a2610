#!/usr/bin/env bash
# Creates the project-local Python environment (.venv) with the pinned peers (delta-rs, DuckDB,
# Spark; interop/requirements.txt) and AWS's template tools (cfn-lint, SAM CLI;
# infra/requirements.txt), resolved together in one pip run so neither list can break the other.
# Idempotent: re-running only installs what changed in either file.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
requirements=("$root/interop/requirements.txt" "$root/infra/requirements.txt")
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
stamp="$venv/.requirements.sha256"
want="$(cat "${requirements[@]}" | sha256sum | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  "$venv/bin/pip" install --quiet "${requirements[@]/#/--requirement=}"
  echo "$want" > "$stamp"
fi
echo "$venv"
