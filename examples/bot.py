#!/usr/bin/env python3
"""A small Sequence bot speaking the bot protocol (docs/bot-protocol.md).

Plain python3, no dependencies. Reads one JSON object per line on stdin,
writes one per line on stdout. Plays classic Sequence and Sequence Stacks:

* classic: completes or extends its own lines where it can (counting its
  chips in the five-space lines through a space), else a random legal move;
* stacks: plays a card that completes a pile if it has one, else a random
  legal move (preferring plays onto piles to discarding).

Try it:  sequence arena --bots 'cmd:python3 examples/bot.py',random --games 10

Test switches (for the arena's failure handling): BOT_CRASH=N exits
before answering move N; BOT_HANG=N sleeps instead of answering move N;
BOT_ILLEGAL=N answers an illegal move at move N (moves count from 1).
"""

import json
import os
import random
import sys
import time

NAME = "example-python-bot"
VERSION = "1.0"


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def space_rc(name):
    """'e5' -> (row 4, col 4)."""
    return int(name[1:]) - 1, ord(name[0]) - ord("a")


def classic_move(view, legal, rng):
    """Prefer a placement in the lines with most of our chips."""
    board = view.get("board", [])  # rows: '*' corner, '.' empty, B/G/R chips
    me = view["team"][0].upper()
    length = view.get("options", {}).get("sequence_length") or 5

    def mine(r, c):
        """True: our chip or a corner; False: empty or theirs; None: off the board."""
        if not (0 <= r < 10 and 0 <= c < 10):
            return None
        row = board[r] if r < len(board) else ""
        cell = row[c] if c < len(row) else "."
        if cell == ".":
            return False
        return cell == "*" or cell.upper() == me

    def blocked(r, c):
        row = board[r] if r < len(board) else ""
        cell = row[c] if c < len(row) else "."
        return cell not in (".", "*") and cell.upper() != me

    def value(at):
        r0, c0 = space_rc(at)
        best = 0
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            for start in range(-(length - 1), 1):
                count = 0
                ok = True
                for i in range(length):
                    r, c = r0 + (start + i) * dr, c0 + (start + i) * dc
                    m = mine(r, c)
                    if m is None or blocked(r, c):
                        ok = False
                        break
                    if m and (r, c) != (r0, c0):
                        count += 1
                if ok:
                    best = max(best, count)
        return best

    scored = []
    for m in legal:
        if "at" in m and "card" in m and not m["card"].startswith("J"):
            scored.append((value(m["at"]) + rng.random() * 0.5, m))
    if scored:
        return max(scored, key=lambda s: s[0])[1]
    return rng.choice(legal)


def stacks_move(view, legal, rng):
    piles = {p["place"]: len(p["cards"]) for p in view.get("piles", [])}
    completing = [m for m in legal if "to" in m and piles.get(m["to"], 0) == 4]
    if completing:
        return rng.choice(completing)
    plays = [m for m in legal if "play" in m and "to" in m and piles.get(m["to"], 0) != 3]
    if plays:
        return rng.choice(plays)
    return rng.choice(legal)


def main():
    rng = random.Random(0)
    game = "classic"
    moves = 0
    crash = int(os.environ.get("BOT_CRASH", "0"))
    hang = int(os.environ.get("BOT_HANG", "0"))
    illegal = int(os.environ.get("BOT_ILLEGAL", "0"))
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            game = msg.get("game", "classic")
            rng.seed(msg.get("seed", 0))
            send({"type": "hello", "name": NAME, "version": VERSION})
        elif kind == "move":
            moves += 1
            if moves == crash:
                sys.exit(3)
            if moves == hang:
                time.sleep(3600)
            legal = msg["legal_moves"]
            if moves == illegal:
                send({"type": "move", "move": {"seat": msg["view"]["seat"], "pass": True, "card": "XX"}})
                continue
            view = msg["view"]
            if game == "classic":
                mv = classic_move(view, legal, rng)
            else:
                mv = stacks_move(view, legal, rng)
            send({"type": "move", "move": mv})
        elif kind == "game_over":
            pass
        elif kind == "quit":
            break
        else:
            sys.stderr.write("unknown message type %r\n" % kind)


if __name__ == "__main__":
    main()
