"""Words a family understands without the rulebook at hand: the set-up's choices say what they do,
a tie is said plainly, equal pans are "exactly the same", a basket that is out says so in the
final list, and a long name never cuts an accusation."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from spielleiter.device import i18n
from spielleiter.device.i18n import _
from spielleiter.device.modes.bunte_runde import rules as br_rules
from spielleiter.device.modes.currency_torraku.referee import CurrencyTorrakuReferee
from spielleiter.device.modes.learning import screens as LS
from spielleiter.device.modes.tante_trudels_troedel.pages import standings_views
from spielleiter.device.modes.tatort_tonne import pages as tt_pages
from spielleiter.device.modes.tatort_tonne.public import Public
from spielleiter.device.screen.render import misfits
from spielleiter.games import trudel_rules
from spielleiter.games.tatort_tonne import new_game

LONG = ["Maximilianus", "Konstantinos", "Bartholomäus"]


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


def names(options, key: str) -> list[str]:
    option = next(o for o in options if o.key == key)
    return [_(n).lower() for n in option.names] + [_(h).lower() for h in option.hints]


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_set_up_choices_need_no_rulebook(language):
    i18n.use(language)
    goal = names(trudel_rules.OPTIONS, "goal")
    assert not any(w in name for name in goal for w in ("rulebook", "regelheft"))
    roll = names(trudel_rules.OPTIONS, "potd_maker")
    assert not any(w in name for name in roll for w in ("rolls it", "würfelt ihn"))
    pan = names(CurrencyTorrakuReferee.TABLE_OPTIONS, "pan")
    assert _("first").lower() not in pan
    weights = names(CurrencyTorrakuReferee.TABLE_OPTIONS, "learn")
    assert not any(w in name for name in weights for w in ("keep", "behalten", "as weighed",
                                                            "wie zuletzt"))


@pytest.mark.parametrize("language, said", [("en", "Equal coins: all win."),
                                            ("de", "bei Gleichstand alle.")])
def test_a_tie_in_bunte_runde_is_said_plainly(language, said):
    i18n.use(language)
    assert any(said in " ".join(page.lines) or said in " ".join(_wrapped(page))
               for page in br_rules.pages())


def _wrapped(page) -> list[str]:
    return [" ".join(page.lines)]


@pytest.mark.parametrize("language, said", [("en", "Exactly the same"), ("de", "Genau gleich")])
def test_equal_pans_are_exactly_the_same_never_zero_grams_apart(language, said):
    i18n.use(language)
    assert LS.heavier_truth("same", 0.3) == said
    assert "0 g" not in LS.heavier_truth("same", 0.3)


@pytest.mark.parametrize("language, word", [("en", "out"), ("de", "raus")])
def test_a_basket_that_is_out_says_so_in_the_final_list(language, word):
    i18n.use(language)
    pub = SimpleNamespace(standings=((1, "Anna", 300.0), (2, "Ben", 290.0), (3, "Cem", 512.0)))
    rows = [line for view in standings_views(pub, {"Cem"}) for line in view.lines]
    assert rows[0].startswith("1. Anna") and rows[2].startswith(f"{word} Cem")
    assert not any(line.startswith("3.") for line in rows)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_long_name_never_cuts_an_accusation(language):
    i18n.use(language)
    state = new_game(LONG + ["Ann"], {"trash": 10})
    for player, card in zip(LONG + ["Ann"], ("accuse", "steal", "steal", "alibi")):
        state, events = state.apply({"type": "choose", "player": player, "card": card})
    state, events = state.apply({"type": "point", "player": LONG[0], "target": LONG[1]})
    views = tt_pages.reveal_pages(events, Public.of(state.public()))
    accusations = [v for v in views if v.title == _("Accusations")]
    lines = [line for v in accusations for line in v.lines]
    assert lines == [LONG[0], f"  > {LONG[1]}"]                # one arrow, no "name >"
    caught = next(v for v in views if v.title == LONG[1])        # the name too long for "was
    assert v_lines(caught) == (_("Caught! Out of game"),)        # accused": the line says it
    assert all(not misfits(v) for v in views)


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_accused_accuser_with_a_long_name_is_still_said_accused(language):
    i18n.use(language)
    state = new_game(LONG + ["Ann"], {"trash": 10})
    for player, card in zip(LONG + ["Ann"], ("accuse", "accuse", "steal", "alibi")):
        state, events = state.apply({"type": "choose", "player": player, "card": card})
    state, events = state.apply({"type": "point", "player": LONG[0], "target": LONG[1]})
    state, events = state.apply({"type": "point", "player": LONG[1], "target": None})
    views = tt_pages.reveal_pages(events, Public.of(state.public()))
    accused = next(v for v in views if v.title == LONG[1])
    assert accused.lines == (_("Accused, no effect"),) and not misfits(accused)


def v_lines(view) -> tuple[str, ...]:
    return view.lines
