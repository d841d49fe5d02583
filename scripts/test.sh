#!/usr/bin/env bash
# The project's whole test suite (README.md "Tests"): formatting, lints,
# unit/property/integration tests, the PostgreSQL and browser tests, the
# Python package's tests, a short run of every fuzz target, and a check of
# these set-up steps themselves.
#
#   scripts/test.sh           everything; fails when any part cannot run
#   scripts/test.sh --quick   leaves out the slow parts (the PostgreSQL and
#                             browser tests, the fuzz runs, the set-up
#                             check) and says so at the start and the end
#
# On a fresh Debian machine run as root it first installs what is missing
# (scripts/setup.sh: chromium, chromium-driver, postgresql; the Python
# tools; rustfmt and clippy) and starts a private PostgreSQL cluster for
# the run (stopped at exit); SEQUENCE_TEST_POSTGRES_URL points at it.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
for a in "$@"; do
  case $a in
    --quick) quick=1 ;;
    -h | --help) sed -n '2,15s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "error: unknown argument $a (scripts/test.sh [--quick])" >&2; exit 2 ;;
  esac
done
# shellcheck source=scripts/setup.sh
. scripts/setup.sh
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
start=$(date +%s)
step() { echo "== $* ($(($(date +%s) - start)) s)"; }

left_out="the PostgreSQL tests, the browser tests, the fuzz runs, the set-up check (scripts/check-setup.sh)"
if [ "$quick" = 1 ]; then
  echo "== quick mode: leaving out $left_out"
  export SEQUENCE_TEST_QUICK=1
  unset SEQUENCE_TEST_POSTGRES_URL
  install_missing --no-browser
else
  unset SEQUENCE_TEST_QUICK
  install_missing
  start_postgres
fi

step "format and lints"
cargo fmt --all -- --check
# sequence-py's PyO3 layer (its `python` feature) is linted here too
cargo clippy --workspace --all-targets --features sequence-py/python -- -D warnings
# size limits (docs/architecture.md "Size limits"): no file over 800 lines and no
# function over 120 lines outside tests
python3 scripts/check-size.py
# no import circle between the files of the server or of the bots' library
# (docs/architecture.md "Import circles")
python3 scripts/check-imports.py

# the web UI's engine (web/wasm, docs/wasm.md) is committed built: it must
# have been built from the engines' sources as they are now (a second; the
# rebuild of the module itself, scripts/build-wasm.sh --check-rebuild,
# takes minutes and is not run here)
step "the committed WebAssembly module is built from these sources (scripts/build-wasm.sh --check)"
scripts/build-wasm.sh --check

# --no-fail-fast: every failing test binary is reported in one run (the
# run still fails at the end of this step when any test failed)
step "Rust tests"
cargo test --workspace --no-fail-fast

# The Python package (crates/sequence-py, docs/python.md): its PyO3 layer
# is behind the `python` feature (linted with the workspace above; the
# test builds leave it out, so no test binary links libpython). Its
# distributions are built once, as released — the abi3 manylinux x86-64
# wheel (a release build) and the sdist, kept in target/wheels/ — the
# wheel is installed in a fresh virtual environment and plays
# (scripts/check-wheel.sh), and the pytest suite runs on that same wheel.
step "Python package"
rm -rf target/python-test target/wheels
python3 -m maturin build --quiet --release -m crates/sequence-py/Cargo.toml -o target/wheels
python3 -m maturin sdist -m crates/sequence-py/Cargo.toml -o target/wheels
scripts/check-wheel.sh target/wheels
python3 -m zipfile -e target/wheels/sequence_game-*.whl target/python-test/pkg
PYTHONPATH="$PWD/target/python-test/pkg" SEQUENCE_BIN="$PWD/target/debug/sequence" \
  python3 -m pytest -q -rs -p no:cacheprovider crates/sequence-py/pytests 2>&1 | tee target/python-test/pytest.log
if grep -q "^SKIPPED" target/python-test/pytest.log; then
  echo "error: Python tests were skipped (above): a part that cannot run fails the run" >&2
  exit 1
fi

if [ "$quick" = 0 ]; then
  step "fuzz targets, a few seconds each (scripts/fuzz.sh smoke)"
  scripts/fuzz.sh smoke 4
  step "the set-up steps without PostgreSQL (scripts/check-setup.sh)"
  scripts/check-setup.sh
fi

step "all passed"
if [ "$quick" = 1 ]; then
  echo "== quick mode left out $left_out: run scripts/test.sh for them"
fi
