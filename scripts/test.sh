#!/usr/bin/env bash
# The project's whole test suite (README.md "Test"): formatting, lints, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
