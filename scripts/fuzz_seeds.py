#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target (fuzz/, docs/fuzzing.md)
from the shared example records: the records themselves, their moves as
record entries, API bodies, WebSocket messages and bot answers, and their
card codes.

usage: fuzz_seeds.py SHARED_EXAMPLES_DIR OUT_DIR
"""

import json
import pathlib
import sys


def records(examples: pathlib.Path, sub: str):
    base = examples / sub if sub else examples
    for d in (base, base / "illegal"):
        for p in sorted(d.glob("*.json")):
            if not p.name.endswith("expected.json"):
                yield p


def main() -> int:
    examples, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    seeds: dict[str, list[bytes]] = {}

    def add(target: str, data: bytes) -> None:
        seeds.setdefault(target, []).append(data)

    bodies = ["create", "join", "bot", "move", "penalty", "analysis"]  # routes::BODIES
    for game, sub in (("classic", ""), ("stacks", "stacks")):
        paths = list(records(examples, sub))
        if not paths:
            print(f"error: no {game} records in {examples}", file=sys.stderr)
            return 1
        for p in paths:
            text = p.read_bytes()
            add(f"record_{game}", text)
            rec = json.loads(text)
            players = int(rec.get("players", 2))
            # the notation and bot-line targets' first byte picks 2 + b % 3 players
            table = bytes([(players - 2) % 3]) if 2 <= players <= 4 else b"\0"
            for card in sorted(set(rec.get("deck", [])))[:8]:
                add(f"notation_{game}", table + card.encode())
            for entry in rec.get("moves", [])[:12]:
                mv = json.dumps(entry, separators=(",", ":"))
                add(f"notation_{game}", table + mv.encode())
                add(f"bot_line_{game}", table + b"\0" + f'{{"type":"move","move":{mv}}}'.encode())
                body = f'{{"move_number":0,"move":{mv}}}'
                add("server_body", bytes([bodies.index("move")]) + body.encode())
                add("server_ws", f'{{"type":"move","move_number":0,"move":{mv}}}'.encode())
        add("server_body", bytes([bodies.index("create")]) + f'{{"game":"{game}","players":3,"name":"Ann","options":{{}}}}'.encode())
    for i, body in (
        (bodies.index("join"), '{"name":"Bob","seat":1}'),
        (bodies.index("bot"), '{"level":"level:3"}'),
        (bodies.index("penalty"), '{"team":"green"}'),
        (bodies.index("analysis"), '{"iterations":200}'),
    ):
        add("server_body", bytes([i]) + body.encode())
    for msg in ('{"type":"hello","token":null}', '{"type":"hello","token":"' + "0f" * 16 + '"}',
                '{"type":"chat","text":"gg"}', '{"type":"ping"}'):
        add("server_ws", msg.encode())

    for target, items in seeds.items():
        d = out / target
        d.mkdir(parents=True, exist_ok=True)
        for i, data in enumerate(dict.fromkeys(items)):
            (d / f"seed-{i:04}").write_bytes(data)
        print(f"{target}: {len(set(items))} seeds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
