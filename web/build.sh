#!/usr/bin/env bash
# Builds the browser version into web/dist/, ready to serve as static files:
# cargo (wasm32, size-tuned profile) → wasm-bindgen (the CLI pinned to Cargo.lock's version,
# installed if missing) → wasm-opt (npm's binaryen) → index.html.
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"

rustup target add wasm32-unknown-unknown >/dev/null
cargo build -p kriegsspiel --profile web-release --target wasm32-unknown-unknown --locked

version=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"$/\1/p')
if ! command -v wasm-bindgen >/dev/null || [ "$(wasm-bindgen --version | cut -d' ' -f2)" != "$version" ]; then
  echo "installing wasm-bindgen-cli $version"
  # Not --locked: a crate its lock file pins may be gone from the registry.
  cargo install wasm-bindgen-cli --version "$version"
fi

(cd web && npm install --no-audit --no-fund --silent)

rm -rf web/dist
mkdir -p web/dist
wasm-bindgen --target web --no-typescript --out-dir web/dist --out-name kriegsspiel \
  "$target_dir/wasm32-unknown-unknown/web-release/kriegsspiel.wasm"
# Bevy's wasm uses bulk memory, non-trapping float-to-int, sign extension and reference types.
web/node_modules/.bin/wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-reference-types --enable-mutable-globals \
  -o web/dist/kriegsspiel_bg.wasm web/dist/kriegsspiel_bg.wasm
cp web/index.html web/dist/index.html

raw=$(stat -c %s web/dist/kriegsspiel_bg.wasm)
gz=$(gzip -9 -c web/dist/kriegsspiel_bg.wasm | wc -c)
echo "web/dist ready: kriegsspiel_bg.wasm $raw bytes ($gz gzipped)"
