"""What the PettingZoo and Gymnasium environments share: the table they
deal, their observation space and what ``render()`` shows."""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np
from gymnasium import spaces

from ._core import Game


def table(
    game: str,
    players: int,
    teams: Optional[int],
    options: Optional[dict],
    render_mode: Optional[str],
    render_modes: Sequence[str],
) -> Tuple[Dict[str, Any], Game]:
    """The table's arguments for ``Game(seed=…, **table)`` and a game
    dealt at it (seed 0) that validates it at once: ``SetupError`` naming
    the rule (C3, S1) for a bad table, ``ValueError`` for an unknown
    render mode."""
    if render_mode is not None and render_mode not in render_modes:
        raise ValueError(f"render_mode {render_mode!r} is not one of {list(render_modes)}")
    args = dict(game=game, players=players, teams=teams, options=options)
    return args, Game(seed=0, **args)


def observation_space(game: Game) -> spaces.Dict:
    """The environments' observation space for the table of ``game``:
    ``observation``, a ``uint8`` Box of what a seat may see, and
    ``action_mask``, an ``int8`` Box of 0/1 over the action space."""
    return spaces.Dict(
        {
            "observation": spaces.Box(
                low=0,
                high=game.observation_high(),
                shape=(game.observation_size,),
                dtype=np.uint8,
            ),
            "action_mask": spaces.Box(low=0, high=1, shape=(game.num_actions,), dtype=np.int8),
        }
    )


def render_text(game: Any, render_mode: Optional[str]) -> Optional[str]:
    """The board and hands of ``game`` as text: printed for ``"human"``,
    returned for ``"ansi"``; ``None`` with a Gymnasium warning when the
    environment has no render mode."""
    if render_mode is None:
        import gymnasium

        gymnasium.logger.warn("render() was called without a render_mode (use 'human' or 'ansi')")
        return None
    text = str(game)
    if render_mode == "human":
        print(text)
        return None
    return text
