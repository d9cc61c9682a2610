#!/usr/bin/env bash
# Installs the pinned asl-validator (npm, infra/validate/asl/package.json) into .tools/asl-validator
# and prints the path of its command. Idempotent: re-running installs only when the pin changed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
here="$root/infra/validate/asl"
tools="$root/.tools/asl-validator"
mkdir -p "$tools"
stamp="$tools/.package.sha256"
want="$(sha256sum "$here/package.json" | cut -d' ' -f1)"
if [ ! -x "$tools/node_modules/.bin/asl-validator" ] || [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  cp "$here/package.json" "$tools/package.json"
  (cd "$tools" && npm install --silent --no-audit --no-fund >&2)
  echo "$want" > "$stamp"
fi
echo "$tools/node_modules/.bin/asl-validator"
