"""The wiring picture: the 40-pin header as an SVG, every pin labelled with what is wired to it.

Drawn from the same pin map as hardware/README.md's pinout table and the config check
(``pinout.assignments``), so the picture cannot say something else than the config.
``spielleiter pinout --svg --update hardware/wiring.svg`` writes it (``--config`` for a
site file), ``--check FILE`` exits 1 when FILE is not what the config draws (a test does that for
the committed picture). The SVG is plain text written here: no drawing library.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from .core import RESERVED, Config
from .pinout import PHYSICAL, assignments

# The pins that are not GPIOs (the same on every 40-pin Pi) and what the box puts on them.
POWER = {1: "3.3 V: OLED and HX711 VCC", 17: "3.3 V: HX711 VCC", 2: "5 V: buzzer +", 4: "5 V"}
GROUND = (6, 9, 14, 20, 25, 30, 34, 39)
SEAT_COLOURS = {"rot": "#d62728", "red": "#d62728", "blau": "#1f77b4", "blue": "#1f77b4",
                "grün": "#2ca02c", "green": "#2ca02c", "gelb": "#d4a800", "yellow": "#d4a800",
                "lila": "#9467bd", "purple": "#9467bd", "orange": "#ff7f0e", "rosa": "#e377c2",
                "pink": "#e377c2", "braun": "#8c564b", "brown": "#8c564b"}
SPARE_SEAT_COLOURS = ("#17becf", "#bcbd22", "#7f7f7f")
KINDS = {  # kind: (fill, legend)
    "power3": ("#f28e2b", "3.3 V"), "power5": ("#c0392b", "5 V"), "ground": ("#222222", "GND"),
    "oled": ("#4e79a7", "OLED (I2C1)"), "link": ("#8e44ad", "serial link (UART)"),
    "host": ("#555555", "host panel"), "buzzer": ("#d81b9c", "buzzer"),
    "pan": ("#16a085", "HX711 (SPI)"), "bus": ("#cccccc", "SPI pin: leave unconnected"),
    "eeprom": ("#eeeeee", "HAT EEPROM: reserved"), "free": ("#ffffff", "free"),
}
TOP, ROW, WIDTH = 96, 26, 1180
LEFT_PIN, RIGHT_PIN = WIDTH // 2 - 22, WIDTH // 2 + 22


def pins(cfg: Config) -> dict[int, tuple[str, str, str]]:
    """Physical pin -> (name on the header, what is wired there, colour) for all 40 pins."""
    parts = assignments(cfg)
    stations = {f"station {n} ({s.name})": SEAT_COLOURS.get(
        s.name.lower(), SPARE_SEAT_COLOURS[(n - 1) % len(SPARE_SEAT_COLOURS)])
        for n, s in enumerate(cfg.stations, start=1)}
    out: dict[int, tuple[str, str, str]] = {}
    for pin, text in POWER.items():
        name, _, wired = text.partition(": ")
        out[pin] = (name, wired, KINDS["power3" if name == "3.3 V" else "power5"][0])
    for pin in GROUND:
        out[pin] = ("GND", "", KINDS["ground"][0])
    for bcm, pin in PHYSICAL.items():
        text = parts.get(bcm, "")
        out[pin] = (f"GPIO{bcm}", text or ("HAT EEPROM (reserved)" if bcm in RESERVED
                                           and bcm < 2 else ""), _colour(bcm, text, stations))
    return out


def _colour(bcm: int, text: str, stations: dict[str, str]) -> str:
    for prefix, colour in stations.items():
        if text.startswith(prefix):
            return colour
    for start, kind in (("OLED", "oled"), ("link", "link"), ("host panel", "host"),
                        ("buzzer", "buzzer")):
        if text.startswith(start):
            return KINDS[kind][0]
    if "HX711" in text:
        return KINDS["pan"][0]
    if text.startswith("SPI"):
        return KINDS["bus"][0]
    return KINDS["eeprom" if bcm in (0, 1) else "free"][0]


def render(cfg: Config, title: str = "the shipped config") -> str:
    """The SVG text (deterministic: the same config gives the same bytes)."""
    table = pins(cfg)
    height = TOP + 20 * ROW + 120
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
           f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, Verdana, sans-serif" '
           'font-size="13">',
           f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
           f'<text x="{WIDTH // 2}" y="30" text-anchor="middle" font-size="18" '
           f'font-weight="bold">Spielleiter: the 40-pin header as {escape(title)} wires it</text>',
           f'<text x="{WIDTH // 2}" y="52" text-anchor="middle" fill="#555555">Pin 1 (the '
           'square pad) at the top left, the odd pins on the left. Every GPIO is 3.3 V, none is '
           '5 V tolerant.</text>',
           f'<rect x="{LEFT_PIN - 18}" y="{TOP - 18}" width="{RIGHT_PIN - LEFT_PIN + 36}" '
           f'height="{20 * ROW + 10}" rx="6" fill="#2d2d2d"/>']
    for pin in range(1, 41):
        name, text, colour = table[pin]
        row, odd = (pin - 1) // 2, pin % 2 == 1
        x, y = (LEFT_PIN if odd else RIGHT_PIN), TOP + row * ROW
        shape = (f'<rect x="{x - 8}" y="{y - 8}" width="16" height="16"' if pin == 1
                 else f'<circle cx="{x}" cy="{y}" r="8"')
        out.append(f'{shape} fill="{colour}" stroke="#bbbbbb" stroke-width="2"/>')
        number_x = x - 30 if odd else x + 30
        anchor = "end" if odd else "start"
        out.append(f'<text x="{number_x}" y="{y + 4}" text-anchor="{anchor}" fill="#777777">'
                   f'{pin}</text>')
        label_x = x - 56 if odd else x + 56
        wired = "#777777" if colour in (KINDS["bus"][0], KINDS["eeprom"][0]) else "#000000"
        out.append(f'<text x="{label_x}" y="{y + 4}" text-anchor="{anchor}">'
                   f'<tspan fill="#666666">{escape(name)}</tspan>'
                   + (f'  <tspan font-weight="bold" fill="{wired}">{escape(text)}</tspan>'
                      if text else "") + "</text>")
    legend_y = TOP + 20 * ROW + 30
    kinds = [k for k in KINDS if k not in ("power3", "power5", "ground", "free", "eeprom")]
    seats = [(colour, f"station {n} ({s.name})") for n, s in enumerate(cfg.stations, start=1)
             for colour in [table_colour(table, f"station {n} ({s.name})")] if colour]
    entries = [(KINDS[k][0], KINDS[k][1]) for k in kinds] + seats
    for i, (colour, text) in enumerate(entries):
        lx, ly = 60 + (i % 4) * 280, legend_y + (i // 4) * 24
        out.append(f'<circle cx="{lx}" cy="{ly}" r="7" fill="{colour}" stroke="#999999"/>')
        out.append(f'<text x="{lx + 14}" y="{ly + 4}">{escape(text)}</text>')
    out.append(f'<text x="{WIDTH // 2}" y="{height - 12}" text-anchor="middle" fill="#777777" '
               'font-size="11">Drawn by spielleiter pinout --svg from the config '
               '(the pinout table in hardware/README.md comes from the same map).</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def table_colour(table: dict[int, tuple[str, str, str]], prefix: str) -> str | None:
    return next((colour for _, text, colour in table.values() if text.startswith(prefix)), None)
