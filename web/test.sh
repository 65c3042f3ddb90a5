#!/usr/bin/env bash
# Serves web/dist/ on localhost through kriegsspiel-server (the game and its API from one
# address, as a deployment does) and runs the Playwright test in Debian's Chromium (never a
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
cargo build -p umpire -p server --locked
hash=$("$target_dir/debug/umpire" play scenarios/open_field.ron --seed 7 --ai all --level veteran \
  --save web/dist/test-save.ron --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["hash"])')

port=8765
data=$(mktemp -d)
"$target_dir/debug/kriegsspiel-server" --bind "127.0.0.1:$port" --data-dir "$data" --web web/dist \
  >"$data/server.log" 2>&1 &
server=$!
trap 'kill $server; rm -rf "$data"' EXIT
# Up once it serves the page (within 10 s).
python3 - "$port" <<'PY' || { cat "$data/server.log" >&2; exit 1; }
import sys, time, urllib.request
for _ in range(100):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/", timeout=1).read()
        sys.exit(0)
    except Exception:
        time.sleep(0.1)
sys.exit("kriegsspiel-server did not serve the page")
PY
node web/test.mjs "http://127.0.0.1:$port/" "$hash" web/dist/screenshot.png
