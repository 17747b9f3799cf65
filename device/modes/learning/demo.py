"""``spielleiter demo learning-station``: Mia plays each quiz on the simulated pans."""

from __future__ import annotations

from typing import Iterator

from ...i18n import _
from ..base import Demo, DemoStep

SETTLE_S = 2.0  # the pans settle and are judged together (joint stability), the screen is read


def script() -> Iterator[DemoStep]:
    yield ("say", _("The learning station: Mia chooses herself, then a quiz."))
    yield ("open", "learning")
    yield ("tap", "host.ok")                 # Mia (the first name)
    yield ("say", _("Which is heavier? An apple (182 g) left, a pear (176 g) right."))
    yield ("tap", "host.ok")                 # Heavier?
    yield ("put", "left", 182.0)
    yield ("put", "right", 176.0)
    yield ("idle", SETTLE_S)
    yield ("tap", "s1.B")                    # "the same": 6 g apart is the same at level 1
    yield ("idle", SETTLE_S)
    yield ("tap", "host.ok")                 # next question: take them off first
    yield ("put", "left", -182.0)
    yield ("put", "right", -176.0)
    yield ("idle", SETTLE_S)
    yield ("say", _("A book (420 g) against a spoon (35 g); Mia says right: not quite."))
    yield ("put", "left", 420.0)
    yield ("put", "right", 35.0)
    yield ("idle", SETTLE_S)
    yield ("tap", "s1.C")
    yield ("idle", SETTLE_S)
    yield ("say", _("She lifts them again and tries again: no penalty for that."))
    yield ("tap", "host.ok")
    yield ("tap", "s1.A")
    yield ("idle", SETTLE_S)
    yield ("tap", "host.ok")
    yield ("put", "left", -420.0)
    yield ("put", "right", -35.0)
    yield ("idle", SETTLE_S)
    yield ("tap", "host.back")               # back to the quizzes
    yield ("say", _("How many grams? A mug on the left pan; A less, C more, B smaller steps."))
    yield ("tap", "host.next")
    yield ("tap", "host.ok")                 # Grams?
    yield ("put", "left", 312.0)
    yield ("idle", SETTLE_S)
    for _turn in range(4):                       # 100 g -> 300 g in steps of 50 g
        yield ("tap", "s1.C")
    yield ("tap", "s1.B")                    # fine steps of 10 g
    yield ("tap", "s1.C")                    # 310 g
    yield ("tap", "host.ok")
    yield ("idle", SETTLE_S)
    yield ("tap", "host.ok")
    yield ("put", "left", -312.0)
    yield ("idle", SETTLE_S)
    yield ("tap", "host.back")
    yield ("say", _("Make it balance: a toy car (250 g) left; Mia adds blocks on the right."))
    yield ("tap", "host.next")
    yield ("tap", "host.ok")                 # Balance
    yield ("put", "left", 250.0)
    yield ("idle", SETTLE_S)
    for block in (100.0, 100.0, 90.0):       # more, more, less (290 g)
        yield ("put", "right", block)
        yield ("idle", SETTLE_S)
    yield ("put", "right", -50.0)            # 240 g: within 20 g, balanced
    yield ("idle", SETTLE_S)
    yield ("tap", "host.ok")
    yield ("put", "left", -250.0)
    yield ("put", "right", -240.0)
    yield ("idle", SETTLE_S)
    yield ("tap", "host.back")
    yield ("say", _("Put them in order: three things on the left pan, one by one."))
    yield ("tap", "host.next")
    yield ("tap", "host.ok")                 # In order
    for grams in (140.0, 60.0, 505.0):
        yield ("put", "left", grams)
        yield ("idle", SETTLE_S)
        yield ("put", "left", -grams)
        yield ("idle", SETTLE_S)
    for key in ("s1.B", "s1.A", "s1.C"):     # lightest first: 2, 1, 3
        yield ("tap", key)
    yield ("idle", SETTLE_S)
    yield ("tap", "host.ok")
    yield ("tap", "host.back")
    yield ("say", _("Mia's results, one number a page."))
    yield ("tap", "host.next")
    yield ("tap", "host.ok")                 # My results
    for _turn in range(4):                       # today, in a row, in all, how it's going
        yield ("idle", SETTLE_S)
        yield ("tap", "host.ok")
    yield ("say", _("How it works, one idea a page."))
    yield ("tap", "host.next")
    yield ("tap", "host.ok")                 # How it works
    for _turn in range(6):
        yield ("idle", SETTLE_S)
        yield ("tap", "host.ok")
    yield ("say", _("A station's button on the menu says which buttons choose."))
    yield ("tap", "s1.A")
    yield ("idle", SETTLE_S)
    yield ("tap", "host.back")               # back to who is learning
    yield ("tap", "host.back")               # home


DEMOS = {"learning-station": Demo(("Mia", "Jonas"), script)}
