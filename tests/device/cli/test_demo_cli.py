"""``spielleiter demo``: each screen printed as text with its time on the box's
clock, not block characters; PNG frames at the OLED's 128x64 unless ``--scale N``."""

from __future__ import annotations

import io
import logging
import re
import sys

from PIL import Image

from spielleiter.device.cli import main
from spielleiter.device.cli.demo import run_demo

STAMP = re.compile(r"^\[(\d+\.\d) s\] ")


def test_the_demo_prints_each_screen_as_text_with_its_time():
    lines: list[str] = []
    assert run_demo("tatort-tonne", out=lines.append) == 0
    screens = [line for line in lines if STAMP.match(line)]
    assert screens[0].startswith("[0.0 s] [Spielleiter]")
    assert "(NEXT move  OK choose)" in screens[0]                  # the whole view, footer too
    times = [float(STAMP.match(line)[1]) for line in screens]
    assert times == sorted(times) and times[-1] > 10               # virtual seconds, in order
    text = "\n".join(lines)
    assert not set(text) & set("▘▝▀▖▌▞▛▗▚▐▜▄▙▟█")                   # no block pictures
    frames = int(re.search(r"demo: (\d+) frames", lines[-1])[1])
    assert len(screens) == frames and len(text.splitlines()) < 12 * frames


def test_a_screens_later_lines_are_indented_under_its_first():
    lines: list[str] = []
    run_demo("tatort-tonne", out=lines.append)
    first = next(line for line in lines if "\n" in line and STAMP.match(line))
    stamp = STAMP.match(first)[0]
    assert all(rest.startswith(" " * len(stamp)) for rest in first.splitlines()[1:])


def test_frames_are_saved_at_the_screens_size_unless_scaled(tmp_path):
    assert run_demo("tatort-tonne", frames=tmp_path / "one", out=lambda _: None) == 0
    assert main(["demo", "--frames", str(tmp_path / "three"), "--scale", "3"]) == 0
    with Image.open(tmp_path / "one" / "frame-001.png") as one, \
            Image.open(tmp_path / "three" / "frame-001.png") as three:
        assert one.size == (128, 64) and three.size == (384, 192)
        assert three.resize((128, 64), Image.NEAREST).tobytes() == one.tobytes()  # no blur
    assert len(list((tmp_path / "one").glob("*.png"))) == len(
        list((tmp_path / "three").glob("*.png")))


def test_a_scale_out_of_range_is_refused_and_saves_nothing(tmp_path, capsys):
    for scale in ("0", "17"):
        assert main(["demo", "--frames", str(tmp_path / "f"), "--scale", scale,
                     "--lang", "en"]) == 2
    assert "--scale 0: use 1-16" in capsys.readouterr().err
    assert main(["demo", "--scale", "0", "--lang", "de"]) == 2
    assert "--scale 0: 1-16 nehmen" in capsys.readouterr().err
    assert not (tmp_path / "f").exists()


class _ClosedAfter(io.StringIO):
    """A reader that goes away after ``lines`` lines (``spielleiter demo | head``)."""

    def __init__(self, lines: int):
        super().__init__()
        self.left = lines

    def write(self, text: str) -> int:
        if self.left <= 0:
            raise BrokenPipeError
        self.left -= 1
        return super().write(text)


def test_a_reader_that_goes_away_ends_the_demo_quietly(monkeypatch, caplog):
    monkeypatch.setattr(sys, "stdout", _ClosedAfter(3))
    with caplog.at_level(logging.ERROR):
        assert main(["demo"]) == 141
    assert caplog.records == []  # no handler error logged for every later frame


def _narration(game: str, language: str) -> list[str]:
    lines: list[str] = []
    assert run_demo(game, out=lines.append, language=language) == 0
    return [line for line in lines if line.startswith("### ")]


def test_the_demo_narrates_in_german_with_lang_de():
    tatort = _narration("tatort-tonne", "de")
    assert "### Runde 3: Sarah klaut ihre dritte Müllkarte" in tatort
    assert not any("Round" in line or "players" in line for line in tatort)
    troedel = _narration("tante-trudels-troedel", "de")
    assert any(line.startswith("### Der Tageskauf: Anna würfelt 6, 4, 3") for line in troedel)
    assert any(re.match(r"### \w+ würfelt \d", line) for line in troedel)   # the filled-in ones
    assert not any("Purchase of the Day" in line or " rolls " in line for line in troedel)


def test_the_demos_last_line_and_its_times_speak_the_tables_language():
    for language, said, mark in (("de", "Demo: 80 Bilder; gewonnen: Sarah", ","),
                                 ("en", "demo: 80 frames; winners: Sarah", ".")):
        lines: list[str] = []
        assert run_demo("tatort-tonne", out=lines.append, language=language) == 0
        assert lines[-1] == said
        stamps = [line.split(" s]")[0] for line in lines if line.startswith("[")]
        assert stamps and all(mark in stamp for stamp in stamps)


def test_the_demo_still_narrates_in_english_with_lang_en():
    tatort = _narration("tatort-tonne", "en")
    assert "### Round 3: Sarah steals her third trash" in tatort
    assert not any("Runde" in line for line in tatort)
