"""A game's screens and pages read only what the table may see: the engine's ``public()`` (as the
mode's typed view, ``public.py``) and events, never the engine's ``State``; so no rule is worked
out twice and no secret can reach a screen by a side door.

Proved three ways for every game with a mode folder: the screens/pages modules hold no ``State``
class and no engine module, and every function's inputs are typed, none of them a ``State``; on
every demo, no screen or page function is handed a ``State``; and every state of random games
reads into the game's view (so the view names only keys ``public()`` gives)."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import sys
import types
import typing
from typing import Any, Callable, Iterator

import pytest

from spielleiter.device.cli.demo import run_demo
from spielleiter.device.modes import GAME_MODES
from spielleiter.games import GAMES, State

from tests.games.play import playthrough

SEEN_BY_SCREENS = ("screens", "pages", "public")  # the modules that make what the table sees


def packages() -> dict[str, str]:
    """Each game's mode folder (as a package name), from its registered referee."""
    out = {}
    for game, mode in GAME_MODES.items():
        assert mode.referee is not None
        out[game] = mode.referee.__module__.rsplit(".", 1)[0]
    return out


def screen_modules(package: str) -> Iterator[types.ModuleType]:
    for name in SEEN_BY_SCREENS:
        try:
            yield importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError:
            continue


def own_functions(module: types.ModuleType) -> dict[str, Callable[..., Any]]:
    """The functions ``module`` defines itself (not those it imports)."""
    return {name: fn for name, fn in vars(module).items()
            if inspect.isfunction(fn) and fn.__module__ == module.__name__}


def mentions_state(hint: Any) -> bool:
    """Whether a type hint is, or holds anywhere inside it, a ``State`` class."""
    if isinstance(hint, type) and issubclass(hint, State):
        return True
    return any(mentions_state(arg) for arg in typing.get_args(hint))


def holds_state(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is a ``State`` or holds one (in a list, tuple, dict or dataclass: what
    a view or a job is made of; a controller such as the weigher is passed for its own fields)."""
    if isinstance(value, State):
        return True
    if depth > 4:
        return False
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(holds_state(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return any(holds_state(v, depth + 1) for v in value.values())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(holds_state(getattr(value, f.name), depth + 1)
                   for f in dataclasses.fields(value))
    return False


GAME_PACKAGES = packages()


def own_screens(package: str) -> bool:
    """Whether a game's mode folder draws its state on screens of its own (``screens.py``),
    which then read a typed ``public.Public`` (docs/adding-a-game.md). Pages made only of events
    (a ``pages.py`` alone, like tests/fixture_game's) and the base referee's screens need none."""
    return any(m.__name__.rsplit(".", 1)[1] == "screens" for m in screen_modules(package))


def test_every_game_with_screens_of_its_own_has_a_typed_public_view_for_them():
    drawn = [game for game, package in GAME_PACKAGES.items() if own_screens(package)]
    assert {"tatort-tonne", "bunte-runde", "tante-trudels-troedel", "currency-torraku"} <= set(drawn)
    for game in drawn:
        view = importlib.import_module(f"{GAME_PACKAGES[game]}.public").Public
        assert typing.get_type_hints(view), game


@pytest.mark.parametrize("game", sorted(GAME_PACKAGES))
def test_no_screen_or_page_module_holds_a_state_class_or_an_engine_module(game):
    for module in screen_modules(GAME_PACKAGES[game]):
        for name, value in vars(module).items():
            assert not (isinstance(value, type) and issubclass(value, State)), \
                f"{module.__name__} holds the engine's {name}"
            if isinstance(value, types.ModuleType):
                assert not value.__name__.startswith("spielleiter.games."), \
                    f"{module.__name__} holds the engine module {value.__name__}"


@pytest.mark.parametrize("game", sorted(GAME_PACKAGES))
def test_every_screen_and_page_takes_typed_inputs_none_of_them_a_state(game):
    checked = 0
    for module in screen_modules(GAME_PACKAGES[game]):
        for name, fn in own_functions(module).items():
            hints = typing.get_type_hints(fn)
            for param in inspect.signature(fn).parameters:
                where = f"{module.__name__}.{name}({param})"
                assert param in hints, f"{where} has no type"
                assert hints[param] not in (Any, object), f"{where} takes anything"
                assert not mentions_state(hints[param]), f"{where} takes a State"
            checked += 1
    # the screens were found: every screen or page module has functions to check
    assert checked >= len(list(screen_modules(GAME_PACKAGES[game])))


@pytest.mark.parametrize("game", sorted(GAME_PACKAGES))
def test_no_screen_or_page_is_handed_a_state_on_any_demo(game, monkeypatch):
    """Every screen and page function is wrapped (where its module and the referee hold it) to
    note it when an argument is, or holds, a ``State``; then the game's demos run. (Noted, not
    raised: the box's loop logs a handler's exception and goes on.)"""
    package = GAME_PACKAGES[game]
    called: list[str] = []
    handed: list[str] = []
    wrapped: dict[Callable[..., Any], Callable[..., Any]] = {}
    for module in screen_modules(package):
        for name, fn in own_functions(module).items():
            def guard(*args: Any, __fn=fn, __name=f"{module.__name__}.{name}", **kwargs: Any):
                if any(holds_state(a) for a in (*args, *kwargs.values())):
                    handed.append(__name)
                called.append(__name)
                return __fn(*args, **kwargs)
            wrapped[fn] = guard
    for module_name, module in list(sys.modules.items()):
        if module is None or not module_name.startswith(package):
            continue
        for name, value in list(vars(module).items()):
            if inspect.isfunction(value) and value in wrapped:
                monkeypatch.setattr(module, name, wrapped[value])
    mode = GAME_MODES[game]
    assert mode.demos, f"{game} has no demo"
    for demo in mode.demos:
        assert run_demo(demo, out=lambda _line: None) == 0
    assert not handed, f"handed a State: {sorted(set(handed))}"
    if list(screen_modules(package)):
        assert called, "no screen or page function was called"  # the guard was in the way


@pytest.mark.parametrize("game", sorted(GAME_PACKAGES))
def test_every_state_of_random_games_reads_into_the_games_view(game):
    if not own_screens(GAME_PACKAGES[game]):
        pytest.skip("the base's screens only")
    view = importlib.import_module(f"{GAME_PACKAGES[game]}.public").Public
    info = GAMES[game]
    for seed in range(6):
        seen = 0
        for before, _action, after, _events in playthrough(info, seed):
            if not seen:
                view.of(before.public())
            view.of(after.public())
            seen += 1
        assert seen


def test_a_view_naming_a_key_public_lacks_fails_at_once():
    from dataclasses import dataclass

    from spielleiter.device.modes.base.public import read

    @dataclass(frozen=True)
    class Wrong:
        phase: str
        secret_grams: float

    with pytest.raises(KeyError, match="secret_grams"):
        read(Wrong, GAMES["tatort-tonne"].new_game(["A", "B"], {}, 0).public())
