"""Sequence and Sequence Stacks for Python: the Rust engines of this
repository, with records, bots and environments for learning agents.

>>> import sequence_game as sg
>>> game = sg.Game("classic", players=2, seed=7)
>>> while not game.is_over:
...     game.play(game.random_move())
>>> sg.verify(game.record())["moves"] == game.ply
True

* ``Game``: a game of either game (rules C1–C11, S1–S7 of RULES.md): the
  seat to act, legal moves, ``play`` (raises ``IllegalMoveError`` with the
  rule's code, e.g. ``C6.space_taken``), per-seat ``view``, outcome,
  records, action masks and observations.
* ``verify`` / ``replay`` / ``Game.from_record``: records (RECORD.md,
  RECORD-STACKS.md) with the messages of ``sequence verify``.
* ``Bot``: the built-in bots (``random``, ``greedy``, ``search:500it``, …).
* ``VecEnv``: N games stepped in Rust per call, stacked numpy arrays;
  ``sequence_game.vector.SequenceVectorEnv`` is it as a Gymnasium
  ``VectorEnv``.
* ``sequence_game.pettingzoo`` (AEC environments) and
  ``sequence_game.gymnasium`` (a single-agent environment against bots):
  need ``pip install pettingzoo gymnasium``.

The action spaces and observation encodings are documented in
docs/python.md and by ``Game.observation_layout()``.
"""

from __future__ import annotations

from typing import Optional

from ._core import (
    CLASSIC_ACTIONS,
    LADDER,
    STACKS_ACTIONS,
    ActionError,
    Bot,
    BotError,
    Game,
    IllegalMoveError,
    Move,
    NotationError,
    RecordError,
    SequenceError,
    SetupError,
    Step,
    UsageError,
    VecEnv,
    View,
    action_text,
    replay,
    rule_options,
    verify,
)

try:  # pragma: no cover - depends on how the package was installed
    from importlib.metadata import version as _version

    __version__ = _version("sequence-game")
except Exception:  # noqa: BLE001
    __version__ = "0.0.0"

__all__ = [
    "CLASSIC_ACTIONS",
    "LADDER",
    "STACKS_ACTIONS",
    "ActionError",
    "Bot",
    "BotError",
    "Game",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "RecordError",
    "SequenceError",
    "SetupError",
    "Step",
    "UsageError",
    "VecEnv",
    "View",
    "action_text",
    "classic",
    "replay",
    "rule_options",
    "stacks",
    "verify",
]


def classic(
    players: int = 2,
    teams: Optional[int] = None,
    options: Optional[dict] = None,
    seed: int = 0,
) -> Game:
    """A new game of classic Sequence (C1–C11): 2, 3, 4, 6, 8, 9, 10 or 12
    players, in 2 or 3 teams (C3), dealt from ``seed``."""
    return Game("classic", players=players, teams=teams, options=options, seed=seed)


def stacks(players: int = 2, options: Optional[dict] = None, seed: int = 0) -> Game:
    """A new game of Sequence Stacks (S1–S7): 2 to 6 players, each alone,
    dealt from ``seed``."""
    return Game("stacks", players=players, options=options, seed=seed)
