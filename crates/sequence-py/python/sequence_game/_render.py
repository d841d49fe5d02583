"""What the environments' ``render()`` shows: the game as text."""

from __future__ import annotations

from typing import Any, Optional


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
