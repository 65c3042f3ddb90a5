#!/usr/bin/env bash
# Serves web/dist/ on localhost and runs the Playwright test in Debian's Chromium (never a
# downloaded browser). Needs web/build.sh to have run.
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
[ -f web/dist/kriegsspiel_bg.wasm ] || { echo "run web/build.sh first" >&2; exit 1; }
if ! command -v chromium >/dev/null; then
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi
(cd web && npm install --no-audit --no-fund --silent)

# A save made by the native referee, for the browser to replay.
cargo build -p umpire --locked
hash=$("$target_dir/debug/umpire" play scenarios/open_field.ron --seed 7 --ai all --level veteran \
  --save web/dist/test-save.ron --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["hash"])')

port=8765
python3 -m http.server "$port" --bind 127.0.0.1 --directory web/dist >/dev/null 2>&1 &
server=$!
trap 'kill $server' EXIT
sleep 1
node web/test.mjs "http://127.0.0.1:$port/" "$hash" web/dist/screenshot.png
