"""A Gymnasium single-agent environment: the agent plays one seat and the
built-in bots play every other seat (its teammates too, in classic games
with teams).

>>> import gymnasium, sequence_game.gymnasium  # registers the ids
>>> env = gymnasium.make("sequence_game/Classic-v0", opponents="greedy")
>>> obs, info = env.reset(seed=0)
>>> action = env.action_space.sample(obs["action_mask"])
>>> obs, reward, terminated, truncated, info = env.step(action)

Observations are dicts: ``observation`` (``uint8``, what the agent's seat
may see; docs/python.md) and ``action_mask`` (``int8``); ``info`` repeats
the mask and gives the seat to act. The reward is +1 / −1 / 0 at the end
(the agent's side won, lost, or a draw), else 0. ``action_masks()``
returns the mask as booleans (for sb3-contrib's MaskablePPO).

An action outside the mask: with ``illegal_action="lose"`` (the default)
the episode ends at once with reward −1, the game unchanged, and
``info["illegal_action"]`` holds the refusal's code and message (PettingZoo's
illegal-move convention; Gymnasium's ``check_env`` and unmasked learners
sample any action of the space). With ``illegal_action="raise"`` it raises
``sequence_game.ActionError`` instead.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import gymnasium
import numpy as np
from gymnasium import spaces

from ._core import ActionError, Bot, Game
from ._envs import action_arg, episode_info, max_moves_arg, observation_space, render_text, seat_arg, table, usage

__all__ = ["SequenceEnv"]


class SequenceEnv(gymnasium.Env):
    """One seat of a table of classic Sequence or Sequence Stacks against
    built-in bots.

    ``game``, ``players``, ``teams``, ``options``: the table (as
    ``sequence_game.Game``); ``seat``: the agent's seat; ``opponents``: a
    bot name for every other seat (``random``, ``greedy``,
    ``search:200it``, …) or a list of names, one per seat in seat order
    (the agent's entry is ignored); ``max_moves``: truncate after that
    many moves (1 or more); ``illegal_action``: ``"lose"`` or ``"raise"``.
    A bad argument raises ``UsageError`` with its code
    (``seat.no_such_seat``, ``env.opponents``, ``env.max_moves``,
    ``env.illegal_action``, ``env.render_mode``).
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}

    def __init__(
        self,
        game: str = "classic",
        players: int = 2,
        teams: Optional[int] = None,
        options: Optional[dict] = None,
        seat: int = 0,
        opponents: Any = "greedy",
        max_moves: Optional[int] = None,
        illegal_action: str = "lose",
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        self._table, probe = table(game, players, teams, options, render_mode, self.metadata["render_modes"])
        if illegal_action not in ("lose", "raise"):
            raise usage("env.illegal_action", f"illegal_action must be 'lose' or 'raise', not {illegal_action!r}")
        seat = seat_arg(seat, probe.players)
        max_moves = max_moves_arg(max_moves)
        if isinstance(opponents, str):
            specs = [opponents] * probe.players
        else:
            specs = list(opponents)
            if len(specs) != probe.players:
                raise usage("env.opponents", f"opponents: {len(specs)} names for {probe.players} seats (one per seat, the agent's ignored)")
        # Validate the names now (BotError naming the bad one).
        for s, spec in enumerate(specs):
            if s != seat:
                Bot(spec, game=probe.game, seed=0)
        self._specs = specs
        self.seat = seat
        self.max_moves = max_moves
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.observation_space = observation_space(probe)
        self.action_space = spaces.Discrete(probe.num_actions)
        self.game: Game = probe
        self._bots: List[Optional[Bot]] = []
        # the episode ended (won, drawn, truncated or lost by an illegal
        # action): step() refuses until reset()
        self._ended = True

    # ------------------------------------------------------------------

    def _obs(self) -> Dict[str, np.ndarray]:
        mask = self.game.action_mask() if self.game.to_act == self.seat else np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": self.game.observe(self.seat), "action_mask": mask}

    def _info(self, obs: Dict[str, np.ndarray], **extra: Any) -> Dict[str, Any]:
        # Every value keeps one type through an episode (Gymnasium's vector
        # envs stack each key in an array typed by its first value): the
        # seat to act is -1 once the game is over.
        to_act = self.game.to_act
        info = {"action_mask": obs["action_mask"].copy(), "to_act": -1 if to_act is None else to_act, "ply": self.game.ply}
        info.update(extra)
        return info

    def _bots_play(self, truncate: bool = True) -> None:
        """The bots move until the agent must decide or the game ends (or,
        with ``truncate``, ``max_moves`` were made)."""
        while not self.game.is_over and self.game.to_act != self.seat:
            seat = self.game.to_act
            bot = self._bots[seat]
            assert bot is not None
            bot.play(self.game)
            if truncate and self.max_moves is not None and self.game.ply >= self.max_moves:
                return

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        super().reset(seed=seed)
        while True:
            game_seed = int(self.np_random.integers(0, 2**63 - 1))
            self.game = Game(seed=game_seed, **self._table)
            self._bots = [
                None if s == self.seat else Bot(spec, game=self.game.game, seed=game_seed + 1 + s)
                for s, spec in enumerate(self._specs)
            ]
            # The agent always gets a decision: max_moves is checked after
            # its moves only (the bots may pass it before the first one).
            self._bots_play(truncate=False)
            # A game the bots finished before the agent moved is dealt again.
            if not self.game.is_over:
                break
        self._ended = False
        obs = self._obs()
        if self.render_mode == "human":
            self.render()
        return obs, self._info(obs)

    def step(self, action: Any) -> Tuple[Dict[str, np.ndarray], float, bool, bool, Dict[str, Any]]:
        if self._ended or self.game.is_over:
            raise RuntimeError("the episode is over: call reset()")
        try:
            self.game.play_action(action_arg(action))
        except ActionError as e:
            if self.illegal_action == "raise":
                raise
            self._ended = True
            obs = self._obs()
            info = self._info(obs, illegal_action={"code": e.code, "message": str(e)})
            return obs, -1.0, True, False, info
        self._bots_play()
        terminated = self.game.is_over
        reward = self.game.reward(self.seat) if terminated else 0.0
        truncated = not terminated and self.max_moves is not None and self.game.ply >= self.max_moves
        self._ended = terminated or truncated
        obs = self._obs()
        info = self._info(obs)
        if terminated or truncated:
            info.update(episode_info(self.game))
        if self.render_mode == "human":
            self.render()
        return obs, float(reward), bool(terminated), bool(truncated), info

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (sb3-contrib's MaskablePPO)."""
        return self._obs()["action_mask"].astype(bool)

    def render(self) -> Optional[str]:
        return render_text(self.game, self.render_mode)


def _register() -> None:
    for name, game in (("Classic", "classic"), ("Stacks", "stacks")):
        env_id = f"sequence_game/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="sequence_game.gymnasium:SequenceEnv",
                vector_entry_point="sequence_game.vector:SequenceVectorEnv",
                kwargs={"game": game},
            )


_register()
