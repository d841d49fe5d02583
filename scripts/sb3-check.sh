#!/usr/bin/env bash
# Stable-Baselines3 checks of the Python package (docs/python.md
# "Stable-Baselines3"): SB3's env checker, the SB3 VecEnv adapter and a few
# thousand MaskablePPO steps. Not part of CI: torch and its libraries are
# gigabytes (the PyPI wheel brings its CUDA libraries; CPU is used).
#
#   scripts/sb3-check.sh [--steps 8192] [--envs 8] [--eval 200] [--seed 0]
#
# Installs into a virtual environment of its own (target/sb3-venv; set
# SB3_VENV to use another), builds the package's wheel (release) into it,
# then runs examples/python/sb3_check.py with the arguments given.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${SB3_VENV:-target/sb3-venv}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q torch stable-baselines3 sb3-contrib "gymnasium>=1" numpy "maturin>=1.9.4,<2"
rm -rf target/sb3-check
"$venv/bin/python" -m maturin build --quiet --release -m crates/sequence-py/Cargo.toml -o target/sb3-check/wheel
"$venv/bin/python" -m pip install -q --force-reinstall --no-deps target/sb3-check/wheel/sequence_game-*.whl
OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "$venv/bin/python" examples/python/sb3_check.py "$@"
