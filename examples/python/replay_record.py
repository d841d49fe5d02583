#!/usr/bin/env python3
"""Reads a game record (RECORD.md or RECORD-STACKS.md), verifies it as
`sequence verify` does and replays it move by move.

    python3 examples/python/replay_record.py GAME.json [--board]
    python3 examples/python/replay_record.py --demo     # plays a game, saves and replays it

Exit code 2 for a malformed record, 1 for an illegal move (as `sequence
verify`), with the same message.
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

import sequence_game as sg


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", type=Path)
    ap.add_argument("--board", action="store_true", help="print the position after every move")
    ap.add_argument("--demo", action="store_true", help="play a short game and replay its record")
    a = ap.parse_args()

    path = a.file
    if a.demo or path is None:
        game = sg.Game("classic", players=2, seed=42)
        bots = [sg.Bot("greedy", seed=1), sg.Bot("random", seed=2)]
        while not game.is_over:
            bots[game.to_act].play(game)
        path = Path(tempfile.mkdtemp()) / "demo.json"
        path.write_text(json.dumps(game.record(), indent=1))
        print(f"wrote {path}")

    try:
        summary = sg.verify(path)
        steps = sg.replay(path)
    except sg.RecordError as e:
        print(f"error: {path}: {e}" if e.exit_code == 2 else str(e), file=sys.stderr)
        return e.exit_code
    for step in steps:
        print(f"{step.index:4} seat {step.seat}: {step.move.text}")
        if a.board:
            print(step.game)
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
