"""Render time per frame: every screen of every demo, both languages, ours against a naive way.

Ours: ``screens.render`` (Terminus glyph cells rasterised once and cached, each character pasted
as a mask, a pixel opened where two glyphs would touch). Naive, in the same run: what most
projects with a FreeType font do: ``ImageDraw.text`` for each string with the same Terminus
sizes, no cache of glyphs (and no care for touching letters). Cold: the first pass after start,
font files loaded and glyphs rasterised on the way (what the first frames after boot cost).

    python benchmarks/render.py [--passes 20]

Prints the figures; the exit status is 0 either way (it is a report).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from spielleiter.device.screen import fonts, render as screens
from spielleiter.device import i18n
from spielleiter.device.cli.demo import play
from spielleiter.device.modes import demos
from spielleiter.device.screen.render import HEIGHT, WIDTH, View

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from support import build_box  # noqa: E402  (the tests' simulated box: the demos' screens)


def demo_views(limit: int | None = None) -> list[View]:
    """Every distinct screen the demos show, in German and English (the first ``limit`` demos)."""
    seen: dict[View, None] = {}
    for language in ("de", "en"):
        for name, demo in sorted(demos().items())[:limit]:
            with tempfile.TemporaryDirectory() as folder:
                with build_box(Path(folder), list(demo.players), language=language) as box:
                    show = box.app._show

                    def keep(view: View, show=show) -> None:
                        seen.setdefault(view, None)
                        show(view)

                    box.app._show = keep
                    box.runtime.pump()
                    box.app.redraw()
                    play(box, demo.script())
    i18n.use("en")
    return list(seen)


def naive(view: View, small: ImageFont.FreeTypeFont, big: ImageFont.FreeTypeFont) -> Image.Image:
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, 11), fill=1)
    draw.text((WIDTH // 2, 0), view.title, font=small, fill=0, anchor="ma")
    y = 13
    if view.big:
        draw.text((WIDTH // 2, y), view.big, font=big, fill=1, anchor="ma")
        y += 24
    for line in view.lines[:3]:
        draw.text((2, y), line, font=small, fill=1)
        y += 12
    draw.line((0, 51, WIDTH - 1, 51), fill=1)
    draw.text((WIDTH // 2, 52), view.footer, font=small, fill=1, anchor="ma")
    return image


def per_frame(fn, views: list[View], passes: int) -> list[float]:
    """Each view's median time over ``passes`` (the machine's other work spread out)."""
    times: list[list[float]] = [[] for _ in views]
    for _ in range(passes):
        for i, view in enumerate(views):
            start = time.perf_counter()
            fn(view)
            times[i].append(time.perf_counter() - start)
    return [statistics.median(t) for t in times]


def row(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (f"| {name} | {statistics.median(times) * 1e3:.3f} | {p99 * 1e3:.3f} | "
            f"{ordered[-1] * 1e3:.3f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=20)
    parser.add_argument("--demos", type=int, default=None, help="the first N demos only")
    args = parser.parse_args()
    views = demo_views(args.demos)
    gc.collect()  # the demos' boxes, gone before the clock starts
    fonts.type_set.cache_clear()
    start = time.perf_counter()
    fonts.type_set()
    load = time.perf_counter() - start
    cold = per_frame(screens.render, views, 1)   # each view once, straight after loading
    warm = per_frame(screens.render, views, args.passes)
    terminus = fonts.TERMINUS
    small = ImageFont.truetype(str(terminus / "terminus-normal.otb"), 12)
    big = ImageFont.truetype(str(terminus / "terminus-bold.otb"), 24)
    baseline = per_frame(lambda v: naive(v, small, big), views, args.passes)
    print(f"{len(views)} distinct demo screens, {args.passes} passes; "
          f"type set loaded in {load * 1e3:.1f} ms ({screens.font_problem() or 'Terminus'}), "
          f"the first frame after it {cold[0] * 1e3:.1f} ms")
    print("| renderer (a view's median over the passes) | p50 ms | p99 ms | slowest view ms |")
    print("|---|---|---|---|")
    print(row("ours, warm", warm))
    print(row("ours, first pass after start", cold))
    print(row("naive ImageDraw.text, Terminus", baseline))


if __name__ == "__main__":
    main()
