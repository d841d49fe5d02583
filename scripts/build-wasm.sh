#!/usr/bin/env bash
# Builds the browser engine (crates/sequence-wasm) into the web UI's
# folder crates/sequence-server/web/wasm/ (docs/wasm.md):
#
#   scripts/build-wasm.sh           build and write sequence.js (the
#                                   wasm-bindgen glue), sequence_bg.wasm
#                                   (the module) and BUILD.json (versions,
#                                   sizes and hashes)
#   scripts/build-wasm.sh --check   (CI, a second) the sources the module
#                                   is built from are the ones BUILD.json
#                                   names (their SHA-256: every file of the
#                                   engine, bot and wasm crates' src/ and
#                                   data/, their Cargo.toml, the workspace's
#                                   Cargo.toml and Cargo.lock, this script),
#                                   and the committed files are the ones it
#                                   names
#   scripts/build-wasm.sh --check-rebuild
#                                   also rebuild rustc's raw module and check
#                                   that it is the one BUILD.json names
#                                   (needs the wasm32 target, not
#                                   wasm-bindgen; a few minutes)
#
# The raw module is reproducible: the profile `wasm` of Cargo.toml (fat
# LTO, one codegen unit, panic=abort, stripped), the Cargo.lock versions,
# and the checkout's and Cargo's folders remapped to /sequence and /cargo,
# so it is byte-identical on any machine with the same rustc. When this
# machine's rustc is not the one BUILD.json names, --check-rebuild installs that
# one with rustup (minimal profile) and builds with it.
#
# A full build needs wasm-bindgen-cli at the version Cargo.lock locks
# (`cargo install wasm-bindgen-cli --version V`).
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
  --check-rebuild) check=2 ;;
  "") ;;
  -h | --help) sed -n '2,34s/^# \{0,1\}//p' "$0"; exit 0 ;;
  *) echo "error: unknown argument $1 (scripts/build-wasm.sh [--check | --check-rebuild])" >&2; exit 2 ;;
esac
fail() {
  echo "error: build-wasm: $*" >&2
  exit 1
}
json_field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }
sha() { sha256sum "$1" | cut -d' ' -f1; }
# The SHA-256 of the sources the module is built from (paths and contents).
sources_sha() {
  python3 - <<'PY'
import hashlib, os
h = hashlib.sha256()
files = ["Cargo.toml", "Cargo.lock", "scripts/build-wasm.sh"]
for crate in ["sequence-common", "sequence-classic", "sequence-stacks", "sequence-bots", "sequence-wasm"]:
    base = os.path.join("crates", crate)
    files += [os.path.join(base, f) for f in ("Cargo.toml", "build.rs") if os.path.exists(os.path.join(base, f))]
    for sub in ("src", "data"):
        for root, _, names in os.walk(os.path.join(base, sub)):
            files += [os.path.join(root, n) for n in names]
for f in sorted(files):
    h.update(f.encode() + b"\0")
    h.update(open(f, "rb").read())
    h.update(b"\0")
print(h.hexdigest())
PY
}
check_files() {
  [ -f "$manifest" ] || fail "no $manifest: run scripts/build-wasm.sh"
  local got want f
  got=$(sources_sha)
  want=$(json_field "$manifest" sources_sha256)
  [ "$got" = "$want" ] || fail "the engines, bots or sequence-wasm changed since the committed module was built (sources sha256 $got, BUILD.json $want): run scripts/build-wasm.sh (docs/wasm.md \"Building it\") and commit $out"
  for f in sequence_bg.wasm sequence.js; do
    got=$(sha "$out/$f")
    want=$(json_field "$manifest" "${f//[._]/_}_sha256")
    [ "$got" = "$want" ] || fail "$out/$f (sha256 $got) is not the file $manifest names ($want)"
  done
}
if [ "$check" = 1 ]; then
  check_files
  echo "== build-wasm: the committed module was built from these sources (sha256 $(json_field "$manifest" sources_sha256))"
  exit 0
fi

# the toolchain: this machine's rustc, or (--check-rebuild) the one BUILD.json names
toolchain=()
rustc_version=$(rustc --version)
if [ "$check" = 2 ]; then
  check_files
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

if [ "$check" = 2 ]; then
  got=$(sha "$raw")
  want=$(json_field "$manifest" raw_sha256)
  [ "$got" = "$want" ] || fail "the sources build a module (sha256 $got) that is not the committed one's ($want): run scripts/build-wasm.sh and commit $out"
  echo "== build-wasm: the committed module is the sources' (raw sha256 $(sha "$raw"))"
  exit 0
fi

bindgen_version=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/[^0-9.]/, ""); print}' Cargo.lock)
command -v wasm-bindgen >/dev/null 2>&1 || fail "no wasm-bindgen: cargo install wasm-bindgen-cli --version $bindgen_version"
have=$(wasm-bindgen --version | awk '{print $2}')
[ "$have" = "$bindgen_version" ] || fail "wasm-bindgen $have, but Cargo.lock locks $bindgen_version: cargo install wasm-bindgen-cli --version $bindgen_version"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "== build-wasm: wasm-bindgen $have (--target web)"
wasm-bindgen --target web --no-typescript --out-name sequence --out-dir "$tmp" "$raw"
# No wasm-opt: Debian's binaryen (108) breaks wasm-bindgen's externref
# table (the page then fails at start: "WebAssembly.Table.set(): Argument
# 1 is invalid for table: function-typed object"), and rustc's fat-LTO
# -O3 module is within the size budget without it (docs/wasm.md).
mkdir -p "$out"
cp "$tmp/sequence_bg.wasm" "$out/sequence_bg.wasm"
cp "$tmp/sequence.js" "$out/sequence.js"
python3 - "$manifest" <<PY
import json, sys
json.dump({
    "rustc": "$rustc_version",
    "sources_sha256": "$(sources_sha)",
    "wasm_bindgen": "$have",
    "raw_sha256": "$(sha "$raw")",
    "raw_bytes": $(stat -c %s "$raw"),
    "sequence_bg_wasm_sha256": "$(sha "$out/sequence_bg.wasm")",
    "sequence_bg_wasm_bytes": $(stat -c %s "$out/sequence_bg.wasm"),
    "sequence_js_sha256": "$(sha "$out/sequence.js")",
}, open(sys.argv[1], "w"), indent=2)
open(sys.argv[1], "a").write("\n")
PY
echo "== build-wasm: $out/sequence_bg.wasm $(stat -c %s "$out/sequence_bg.wasm") bytes ($(gzip -9c "$out/sequence_bg.wasm" | wc -c) gzipped)"
