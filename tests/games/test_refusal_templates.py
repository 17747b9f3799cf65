"""An engine's refusal is a template and its parameters: ``str(exc)`` the English sentence,
``template`` and ``params`` what a device translates. Every refusal the engines raise in play comes
from a literal template the catalogue tools find."""

from __future__ import annotations

import copy
import importlib.util
import pickle
import random
import sys
from pathlib import Path

import pytest

import spielleiter.games as games
from play import playthrough
from test_legal_actions import candidates_for

from spielleiter.games import GAMES, GameError, IllegalAction, SetupError, complete
from spielleiter.games.core import require
from spielleiter.games.learning import LearningError, score_heavier

ROOT = Path(__file__).resolve().parents[2]


def _templates() -> set[str]:
    spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("i18n_script", module)  # dataclasses look their module up
    spec.loader.exec_module(sys.modules["i18n_script"])
    # every folder the registry finds games in (tests/fixture_game's too, as a fifth game)
    extra = tuple(Path(folder) for folder in games.__path__ if Path(folder) != ROOT / "games")
    found, unfit = sys.modules["i18n_script"].refusals(also=extra)
    assert unfit == [], unfit
    return set(found)


def test_a_refusal_reads_as_english_and_keeps_its_template_and_parameters():
    exc = IllegalAction("{turn}'s turn, not {name}'s", turn="Anna", name="Ben")
    assert str(exc) == "Anna's turn, not Ben's"
    assert exc.template == "{turn}'s turn, not {name}'s"
    assert exc.params == {"turn": "Anna", "name": "Ben"}
    assert isinstance(exc, ValueError)


def test_require_passes_the_template_and_its_parameters_on():
    require(True, "bid at least {low}", low=3)
    with pytest.raises(IllegalAction, match="^bid at least 3$") as info:
        require(False, "bid at least {low}", low=3)
    assert (info.value.template, info.value.params) == ("bid at least {low}", {"low": 3})


def test_a_message_without_parameters_is_taken_as_it_stands():
    assert str(GameError("no game is running")) == "no game is running"
    assert str(SetupError("odd {braces}")) == "odd {braces}"
    assert str(IllegalAction("bad {x}", y=1)) == "bad {x}"  # parameters that do not fit


def test_a_value_shown_as_given_keeps_its_repr():
    exc = IllegalAction("bad '{field}': {value!r}", field="grams", value={"a": 1})
    assert str(exc) == "bad 'grams': {'a': 1}"


def test_a_refusal_survives_pickle_and_copy_with_its_template():
    exc = IllegalAction("{name} is out", name="Melanie")
    for again in (pickle.loads(pickle.dumps(exc)), copy.deepcopy(exc)):
        assert type(again) is IllegalAction
        assert (str(again), again.template, again.params) == \
            ("Melanie is out", "{name} is out", {"name": "Melanie"})


def test_a_learning_refusal_is_a_game_error_with_a_template():
    with pytest.raises(LearningError) as info:
        score_heavier(10.0, float("nan"), "left", level=1)
    assert isinstance(info.value, GameError)
    assert str(info.value) == info.value.template == "the right pan gave no weight"


def test_every_engine_source_builds_its_refusals_from_literal_templates():
    assert len(_templates()) > 80


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_refusal_in_play_comes_from_a_catalogued_template(name):
    """Offer every candidate (legal or not) in sampled states of random games: each refusal's
    template is one the extraction found, and its sentence is that template filled."""
    templates = _templates()
    info = GAMES[name]
    propose = candidates_for(info)
    rng = random.Random(3)
    seen: set[str] = set()
    for seed in range(4):
        sampled = 0
        for before, *_ in playthrough(info, seed):
            if sampled == 12:
                break
            if rng.random() > 0.2:
                continue
            sampled += 1
            for candidate in propose(before):
                try:
                    before.apply(complete(info, candidate, rng))
                except GameError as exc:
                    assert exc.template in templates, exc.template
                    assert str(exc) == (exc.template.format(**exc.params) if exc.params
                                        else exc.template)
                    seen.add(exc.template)
    # the sampling reached the engine's refusals: four, or half of what a small engine has
    source = Path(sys.modules[info.new_game.__module__].__file__).read_text(encoding="utf-8")
    assert len(seen) >= min(4, sum(repr(t)[1:-1] in source for t in templates) // 2)


def test_a_grams_value_too_large_for_a_float_is_refused_not_crashed():
    from spielleiter.games import learning
    from spielleiter.games.trudel_rules import grams_ok

    assert not grams_ok(10**400, positive=True) and not grams_ok(2e6, positive=False)
    assert grams_ok(13.2, positive=True)
    with pytest.raises(learning.LearningError):
        learning.side(10**400, 10.0, level=1)
