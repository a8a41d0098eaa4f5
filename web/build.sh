#!/usr/bin/env bash
# Builds the web page into web/dist: puzzle-sat's solver compiled to WebAssembly, its
# JavaScript glue (wasm-bindgen), and the page's static files. Any static host serves the
# folder; `puzzle-sat serve` does it on 127.0.0.1.
# Needs the wasm32-unknown-unknown target and wasm-bindgen-cli of the version web/Cargo.toml
# pins; installs either when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
version=$(sed -n 's/^wasm-bindgen = "=\(.*\)"$/\1/p' web/Cargo.toml)
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    echo "web/build.sh: installing the wasm32-unknown-unknown target" >&2
    rustup target add wasm32-unknown-unknown
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
    echo "web/build.sh: installing wasm-bindgen-cli $version" >&2
    cargo install wasm-bindgen-cli --version "$version"
fi
cargo build --release -p puzzle-sat-web --target wasm32-unknown-unknown --target-dir target/wasm
rm -rf web/dist
wasm-bindgen --target web --no-typescript --out-dir web/dist target/wasm/wasm32-unknown-unknown/release/puzzle_sat_web.wasm
cp web/static/* web/dist/
echo "web/build.sh: built web/dist ($(du -sh web/dist | cut -f1)); serve it with: puzzle-sat serve" >&2
