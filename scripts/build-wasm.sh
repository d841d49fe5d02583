#!/usr/bin/env bash
# Builds the browser engine (crates/sequence-wasm) into the web UI's
# folder crates/sequence-server/web/wasm/ (docs/wasm.md):
#
#   scripts/build-wasm.sh           build and write sequence.js (the
#                                   wasm-bindgen glue), sequence_bg.wasm
#                                   (the module) and BUILD.json (versions,
#                                   sizes and hashes)
#   scripts/build-wasm.sh --check   (CI, a second) what the module is
#                                   built from is what BUILD.json names
#                                   (one SHA-256 of: sequence-wasm's
#                                   resolved dependency closure for wasm32
#                                   with versions and features, the sources
#                                   and manifests of the workspace crates in
#                                   it, the profile `wasm`, this script),
#                                   and the committed files are the ones it
#                                   names
#   scripts/build-wasm.sh --sources  print those inputs, one a line (their
#                                   SHA-256 and name), to see what changed
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
sources_list=0
case "${1:-}" in
  --check) check=1 ;;
  --check-rebuild) check=2 ;;
  --sources) sources_list=1 ;;
  "") ;;
  -h | --help) sed -n '2,37s/^# \{0,1\}//p' "$0"; exit 0 ;;
  *) echo "error: unknown argument $1 (scripts/build-wasm.sh [--check | --check-rebuild | --sources])" >&2; exit 2 ;;
esac
fail() {
  echo "error: build-wasm: $*" >&2
  exit 1
}
json_field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }
sha() { sha256sum "$1" | cut -d' ' -f1; }
# The SHA-256 of what the module is built from (docs/wasm.md "The CI
# check"): the resolved dependency closure of sequence-wasm for wasm32
# (`cargo tree`: every package, version and feature set, normal and build
# edges; no dev-dependencies), the files of src/ and data/ and build.rs of
# each workspace crate in it with its Cargo.toml less the dev- and
# test-only tables, the workspace's profile `wasm` (and what it inherits),
# `[workspace.package]`, `[patch]`, .cargo/config.toml and this script. A
# change elsewhere in the workspace (another crate, its dependencies,
# Cargo.lock entries outside the closure) leaves it alone.
# `scripts/build-wasm.sh --sources` prints the inputs one a line.
sources_sha() {
  local tree
  tree=$(cargo tree --locked --quiet -p sequence-wasm --target wasm32-unknown-unknown \
    -e normal,build --prefix none -f '{p} {f}') || fail "cargo tree -p sequence-wasm failed"
  TREE=$tree ROOT=$root MODE=${1:-digest} python3 - <<'PY'
import hashlib, json, os, re, tomllib
root, mode = os.environ["ROOT"], os.environ["MODE"]
inputs = []  # (name, bytes)
def add(name, data):
    inputs.append((name, data if isinstance(data, bytes) else data.encode()))
def toml(path):
    with open(path, "rb") as f:
        return tomllib.load(f)
def canon(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"))
# the resolved closure: package, version, source, features (one a line)
lines, crates = set(), set()
for line in os.environ["TREE"].splitlines():
    line = line.removesuffix(" (*)").rstrip()
    m = re.search(r"\((/[^)]*)\)", line)
    if m and (m.group(1) == root or m.group(1).startswith(root + "/")):
        crates.add(os.path.relpath(m.group(1), root))
        line = line.replace(m.group(0), "(path)")
    if line:
        lines.add(line)
add("cargo tree -p sequence-wasm --target wasm32-unknown-unknown", "\n".join(sorted(lines)))
# the workspace crates of the closure: sources, data, build script, manifest
test_only = ("dev-dependencies", "dev_dependencies", "bench", "test", "example", "badges")
for crate in sorted(crates):
    manifest = toml(os.path.join(root, crate, "Cargo.toml"))
    for key in test_only:
        manifest.pop(key, None)
    for spec in manifest.get("target", {}).values():
        for key in test_only:
            spec.pop(key, None)
    add(f"{crate}/Cargo.toml (less dev-dependencies, tests, benches, examples)", canon(manifest))
    files = [os.path.join(crate, "build.rs")] if os.path.exists(os.path.join(root, crate, "build.rs")) else []
    for sub in ("src", "data"):
        for dirpath, _, names in os.walk(os.path.join(root, crate, sub)):
            files += [os.path.relpath(os.path.join(dirpath, n), root) for n in names]
    for f in sorted(files):
        add(f, open(os.path.join(root, f), "rb").read())
# the workspace manifest: the profile `wasm` and what it inherits, what members inherit, patches
ws = toml(os.path.join(root, "Cargo.toml"))
profiles, name = {}, "wasm"
while name not in profiles and name in ws.get("profile", {}):
    profiles[name] = ws["profile"][name]
    name = profiles[name].get("inherits", name)
add("Cargo.toml [profile.wasm and inherited]", canon(profiles))
add("Cargo.toml [workspace.package]", canon(ws.get("workspace", {}).get("package", {})))
add("Cargo.toml [patch], [replace]", canon({k: ws.get(k) for k in ("patch", "replace")}))
# Cargo's configuration as far as it reaches a wasm32 build
for f in (".cargo/config.toml", ".cargo/config"):
    if os.path.exists(os.path.join(root, f)):
        config = toml(os.path.join(root, f))
        config["target"] = {t: v for t, v in config.get("target", {}).items() if "wasm32" in t or t.startswith("cfg(")}
        add(f"{f} [build], [profile], [target.wasm32 and cfg], [patch], [unstable]",
            canon({k: config.get(k) for k in ("build", "profile", "target", "patch", "unstable")}))
for f in ("rust-toolchain", "rust-toolchain.toml", "scripts/build-wasm.sh"):
    if os.path.exists(os.path.join(root, f)):
        add(f, open(os.path.join(root, f), "rb").read())
h = hashlib.sha256()
for name, data in inputs:
    h.update(name.encode() + b"\0" + data + b"\0")
each = {name: hashlib.sha256(data).hexdigest() for name, data in inputs}
if mode == "--list":
    print("\n".join(f"{sha} {name}" for name, sha in each.items()))
elif mode == "--json":
    print(json.dumps(each, indent=4))
elif mode == "--changed":  # the inputs that differ from BUILD.json's `sources`
    with open(os.environ["MANIFEST"]) as f:
        old = json.load(f).get("sources", {})
    changed = [n for n in sorted(set(each) | set(old)) if each.get(n) != old.get(n)]
    print(", ".join(changed[:8]) + (f" and {len(changed) - 8} more" if len(changed) > 8 else ""))
else:
    print(h.hexdigest())
PY
}
check_files() {
  [ -f "$manifest" ] || fail "no $manifest: run scripts/build-wasm.sh"
  local got want f
  got=$(sources_sha)
  want=$(json_field "$manifest" sources_sha256)
  [ "$got" = "$want" ] || fail "what the module is built from changed since the committed module was built (sources sha256 $got, BUILD.json $want; scripts/build-wasm.sh --sources lists the inputs): $(MANIFEST=$manifest sources_sha --changed). Run scripts/build-wasm.sh (docs/wasm.md \"Building it\") and commit $out"
  for f in sequence_bg.wasm sequence.js; do
    got=$(sha "$out/$f")
    want=$(json_field "$manifest" "${f//[._]/_}_sha256")
    [ "$got" = "$want" ] || fail "$out/$f (sha256 $got) is not the file $manifest names ($want)"
  done
}
if [ "$sources_list" = 1 ]; then
  sources_sha --list
  exit 0
fi
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
python3 - "$manifest" "$(sources_sha --json)" <<PY
import json, sys
json.dump({
    "rustc": "$rustc_version",
    "sources_sha256": "$(sources_sha)",
    "sources": json.loads(sys.argv[2]),
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
