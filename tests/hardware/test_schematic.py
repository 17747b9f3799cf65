"""hardware/schematic.svg is drawn from the pin map: every header pin once, each GPIO the map
uses reaching the one part it names, and no net label the netlist does not have."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from xml.etree import ElementTree

import pytest
from boxmaker import cli, netlist, parts, pinmap

pytestmark = pytest.mark.shipped_language   # the drawing shows the box as it ships
pytest.importorskip("schemdraw")
SVG = "{http://www.w3.org/2000/svg}"


def texts(svg: bytes) -> list[tuple[str, str]]:
    """(text, colour) of every piece of text in the drawing."""
    root = ElementTree.fromstring(svg)
    return [("".join(t.itertext()).strip(), t.get("fill", "")) for t in root.iter(SVG + "text")]


def shipped() -> netlist.Netlist:
    return netlist.build(pinmap.load(None), cli.titles(parts.load()))


def test_the_committed_schematic_is_what_the_pin_map_draws():
    drawn = cli.draw_schematic(parts.load(), pinmap.load(None), None)
    assert cli.SCHEMATIC.read_bytes() == drawn, (
        "hardware/schematic.svg is stale: python scripts/hardware.py schematic")
    assert cli.SCHEMATIC.with_suffix(".pdf").stat().st_size > 10_000


def test_every_header_pin_is_drawn_once_and_carries_the_net_the_pin_map_puts_there():
    words = Counter(text for text, _ in texts(cli.SCHEMATIC.read_bytes()))
    for bcm, phys in pinmap.PHYSICAL.items():
        assert words[f"GPIO{bcm}"] == 1, bcm
    header = {p.name.split()[0]: p.net for p in shipped().header.pins}
    assert sorted(int(n) for n in header) == list(range(1, 41))
    for bcm, text in pinmap.assignments(pinmap.load(None)).items():
        net = header[str(pinmap.PHYSICAL[bcm])]
        assert shipped().nets[net].bcm == bcm, (bcm, text)


EXPECTED = {  # what the pin map's text names -> the part pins its GPIO must reach, and only those
    "host panel BACK": {("SW_BACK", "1")},
    "station 1 (Rot) A": {("X1", "1"), ("S1A", "1")},
    "station 3 (Grün) C": {("X3", "3"), ("S3C", "1")},
    "buzzer (transistor base via 1 kOhm)": {("R1", "1")},
    "left HX711 PD_SCK (SPI0 MOSI)": {("U3", "SCK")},
    "right HX711 DOUT (SPI1 MISO)": {("U4", "DT")},
    "OLED SDA (I2C1)": {("U1", "SDA"), ("U2", "SDA")},
    "link TXD (UART) -> the far end's RXD": {("X9", "RXD")},
}


def test_each_gpio_reaches_exactly_the_part_the_pin_map_names():
    net = shipped()
    by_text = {text: bcm for bcm, text in pinmap.assignments(pinmap.load(None)).items()}
    for text, ends in EXPECTED.items():
        [name] = [n.name for n in net.nets.values() if n.bcm == by_text[text]]
        header_pin = f"{pinmap.PHYSICAL[by_text[text]]} GPIO{by_text[text]}"
        assert set(net.ends(name)) == {("J1", header_pin)} | ends, text
    for bcm, text in pinmap.assignments(pinmap.load(None)).items():
        [name] = [n.name for n in net.nets.values() if n.bcm == bcm]
        others = [end for end in net.ends(name) if end[0] != "J1"]
        assert others or "leave unconnected" in text, text   # every used pin goes somewhere


def test_no_label_in_the_drawing_claims_a_pin_the_netlist_does_not_give_it():
    net = shipped()
    labels = Counter((text, colour) for text, colour in texts(cli.SCHEMATIC.read_bytes())
                     if colour != "black")          # a net's label is drawn in its wire colour
    for name, n in net.nets.items():
        if n.kind != "none":
            assert labels[(name, netlist.COLOURS[n.kind])] == len(net.ends(name)), name
    strays = {text for text, _ in labels} - set(net.nets) - {"x"}
    assert not strays, strays


def test_every_part_the_box_has_is_drawn_with_all_its_pins():
    net = shipped()
    refs = {c.ref: c for c in net.components}
    hx = [c for c in net.components if c.title.startswith("HX711")]
    assert len(hx) == 2
    for board in hx:
        assert {p.name for p in board.pins} >= {"E+", "E-", "A+", "A-", "RATE", "DT", "SCK",
                                                 "VCC", "GND"}
        assert dict((p.name, p.net) for p in board.pins)["RATE"] == "GND"   # 10 SPS as shipped
    assert sum(c.kind == "cell" for c in net.components) == 2
    assert "TMP102" in refs["U2"].title and {"SDA", "SCL"} <= {p.net for p in refs["U2"].pins}
    assert {"Q1", "R1", "R2", "BZ1", "X9"} <= set(refs)
    assert sum(c.kind == "socket" and c.ref.startswith("X") and c.ref != "X9"
               for c in net.components) == 3
    assert sum(c.kind == "button" for c in net.components) == 3 + 3 * 3
    drawn = {text for text, _ in texts(cli.SCHEMATIC.read_bytes())}
    for c in net.components:
        assert any(t.startswith(c.ref + "  ") for t in drawn), c.ref


def test_wire_colours_mean_one_thing_each():
    assert len(set(netlist.COLOURS.values())) == len(netlist.COLOURS)
    net = shipped()
    for text, colour in texts(cli.SCHEMATIC.read_bytes()):
        if colour != "black" and text != "x":
            assert colour == netlist.COLOURS[net.nets[text].kind], text
    assert netlist.COLOURS["3v3"] != netlist.COLOURS["buzzer"]


def test_a_moved_pin_redraws_the_schematic(tmp_path: Path):
    site = tmp_path / "config.toml"
    site.write_text("[buzzer]\npin = 18\n[loadcells.right]\nreader = \"none\"\n")
    cfg = pinmap.load(site)
    net = netlist.build(cfg)
    header = {p.name: p.net for p in net.header.pins}
    assert header["12 GPIO18"] == "BUZZ" and header["32 GPIO12"] == "NC12"
    assert not any(c.title.startswith("HX711 (right") for c in net.components)
    assert cli.draw_schematic(parts.load(), cfg, site) != cli.SCHEMATIC.read_bytes()


def test_the_header_picture_gives_a_kind_of_wire_the_schematic_colour():
    same = {"3v3": "power3", "5v": "power5", "gnd": "ground", "i2c": "oled", "link": "link",
            "buzzer": "buzzer", "hx711": "pan", "button": "host", "none": "bus"}
    for mine, theirs in same.items():
        assert netlist.COLOURS[mine] == pinmap.KINDS[theirs][0], mine
