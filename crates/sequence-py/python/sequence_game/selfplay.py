"""Self-play: every seat of N games driven from Python (or by the built-in
bots), the roles moving one seat on with every game.

>>> import numpy as np, sequence_game as sg
>>> from sequence_game.selfplay import SelfPlay
>>> def first_legal(obs, mask):
...     return mask.argmax(axis=1)
>>> sp = SelfPlay("classic", num_envs=32, roles=[first_legal, "random"], seed=1)
>>> stats = sp.play(games=64)
>>> stats[0]["games"] >= 64
True

A role is a Python callable ``policy(obs, mask) -> actions`` (batched:
``obs`` ``[k, observation_size]`` ``uint8`` and ``mask`` ``[k, actions]``
``int8`` of the ``k`` games where that role must decide; one action per
row; a callable that takes a third argument also gets the games'
indices), or a bot name (``random``, ``greedy``, ``search:200it``, …)
played by the vector in Rust. ``roles`` has one entry per seat: in a
classic team game role ``r`` is on team ``r % teams`` as seats are (C3),
so ``[learner, frozen, learner, frozen]`` seats one policy as a team.
With ``alternate`` (default) role ``r`` sits at seat ``(r - k - i) mod
players`` in game ``k`` of slot ``i``, so every role plays every seat
(first and later movers alike).
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy as np

from ._core import VecEnv
from ._errors import usage

__all__ = ["SelfPlay"]

Policy = Callable[..., Any]


def _takes_index(f: Policy) -> bool:
    try:
        params = inspect.signature(f).parameters.values()
    except (TypeError, ValueError):
        return False
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 3 or any(p.kind == p.VAR_POSITIONAL for p in params)


class SelfPlay:
    """``num_envs`` games of one table where each role (seat) is a Python
    policy or a built-in bot; see the module docs. ``seed``, ``threads``,
    ``records`` as ``sequence_game.VecEnv``."""

    def __init__(
        self,
        game: str = "classic",
        num_envs: int = 64,
        players: int = 2,
        teams: Optional[int] = None,
        options: Optional[dict] = None,
        roles: Sequence[Union[str, Policy]] = (),
        alternate: bool = True,
        seed: int = 0,
        threads: int = 1,
        records: bool = False,
    ) -> None:
        roles = list(roles)
        if len(roles) != players:
            raise usage("env.roles", f"roles: one per seat ({players}), not {len(roles)}")
        for r in roles:
            if not isinstance(r, str) and not callable(r):
                raise TypeError(f"a role is a bot name or a callable, not {type(r).__name__}")
        if all(isinstance(r, str) for r in roles):
            raise usage("env.roles", "roles: at least one must be a Python policy (else use sequence arena)")
        self.policies: List[Optional[Policy]] = [None if isinstance(r, str) else r for r in roles]
        self._with_index = [p is not None and _takes_index(p) for p in self.policies]
        specs = [r if isinstance(r, str) else None for r in roles]
        self.vec = VecEnv(
            game, num_envs=num_envs, players=players, teams=teams, options=options, seed=seed,
            threads=threads, records=records, roles=specs, alternate=alternate,
        )
        self.players = players
        self.num_envs = num_envs
        obs, mask, _ = self.vec.reset()
        self.obs, self.mask = obs, mask
        self._actions = np.zeros(num_envs, dtype=np.int64)

    def step(self) -> Dict[str, np.ndarray]:
        """One decision in every game, each by the role that must decide.
        Returns ``roles`` (the role that decided, ``[N]``), ``done``
        (``[N]``) and ``rewards`` (``[N, players]`` by role: +1/−1/0 where
        a game ended, a team's roles alike), ``winner`` and ``length``."""
        roles = self.vec.roles_to_act()
        for r, policy in enumerate(self.policies):
            if policy is None:
                continue
            idx = np.flatnonzero(roles == r)
            if idx.size == 0:
                continue
            args = (self.obs[idx], self.mask[idx], idx) if self._with_index[r] else (self.obs[idx], self.mask[idx])
            self._actions[idx] = np.asarray(policy(*args), dtype=np.int64).reshape(idx.size)
        obs, mask, _, rewards, done = self.vec.step(self._actions)
        self.obs, self.mask = obs, mask
        by_role = np.zeros((self.num_envs, self.players), dtype=np.float32)
        winner = length = np.full(self.num_envs, -1, dtype=np.int64)
        if done.any():
            winner, length, rotation = self.vec.results()
            seats = np.arange(self.players)
            for i in np.flatnonzero(done):
                by_role[i, (seats + rotation[i]) % self.players] = rewards[i]
        return {"roles": roles, "done": done.copy(), "rewards": by_role, "winner": winner, "length": length}

    def play(self, games: int, max_steps: int = 10_000_000) -> List[Dict[str, int]]:
        """Steps until at least ``games`` games ended; per role: ``games``,
        ``wins``, ``losses``, ``draws``."""
        stats = [dict(games=0, wins=0, losses=0, draws=0) for _ in range(self.players)]
        ended = 0
        for _ in range(max_steps):
            out = self.step()
            for i in np.flatnonzero(out["done"]):
                ended += 1
                for r in range(self.players):
                    v = out["rewards"][i, r]
                    s = stats[r]
                    s["games"] += 1
                    s["wins" if v > 0 else "losses" if v < 0 else "draws"] += 1
            if ended >= games:
                break
        return stats

    def records(self) -> list:
        """The finished games' records (``records=True``)."""
        return self.vec.records()
