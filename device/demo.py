"""``spielleiter demo``: a scripted game on simulated hardware, every new frame printed or saved.

The script presses gpiozero ``MockFactory`` pins exactly as players would; the box underneath is
the one ``spielleiter run`` builds, on a ``ManualClock`` so the countdown and the reveal pages pass
instantly.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterator

from PIL import Image

from ..drivers.buttons import mock_factory
from ..drivers.display import open_device, to_blocks
from . import config as config_mod
from .box import Box
from ..games.bunte_runde import full_set
from ..games.bunte_runde import new_game as bunte_runde_game
from .referees.bunte_runde import pick_colours, pick_shapes
from .referees.tatort_tonne import COUNTDOWN_S
from .runtime import ManualClock

EXAMPLE_PLAYERS = ["Alexandra", "Melanie", "Ulrike", "Birgit", "Sarah"]

# A step: ("tap", button) | ("hold", button, seconds) | ("idle", seconds) | ("say", text)
Step = tuple


def _hot_seat(card_index: int) -> Iterator[Step]:
    """The host panel's hot-seat dance: call up the seat, show the cards, pick, clear."""
    yield ("tap", "host.ok")          # the waiting hot-seat player takes the box
    yield ("tap", "host.ok")          # cards shown
    for _ in range(card_index):
        yield ("tap", "host.next")
    yield ("tap", "host.ok")          # card down; screen blanked
    yield ("tap", "host.ok")          # pass the box on


def _host_pick(steps: int) -> Iterator[Step]:
    for _ in range(steps):
        yield ("tap", "host.next")
    yield ("tap", "host.ok")


def tatort_tonne_script() -> Iterator[Step]:
    """The rulebook's example round, then two more rounds to a winner."""
    yield ("say", "Menu: Tatort Tonne, 5 players, 25 trash")
    yield ("tap", "host.ok")
    yield ("tap", "host.next")        # 4 -> 5 players
    yield ("tap", "host.ok")
    yield ("tap", "host.ok")          # trash pile 25 (T1)
    yield ("tap", "host.ok")          # start
    yield ("say", "Round 1 (the rulebook's example): stations 1-3, Birgit and Sarah at the host")
    yield ("tap", "s1.C")             # Alexandra: alibi
    yield ("tap", "s2.B")             # Melanie: accuse
    yield ("tap", "s3.B")             # Ulrike: accuse
    yield from _hot_seat(2)           # Birgit: alibi
    yield from _hot_seat(0)           # Sarah: steal
    yield ("idle", COUNTDOWN_S)       # cards down, 3, 2, 1, point!
    yield ("say", "Melanie and Ulrike both point at Birgit (no station: the host picks)")
    yield from _host_pick(2)          # Melanie -> Birgit
    yield from _host_pick(2)          # Ulrike -> Birgit
    yield ("idle", 20.0)              # the reveal pages
    yield ("say", "Round 2: Birgit accuses Alexandra, who answers at her station")
    yield ("tap", "s1.A")             # Alexandra: steal
    yield from _hot_seat(1)           # Birgit: accuse
    yield from _hot_seat(0)           # Sarah: steal
    yield ("idle", COUNTDOWN_S)
    yield ("tap", "s1.B")             # the accused Alexandra presses a button at her station
    yield ("idle", 20.0)
    yield ("say", "Round 3: Sarah steals her third trash")
    yield from _hot_seat(2)           # Birgit: alibi
    yield from _hot_seat(0)           # Sarah: steal
    yield ("idle", 20.0)


BUNTE_RUNDE_PLAYERS = ["Anna", "Ben", "Carla", "Dirk"]
BUNTE_RUNDE_SCORE_S = 20.0  # long enough for every page after a move (take, scorings, coins)


def _bunte_runde_setup(players: int, tiles: bool, free: bool) -> Iterator[Step]:
    yield ("tap", "host.next")        # Tatort Tonne -> Bunte Runde
    yield ("tap", "host.ok")
    for _ in range((players - 4) % 5):  # the players option starts at 4 and cycles 2-6
        yield ("tap", "host.next")
    yield ("tap", "host.ok")
    if tiles:
        yield ("tap", "host.next")    # 36 pieces -> 25 tiles (B1)
    yield ("tap", "host.ok")
    if free:
        yield ("tap", "host.next")    # dealt -> free (B7)
    yield ("tap", "host.ok")
    yield ("tap", "host.ok")          # start


def bunte_runde_script() -> Iterator[Step]:
    """36 pieces dealt from the seed, three players at their stations, one undo on the way."""
    yield ("say", "Menu: Bunte Runde, 3 players, 36 pieces, circle dealt from the seed")
    yield from _bunte_runde_setup(3, tiles=False, free=False)
    yield ("say", "Lay out the circle: intro, 9 screens of 4 places, the figure")
    for _ in range(11):
        yield ("tap", "host.ok")
    yield ("say", "Anna, Ben and Carla press A/B/C for 1/2/3 steps at their stations")
    pattern = "BCABACCBA"
    for move in range(36):        # more than any game needs; presses after the end are refused
        yield ("tap", f"s{move % 3 + 1}.{pattern[move % len(pattern)]}")
        if move == 1:
            yield ("idle", 1.0)
            yield ("say", "Ben took the wrong piece: hold BACK to undo, then move again")
            yield ("hold", "host.back", 1.2)
            yield ("idle", 6.0)
            yield ("tap", "s2.A")
        yield ("idle", BUNTE_RUNDE_SCORE_S)


def bunte_runde_tiles_script() -> Iterator[Step]:
    """25 tiles in a free layout: four players (Dirk at the host panel) report what they took."""
    yield ("say", "Menu: Bunte Runde, 4 players, 25 tiles, free layout (Dirk at the host panel)")
    yield from _bunte_runde_setup(4, tiles=True, free=True)
    state = bunte_runde_game(BUNTE_RUNDE_PLAYERS, {"set": "tiles", "layout": "free"}, 0)
    order = full_set("tiles")
    random.Random(36).shuffle(order)  # an order whose last take triggers the large coin (B5)
    for colour, shape in order:
        seat = state.players.index(state.turn())
        nxt, ok = (f"s{seat + 1}.A", f"s{seat + 1}.B") if seat < 3 else ("host.next", "host.ok")
        for _ in range(pick_colours(state).index(colour)):
            yield ("tap", nxt)
        yield ("tap", ok)
        for _ in range(pick_shapes(state, colour).index(shape)):
            yield ("tap", nxt)
        yield ("tap", ok)
        yield ("idle", BUNTE_RUNDE_SCORE_S)
        state, _events = state.apply({"type": "take", "player": state.turn(), "colour": colour,
                                      "shape": shape})
        if state.is_over:
            break


SCRIPTS: dict[str, Callable[[], Iterator[Step]]] = {
    "tatort-tonne": tatort_tonne_script,
    "bunte-runde": bunte_runde_script,
    "bunte-runde-tiles": bunte_runde_tiles_script,
}
PLAYERS: dict[str, list[str]] = {"tatort-tonne": EXAMPLE_PLAYERS,
                                 "bunte-runde": BUNTE_RUNDE_PLAYERS[:3],
                                 "bunte-runde-tiles": BUNTE_RUNDE_PLAYERS}


def play(box: Box, steps: Iterator[Step], say: Callable[[str], None] = lambda s: None) -> None:
    """Run a script of steps against a ManualClock box."""
    box.runtime.pump()
    for step in steps:
        if step[0] == "tap":
            box.tap(step[1])
        elif step[0] == "hold":
            box.hold(step[1], step[2])
        elif step[0] == "idle":
            box.idle(step[1])
        elif step[0] == "say":
            say(step[1])


def demo_config(game: str) -> config_mod.Config:
    raw = config_mod.read(None)
    names = PLAYERS.get(game, [])
    raw["players"]["names"] = names + [n for n in raw["players"]["names"] if n not in names][
        : 10 - len(names)]
    return config_mod.validate(raw)


def run_demo(game: str = "tatort-tonne", frames: Path | None = None, seed: int = 7,
             out: Callable[[str], None] = print) -> int:
    if game not in SCRIPTS:
        print(f"spielleiter demo: no demo for {game!r}; try: {', '.join(SCRIPTS)}",
              file=sys.stderr)
        return 2
    count = 0

    def on_frame(image: Image.Image) -> None:
        nonlocal count
        count += 1
        if frames is not None:
            image.convert("L").resize((256, 128), Image.NEAREST).save(
                frames / f"frame-{count:03d}.png")
        else:
            out(f"--- frame {count} ---\n{to_blocks(image)}")

    if frames is not None:
        try:
            frames.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"spielleiter demo: cannot save frames in {frames}: {exc}", file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory(prefix="spielleiter-demo-") as state_dir:
        with Box.build(demo_config(game), Path(state_dir), pin_factory=mock_factory(),
                       display_device=open_device("dummy"), clock=ManualClock(),
                       on_frame=on_frame, seed_source=lambda: seed) as box:
            play(box, SCRIPTS[game](), say=lambda text: out(f"### {text}"))
            state = box.app.session.state if box.app.session else None
            winners = ", ".join(state.winners()) if state is not None else "-"
    out(f"demo: {count} frames{f' saved in {frames}' if frames else ''}; winners: {winners}")
    return 0
