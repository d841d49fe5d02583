#!/usr/bin/env bash
# Wheels and an sdist of the Python package (crates/sequence-py,
# docs/python.md "Installing"): abi3 wheels (one per platform for every
# CPython >= 3.9) for manylinux2014 (glibc 2.17+) x86-64 and, when the Rust
# target aarch64-unknown-linux-gnu is installed (rustup target add
# aarch64-unknown-linux-gnu), aarch64 — both linked with zig (the ziglang
# package from PyPI), so no cross C toolchain or docker is needed — and the
# sdist (builds anywhere with a Rust toolchain).
#
#   scripts/build-wheels.sh [OUT]     # default target/wheels
#
# Not part of CI (scripts/test.sh): a release build of the package per
# platform takes minutes each on 2 cores (docs/python.md gives the times).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/wheels}"
python3 -m pip install -q "maturin>=1.9.4,<2" ziglang
rm -rf "$out"
mkdir -p "$out"
manifest=crates/sequence-py/Cargo.toml
targets=(x86_64-unknown-linux-gnu)
if rustup target list --installed 2>/dev/null | grep -qx aarch64-unknown-linux-gnu; then
  targets+=(aarch64-unknown-linux-gnu)
else
  echo "note: no aarch64 wheel (rustup target add aarch64-unknown-linux-gnu to build one)" >&2
fi
for t in "${targets[@]}"; do
  start=$(date +%s)
  python3 -m maturin build --quiet --release --zig --compatibility manylinux2014 \
    --target "$t" -m "$manifest" -o "$out"
  echo "wheel for $t: $(( $(date +%s) - start )) s"
done
python3 -m maturin sdist -m "$manifest" -o "$out"
# every wheel must import and play where it was built for (this machine's
# platform only; another platform's wheel is checked by its tags)
check=$(mktemp -d)
trap 'rm -rf "$check"' EXIT
python3 -m pip install -q --no-deps --target "$check" "$out"/sequence_game-*-manylinux*_"$(uname -m)".whl
PYTHONPATH="$check" python3 -c '
import sequence_game as sg
g = sg.Game("classic", seed=1)
g.playout()
print("the wheel imports and plays:", g.status, g.ply, "moves")'
ls -l "$out"
