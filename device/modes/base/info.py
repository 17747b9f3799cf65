"""A home-menu entry (``ModeInfo``), found by discovery in a mode's ``MODE``, and its demos."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator

from ...screen.render import View
from .referee import Referee
from .table import Mode

if TYPE_CHECKING:
    from ....games.core import GameInfo
    from ..options import SetupOption


# -- the registry's entries ----------------------------------------------------------------------
DemoStep = tuple  # ("tap", button) | ("hold", button, s) | ("idle", s) | ("say", text) | ("put", pan, g)


@dataclass(frozen=True)
class Demo:
    """A scripted walk through a mode on simulated hardware: the players' names and the steps."""

    players: tuple[str, ...]
    script: Callable[[], Iterator[DemoStep]]


@dataclass(frozen=True)
class ModeInfo:
    """One home-menu entry, found by ``modes`` in its module's or folder's ``MODE``. A game names
    its engine (``game``) and its ``referee`` class (``game_mode`` takes name and title from the
    engine's ``GameInfo``); a tool gives ``open(app) -> Mode``. ``order`` places the entry on the
    home menu (the games 10-40, a new game 60 by default, the learning station 50, the tools
    80 and up)."""

    name: str
    title: str
    game: str | None = None
    referee: type[Referee] | None = None
    open: Callable[[Any], Mode] | None = None
    demos: dict[str, Demo] = field(default_factory=dict)
    rules: Callable[[], list[View]] | None = None  # how the box plays it: a few pages, read
    #                                                 from the game's menu (built when shown, so
    #                                                 in the language of the moment)
    order: int = 60
    shows_grams: bool = False  # a tool that shows what lies on the pans: closed to it while a
    #                            game that keeps grams secret waits

    @property
    def setup(self) -> tuple[SetupOption, ...]:
        """The set-up screens' options: the engine's offered ones, then the referee's own."""
        if self.referee is None or self.game is None:
            return ()
        from ....games import GAMES
        from ..options import setup_option

        info = GAMES.get(self.game)
        engine = tuple(setup_option(o) for o in (info.options if info else ()) if o.offered)
        return engine + tuple(setup_option(o, engine=False) for o in self.referee.TABLE_OPTIONS)


def game_mode(info: GameInfo, referee: type[Referee], *, demos: dict[str, Demo] | None = None,
              rules: Callable[[], list[View]] | None = None, order: int = 60) -> ModeInfo:
    """The home-menu entry of the game ``info`` (its engine's ``GameInfo``) refereed by
    ``referee``: its name and title are the engine's."""
    return ModeInfo(info.name, info.title, game=info.name, referee=referee, demos=demos or {},
                    rules=rules, order=order)
