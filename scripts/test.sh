#!/usr/bin/env bash
# The project's whole test suite (README.md "Test"): formatting, lints, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace

# The Python package (crates/sequence-py, docs/python.md): its PyO3 layer
# is behind the `python` feature (the workspace builds above leave it out,
# so no test binary links libpython), then a wheel and its pytest suite.
# Needs what .ci/run installs from PyPI.
cargo clippy -p sequence-py --all-targets --features python -- -D warnings
if ! python3 -c "import maturin, pytest, numpy, pettingzoo, gymnasium" 2>/dev/null; then
  echo "error: the Python tests need: python3 -m pip install maturin pytest numpy pettingzoo gymnasium" >&2
  exit 1
fi
rm -rf target/python-test
python3 -m maturin build --quiet --profile dev -m crates/sequence-py/Cargo.toml -o target/python-test/wheel
python3 -m zipfile -e target/python-test/wheel/sequence_game-*.whl target/python-test/pkg
PYTHONPATH="$PWD/target/python-test/pkg" python3 -m pytest -q -p no:cacheprovider crates/sequence-py/pytests
