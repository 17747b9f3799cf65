"""The box's circuit as a netlist, derived from the pin map: every part, every pin, every net.

The schematic draws exactly this, and its tests read it: each header pin lies on one net, each
GPIO the pin map uses reaches the one part the map puts there. Net kinds give the wire colours.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import pinmap

# One colour per kind of wire, and no kind shares another's; the kinds the header's picture
# (hardware/wiring.svg) shows too have the same colour there (tests check both).
COLOURS = {
    "5v": "#c0392b",       # red: 5 V
    "3v3": "#f28e2b",      # orange: 3.3 V
    "gnd": "#222222",      # black: ground
    "i2c": "#4e79a7",      # blue: the OLED's and the thermometer's bus
    "hx711": "#16a085",    # teal: an HX711's clock and data
    "bridge": "#8c564b",   # brown: a load cell's four wires (their own colours are written on)
    "button": "#555555",   # dark grey: a button line (host panel and stations)
    "buzzer": "#d81b9c",   # magenta: the buzzer's drive
    "link": "#8e44ad",     # purple: the serial link
    "none": "#cccccc",     # light grey: a pin left unconnected
}
LEGEND = {"5v": "5 V", "3v3": "3.3 V", "gnd": "GND", "i2c": "I2C1 (OLED, thermometer)",
          "hx711": "HX711 clock and data (SPI)", "bridge": "load cell bridge",
          "button": "button line (pulled up inside the Pi)", "buzzer": "buzzer drive",
          "link": "serial link (UART, 3.3 V)", "none": "not connected"}


@dataclass(frozen=True)
class Pin:
    name: str     # as printed on the part
    net: str


@dataclass
class Component:
    ref: str                       # J1, U1, ... as the drawing labels it
    title: str                     # what it is, from the parts list where it has a line
    kind: str                      # header, module, button, resistor, npn, buzzer, cell, socket
    pins: list[Pin] = field(default_factory=list)
    group: str = ""                # the block of the drawing it belongs to


@dataclass(frozen=True)
class Net:
    name: str
    kind: str
    bcm: int | None = None         # the GPIO it starts from, for a pin-map net


@dataclass
class Netlist:
    nets: dict[str, Net]
    components: list[Component]

    def ends(self, net: str) -> list[tuple[str, str]]:
        """(component ref, pin name) of every pin on ``net``."""
        return [(c.ref, p.name) for c in self.components for p in c.pins if p.net == net]

    @property
    def header(self) -> Component:
        return self.components[0]


def _net_name(bcm: int, text: str) -> tuple[str, str]:
    """A short net name and its kind for what the pin map puts on a GPIO."""
    if text.startswith("OLED S"):
        return ("SDA" if "SDA" in text else "SCL"), "i2c"
    if text.startswith("link TXD"):
        return "TXD", "link"
    if text.startswith("link RXD"):
        return "RXD", "link"
    if text.startswith("host panel "):
        return "HOST_" + text.split()[-1], "button"
    if text.startswith("station "):
        words = text.split()
        return f"S{words[1]}_{words[-1]}", "button"
    if text.startswith("buzzer"):
        return "BUZZ", "buzzer"
    if "HX711" in text:
        pan = text.split()[0].upper()
        return (f"{pan}_SCK" if "PD_SCK" in text else f"{pan}_DOUT"), "hx711"
    return f"NC{bcm}", "none"       # an SPI pin the kernel holds: left unconnected


def build(cfg: pinmap.Config, titles: dict[str, str] | None = None) -> Netlist:
    """The netlist of the box the config describes; ``titles`` names parts by the parts list."""
    t = titles or {}
    nets: dict[str, Net] = {n: Net(n, k) for n, k in
                            (("5V", "5v"), ("3V3", "3v3"), ("GND", "gnd"))}
    header = Component("J1", "Raspberry Pi 40-pin header", "header", group="pi")
    comps = [header]
    by_bcm = {}
    for bcm, text in pinmap.assignments(cfg).items():
        name, kind = _net_name(bcm, text)
        nets[name] = Net(name, kind, bcm)
        by_bcm[bcm] = name
    bcm_of = {phys: bcm for bcm, phys in pinmap.PHYSICAL.items()}
    for phys in range(1, 41):
        if phys in pinmap.GROUND:
            header.pins.append(Pin(f"{phys} GND", "GND"))
        elif phys in pinmap.POWER:
            volts = "3V3" if pinmap.POWER[phys].startswith("3.3") else "5V"
            header.pins.append(Pin(f"{phys} {volts}", volts))
        else:
            bcm = bcm_of[phys]
            net = by_bcm.get(bcm)
            if net is None:
                net = f"NC{bcm}"
                nets[net] = Net(net, "none", bcm)
            header.pins.append(Pin(f"{phys} GPIO{bcm}", net))

    def add(ref: str, title: str, kind: str, group: str, *pins: tuple[str, str]) -> None:
        comps.append(Component(ref, title, kind, [Pin(n, net) for n, net in pins], group))

    def local(name: str, kind: str) -> str:
        nets[name] = Net(name, kind)
        return name

    add("U1", t.get("oled", "OLED 128x64 I2C"), "module", "i2c",
        ("GND", "GND"), ("VCC", "3V3"), ("SCL", "SCL"), ("SDA", "SDA"))
    add("U2", t.get("tmp102", "TMP102") + " (taped to the left cell's bar)", "module", "i2c",
        ("VCC", "3V3"), ("GND", "GND"), ("SDA", "SDA"), ("SCL", "SCL"), ("ADD0", "GND"))
    number = 3
    for cell in cfg.loadcells:
        if cell.reader not in ("spi", "gpio"):
            continue
        pan = cell.pan.upper()
        rate = "3V3" if cell.settings.get("rate", 10) == 80 else "GND"
        bridge = {w: local(f"{pan}_{w}", "bridge") for w in ("E+", "E-", "A+", "A-")}
        add(f"U{number}", f"{t.get('hx711', 'HX711')} ({cell.pan} pan)", "module",
            f"pan-{cell.pan}", ("VCC", "3V3"), ("GND", "GND"), ("DT", f"{pan}_DOUT"),
            ("SCK", f"{pan}_SCK"), ("RATE", rate), ("E+", bridge["E+"]),
            ("E-", bridge["E-"]), ("A+", bridge["A+"]), ("A-", bridge["A-"]))
        add(f"LC{number - 2}", f"{t.get('cell', 'load cell')} ({cell.pan})", "cell",
            f"pan-{cell.pan}", ("red", bridge["E+"]), ("black", bridge["E-"]),
            ("green", bridge["A+"]), ("white", bridge["A-"]))
        number += 1
    for key in cfg.host:
        add(f"SW_{key.upper()}", f"host panel {key.upper()}", "button", "host",
            ("1", f"HOST_{key.upper()}"), ("2", "GND"))
    for n, station in enumerate(cfg.stations, start=1):
        lines = {key: f"S{n}_{key}" for key in station.pins}
        add(f"X{n}", f"GX12 socket, station {n} ({station.name})", "socket", f"station-{n}",
            *[(str(i), lines[k]) for i, k in enumerate(("A", "B", "C"), start=1)], ("4", "GND"))
        for key in ("A", "B", "C"):
            add(f"S{n}{key}", f"station {n} ({station.name}) {key}", "button", f"station-{n}",
                ("1", lines[key]), ("2", "GND"))
    if cfg.buzzer_pin is not None:
        base, collector = local("Q1_B", "buzzer"), local("BZ_N", "buzzer")
        add("R1", "1 kOhm", "resistor", "buzzer", ("1", "BUZZ"), ("2", base))
        add("R2", "10 kOhm", "resistor", "buzzer", ("1", base), ("2", "GND"))
        add("Q1", t.get("transistor", "BC337"), "npn", "buzzer",
            ("B", base), ("C", collector), ("E", "GND"))
        add("BZ1", t.get("buzzer", "active buzzer 5 V"), "buzzer", "buzzer",
            ("+", "5V"), ("-", collector))
    if cfg.link_enabled:
        add("X9", "serial link to the far end (3.3 V TTL)", "socket", "link",
            ("RXD", "TXD"), ("TXD", "RXD"), ("GND", "GND"))
    return Netlist(nets, comps)
