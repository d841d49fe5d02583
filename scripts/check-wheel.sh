#!/usr/bin/env bash
# Checks the Python package's built distributions (docs/python.md
# "Installing"): installs the wheel in DIR into a fresh virtual
# environment (no Rust toolchain involved; pip fetches numpy), imports it
# and plays a classic and a Stacks game to the end, then checks that the
# sdist in DIR carries every crate it builds from.
#
#   scripts/check-wheel.sh DIR     (DIR: what `maturin build` / `maturin
#                                   sdist` wrote, e.g. target/wheels)
set -euo pipefail
dir=${1:?usage: scripts/check-wheel.sh DIR}
shopt -s nullglob
wheels=("$dir"/sequence_game-*-abi3-*.whl)
sdists=("$dir"/sequence_game-*.tar.gz)
[ ${#wheels[@]} = 1 ] || { echo "error: expected one abi3 wheel in $dir, found ${#wheels[@]}" >&2; exit 1; }
[ ${#sdists[@]} = 1 ] || { echo "error: expected one sdist in $dir, found ${#sdists[@]}" >&2; exit 1; }
venv=$(mktemp -d)
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${wheels[0]}"
(cd "$venv" && "$venv/bin/python" - <<'PY')
import sequence_game as sg

for game, players in (("classic", 2), ("stacks", 3)):
    g = sg.Game(game, players=players, seed=7)
    bots = [sg.Bot("greedy", game=game, seed=s) for s in range(players)]
    while not g.is_over:
        g.play(bots[g.to_act].choose(g.view(g.to_act)))
    summary = sg.verify(g.record())
    assert summary["moves"] > 0, summary
    print(f"wheel: a {game} game of {g.ply} moves, winner {g.winner}, in {sg.__file__}")
PY
# the sdist builds from its own copy of the engines (path dependencies)
listing=$(tar -tzf "${sdists[0]}")
for want in pyproject.toml Cargo.lock sequence-common/Cargo.toml sequence-classic/Cargo.toml \
  sequence-stacks/Cargo.toml sequence-bots/Cargo.toml sequence-py/Cargo.toml; do
  grep -q "/$want\$" <<<"$listing" || { echo "error: the sdist has no $want" >&2; exit 1; }
done
echo "sdist: $(basename "${sdists[0]}") ($(wc -l <<<"$listing") files)"
