"""The self-test's result: one ``Row`` per part, and the ``Report`` in every form it is shown.

A row is PASS, FAIL or SKIP with a detail that says what was seen and what to look at. The report
prints a table for a terminal (``table``), a JSON document (``to_json``), one line for systemd's
``STATUS=`` (``summary``) and a screen for the OLED (``screen``). Exit status: 0 when nothing
failed (SKIP is fine), 1 otherwise. A part keeps its one name in the JSON and the log ("left
pan"); the table and the OLED say it in the box's language (``part_name``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..i18n import N_, _
from ..screen.render import CHARS, View, wrap

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"
DETAIL_WIDTH = 76  # the table's detail column wraps here
SCREEN_LINES = 3  # body lines of the OLED's self-test screen (a page's, above its footer)
_NBSP = "\xa0"  # keeps a part's name ("left pan") on one line when the names are wrapped
PARTS = {"config": N_("config"), "OLED": N_("OLED"), "buttons": N_("buttons"),
         "link": N_("link"), "journal": N_("journal"), "thermo": N_("thermo")}
VERDICTS = {PASS: N_("PASS"), FAIL: N_("FAIL"), SKIP: N_("SKIP")}


def part_name(part: str, short: bool = False) -> str:
    """A part as the table and the OLED say it: "Schale links" for the "left pan" ("links" when
    ``short``, for a line that would not fit)."""
    from ..pans.words import pan_name

    if part in PARTS:
        return _(PARTS[part])
    if part.endswith(" pan"):
        pan = pan_name(part[:-len(" pan")])
        return pan if short else _("{pan} pan").format(pan=pan)
    return part


@dataclass(frozen=True)
class Row:
    """One part's verdict. ``short`` is what the OLED says after the part's name."""

    part: str
    verdict: str
    detail: str
    short: str = ""

    def screen_line(self) -> str:
        word = _(self.short) if self.short else {PASS: _("ok"), SKIP: _("skipped")}.get(
            self.verdict, _("failed"))
        line = _("{part}: {word}").format(part=part_name(self.part), word=word)
        if len(line) > CHARS and self.part.endswith(" pan"):  # "Schale links": "links" will do
            line = _("{part}: {word}").format(part=part_name(self.part, short=True), word=word)
        return line[:CHARS]

    def to_json(self) -> dict[str, str]:
        return {"part": self.part, "verdict": self.verdict, "detail": self.detail}


@dataclass(frozen=True)
class Report:
    rows: tuple[Row, ...]
    title: str = "Spielleiter self-test"  # as the caller says it (in the box's language)

    @property
    def failed(self) -> tuple[Row, ...]:
        return tuple(r for r in self.rows if r.verdict == FAIL)

    @property
    def ok(self) -> bool:
        return not self.failed

    @property
    def verdict(self) -> str:
        return PASS if self.ok else FAIL

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else 1

    def to_json(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "ok": self.ok,
                "parts": [r.to_json() for r in self.rows]}

    def table(self) -> str:
        """The rows as a fixed-width table and the overall verdict (for a terminal)."""
        names = [part_name(r.part) for r in self.rows]
        said = [_(VERDICTS[r.verdict]) for r in self.rows]
        width = max([len(_("part"))] + [len(n) for n in names])
        wide = max([len(_("verdict"))] + [len(v) for v in said])
        out = [self.title, "",
               f"{_('part'):<{width}}  {_('verdict'):<{wide}}  {_('detail')}".rstrip()]
        for r, name, verdict in zip(self.rows, names, said):
            first, *more = [piece for line in r.detail.splitlines()
                            for piece in wrap(line, DETAIL_WIDTH)] or [""]
            out.append(f"{name:<{width}}  {verdict:<{wide}}  {first}")
            out += [f"{'':<{width}}  {'':<{wide}}  {line}" for line in more]
        counts = {v: sum(r.verdict == v for r in self.rows) for v in (PASS, FAIL, SKIP)}
        tally = ", ".join(word.format(n=n) for n, word in (
            (counts[PASS], _("{n} passed")), (counts[FAIL], _("{n} failed")),
            (counts[SKIP], _("{n} skipped"))) if n)
        out += ["", _("verdict: {verdict} ({tally})").format(verdict=_(VERDICTS[self.verdict]),
                                                             tally=tally)]
        if not self.ok:
            out.append(_("failed: {parts}").format(parts=", ".join(
                part_name(r.part) for r in self.failed)))
        return "\n".join(out)

    def summary(self) -> str:
        """One line for ``STATUS=`` and the log, in the box's language."""
        if self.ok:
            skipped = [part_name(r.part) for r in self.rows if r.verdict == SKIP]
            return _("self-test passed") + (_(" ({parts} skipped)").format(
                parts=", ".join(skipped)) if skipped else "")
        return _("self-test FAILED: {parts}").format(parts=", ".join(
            f"{part_name(r.part)} ({_(r.short) if r.short else _('failed')})"
            for r in self.failed))

    def screen(self) -> View:
        """What the OLED shows: failures first, one a line, then the parts that are fine."""
        failed = [r.screen_line() for r in self.failed]
        if len(failed) > SCREEN_LINES:
            failed = failed[:SCREEN_LINES - 1] + [
                _("+{n} more: see log").format(n=len(failed) - SCREEN_LINES + 1)]
        lines = failed or [_("All parts OK")]
        fine = [part_name(r.part) for r in self.rows if r.verdict == PASS]
        room = SCREEN_LINES - len(lines)
        if room > 0 and fine:
            lines += fit(_("ok: {parts}").format(parts=", ".join(p.replace(" ", _NBSP)
                                                                  for p in fine)), room)
        title = (_("Self-test OK") if self.ok
                 else _("Self-test: {n} failed").format(n=len(self.failed)))
        return View(title, tuple(lines), footer=_("OK continue"))


def fit(text: str, room: int) -> list[str]:
    """``text`` wrapped to the screen (``screens.wrap``) on at most ``room`` lines; what does not
    fit ends in " ..."."""
    lines = [line.replace(_NBSP, " ") for line in wrap(text)]
    if len(lines) > room:
        lines = lines[:room]
        lines[-1] = (lines[-1][:CHARS - 4] + " ...")[:CHARS]
    return lines


__all__ = ["DETAIL_WIDTH", "FAIL", "PASS", "PARTS", "Report", "Row", "SKIP", "VERDICTS", "fit",
           "part_name"]
