"""The full schematic, drawn with schemdraw from the netlist (and so from the pin map).

Every pin of every part ends in a short coloured wire with its net's name (net labels: two pins
with the same name are connected). The 40-pin header stands on the left; the parts stand in
columns to its right, grouped as they sit in the box. Written as SVG and as PDF.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import schemdraw
import schemdraw.elements as elm

from .netlist import COLOURS, LEGEND, Component, Netlist

STUB = 1.1          # length of a pin's wire, drawing units
LABEL_SIZE = 10
TITLE_SIZE = 11


@dataclass
class Column:
    x: float
    y: float = 0.0


def _stub(d: schemdraw.Drawing, at: schemdraw.util.Point, towards: str, net: str,
          kind: str) -> None:
    """A pin's wire, coloured by its net's kind, ending in the net's name."""
    colour = COLOURS[kind]
    line = elm.Line().at(at).color(colour).length(STUB)
    line = getattr(line, towards)()
    if kind == "none":
        d.add(elm.Line().at(at).color(colour).length(0.4).__getattribute__(towards)())
        d.add(elm.Label().at(at).label("x", color=colour, fontsize=LABEL_SIZE,
                                       halign="center", valign="center"))
        return
    d.add(line.label(net, loc="end", color=colour, fontsize=LABEL_SIZE,
                     halign="right" if towards == "left" else "left", valign="center"))


def _title(d: schemdraw.Drawing, x: float, y: float, text: str) -> None:
    d.add(elm.Label().at((x, y)).label(text, fontsize=TITLE_SIZE, halign="left",
                                       valign="bottom", font="sans-serif"))


def _header(d: schemdraw.Drawing, net: Netlist) -> None:
    comp = net.header
    pins = []
    for index, pin in enumerate(comp.pins):
        phys, name = pin.name.split(" ", 1)
        odd = (index % 2) == 0
        slot = index // 2
        pins.append(elm.IcPin(name=name, pin=phys, side="left" if odd else "right",
                              slot=f"{20 - slot}/20", anchorname=f"p{phys}"))
    ic = d.add(elm.Ic(pins=pins, size=(5.0, 20 * 0.62), pinspacing=0.62, edgepadH=0.3,
                      lsize=LABEL_SIZE, plblsize=9, leadlen=0.6).at((0, 0)).anchor("p1"))
    for pin in comp.pins:
        phys = pin.name.split(" ", 1)[0]
        towards = "left" if int(phys) % 2 else "right"
        _stub(d, getattr(ic, f"p{phys}"), towards, pin.net, net.nets[pin.net].kind)
    top = getattr(ic, "p1")
    _title(d, top[0] - 1.0, top[1] + 0.7,
           "J1  Raspberry Pi 40-pin header (pin 1: the square pad)")


def _module(d: schemdraw.Drawing, net: Netlist, comp: Component, col: Column) -> None:
    """A board or a socket: a box with its pins down the left side, first pin on top."""
    pitch, width = 0.6, 2.4
    height = pitch * len(comp.pins) + 0.2
    _title(d, col.x - STUB - 1.6, col.y + 0.35, f"{comp.ref}  {comp.title}")
    corners = [(col.x, col.y), (col.x + width, col.y), (col.x + width, col.y - height),
               (col.x, col.y - height), (col.x, col.y)]
    for start, end in zip(corners, corners[1:]):
        d.add(elm.Line().at(start).to(end))
    for i, pin in enumerate(comp.pins):
        at = schemdraw.util.Point((col.x, col.y - 0.4 - pitch * i))
        d.add(elm.Label().at((col.x + 0.2, at[1])).label(pin.name, fontsize=9,
                                                           halign="left", valign="center"))
        _stub(d, at, "left", pin.net, net.nets[pin.net].kind)
    col.y -= height + 1.3


def _two_terminal(d: schemdraw.Drawing, net: Netlist, comp: Component, col: Column) -> None:
    shape = {"button": elm.Button, "resistor": elm.Resistor}[comp.kind]
    _title(d, col.x - STUB - 1.2, col.y + 0.55, f"{comp.ref}  {comp.title}")
    part = d.add(shape().at((col.x, col.y)).right().length(2.0))
    first, second = comp.pins
    _stub(d, part.start, "left", first.net, net.nets[first.net].kind)
    _stub(d, part.end, "right", second.net, net.nets[second.net].kind)
    col.y -= 1.7


def _transistor(d: schemdraw.Drawing, net: Netlist, comp: Component, col: Column) -> None:
    _title(d, col.x - STUB - 1.2, col.y + 0.6, f"{comp.ref}  {comp.title}")
    q = d.add(elm.BjtNpn(circle=True).at((col.x, col.y - 2.2)).anchor("base"))
    ends = {p.name: p for p in comp.pins}
    _stub(d, q.base, "left", ends["B"].net, net.nets[ends["B"].net].kind)
    _stub(d, q.collector, "up", ends["C"].net, net.nets[ends["C"].net].kind)
    _stub(d, q.emitter, "down", ends["E"].net, net.nets[ends["E"].net].kind)
    col.y -= 5.4


DRAW = {"module": _module, "cell": _module, "socket": _module, "button": _two_terminal,
        "resistor": _two_terminal, "buzzer": _module, "npn": _transistor}
# Which column each group of parts stands in, in reading order.
COLUMNS = (("i2c", "buzzer", "link"), ("pan-",), ("host", "station-1"),
           ("station-2", "station-3", "station-"))


def draw(net: Netlist, title: str,
         canvas: Literal["svg", "matplotlib"] = "svg") -> schemdraw.Drawing:
    """The drawing on schemdraw's own SVG canvas (text stays text), or on matplotlib's."""
    d = schemdraw.Drawing(show=False, canvas=canvas)
    d.config(fontsize=LABEL_SIZE, unit=2.0, lw=1.2)
    _header(d, net)
    columns = [Column(14.5 + 11.5 * i, 0.6) for i in range(len(COLUMNS))]
    for comp in net.components[1:]:
        where = next(i for i, groups in enumerate(COLUMNS)
                     if any(comp.group.startswith(g) for g in groups))
        DRAW[comp.kind](d, net, comp, columns[where])
    bottom = min(c.y for c in columns + [Column(0, -14.0)]) - 1.0
    _title(d, -7.0, 2.2, title)
    for i, (kind, text) in enumerate(LEGEND.items()):
        x, y = -7.0 + (i % 5) * 9.0, bottom - (i // 5) * 0.8
        d.add(elm.Line().at((x, y)).right().length(1.0).color(COLOURS[kind]).linewidth(3))
        d.add(elm.Label().at((x + 1.3, y)).label(text, fontsize=LABEL_SIZE, halign="left",
                                                 valign="center"))
    d.add(elm.Label().at((-7.0, bottom - 2.0)).label(
        "Pins with the same name are connected; x: leave unconnected. Optional: 1 kOhm in "
        "series with each button line at the Pi. Drawn by python scripts/hardware.py schematic "
        "from the pin map and hardware/parts.toml.", fontsize=9, halign="left"))
    return d


def write(net: Netlist, title: str, svg: Path, pdf: Path | None) -> None:
    svg.write_bytes(draw(net, title).get_imagedata("svg"))
    if pdf is not None:   # matplotlib writes PDF; the hardware extra installs it
        draw(net, title, canvas="matplotlib").save(str(pdf))
