"""German and English: every message translated, the shipped .mo files current, every demo
screen fitting the 128x64 OLED in both languages, and the language chosen by config, Settings
and ``--lang``."""

from __future__ import annotations

import fcntl
import os
import pickle
import string
from pathlib import Path

import pytest

from spielleiter.device.config import core as config_mod
from spielleiter.device import i18n
from spielleiter.device.cli.demo import play
from spielleiter.device.modes import demos
from spielleiter.device.screen.render import View, crowded, misfits, wrap
from tests.support import build_box, i18n_script


# Screens known not to fit yet, as "lang demo: title"; every entry is a bug to fix, not a rule.
ALLOWED: set[str] = set()


def _script():
    return i18n_script()


def _fields(text: str) -> list[str]:
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


def test_every_message_in_the_source_has_a_german_translation_with_the_same_fields():
    script = _script()
    found = script.extract()
    german = script.read_po(script.po_path("de"))
    english = script.read_po(script.po_path("en"))
    problems = []
    for msgid, message in found.items():
        entry = german.get(msgid)
        if entry is None or not entry.strings or not all(entry.strings):
            problems.append(f"no German for {msgid!r} ({message.where[0]})")
            continue
        if (entry.plural is None) != (message.plural is None):
            problems.append(f"{msgid!r}: plural form does not match the source")
        for text in entry.strings:
            if _fields(text) != _fields(msgid):
                problems.append(f"{msgid!r}: German {text!r} has other {{fields}}")
        if msgid not in english:
            problems.append(f"{msgid!r} missing from the English catalogue")
    assert len(found) > 400
    assert not problems, "run: python scripts/i18n.py extract, then translate\n" + \
        "\n".join(problems)


def test_the_shipped_mo_files_match_their_po_files():
    script = _script()
    assert script.stale() == [], "run: python scripts/i18n.py compile"


def test_use_switches_every_later_text_and_plural():
    i18n.use("de")
    assert i18n._("Steal trash") == "Müll klauen"
    assert i18n.ngettext("{n} step", "{n} steps", 1) == "{n} Schritt"
    assert i18n.ngettext("{n} step", "{n} steps", 3) == "{n} Schritte"
    i18n.use("en")
    assert i18n._("Steal trash") == "Steal trash"
    assert i18n.ngettext("{n} step", "{n} steps", 1) == "{n} step"


# -- every demo screen fits ------------------------------------------------------------------------
def _screens(name: str, language: str, state_dir: Path) -> list[View]:
    demo = demos()[name]
    weighs = any(step[0] == "put" for step in demo.script())  # else no load cells: faster
    with build_box(state_dir, list(demo.players), pans=weighs, language=language) as box:
        seen: list[View] = []
        show = box.app._show

        def keep(view: View) -> None:
            if not seen or seen[-1] != view:
                seen.append(view)
            show(view)

        box.app._show = keep
        flash = box.app.flash

        def flash_kept(*lines: str, **kwargs) -> None:  # a flash keeps four wrapped lines
            body = [part for line in lines for part in wrap(line)]
            if len(body) > 4:
                seen.append(View("Spielleiter", tuple(body)))
            flash(*lines, **kwargs)

        box.app.flash = flash_kept
        box.runtime.pump()
        box.app.redraw()
        play(box, demo.script())
    return seen


_BUILT: dict[tuple[str, str], tuple[View, ...]] = {}


def demo_views(name: str, language: str, tmp_path_factory) -> tuple[View, ...]:
    """``_screens`` once per demo and language in a test run: several tests read each demo's
    screens (they fit, say one thing, no letters touch, the learning words are large) and share
    one play of it. Under xdist the workers share it too, the way the xdist docs run a session
    fixture once: the first worker to lock it in the run's common temporary folder plays the
    demo and leaves the screens there (pickled); a worker that asks meanwhile waits on the lock,
    then reads them."""
    key = (name, language)
    if key in _BUILT:
        return _BUILT[key]
    if os.environ.get("PYTEST_XDIST_WORKER") is None:  # one process: its own play is the only one
        views = tuple(_screens(name, language, tmp_path_factory.mktemp(name)))
    else:
        shared = tmp_path_factory.getbasetemp().parent / "demo-views"  # this run's, every worker's
        shared.mkdir(exist_ok=True)
        done = shared / f"{name}-{language}.pickle"
        with open(shared / f"{name}-{language}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            if done.exists():
                views = pickle.loads(done.read_bytes())
            else:
                views = tuple(_screens(name, language, tmp_path_factory.mktemp(name)))
                part = done.with_suffix(".part")
                part.write_bytes(pickle.dumps(views))
                part.replace(done)
    _BUILT[key] = views
    return views


DEMOS = [pytest.param(name, language, id=f"{name}-{language}")
         for name in sorted(demos()) for language in ("de", "en")]


@pytest.mark.parametrize(("name", "language"), DEMOS)
def test_every_screen_of_every_demo_fits_the_oled(name, language, tmp_path_factory):
    failures = []
    views = demo_views(name, language, tmp_path_factory)
    assert len(views) > 10, name
    for view in views:
        problems = misfits(view)
        key = f"{language} {name}: {view.title}"
        report = f"{key}: {'; '.join(problems)}\n{view.as_text()}"
        if problems and key not in ALLOWED and report not in failures:
            failures.append(report)
    assert not failures, f"{len(failures)} screens clipped:\n\n" + "\n\n".join(failures)


@pytest.mark.parametrize(("name", "language"), DEMOS)
def test_every_page_of_every_demo_says_one_thing(name, language, tmp_path_factory):
    """A page (not a menu) carries at most three small lines: one idea, its key word large."""
    crowded_pages = {view.as_text() for view in demo_views(name, language, tmp_path_factory)
                     if crowded(view)}
    assert not crowded_pages, f"{len(crowded_pages)} crowded pages:\n\n" + \
        "\n\n".join(sorted(crowded_pages))


def test_german_demo_screens_are_german(tmp_path_factory):
    views = demo_views("tatort-tonne", "de", tmp_path_factory)
    titles = {view.title for view in views}
    assert "Wer zeigt auf wen" in titles and "Accusations" not in titles


# -- choosing the language -------------------------------------------------------------------------
def _config(language: str | None):
    raw = config_mod.read(None)
    if language is not None:
        raw["ui"] = {"language": language}
    return config_mod.validate(raw)


def test_ui_language_in_the_config_is_validated():
    assert _config("de").language == "de" and _config("en").language == "en"
    with pytest.raises(config_mod.ConfigError) as caught:
        _config("fr")
    assert any(p.startswith("ui.language:") for p in caught.value.problems)


def _box(state_dir: Path, language: str | None = None, ui: str | None = None):
    from spielleiter.device.box import Box
    from spielleiter.device.runtime import ManualClock
    from spielleiter.drivers.buttons import mock_factory
    from spielleiter.drivers.display import open_device

    box = Box.build(_config(ui), state_dir, pin_factory=mock_factory(),
                    display_device=open_device("dummy"), clock=ManualClock(),
                    seed_source=lambda: 7, language=language)
    box.runtime.pump()
    return box


def test_the_config_language_is_the_default_a_saved_setting_wins_and_lang_wins_for_one_run(
        tmp_path):
    from dataclasses import replace

    with _box(tmp_path, ui="de") as box:
        assert box.app.settings.language == "de" and "Einstellungen" in box.last_view.lines
        box.app.change_settings(replace(box.app.settings, language="en"))
        box.app.redraw()
        assert "Settings" in box.last_view.lines
    with _box(tmp_path, ui="de") as box:                 # the saved choice beats the config
        assert box.app.settings.language == "en" and "Settings" in box.last_view.lines
    with _box(tmp_path, language="de", ui="en") as box:  # --lang beats both, for this run
        assert "Einstellungen" in box.last_view.lines
    with _box(tmp_path, ui="de") as box:                 # ... and is not saved
        assert box.app.settings.language == "en"


def test_a_one_run_language_stays_one_run_when_another_setting_is_changed(tmp_path):
    """--lang en, then the pace changed in Settings: the next run is German."""
    from dataclasses import replace

    with _box(tmp_path, language="en", ui="de") as box:
        assert "Settings" in box.last_view.lines
        box.app.change_settings(replace(box.app.settings, pace="fast"))
        assert box.app.settings.language == "en" and box.app.settings.pace == "fast"
    with _box(tmp_path, ui="de") as box:
        assert box.app.settings.language == "de" and box.app.settings.pace == "fast"


def test_a_language_chosen_in_settings_during_a_one_run_language_is_kept(tmp_path):
    from dataclasses import replace

    with _box(tmp_path, language="en", ui="de") as box:
        box.app.change_settings(replace(box.app.settings, language="de"))
        box.app.change_settings(replace(box.app.settings, language="en"))  # chosen on the box
        box.app.change_settings(replace(box.app.settings, sound="quiet"))
    with _box(tmp_path, ui="de") as box:
        assert box.app.settings.language == "en" and box.app.settings.sound == "quiet"


def test_the_shipped_config_names_a_language():
    assert config_mod.validate(config_mod.read(None)).language in i18n.LANGUAGES
    assert "language" in config_mod.defaults()["ui"]


@pytest.mark.shipped_language
def test_the_box_ships_in_german_with_german_seat_colours(tmp_path):
    shipped = config_mod.validate(config_mod.read(None))
    assert shipped.language == "de"
    assert [s.name for s in shipped.stations] == ["Rot", "Blau", "Grün"]
    assert set(shipped.player_names) <= config_mod.SEAT_COLOURS
    from spielleiter.device.box import Box
    from spielleiter.device.runtime import ManualClock
    from spielleiter.drivers.buttons import mock_factory
    from spielleiter.drivers.display import open_device

    with Box.build(shipped, tmp_path, pin_factory=mock_factory(),
                   display_device=open_device("dummy"), clock=ManualClock()) as box:
        box.runtime.pump()
        box.app.redraw()
        from spielleiter.device.modes import MODES

        # every mode the registry found, in its order and in German: the list is derived (a
        # new game is one more line), the German words are the shipped modes'
        assert box.last_view.lines == tuple(i18n._(m.title) for m in MODES)
        assert {"Tatort Tonne", "Lernen", "Vergangene Spiele", "Statistik", "Waage",
                "Einstellungen"} <= set(box.last_view.lines)
        assert box.last_view.footer == "NEXT runter OK wählen"


@pytest.mark.parametrize("command", [["run"], ["sim"], ["demo", "tatort-tonne"]])
def test_lang_is_an_option_of_run_sim_and_demo(command, capsys):
    from spielleiter.device.cli import build_parser

    parser = build_parser()
    assert parser.parse_args([*command, "--lang", "de"]).lang == "de"
    assert parser.parse_args(command).lang is None
    with pytest.raises(SystemExit):
        parser.parse_args([*command, "--lang", "fr"])
    assert "invalid choice" in capsys.readouterr().err


def test_demo_lang_de_prints_german_screens():
    from spielleiter.device.cli.demo import run_demo

    lines: list[str] = []
    assert run_demo("tatort-tonne", out=lines.append, language="de") == 0
    text = "\n".join(lines)
    assert "Wer zeigt auf wen" in text and "Accusations" not in text


def test_run_passes_lang_to_the_box(tmp_path, monkeypatch):
    from spielleiter.device.service import loop

    seen = {}

    def factory(config, state_dir, language=None):
        seen["language"] = language
        raise RuntimeError("stop here")

    code = loop.run_service(state_dir=tmp_path, box_factory=factory, env={}, language="de")
    assert code == 1 and seen["language"] == "de"
