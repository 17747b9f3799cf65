"""Configuration: the shipped defaults (``data/default_config.toml``) with a site file over them.

``load`` merges and validates; every problem is collected (key, what is wrong, how to fix it) so
``spielleiter config check`` can report them all at once and the service refuses to start with a
clear message instead of a traceback.

Pans are named in the config: each ``[loadcells.<name>]`` table is one pan (the defaults ship
``left`` and ``right``). A site file that only changes shipped pans merges with them (and
``reader = "none"`` switches one off, so one pan alone works); a site file that names a pan of
its own replaces the shipped set: its pans are exactly the ones it names.
"""

from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ...drivers.weighing import JUDGE_S, TIE_BAND_G
from ..exc import ConfigError
from ..i18n import LANGUAGES
from ..text import shown
from .cells import BAUD_RATES, LOADCELL_SETTINGS, LoadCell, check_loadcells
from .fleet import Fleet, check_fleet
from .hardware import Hardware, check_hardware

SITE_CONFIG = Path("/etc/spielleiter/config.toml")
BCM_PINS = range(0, 28)
RESERVED = {0: "the HAT ID EEPROM (ID_SD)", 1: "the HAT ID EEPROM (ID_SC)",
            2: "I2C SDA (the OLED)", 3: "I2C SCL (the OLED)"}
UART_PINS = {14: "the UART TX (serial link)", 15: "the UART RX (serial link)"}
KEYS = ("a", "b", "c")
I2C_SPEED_HZ = range(10_000, 1_000_001)  # the Pi's I2C controller; SSD1306/SH1106 specify 400 kHz
SH1106_COLUMN_OFFSETS = range(5)  # 132 columns of memory, 128 shown
PANS = ("left", "right")  # the shipped pans; the configured ones are ``Config.pan_names``


@dataclass(frozen=True)
class Station:
    name: str
    pins: dict[str, int]  # "A", "B", "C" -> BCM


@dataclass(frozen=True)
class Config:
    """The validated settings the device is built from."""

    raw: dict[str, Any]
    display_driver: str
    i2c_port: int
    i2c_address: int
    rotate: int
    debounce_s: float
    hold_s: float
    host: dict[str, int]
    stations: tuple[Station, ...]
    buzzer_pin: int | None
    buzzer_enabled: bool
    player_names: tuple[str, ...]
    link_enabled: bool
    link_port: str
    link_baud: int
    loadcells: tuple[LoadCell, ...] = ()
    tie_band_g: float = TIE_BAND_G
    judge_s: float = JUDGE_S
    language: str = "de"  # [ui] language: the screens' language until Settings changes it
    column_offset: int = 2  # [display] sh1106: the memory column the panel's first pixel shows
    i2c_speed_hz: int = 400_000  # [display] what the boot settings give the I2C bus
    fleet: "Fleet | None" = None  # [fleet]: the room this box reports to (None: none)
    hardware: Hardware = Hardware()  # [hardware]: simulated parts, the header's GPIO chip

    @property
    def pan_names(self) -> tuple[str, ...]:
        """The pans that have a reader, in config order."""
        return tuple(cell.pan for cell in self.loadcells)

    def display_options(self) -> dict[str, Any]:
        """The keywords of ``drivers.display.open_device`` for the configured OLED."""
        return {"port": self.i2c_port, "address": self.i2c_address, "rotate": self.rotate,
                "column_offset": self.column_offset}

    def button_pins(self) -> dict[str, int]:
        """Every button by its runtime name: ``host.back`` ... ``s1.A`` ..."""
        pins = {f"host.{k}": v for k, v in self.host.items()}
        for number, station in enumerate(self.stations, start=1):
            for key, pin in station.pins.items():
                pins[f"s{number}.{key}"] = pin
        return pins


# The seat colours the shipped config names players and stations after (German, its first users)
# and their English twins (an English config, an older box): a seat, not a person.
SEAT_COLOURS = frozenset(
    ("Rot", "Blau", "Grün", "Gelb", "Lila", "Orange", "Rosa", "Braun", "Grau", "Weiß",
     "Red", "Blue", "Green", "Yellow", "Purple", "Pink", "Brown", "Grey", "White"))


def defaults() -> dict[str, Any]:
    text = resources.files("spielleiter.device").joinpath("data/default_config.toml").read_text()
    return tomllib.loads(text)


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def read(path: Path | None) -> dict[str, Any]:
    """Defaults merged with the file at ``path`` (if given and present)."""
    raw = defaults()
    if path is not None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ConfigError([f"{path}: no such file"]) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError([f"{path}: cannot be read as UTF-8 text ({exc})"]) from None
        try:
            site = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError([f"{path}: not valid TOML ({exc})"]) from None
        shipped = raw.get("loadcells", {})
        raw = _merge(raw, site)
        cells = site.get("loadcells")
        if isinstance(cells, dict) and isinstance(raw["loadcells"], dict):
            _site_pans(raw["loadcells"], shipped, cells)
    return raw


def _site_pans(merged: dict[str, Any], shipped: dict[str, Any], site: dict[str, Any]) -> None:
    """Apply the site file's pans to the merged ``[loadcells]`` table (see the module doc). A
    table under a setting's name (``[loadcells.tie_band_g]``) is not a pan: ``validate`` reports
    it where the number belongs."""
    own = [k for k, v in site.items() if isinstance(v, dict) and k not in LOADCELL_SETTINGS]
    pans = {k: v for k, v in shipped.items() if isinstance(v, dict)}
    if any(pan not in pans for pan in own):  # pans of its own: exactly those
        for pan in [k for k in pans if k not in own]:
            del merged[pan]
    for pan in own:
        # A pan that names another reader starts from its own table: the shipped SPI keys (bus,
        # device) mean nothing to a gpio, serial or absent reader.
        over = site[pan]
        if "reader" in over and over["reader"] != pans.get(pan, {}).get("reader"):
            merged[pan] = copy.deepcopy(over)


def _toml(key: str, value: Any) -> str:
    """``value`` written as TOML, for the examples in problem messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, int) and key.endswith("address"):
        return f"0x{value:02X}"
    return repr(value)


class _Checker:
    """Collects problems while reading typed values out of the raw tree."""

    def __init__(self, raw: dict[str, Any], known: dict[str, Any]) -> None:
        self.raw = raw
        self.problems: list[str] = []
        self._unknown(raw, known, "")

    def _unknown(self, raw: Any, known: Any, prefix: str) -> None:
        if not isinstance(raw, dict) or not isinstance(known, dict):
            return
        for key, value in raw.items():
            if key not in known:
                self.problems.append(f"{prefix}{key}: unknown key (remove it or check the spelling;"
                                     f" known: {', '.join(sorted(known))})")
            elif isinstance(known[key], dict):
                self._unknown(value, known[key], f"{prefix}{key}.")

    def get(self, section: str, key: str, kind: type, default: Any = None) -> Any:
        table = self.raw.get(section, {})
        value = table.get(key, default) if isinstance(table, dict) else default
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            self.problems.append(f"{section}.{key}: expected {kind.__name__}, got {shown(value)} "
                                 f"(e.g. {key} = {_toml(key, default)})")
            return default
        return value

    def pin(self, where: str, value: Any) -> int | None:
        if value is None:
            self.problems.append(f"{where}: missing; set it to a free BCM pin (4-27)")
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value not in BCM_PINS:
            self.problems.append(f"{where}: {shown(value)} is not a BCM pin (use 4-27)")
            return None
        return value


def validate(raw: dict[str, Any]) -> Config:
    """Check the merged tree and build a Config; raise ConfigError listing every problem."""
    known: dict[str, Any] = defaults()
    known["loadcells"] = None  # any pan names: checked by check_loadcells
    c = _Checker(raw, known)
    raw = dict(raw)
    for section, table in known.items():  # a section that is not a table: reported, then empty
        if isinstance(table, dict) and section in raw and not isinstance(raw[section], dict):
            c.problems.append(f"{section}: expected a table ([{section}] with keys), "
                              f"got {shown(raw[section])}")
            raw[section] = {}
    driver = c.get("display", "driver", str, "ssd1306")
    if driver not in ("ssd1306", "sh1106"):
        c.problems.append(f"display.driver: {shown(driver)} is not ssd1306 or sh1106")
    rotate = c.get("display", "rotate", int, 0)
    if rotate not in range(4):
        c.problems.append(f"display.rotate: {rotate} (use 0, 1, 2 or 3)")
    debounce = c.get("buttons", "debounce_ms", int, 30)
    hold = c.get("buttons", "hold_ms", int, 1000)
    if not 1 <= debounce <= 200:
        c.problems.append(f"buttons.debounce_ms: {debounce} (use 1-200)")
    if not 300 <= hold <= 5000:
        c.problems.append(f"buttons.hold_ms: {hold} (use 300-5000)")

    owners: list[tuple[str, int]] = []
    host: dict[str, int] = {}
    for key in ("back", "ok", "next"):
        pin = c.pin(f"host.{key}", raw.get("host", {}).get(key))
        if pin is not None:
            host[key] = pin
            owners.append((f"host.{key}", pin))
    stations: list[Station] = []
    raw_stations = raw.get("stations", [])
    if not isinstance(raw_stations, list):
        c.problems.append("stations: expected a list of [[stations]] tables")
        raw_stations = []
    for number, st in enumerate(raw_stations, start=1):
        if not isinstance(st, dict):
            c.problems.append(f"stations[{number}]: expected a table")
            continue
        for key in st:
            if key not in ("name", *KEYS):
                c.problems.append(f"stations[{number}].{key}: unknown key (use name, a, b, c)")
        pins = {}
        for key in KEYS:
            pin = c.pin(f"stations[{number}].{key}", st.get(key))
            if pin is not None:
                pins[key.upper()] = pin
                owners.append((f"stations[{number}].{key}", pin))
        name = st.get("name", f"Seat {number}")
        if not isinstance(name, str) or not name.strip():
            c.problems.append(f"stations[{number}].name: {shown(name)} (use a short text, e.g. \"Red\")")
        stations.append(Station(str(name), pins))
    buzzer_pin = raw.get("buzzer", {}).get("pin")
    if buzzer_pin is not None:
        buzzer_pin = c.pin("buzzer.pin", buzzer_pin)
        if buzzer_pin is not None:
            owners.append(("buzzer.pin", buzzer_pin))
    link_enabled = c.get("link", "enabled", bool, True)
    loadcells, tie_band_g, judge_s = check_loadcells(c, raw.get("loadcells", {}), owners)

    by_pin: dict[int, list[str]] = {}
    for name, pin in owners:
        by_pin.setdefault(pin, []).append(name)
        if pin in RESERVED:
            c.problems.append(f"{name}: GPIO{pin} is reserved for {RESERVED[pin]}; pick a free pin")
        if link_enabled and pin in UART_PINS:
            c.problems.append(f"{name}: GPIO{pin} is {UART_PINS[pin]}; pick another pin or set "
                              "link.enabled = false")
    for pin, names in sorted(by_pin.items()):
        if len(names) > 1:
            c.problems.append(f"{' and '.join(names)}: both on GPIO{pin}; give each its own pin")

    names = raw.get("players", {}).get("names", [])
    if not isinstance(names, list) or len(names) < 10 or not all(
            isinstance(n, str) and n.strip() for n in names) or \
            len({n.strip() for n in names}) != len(names):
        c.problems.append("players.names: ten distinct names are needed (one per possible seat)")
        names = defaults()["players"]["names"]
    address = c.get("display", "i2c_address", int, 0x3C)
    if address not in (0x3C, 0x3D):
        c.problems.append(f"display.i2c_address: 0x{address:02X} (SSD1306/SH1106 use 0x3C or 0x3D)")
    i2c_port = c.get("display", "i2c_port", int, 1)
    if i2c_port < 0:
        c.problems.append(f"display.i2c_port: {i2c_port} (1 is /dev/i2c-1 on GPIO 2 and 3)")
    column_offset, i2c_speed_hz = _display_bus(c, driver)
    buzzer_enabled = c.get("buzzer", "enabled", bool, True)
    link_port = c.get("link", "port", str, "header")
    link_baud = c.get("link", "baud", int, 115200)
    if link_baud not in BAUD_RATES:
        c.problems.append(f"link.baud: {link_baud} (use one of {', '.join(map(str, BAUD_RATES))})")
    language = c.get("ui", "language", str, "de")
    if language not in LANGUAGES:
        c.problems.append(f"ui.language: {shown(language)} (use {' or '.join(LANGUAGES)})")
    fleet = check_fleet(c, raw.get("fleet", {}))
    hardware = check_hardware(c, raw.get("hardware", {}))
    if c.problems:
        raise ConfigError(c.problems)
    return Config(
        raw=raw,
        display_driver=driver,
        i2c_port=i2c_port,
        i2c_address=address,
        rotate=rotate,
        debounce_s=debounce / 1000,
        hold_s=hold / 1000,
        host=host,
        stations=tuple(stations),
        buzzer_pin=buzzer_pin,
        buzzer_enabled=buzzer_enabled,
        player_names=tuple(n.strip() for n in names),
        link_enabled=link_enabled,
        link_port=link_port,
        link_baud=link_baud,
        loadcells=loadcells,
        tie_band_g=tie_band_g,
        judge_s=judge_s,
        language=language,
        column_offset=column_offset,
        i2c_speed_hz=i2c_speed_hz,
        fleet=fleet,
        hardware=hardware,
    )


def _display_bus(c: _Checker, driver: str) -> tuple[int, int]:
    """``[display] column_offset`` (the SH1106's) and ``i2c_speed_hz``."""
    offset = c.get("display", "column_offset", int, 2)
    if offset not in SH1106_COLUMN_OFFSETS:
        c.problems.append(f"display.column_offset: {offset} (0-4: the SH1106 memory column of the "
                          "panel's first pixel; 2 for most 1.3\" modules, 0 for some)")
        offset = 2
    elif offset != 2 and driver != "sh1106":
        c.problems.append(f"display.column_offset: {offset}, but only the sh1106 has a column "
                          "offset; set display.driver = \"sh1106\" or remove column_offset")
    speed = c.get("display", "i2c_speed_hz", int, 400_000)
    if speed not in I2C_SPEED_HZ:
        c.problems.append(f"display.i2c_speed_hz: {speed} (use 10000-1000000; 400000 is the "
                          "OLED's fast mode, 100000 the Pi's default)")
        speed = 400_000
    return offset, speed


def load(path: Path | None = None) -> Config:
    """Read and validate; ``path`` None means the defaults alone."""
    return validate(read(path))
