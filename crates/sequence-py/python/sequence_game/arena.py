"""A Python policy against our bots on duplicate deals, with an Elo on the
bots' ladder (docs/bots.md "Levels": ``random`` is 1000, ``level:1`` …
``level:5`` their measured Elo).

>>> import numpy as np
>>> from sequence_game.arena import arena
>>> def first_legal(obs, mask):
...     return int(np.flatnonzero(mask)[0])
>>> r = arena(first_legal, "random", pairs=20)
>>> sorted(r)[:3]
['draws', 'elo', 'elo_interval']

Each deal (its deck, dealer and reshuffles: ``Game(seed=…)``) is played
twice, the policy at seat 0 and then at seat 1, so the luck of the cards
cancels; the score is the mean over pairs, its 95 % interval from the
pairs' spread, and the Elo is the opponent's ladder Elo plus ``400 ·
log10(p / (1 − p))`` — the way the ladder itself was measured (classic,
2 players). ``sequence arena --duplicate`` does the same for programs
(``cmd:python3 -m sequence_game.protocol MODULE:NAME``).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional

import numpy as np

from ._core import LADDER, Bot, Game, elo_difference, score_interval

__all__ = ["arena", "LADDER"]

Policy = Callable[[np.ndarray, np.ndarray], Any]


def arena(
    policy: Policy,
    opponent: str = "random",
    pairs: int = 100,
    game: str = "classic",
    seed: int = 0,
    options: Optional[dict] = None,
    anchor: Optional[float] = None,
) -> Dict[str, Any]:
    """Plays ``pairs`` duplicate pairs of 2-player games of ``policy``
    (``policy(obs, mask) -> action`` for the seat to act) against the bot
    ``opponent``. Returns ``games``, ``wins``, ``draws``, ``losses``,
    ``score`` (per game: 1 win, ½ draw) with ``score_interval`` (95 %,
    over pairs), and ``elo`` with ``elo_interval``: the opponent's Elo on
    the ladder (``LADDER``; or ``anchor``) plus the score's Elo
    difference. ``ValueError`` for an opponent off the ladder without
    ``anchor``."""
    base = anchor if anchor is not None else LADDER.get(opponent)
    if base is None:
        raise ValueError(f"{opponent!r} is not on the ladder ({', '.join(LADDER)}): give anchor=its Elo")
    wins = draws = losses = 0
    pair_scores = []
    for k in range(pairs):
        deal = seed * 1_000_003 + k
        pair = 0.0
        for mine in (0, 1):
            g = Game(game, players=2, options=options, seed=deal)
            bot = Bot(opponent, game=game, seed=deal ^ 0x5EED)
            while not g.is_over:
                s = g.to_act
                if s == mine:
                    g.play_action(int(policy(g.observe(s), g.action_mask())))
                else:
                    bot.play(g)
            r = g.reward(mine)
            wins += r > 0
            draws += r == 0
            losses += r < 0
            pair += (r + 1.0) / 4.0  # 1 win, ½ draw, 0 loss; two games
        pair_scores.append(pair)
    # the statistics are the Rust arena's (sequence_bots::stats)
    p = float(np.mean(pair_scores))
    lo, hi = score_interval(pair_scores)
    return {
        "games": 2 * pairs,
        "wins": int(wins),
        "draws": int(draws),
        "losses": int(losses),
        "score": p,
        "score_interval": (lo, hi),
        "elo": base + elo_difference(p),
        "elo_interval": (base + elo_difference(lo), base + elo_difference(hi)),
        "opponent": opponent,
        "opponent_elo": base,
    }
