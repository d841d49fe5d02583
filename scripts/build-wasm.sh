#!/usr/bin/env bash
# Builds the browser engine (crates/sequence-wasm) into the web UI's
# folder crates/sequence-server/web/wasm/ (docs/wasm.md):
#
#   scripts/build-wasm.sh           build and write sequence.js (the
#                                   wasm-bindgen glue), sequence_bg.wasm
#                                   (the module) and BUILD.json (versions,
#                                   sizes and hashes)
#   scripts/build-wasm.sh --check   rebuild only rustc's raw module and
#                                   check that it and the committed module
#                                   are the ones BUILD.json names (CI: needs
#                                   the wasm32 target, not wasm-bindgen)
#
# The raw module is reproducible: the profile `wasm` of Cargo.toml (fat
# LTO, one codegen unit, panic=abort, stripped), the Cargo.lock versions,
# and the checkout's and Cargo's folders remapped to /sequence and /cargo,
# so it is byte-identical on any machine with the same rustc. When this
# machine's rustc is not the one BUILD.json names, --check installs that
# one with rustup (minimal profile) and builds with it.
#
# A full build needs wasm-bindgen-cli at the version Cargo.lock locks
# (`cargo install wasm-bindgen-cli --version V`) and wasm-opt (Debian:
# `apt-get install binaryen`).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=crates/sequence-server/web/wasm
manifest=$out/BUILD.json
target_dir=${CARGO_TARGET_DIR:-$root/target}
raw=$target_dir/wasm32-unknown-unknown/wasm/sequence_wasm.wasm
check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  -h | --help) sed -n '2,24s/^# \{0,1\}//p' "$0"; exit 0 ;;
  *) echo "error: unknown argument $1 (scripts/build-wasm.sh [--check])" >&2; exit 2 ;;
esac
fail() {
  echo "error: build-wasm: $*" >&2
  exit 1
}
json_field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }
sha() { sha256sum "$1" | cut -d' ' -f1; }

# the toolchain: this machine's rustc, or (--check) the one BUILD.json names
toolchain=()
rustc_version=$(rustc --version)
if [ "$check" = 1 ]; then
  [ -f "$manifest" ] || fail "no $manifest: run scripts/build-wasm.sh"
  want=$(json_field "$manifest" rustc)
  if [ "$want" != "$rustc_version" ]; then
    v=$(echo "$want" | awk '{print $2}')
    echo "== build-wasm: $manifest was built with $want, this machine has $rustc_version: installing $v (rustup)"
    rustup toolchain install "$v" --profile minimal --target wasm32-unknown-unknown >/dev/null \
      || fail "rustup toolchain install $v failed"
    toolchain=("+$v")
    rustc_version=$(rustc "+$v" --version)
  fi
fi
tc_args=()
[ ${#toolchain[@]} = 0 ] || tc_args=(--toolchain "${toolchain[0]#+}")
if ! rustup target list "${tc_args[@]}" --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add "${tc_args[@]}" wasm32-unknown-unknown >/dev/null \
    || fail "rustup target add wasm32-unknown-unknown failed"
fi

echo "== build-wasm: rustc's module ($rustc_version, profile wasm)"
cargo_home=${CARGO_HOME:-$HOME/.cargo}
# getrandom (brought by rand's default features, never called: every
# generator is seeded) builds for the browser only with its backend named
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--remap-path-prefix=$root=/sequence --remap-path-prefix=$cargo_home=/cargo --cfg getrandom_backend=\"wasm_js\"" \
  cargo "${toolchain[@]}" build --quiet --locked -p sequence-wasm \
  --target wasm32-unknown-unknown --profile wasm
[ -f "$raw" ] || fail "cargo built no $raw"

if [ "$check" = 1 ]; then
  got=$(sha "$raw")
  want=$(json_field "$manifest" raw_sha256)
  [ "$got" = "$want" ] || fail "the sources build a module (sha256 $got) that is not the committed one's ($want): run scripts/build-wasm.sh and commit $out"
  for f in sequence_bg.wasm sequence.js; do
    got=$(sha "$out/$f")
    want=$(json_field "$manifest" "${f//[._]/_}_sha256")
    [ "$got" = "$want" ] || fail "$out/$f (sha256 $got) is not the file $manifest names ($want)"
  done
  echo "== build-wasm: the committed module is the sources' (raw sha256 $(sha "$raw"))"
  exit 0
fi

bindgen_version=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/[^0-9.]/, ""); print}' Cargo.lock)
command -v wasm-bindgen >/dev/null 2>&1 || fail "no wasm-bindgen: cargo install wasm-bindgen-cli --version $bindgen_version"
have=$(wasm-bindgen --version | awk '{print $2}')
[ "$have" = "$bindgen_version" ] || fail "wasm-bindgen $have, but Cargo.lock locks $bindgen_version: cargo install wasm-bindgen-cli --version $bindgen_version"
command -v wasm-opt >/dev/null 2>&1 || fail "no wasm-opt (apt-get install binaryen)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "== build-wasm: wasm-bindgen $have (--target web)"
wasm-bindgen --target web --no-typescript --out-name sequence --out-dir "$tmp" "$raw"
echo "== build-wasm: $(wasm-opt --version) -O3"
# rustc's wasm32 target enables these proposals; every current browser has them
wasm-opt -O3 --strip-debug --strip-producers \
  --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  -o "$tmp/sequence_bg.opt.wasm" "$tmp/sequence_bg.wasm"
mkdir -p "$out"
cp "$tmp/sequence_bg.opt.wasm" "$out/sequence_bg.wasm"
cp "$tmp/sequence.js" "$out/sequence.js"
python3 - "$manifest" <<PY
import json, sys
json.dump({
    "rustc": "$rustc_version",
    "wasm_bindgen": "$have",
    "wasm_opt": "$(wasm-opt --version)",
    "raw_sha256": "$(sha "$raw")",
    "raw_bytes": $(stat -c %s "$raw"),
    "sequence_bg_wasm_sha256": "$(sha "$out/sequence_bg.wasm")",
    "sequence_bg_wasm_bytes": $(stat -c %s "$out/sequence_bg.wasm"),
    "sequence_js_sha256": "$(sha "$out/sequence.js")",
}, open(sys.argv[1], "w"), indent=2)
open(sys.argv[1], "a").write("\n")
PY
echo "== build-wasm: $out/sequence_bg.wasm $(stat -c %s "$out/sequence_bg.wasm") bytes ($(gzip -9c "$out/sequence_bg.wasm" | wc -c) gzipped)"
