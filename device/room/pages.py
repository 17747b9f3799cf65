"""The room's page as HTML: the boxes live, the finished games, the class and each child.

Every text goes through gettext (German and English, ``--lang``) and every value from a box is
escaped: a box's messages are never trusted to be markup. The overview swaps in the boxes'
fragment every few seconds (``/fragment/boxes``); the rest is plain pages and SVG.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime
from html import escape
from typing import Any, Iterable
from urllib.parse import quote

from ...games import learning
from ..i18n import _, decimal, language, ngettext
from . import plots
from .views import AnswerView, BoxView, ChildQuiz

log = logging.getLogger(__name__)

REFRESH_MS = 2000

STYLE = """
body{font-family:system-ui,sans-serif;margin:0;color:#222;background:#f6f6f4}
header{background:#20303c;color:#fff;padding:.6em 1em;display:flex;gap:1.5em;align-items:center}
header a{color:#fff} header h1{font-size:1.2em;margin:0}
main{padding:1em} h2{margin:.8em 0 .4em}
.boxes{display:grid;grid-template-columns:repeat(auto-fill,minmax(17em,1fr));gap:.8em}
.box{background:#fff;border:1px solid #ccc;border-left:.5em solid #1b7a3a;border-radius:.3em;
 padding:.6em .8em}
.box.stale,.box.unheard{border-left-color:#d18b00;background:#fffaf0}
.box.offline{border-left-color:#888;background:#eee;color:#555}
.boxes>.note{grid-column:1/-1;margin:0} .right{color:#1b7a3a} .wrong{color:#c0392b}
.box h3{margin:0 0 .2em;font-size:1.05em} .cond{font-size:.85em;font-weight:bold}
.turn{font-weight:bold} .box ol{margin:.3em 0;padding-left:1.4em}
table{border-collapse:collapse;background:#fff} td,th{border-bottom:1px solid #ddd;
 padding:.25em .6em;text-align:left;vertical-align:middle} th{background:#eee}
.note{color:#555;font-size:.9em}
"""


def quiz_name(quiz: str) -> str:
    return {"heavier": _("Which is heavier?"), "grams": _("How many grams?"),
            "balance": _("Make it balance"), "order": _("Put them in order")}.get(quiz, quiz)


def layout(title: str, body: str, *, refresh: bool = False) -> str:
    script = ""
    if refresh:
        script = (f"<script>setInterval(function(){{fetch('/fragment/boxes').then("
                  f"function(r){{return r.ok?r.text():null}}).then(function(h){{if(h!==null)"
                  f"document.getElementById('boxes').innerHTML=h}}).catch(function(){{}})}},"
                  f"{REFRESH_MS});</script>")
    nav = (f'<a href="/">{escape(_("Tables"))}</a><a href="/class">{escape(_("Class"))}</a>'
           f'<a href="/history.csv">{escape(_("History (CSV)"))}</a>')
    return (f'<!DOCTYPE html><html lang="{language()}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
            f"<header><h1>{escape(_('Spielleiter room'))}</h1>{nav}</header>"
            f"<main>{body}</main>{script}</body></html>")


def unheard(seconds: float | None) -> str:
    """How long the room has not heard a box while the broker is away."""
    if seconds is None:
        return _("never heard")
    minutes = int(seconds // 60)
    return ngettext("not heard for {n} min", "not heard for {n} min", minutes).format(n=minutes)


def ago(seconds: float | None) -> str:
    if seconds is None:
        return _("never heard")
    if seconds < 60:
        return _("heard just now")
    minutes = int(seconds // 60)
    if minutes < 120:
        return ngettext("heard {n} minute ago", "heard {n} minutes ago", minutes).format(n=minutes)
    hours = minutes // 60
    return ngettext("heard {n} hour ago", "heard {n} hours ago", hours).format(n=hours)


def _score(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return decimal(value, 1)
    return escape(str(value))


def box_card(view: BoxView) -> str:
    if view.condition == "unheard":
        said = unheard(view.heard_ago_s)
    else:
        condition = {"live": _("live"), "stale": _("stale"), "offline": _("offline")
                     }[view.condition]
        said = f"{condition} · {ago(view.heard_ago_s)}"
    parts = [f'<section class="box {view.condition}" data-box="{escape(view.box)}">',
             f"<h3>{escape(view.name)}</h3>", f'<div class="cond">{escape(said)}</div>']
    if view.game is None:
        parts.append(f'<p class="game">{escape(_("No game"))}</p>')
    else:
        parts.append(f'<p class="game"><b>{escape(view.game)}</b>: '
                     f'{escape(", ".join(view.players))}</p>')
        if view.status == "over":
            won = ", ".join(view.winners) or "-"
            parts.append(f'<p class="turn">{escape(_("Over; won: {names}").format(names=won))}'
                         "</p>")
        elif view.waiting_for:
            turn = _("Waiting for {names}").format(names=", ".join(view.waiting_for))
            parts.append(f'<p class="turn">{escape(turn)}</p>')
        rows = "".join(f"<li value=\"{rank}\">{escape(player)} {_score(score)}</li>"
                       for rank, player, score in view.standings if isinstance(rank, int))
        if rows:
            parts.append(f'<ol class="standings">{rows}</ol>')
    if view.last_answer is not None:
        a = view.last_answer
        said = _("Learning: {child}, “{quiz}”, level {level}").format(
            child=a.child, quiz=quiz_name(a.quiz), level=a.level)
        parts.append(f'<p class="learning">{escape(said)}</p>')
        parts.append(answer_line(a))
    if view.missing:
        waiting = _("{n} messages still on their way").format(n=view.missing)
        parts.append(f'<p class="note">{escape(waiting)}</p>')
    if view.refused:
        refused = ngettext("{n} message refused (see the log)", "{n} messages refused (see the log)",
                           view.refused).format(n=view.refused)
        parts.append(f'<p class="note refused">{escape(refused)}</p>')
    parts.append("</section>")
    return "".join(parts)


def answer_line(a: AnswerView) -> str:
    """The learning station's last answer and whether it was right. "Which is heavier?" says the
    side the child chose and the side the scale found heavier, never a bare number."""
    if a.quiz == "heavier":
        guess = {"left": _("left"), "right": _("right"), "same": _("the same")}.get(
            a.guess or "", a.guess or "-")
        if a.truth_g is None or abs(a.truth_g) < 0.05:
            truth = _("both the same")
        else:
            truth = (_("left {grams} g heavier") if a.truth_g > 0 else
                     _("right {grams} g heavier")).format(grams=decimal(abs(a.truth_g), 1))
        said = (_("Last answer “{guess}” (the scale: {truth}): right") if a.correct else
                _("Last answer “{guess}” (the scale: {truth}): wrong")).format(
            guess=guess, truth=truth)
    elif a.truth_g is not None:
        said = (_("Last answer {guess} (truth {truth} g): right") if a.correct else
                _("Last answer {guess} (truth {truth} g): wrong")).format(
            guess=a.guess or "-", truth=decimal(a.truth_g, 1))
    else:
        said = (_("Last answer {guess}: right") if a.correct else
                _("Last answer {guess}: wrong")).format(guess=a.guess or "-")
    kind = "right" if a.correct else "wrong"
    return f'<p class="answer {kind}">{escape(said)}</p>'


def broker_note(trouble: tuple[str, str] | None, broker: str, open_broker: bool = False
                ) -> str:
    """One line above the cards: why the room hears no box, when it is the broker
    (unreachable, refusing, gone away); and a broker that lets anyone in."""
    notes = []
    if trouble is not None:
        kind, why = trouble
        said = {"unreachable": _("The broker {broker} cannot be reached: trying again."),
                "unanswered": _("{broker} gives no MQTT answer: is it the broker? (TLS: --tls)"),
                "away": _("The broker {broker} is away: the boxes keep their messages; "
                          "trying again."),
                }.get(kind, _("The broker {broker} refused the room: {why}")).format(
                    broker=broker, why=why)
        notes.append(f'<p class="note trouble">{escape(said)}</p>')
    if open_broker:
        said = _("The broker {broker} lets anyone in without a password: anyone on the network "
                 "can speak for a box. Give each box a password (docs/room.md).").format(
                     broker=broker)
        notes.append(f'<p class="note open">{escape(said)}</p>')
    return "".join(notes)


def boxes_fragment(views: Iterable[BoxView], trouble: tuple[str, str] | None = None,
                   broker: str = "", open_broker: bool = False) -> str:
    cards = []
    for view in views:
        try:
            cards.append(box_card(view))
        except Exception:  # the page answers for every other box whatever one holds
            log.exception("box %s: card not shown", view.box)
            cards.append(f'<section class="box stale" data-box="{escape(view.box)}"><h3>'
                         f"{escape(view.box)}</h3></section>")
    note = broker_note(trouble, broker, open_broker)
    return note + ("".join(cards)
                   or f'<p class="note">{escape(_("No box has reported yet."))}</p>')


def _when(record: dict[str, Any]) -> str:
    """The end of a game in this laptop's local time ("date unknown" when the box's clock was
    not set; the record's dates are ISO 8601 in UTC)."""
    text = record.get("ended") or record.get("started")
    try:
        at = datetime.fromisoformat(text).timestamp() if isinstance(text, str) else None
    except ValueError:
        at = None
    return escape(_("date unknown") if at is None else stamp(at))


def games_table(records: list[dict[str, Any]]) -> str:
    if not records:
        return f'<p class="note">{escape(_("No finished game yet."))}</p>'
    head = "".join(f"<th>{escape(h)}</th>" for h in (
        _("When"), _("Table"), _("Game"), _("Players and scores"), _("Won")))
    rows = []
    for r in records:
        box = r.get("box") if not isinstance(r.get("box"), dict) else (
            r["box"].get("name") or r["box"].get("id"))
        scores = ", ".join(f"{escape(str(s.get('player')))} {_score(s.get('score'))}"
                           for s in r.get("standings") or [] if isinstance(s, dict))
        won = ", ".join(str(w) for w in r.get("winners") or [])
        rows.append(f"<tr><td>{_when(r)}</td><td>{escape(str(box))}</td>"
                    f"<td>{escape(str(r.get('title', '')))}</td><td>{scores}</td>"
                    f"<td>{escape(won)}</td></tr>")
    return f'<table class="games"><tr>{head}</tr>{"".join(rows)}</table>'


def overview(views: list[BoxView], records: list[dict[str, Any]],
             trouble: tuple[str, str] | None = None, broker: str = "",
             open_broker: bool = False) -> str:
    body = (f"<h2>{escape(_('Tables'))}</h2><div id=\"boxes\" class=\"boxes\">"
            f"{boxes_fragment(views, trouble, broker, open_broker)}</div>"
            f"<h2>{escape(_('Finished games'))}</h2>{games_table(records)}")
    return layout(_("Spielleiter room"), body, refresh=True)


def _child_link(name: str) -> str:
    return f'<a href="/child?name={quote(name)}">{escape(name)}</a>'


def class_page(grouped: dict[str, dict[str, ChildQuiz]]) -> str:
    if not grouped:
        body = f'<p class="note">{escape(_("No answers yet."))}</p>'
        return layout(_("Class"), f"<h2>{escape(_('Class'))}</h2>{body}")
    sections = [f"<h2>{escape(_('Class'))}</h2><p class=\"note\">"
                f"{escape(_('Each row: the level of every question over time; a dot is right, a cross is wrong.'))}</p>"]
    for quiz in learning.QUIZZES:
        rows = [(name, quizzes[quiz]) for name, quizzes in grouped.items() if quiz in quizzes]
        if not rows:
            continue
        times = [a.at for _name, q in rows for a in q.answers]
        span = (min(times), max(times))
        head = "".join(f"<th>{escape(h)}</th>" for h in (
            _("Child"), _("Level"), _("Right answers"), _("Over time")))
        lines = []
        for name, q in rows:
            label = _("{child}: {quiz}").format(child=name, quiz=quiz_name(quiz))
            lines.append(f'<tr data-child="{escape(name)}"><td>{_child_link(name)}</td>'
                         f"<td>{q.level}</td><td>{q.right}/{len(q.answers)}</td>"
                         f"<td>{plots.sparkline(q.answers, span, label=label)}</td></tr>")
        sections.append(f'<section class="quiz" data-quiz="{quiz}"><h3>'
                        f"{escape(quiz_name(quiz))}</h3><table><tr>{head}</tr>"
                        f'{"".join(lines)}</table></section>')
    return layout(_("Class"), "".join(sections))


def child_page(name: str, quizzes: dict[str, ChildQuiz]) -> str:
    if not quizzes:
        body = escape(_("No answers from {child}.").format(child=name))
        return layout(name, f"<h2>{escape(name)}</h2><p class=\"note\">{body}</p>")
    parts = [f"<h2>{escape(name)}</h2>"]
    for quiz, q in quizzes.items():
        title = _("{child}: {quiz}").format(child=name, quiz=quiz_name(quiz))
        summary = _("level {level}, {right} of {total} right").format(
            level=q.level, right=q.right, total=len(q.answers))
        parts.append(f'<section class="quiz" data-quiz="{quiz}"><h3>{escape(quiz_name(quiz))}'
                     f"</h3><p>{escape(summary)}</p>"
                     f"{plots.plot(q.answers, title, _('level'))}</section>")
    return layout(name, "".join(parts))


def stamp(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(at))


__all__ = ["AnswerView", "box_card", "boxes_fragment", "child_page", "class_page", "layout",
           "overview", "quiz_name"]
