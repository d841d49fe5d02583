#!/usr/bin/env bash
# OpenSpiel's JAX DQN against the package's bots (docs/python.md
# "OpenSpiel"): examples/python/openspiel_vs_levels.py with its DQN part.
# Not part of CI: OpenSpiel's DQN needs jax, flax, optax, orbax-checkpoint
# and chex (about 800 MB installed); the OpenSpiel games themselves are
# tested in CI without them.
#
#   scripts/openspiel-dqn.sh [ARGS]    default: --ismcts-off --dqn-episodes 2000 --eval 100
#
# Installs into a virtual environment of its own (target/openspiel-venv;
# set OPENSPIEL_VENV to use another), builds the package's wheel (release)
# into it, then runs the example with the arguments given.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${OPENSPIEL_VENV:-target/openspiel-venv}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q open-spiel jax flax optax orbax-checkpoint chex dm-tree numpy "maturin>=1.9.4,<2"
rm -rf target/openspiel-check
"$venv/bin/python" -m maturin build --quiet --release -m crates/sequence-py/Cargo.toml -o target/openspiel-check/wheel
"$venv/bin/python" -m pip install -q --force-reinstall --no-deps target/openspiel-check/wheel/sequence_game-*.whl
[ $# -gt 0 ] || set -- --ismcts-off --dqn-episodes 2000 --eval 100
OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" \
  "$venv/bin/python" examples/python/openspiel_vs_levels.py "$@"
