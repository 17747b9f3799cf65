"""An engine's refusal reaches the table in its language: ``i18n.refusal`` translates the
template a ``GameError`` carries, while ``str(exc)`` stays the English sentence (logs, the link)."""

from __future__ import annotations

import string
from pathlib import Path

import pytest

from spielleiter.device import i18n
from spielleiter.device.journal.header import Header
from spielleiter.device.screen.render import wrap
from spielleiter.games import GameError, IllegalAction
from spielleiter.games.bunte_runde import new_game as bunte_runde
from spielleiter.games.currency_torraku import new_game as currency_torraku
from spielleiter.games.learning import LearningError, score_order
from spielleiter.games.tatort_tonne import new_game as tatort_tonne
from tests.support import build_box, i18n_script

ROOT = Path(__file__).resolve().parents[2]


def _script():
    return i18n_script()


def refused(state, action) -> GameError:
    with pytest.raises(GameError) as info:
        state.apply(action)
    return info.value


def _fields(text: str) -> list[tuple[str, str | None]]:
    """The {fields} of a template with their conversions ({name!r}: ("name", "r"))."""
    return sorted((name, conversion) for _, name, _, conversion in string.Formatter().parse(text)
                  if name is not None)


# -- a real refusal, in German --------------------------------------------------------------------
def test_playing_out_of_turn_in_bunte_runde_is_refused_in_german_and_logged_in_english():
    state = bunte_runde(["Anna", "Ben"], {}, 0)
    exc = refused(state, {"type": "move", "player": "Ben", "steps": 1})
    i18n.use("de")
    assert i18n.refusal(exc) == "Anna ist dran, nicht Ben"
    assert str(exc) == "Anna's turn, not Ben's"
    i18n.use("en")
    assert i18n.refusal(exc) == "Anna's turn, not Ben's"


def test_the_box_flashes_an_engine_refusal_in_german(tmp_path):
    """Through the device: an action the engine refuses shows its reason in the table's language."""
    with build_box(tmp_path, ["Anna", "Ben"], pans=False, language="de") as box:
        box.app.start_game(Header("bunte-runde", ("Anna", "Ben"), {}, 7))
        assert box.app.apply({"type": "move", "player": "Ben", "steps": 1}) is None
        shown = " ".join(box.app.flash_view.lines)
    assert shown == "Anna ist dran, nicht Ben"


def test_a_german_refusal_says_the_engine_words_in_german_but_a_value_given_as_it_was():
    state = bunte_runde(["Anna", "Ben"], {"set": "tiles", "layout": "free"}, 0)
    state, _ = state.apply({"type": "take", "player": "Anna", "colour": "red", "shape": "cat"})
    taken = refused(state, {"type": "take", "player": "Ben", "colour": "red", "shape": "cat"})
    unknown = refused(state, {"type": "take", "player": "Ben", "colour": "red", "shape": "star"})
    i18n.use("de")
    assert i18n.refusal(taken) == "Katze rot ist schon vergeben"
    assert i18n.refusal(unknown) == "Tier 'star' gibt es nicht"
    assert str(taken) == "red cat is already taken"


def test_a_currency_torraku_kind_is_named_in_german():
    state = currency_torraku(["Anna", "Ben"], {}, 0)
    for action in ({"type": "bid", "count": 10}, {"type": "pass"}, {"type": "pass"},
                   {"type": "place", "piece": "washing_machine"},
                   {"type": "place", "piece": "washing_machine"}):
        state, _ = state.apply({**action, "player": state.turn()})
    exc = refused(state, {"type": "place", "player": state.turn(), "piece": "washing_machine"})
    assert str(exc) == "no washing machine in the row"
    i18n.use("de")
    assert i18n.refusal(exc) == "Waschmaschine ist nicht in deiner Reihe"


def test_a_learning_refusal_is_a_game_error_with_a_german_text():
    with pytest.raises(LearningError) as info:
        score_order([10.0, 20.0, 30.0], (1, 1, 2), level=1)
    assert isinstance(info.value, GameError)
    i18n.use("de")
    assert i18n.refusal(info.value) == "Nenne jedes Ding einmal"


# -- the fallbacks --------------------------------------------------------------------------------
def test_a_refusal_without_a_translation_or_a_template_is_shown_in_english():
    i18n.use("de")
    assert i18n.refusal(IllegalAction("a rule nobody translated yet: {n}", n=3)) == \
        "a rule nobody translated yet: 3"
    assert i18n.refusal(ValueError("not an engine's error")) == "not an engine's error"
    odd = IllegalAction("{turn}'s turn, not {name}'s", turn="Anna")  # a parameter missing
    assert i18n.refusal(odd) == str(odd) == "{turn}'s turn, not {name}'s"


def test_a_player_named_like_a_word_keeps_the_name():
    state = tatort_tonne(["red", "cat"], {}, 0)
    exc = refused(state, {"type": "point", "player": "red", "target": "cat"})
    i18n.use("de")
    assert i18n.refusal(exc) == "Jetzt wird nicht gezeigt"
    out = IllegalAction("{name} is out", name="red")
    assert i18n.refusal(out) == "red ist raus"


# -- every template --------------------------------------------------------------------------------
def test_every_engine_refusal_template_has_german_with_the_same_fields():
    script = _script()
    templates, unfit = script.refusals()
    german = script.read_po(script.po_path("de"))
    assert len(templates) > 80
    assert unfit == []
    problems = []
    for template, message in templates.items():
        entry = german.get(template)
        if entry is None or not entry.strings or not entry.strings[0]:
            problems.append(f"no German for {template!r} ({message.where[0]})")
        elif _fields(entry.strings[0]) != _fields(template):
            problems.append(f"{template!r}: German {entry.strings[0]!r} has other {{fields}}")
    assert not problems, "translate them: scripts/i18n.py translate FRAGMENT.po\n" + \
        "\n".join(problems)


def test_every_german_refusal_fits_a_flash_of_four_lines():
    """With a long name in every field, each translated template still fits the flash."""
    script = _script()
    samples = {"name": "Vladislav", "turn": "Maximilian", "n": 25, "count": 36, "low": 10,
               "high": 99, "last": 35, "most": 999, "value": "joker", "colour": "purple",
               "shape": "triangle", "kind": "washing machine", "field": "direction",
               "action": "jump", "option": "potd_maker", "key": "washing_machine",
               "game": "tante-trudels-troedel", "problem": "missing 'players'"}
    i18n.use("de")
    too_long = []
    for template in script.refusals()[0]:
        exc = IllegalAction(template, **{k: v for k, v in samples.items() if k in template})
        lines = wrap(i18n.refusal(exc))
        if len(lines) > 4:
            too_long.append(f"{template!r}: {lines}")
    assert not too_long, "\n".join(too_long)


def test_a_refusal_built_with_an_f_string_is_found_by_the_extraction(tmp_path):
    script = _script()
    (tmp_path / "game.py").write_text(
        "def f(n, cond):\n"
        "    require(cond, 'steps: 1 to {n}', n=n)\n"
        "    require(cond, f'steps: 1 to {n}')\n"
        "    raise SetupError('a' if cond else 'b')\n", encoding="utf-8")
    script.ROOT, root = tmp_path, script.ROOT
    try:
        found, unfit = script.refusals(tmp_path)
    finally:
        script.ROOT = root
    assert list(found) == ["steps: 1 to {n}", "a", "b"]
    assert unfit == ["game.py:3: require's message is not a literal"]


def test_extraction_puts_the_engine_templates_in_the_catalogue():
    found = _script().extract()
    assert "{turn}'s turn, not {name}'s" in found
    assert any(w.startswith("games/") for w in found["{turn}'s turn, not {name}'s"].where)
