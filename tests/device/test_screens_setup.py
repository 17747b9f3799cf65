"""Every set-up screen of every game, with every choice NEXT can show, fits the OLED in both
languages. The demos show only the choices they play (Currency Torraku's *Money* never showed
"all dealt", then "alles verteilt", which was cut to "alles ver~"); this walks them all."""

from __future__ import annotations

import pytest

from spielleiter.device import i18n
from spielleiter.device.modes import MODES
from spielleiter.device.modes.setup import SetupFlow
from spielleiter.device.screen.render import View, crowded, misfits
from spielleiter.games import GAMES

NAMES = ["Alexandra", "Maximilian", "Ulrike", "Birgit", "Sarah", "Annegret", "Friederike",
         "Jonas", "Mia", "Ben"]


def _setup_views(mode, players: int) -> list[View]:
    """The set-up screens of ``mode`` for ``players`` seats, NEXT pressed through every choice
    of every option before OK goes on, and the summary at the end."""
    info = GAMES[mode.game]
    flow = SetupFlow(mode, NAMES, 3, info.min_players, info.max_players, players=players)
    views = [flow.view()]
    flow.on_key("ok")
    for option in mode.setup:
        for part in range(option.parts(flow.values[option.key])):
            for _ in range(max(len(option.options(flow.seats)), len(option.choices), 1)):
                views.append(flow.view())
                flow.on_key("next")
            flow.on_key("ok")
    for _ in range(len(mode.setup) + 2):  # the summary, scrolled through
        views.append(flow.view())
        flow.on_key("next")
    return views


GAME_MODES = [mode for mode in MODES if mode.game]

# Screens known not to fit yet, as "language game: the misfit"; every entry is a bug to fix (and
# the test fails once it is fixed, so the entry goes).
KNOWN: set[str] = set()


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("mode", GAME_MODES, ids=[m.name for m in GAME_MODES])
def test_every_set_up_choice_of_every_game_fits_in_both_languages(mode, language):
    info = GAMES[mode.game]
    i18n.use(language)
    problems, known = {}, set()
    for players in sorted({info.min_players, min(4, info.max_players), info.max_players}):
        for view in _setup_views(mode, players):
            found = misfits(view) + (["crowded"] if crowded(view) else [])
            keys = {f"{language} {mode.name}: {problem}" for problem in found}
            known |= keys & KNOWN
            if keys - KNOWN:
                problems[view.as_text()] = found
    assert not problems, "\n\n".join(f"{k}\n{v}" for k, v in problems.items())
    still = {k for k in KNOWN if k.startswith(f"{language} {mode.name}:")}
    assert known == still, f"fixed, take it out of KNOWN: {still - known}"


def test_the_walk_reaches_the_money_choice_the_demo_never_shows():
    i18n.use("de")
    torraku = next(mode for mode in GAME_MODES if mode.game == "currency-torraku")
    money = next(option for option in torraku.setup if option.key == "long")
    shown = {option_value for option_value in (money.show(c) for c in money.choices)}
    assert len(shown) == 2 and shown <= {view.big for view in _setup_views(torraku, 2)}
