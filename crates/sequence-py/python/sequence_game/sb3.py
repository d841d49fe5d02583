"""``sequence_game.VecEnv`` as a Stable-Baselines3 ``VecEnv``, with the
action masks sb3-contrib's ``MaskablePPO`` asks for (``action_masks()``,
through ``env_method("action_masks")``).

>>> from sb3_contrib import MaskablePPO                    # doctest: +SKIP
>>> from sequence_game.sb3 import SB3VecEnv
>>> env = SB3VecEnv("classic", num_envs=8, opponents="random", seed=0)   # doctest: +SKIP
>>> MaskablePPO("MlpPolicy", env, seed=0).learn(4096)       # doctest: +SKIP

The agent plays ``seat`` of every game against ``opponents`` (one of our
bots, played in Rust inside ``step``). Observations are the flat ``uint8``
encoding (``Box``, ``[N, observation_size]``; the mask is not in the
observation but in ``action_masks()``), actions ``Discrete(num_actions)``,
rewards +1 / −1 / 0 at the end of a game. A game that ends is dealt
again in the same step: ``dones[i]`` is True, the observation is the new
game's first, and ``infos[i]`` holds ``winner``, ``length`` (moves),
``episode`` (``{"r", "l"}`` as SB3's ``Monitor`` writes it) and
``terminal_observation`` (the last observation before the end: a copy of
the observation the agent acted on, since the game ended in its move or
the bots' after it). Nothing is truncated.

Needs ``stable-baselines3`` (and so torch); the package itself does not
depend on it. ``scripts/sb3-check.sh`` runs SB3's env checker and
``MaskablePPO`` on it.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import VecEnv as _SB3VecEnv

from ._core import Game, VecEnv
from ._errors import usage

__all__ = ["SB3VecEnv"]


class SB3VecEnv(_SB3VecEnv):
    """``num_envs`` games of one table in one Rust vector, as SB3's
    ``VecEnv`` (``reset``, ``step_async``/``step_wait``, ``env_method``,
    ``get_attr``, …). ``game``, ``players``, ``teams``, ``options``,
    ``seed``, ``threads`` as ``sequence_game.VecEnv``; ``seat`` is the
    agent's, ``opponents`` the bots' name."""

    def __init__(
        self,
        game: str = "classic",
        num_envs: int = 8,
        players: int = 2,
        teams: Optional[int] = None,
        options: Optional[dict] = None,
        seat: int = 0,
        opponents: str = "random",
        seed: int = 0,
        threads: int = 1,
    ) -> None:
        if opponents is None:
            raise usage("env.opponents", "SB3 trains one agent: give opponents (a bot name); for self-play see sequence_game.selfplay")
        self.vec = VecEnv(
            game, num_envs=num_envs, players=players, teams=teams, options=options,
            seed=seed, opponents=opponents, seat=seat, threads=threads,
        )
        probe = Game(game, players=players, teams=teams, options=options)
        high = probe.observation_high()
        self.render_mode = None
        observation_space = spaces.Box(low=0, high=high, shape=(probe.observation_size,), dtype=np.uint8)
        super().__init__(num_envs, observation_space, spaces.Discrete(probe.num_actions))
        self.game = game
        self._seed = seed
        self._actions: Optional[np.ndarray] = None
        self._obs: Optional[np.ndarray] = None
        self._mask: Optional[np.ndarray] = None
        self._returns = np.zeros(num_envs, dtype=np.float32)
        self._lengths = np.zeros(num_envs, dtype=np.int64)

    # -- SB3's VecEnv ---------------------------------------------------
    def reset(self):
        """Deals every game again, from the seed given to ``seed()`` (else
        the next of the vector's own sequence)."""
        seed = self._seeds[0]
        obs, mask, _ = self.vec.reset(seed=None if seed is None else int(seed))
        self._reset_seeds()
        self._reset_options()
        self._obs, self._mask = obs.copy(), mask.copy()
        self._returns[:] = 0
        self._lengths[:] = 0
        return self._obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs).astype(np.int64)

    def step_wait(self):
        if self._actions is None:
            raise RuntimeError("step_async() first")
        before = self._obs
        obs, mask, _, rewards, done = self.vec.step(self._actions)
        self._actions = None
        reward = rewards[:, 0].astype(np.float32)
        self._returns += reward
        self._lengths += 1
        infos: List[dict] = [{} for _ in range(self.num_envs)]
        if done.any():
            winner, length, _ = self.vec.results()
            for i in np.flatnonzero(done):
                infos[i] = {
                    "winner": int(winner[i]),
                    "length": int(length[i]),
                    "episode": {"r": float(self._returns[i]), "l": int(self._lengths[i])},
                    "terminal_observation": before[i].copy(),
                    "TimeLimit.truncated": False,
                }
                self._returns[i] = 0
                self._lengths[i] = 0
        self._obs, self._mask = obs.copy(), mask.copy()
        return self._obs.copy(), reward, done.copy(), infos

    def close(self) -> None:
        pass

    def action_masks(self) -> np.ndarray:
        """The current masks as booleans ``[N, num_actions]``."""
        if self._mask is None:
            raise RuntimeError("call reset() first")
        return self._mask.astype(bool)

    def get_attr(self, attr_name: str, indices: Any = None) -> List[Any]:
        value = getattr(self, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"the games of a Rust vector have no settable attribute {attr_name!r}")

    def env_method(self, method_name: str, *method_args, indices: Any = None, **method_kwargs) -> List[Any]:
        """``action_masks`` gives each game's mask (what ``MaskablePPO``
        stacks); other methods are not there (``AttributeError``)."""
        if method_name != "action_masks":
            raise AttributeError(f"a game of the vector has no method {method_name!r}")
        masks = self.action_masks()
        return [masks[i] for i in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> List[bool]:
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[Optional[np.ndarray]]:
        return [None for _ in range(self.num_envs)]

    def _indices(self, indices: Any) -> List[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)
