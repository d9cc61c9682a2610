#!/usr/bin/env bash
# Creates the project-local Python environment (.venv) with the pinned peers (delta-rs, DuckDB).
# Idempotent: re-running only installs what changed in interop/requirements.txt.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
stamp="$venv/.requirements.sha256"
want="$(sha256sum "$root/interop/requirements.txt" | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  "$venv/bin/pip" install --quiet -r "$root/interop/requirements.txt"
  echo "$want" > "$stamp"
fi
echo "$venv"
