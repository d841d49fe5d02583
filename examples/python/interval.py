"""The 95 % Wilson score interval the examples report their win rates
with (imported by vs_greedy.py, selfplay_frozen.py and sb3_check.py)."""

import math


def wilson(k: int, n: int, z: float = 1.96):
    """The 95 % Wilson score interval of k successes in n trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)
