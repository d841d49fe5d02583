"""A Python policy as a bot of the bot protocol (docs/bot-protocol.md), so
that ``sequence arena`` (and anything speaking ``sequence-bot/1``) can
seat it:

    sequence arena --bots 'cmd:python3 -m sequence_game.protocol mypackage.agent:policy',greedy

``policy(obs, mask) -> action`` gets one seat's observation (``uint8``,
docs/python.md "Observations") and action mask (``int8``) and returns an
action index; ``MODULE:NAME`` names it (a callable, or a class or factory
called once with no arguments to make one). The observation comes from
the protocol's view through ``View.from_json`` (the same as
``Game.observe`` for that seat, except the classic ``stuck_turns`` entry
and the ``dead_exchanged`` flag, which the view JSON does not carry or
which the legal moves already answer), and the mask from the message's
legal moves. ``PolicyBot(policy)`` is the same bot for Python code:
``choose(view)`` answers a ``Move``.
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any, Callable, Dict, List, Optional, TextIO, Tuple

import numpy as np

from ._core import Game, Move, View

__all__ = ["PolicyBot", "serve", "load_policy"]

Policy = Callable[[np.ndarray, np.ndarray], Any]


def _decision(view: View, legal: List[Dict[str, Any]], seat: int) -> Tuple[np.ndarray, np.ndarray, Dict[int, Any], Game]:
    """The observation, the mask and the legal entries by action of the
    view's seat."""
    game = view.determinize(0)
    obs = game.observe(seat)
    mask = np.zeros(game.num_actions, dtype=np.int8)
    by_action: Dict[int, Any] = {}
    for entry in legal:
        a = game.action_of(game.parse_move(entry))
        mask[a] = 1
        by_action.setdefault(a, entry)
    return obs, mask, by_action, game


class PolicyBot:
    """A bot made of a policy ``policy(obs, mask) -> action``: ``choose``
    answers the legal move its action stands for (a policy answering an
    action outside the mask raises ``ValueError``)."""

    def __init__(self, policy: Policy, name: str = "python-policy") -> None:
        if not callable(policy):
            raise TypeError(f"a policy is callable, not {type(policy).__name__}")
        self.policy = policy
        self.name = name

    def act(self, view: View, legal: List[Dict[str, Any]]) -> Dict[str, Any]:
        """The legal entry (as given) the policy chooses in ``view``."""
        obs, mask, by_action, _ = _decision(view, legal, view.seat)
        a = self.policy(obs, mask)
        a = int(np.asarray(a).reshape(-1)[0]) if np.ndim(a) else int(a)
        if a not in by_action:
            raise ValueError(f"the policy answered action {a}, not one of the legal actions {sorted(by_action)}")
        return by_action[a]

    def choose(self, view: View) -> Move:
        """The move the policy chooses for the view's seat (its seat must be
        the one to act)."""
        legal = [m.to_json(view.seat) for m in view.legal_moves()]
        if not legal:
            raise ValueError("the view's seat has no move to make")
        entry = self.act(view, legal)
        return view.determinize(0).parse_move(entry)


def load_policy(spec: str) -> Policy:
    """``MODULE:NAME`` → the callable it names (a class or factory taking no
    arguments is called once to make the policy)."""
    module, _, name = spec.partition(":")
    if not module or not name:
        raise ValueError(f"a policy is named MODULE:NAME, not {spec!r}")
    obj = getattr(importlib.import_module(module), name)
    if isinstance(obj, type):
        obj = obj()
    return obj


def serve(policy: Policy, name: str = "python-policy", stdin: Optional[TextIO] = None, stdout: Optional[TextIO] = None) -> None:
    """Speaks ``sequence-bot/1`` on ``stdin``/``stdout`` until ``quit``:
    greets, and answers each ``move`` request with the policy's choice."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    bot = PolicyBot(policy, name)
    game = "classic"

    def send(obj: Dict[str, Any]) -> None:
        stdout.write(json.dumps(obj) + "\n")
        stdout.flush()

    for line in stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            game = msg.get("game", game)
            seed = msg.get("seed")
            if seed is not None and hasattr(policy, "seed"):
                policy.seed(int(seed))
            send({"type": "hello", "name": name, "version": "1"})
        elif kind == "move":
            view = View.from_json(msg["view"], game)
            send({"type": "move", "move": bot.act(view, msg["legal_moves"])})
        elif kind == "quit":
            return


def main(argv: Optional[List[str]] = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        sys.stderr.write("usage: python3 -m sequence_game.protocol MODULE:NAME\n")
        sys.exit(2)
    serve(load_policy(argv[0]), name=argv[0])


if __name__ == "__main__":
    main()
