"""Plots of a child's answers as SVG, drawn on the server: no script, no library, any browser.

One plot is one child in one quiz over time: the level each question was asked at as a step
line (1 at the bottom, 5 at the top), every answer a mark on it, a filled dot when right and a
cross when wrong (shape as well as colour, so it reads without colour too). ``sparkline`` is the
same, small, for the class table; ``plot`` has axes and dates for the child's page. A section of
the class shares one time range, so the rows can be compared by eye.
"""

from __future__ import annotations

import time
from html import escape
from typing import Callable, Sequence

from ...games.learning import MAX_LEVEL, MIN_LEVEL
from .views import AnswerView

RIGHT, WRONG, LINE, GRID = "#1b7a3a", "#c0392b", "#555", "#ddd"


def _scale(answers: Sequence[AnswerView], span: tuple[float, float] | None, width: float,
           left: float) -> Callable[[float], float]:
    start, end = span or (answers[0].at, answers[-1].at)
    if end <= start:
        end = start + 1.0
    return lambda at: left + (min(max(at, start), end) - start) / (end - start) * width


def _marks(answers: Sequence[AnswerView], x: Callable[[float], float],
           y: Callable[[float], float], size: float) -> str:
    """One path for the right answers (dots) and one for the wrong ones (crosses)."""
    right, wrong = [], []
    for a in answers:
        px, py = x(a.at), y(a.level)
        if a.correct:
            right.append(f"M{px:.1f} {py:.1f}h0")
        else:
            s = size * 0.8
            wrong.append(f"M{px - s:.1f} {py - s:.1f}l{2 * s:.1f} {2 * s:.1f}"
                         f"m0 {-2 * s:.1f}l{-2 * s:.1f} {2 * s:.1f}")
    out = ""
    if right:
        out += (f'<path class="right" d="{"".join(right)}" stroke="{RIGHT}" '
                f'stroke-width="{2 * size:.1f}" stroke-linecap="round"/>')
    if wrong:
        out += (f'<path class="wrong" d="{"".join(wrong)}" stroke="{WRONG}" '
                f'stroke-width="{max(1.0, size * 0.6):.1f}" fill="none"/>')
    return out


def _steps(answers: Sequence[AnswerView], x: Callable[[float], float],
           y: Callable[[float], float]) -> str:
    points: list[str] = []
    for a in answers:
        px, py = x(a.at), y(a.level)
        if points:
            points.append(f"{px:.1f},{points[-1].split(',')[1]}")
        points.append(f"{px:.1f},{py:.1f}")
    return (f'<polyline points="{" ".join(points)}" fill="none" stroke="{LINE}" '
            f'stroke-width="1"/>')


def sparkline(answers: Sequence[AnswerView], span: tuple[float, float] | None = None,
              width: int = 240, height: int = 40, label: str = "") -> str:
    """A small plot for a table row (``label``: its accessible name)."""
    if not answers:
        return ""
    pad = 4.0
    x = _scale(answers, span, width - 2 * pad, pad)
    band = (height - 2 * pad) / (MAX_LEVEL - MIN_LEVEL)
    y = lambda level: height - pad - (level - MIN_LEVEL) * band  # noqa: E731
    return (f'<svg class="spark" role="img" aria-label="{escape(label)}" width="{width}" '
            f'height="{height}" viewBox="0 0 {width} {height}">'
            f'<title>{escape(label)}</title>{_steps(answers, x, y)}'
            f'{_marks(answers, x, y, 2.5)}</svg>')


def plot(answers: Sequence[AnswerView], title: str, level_word: str,
         width: int = 720, height: int = 220) -> str:
    """A plot with the levels on the left and the first and last dates below."""
    if not answers:
        return ""
    left, right, top, bottom = 56.0, 12.0, 12.0, 28.0
    inner_w, inner_h = width - left - right, height - top - bottom
    x = _scale(answers, None, inner_w, left)
    band = inner_h / (MAX_LEVEL - MIN_LEVEL)
    y = lambda level: top + inner_h - (level - MIN_LEVEL) * band  # noqa: E731
    grid = []
    for level in range(MIN_LEVEL, MAX_LEVEL + 1):
        gy = y(level)
        grid.append(f'<line x1="{left}" x2="{width - right}" y1="{gy:.1f}" y2="{gy:.1f}" '
                    f'stroke="{GRID}"/><text x="{left - 8}" y="{gy + 4:.1f}" '
                    f'text-anchor="end">{escape(level_word)} {level}</text>')
    first, last = answers[0].at, answers[-1].at
    dates = (f'<text x="{left}" y="{height - 8}">{_date(first)}</text>'
             f'<text x="{width - right}" y="{height - 8}" text-anchor="end">{_date(last)}'
             "</text>")
    return (f'<svg class="plot" role="img" aria-label="{escape(title)}" width="{width}" '
            f'height="{height}" viewBox="0 0 {width} {height}" font-size="12" '
            f'font-family="sans-serif"><title>{escape(title)}</title>{"".join(grid)}{dates}'
            f'{_steps(answers, x, y)}{_marks(answers, x, y, 3.0)}</svg>')


def _date(at: float) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(at))


__all__ = ["plot", "sparkline"]
