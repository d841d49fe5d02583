"""The package's coded errors raised from Python (``SequenceError`` with a
stable ``code``, as the engine raises them) and the argument checks the
environments share; no dependency beyond numpy."""

from __future__ import annotations

import operator
from typing import Any, Optional

import numpy as np

from ._core import SequenceError, UsageError


def error(cls: type, code: str, message: str) -> SequenceError:
    """A ``SequenceError`` of class ``cls`` with its stable ``code`` (and
    ``rule`` None), as the engine raises them."""
    e = cls(message)
    e.code = code
    e.rule = None
    return e


def usage(code: str, message: str) -> SequenceError:
    """A ``UsageError`` with its ``code``: a bad argument of an environment."""
    return error(UsageError, code, message)


def int_arg(value: Any, what: str) -> int:
    """``value`` as a Python ``int`` (ints and numpy integers, not
    ``bool``); ``TypeError`` naming ``what`` for anything else."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{what} is an integer, not {type(value).__name__}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{what} is an integer, not {type(value).__name__}") from None


def seat_arg(seat: Any, players: int) -> int:
    """A seat at a table of ``players``: ``UsageError``
    ``seat.no_such_seat`` for any other integer (as ``Game`` raises it)."""
    s = int_arg(seat, "a seat")
    if not 0 <= s < players:
        raise usage("seat.no_such_seat", f"seat {s} does not exist ({players} players: seats 0 to {players - 1})")
    return s


def max_moves_arg(max_moves: Any) -> Optional[int]:
    """``max_moves``: ``None`` (never truncate) or a count of 1 or more;
    ``UsageError`` ``env.max_moves`` for 0 or less."""
    if max_moves is None:
        return None
    n = int_arg(max_moves, "max_moves")
    if n < 1:
        raise usage("env.max_moves", f"max_moves must be 1 or more (or None: never truncate), not {n}")
    return n
