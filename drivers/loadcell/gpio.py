"""The gpio reader: bit-banged reads through the ``hx711`` package's own code over RPi.GPIO.

The package is an extra (``spielleiter[hx711]``, which scripts/install.sh installs on the box):
it is imported only when a gpio reader starts, and a missing package or RPi.GPIO is a
``LoadCellError`` that says which one is missing and how to install it.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

from .events import LoadCellError, ReadAttempt, ReaderEvent
from .reader import LoadCellReader

_BOUNDED: dict[int, type] = {}
INSTALL_HINT = ("pip install 'spielleiter[hx711]' into the box's venv; scripts/install.sh "
                "installs it")


def _load_hx711(pan: str) -> Any:
    """The ``hx711`` package's module, imported now; LoadCellError naming what is missing."""
    try:
        import hx711  # noqa: PLC0415 - lazy: an extra, and it needs RPi.GPIO at import
    except ModuleNotFoundError as exc:
        if exc.name == "hx711":
            raise LoadCellError(f"{pan}: reader = \"gpio\" needs the hx711 package, which is "
                                f"not installed: {INSTALL_HINT}") from exc
        raise LoadCellError(f"{pan}: the hx711 package cannot load {exc.name} ({exc})") from exc
    except ImportError as exc:  # the package's own "You probably have to install RPi.GPIO"
        raise LoadCellError(f"{pan}: the hx711 package cannot load RPi.GPIO ({exc}): the [pi] "
                            "extra brings it (rpi-lgpio), [pi-legacy] too (RPi.GPIO)") from exc
    except RuntimeError as exc:  # rpi-lgpio and RPi.GPIO refuse to load off a Raspberry Pi
        raise LoadCellError(f"{pan}: RPi.GPIO refuses to load here ({exc})") from exc
    return sys.modules[hx711.HX711.__module__]


def _bounded_hx711(mod: Any) -> type:
    """The package's ``HX711`` without its unbounded paths: no read-and-sleep when setting gain
    or channel, no retry-forever ``get_raw_data`` after a slow gain pulse."""
    key = id(mod.HX711)
    if key in _BOUNDED:
        return _BOUNDED[key]

    class BoundedHX711(mod.HX711):
        trailer_started = False
        stretched = False

        def _apply_setting(self) -> bool:
            return True  # package: one read, then sleep 0.5 s; our Integrity skips settling

        def _set_channel_gain(self, num: int) -> bool:
            self.trailer_started = True
            clock, gpio = mod.time, mod.GPIO
            for _ in range(num):
                start = clock.perf_counter()
                gpio.output(self._pd_sck, True)
                gpio.output(self._pd_sck, False)
                if clock.perf_counter() - start >= 60e-6:
                    self.stretched = True
            return True

    _BOUNDED[key] = BoundedHX711
    return BoundedHX711


class GpioReader(LoadCellReader):
    """Bit-banged reads through the ``hx711`` package's own ``_read`` over ``RPi.GPIO``.

    Works on any two pins; Linux can preempt the thread mid-pulse, so stretched reads are
    detected (the package's 60 us check), discarded, and the chip is power-cycled to get back
    in step. Through the ``rpi-lgpio`` shim on a Zero 2 W nearly every pulse is too slow: use
    the SPI reader there.
    """

    kind = "gpio"

    def __init__(self, pan: str, on_event: Callable[[ReaderEvent], Any], *, dout_pin: int,
                 sck_pin: int, gain: int = 128, channel: str = "A", **kw: Any) -> None:
        super().__init__(pan, on_event, **kw)
        self.dout_pin, self.sck_pin = dout_pin, sck_pin
        self.gain, self.channel = gain, channel
        self._hx: Any = None
        self._mod: Any = None

    def _open(self) -> None:
        self._mod = _load_hx711(self.pan)
        self._hx = _bounded_hx711(self._mod)(self.dout_pin, self.sck_pin, gain=self.gain,
                                             channel=self.channel)
        self._recover()

    def _attempts(self) -> list[ReadAttempt]:
        hx = self._hx
        t = self.clock.now()
        if not hx._ready():
            return [ReadAttempt(t, "not_ready")]
        hx.trailer_started = hx.stretched = False
        value = hx._read(max_tries=1)
        if value is False:
            # The package returns False for a slow data pulse (no trailer sent yet) and for the
            # saturation codes (after the trailer).
            outcome = "stretched" if not hx.trailer_started or hx.stretched else "saturated"
            return [ReadAttempt(t, outcome)]
        code = int(value) & 0xFFFFFF
        if hx.stretched:
            return [ReadAttempt(t, "stretched", code)]
        if hx._ready():  # DOUT must be high right after the 25th pulse
            return [ReadAttempt(t, "misaligned", code)]
        return [ReadAttempt(t, "ok", code)]

    def _recover(self) -> None:
        self._hx.power_down()  # PD_SCK high, 10 ms: a clean power-down whatever state it was in
        self._hx.power_up()

    def _release(self) -> None:
        if self._mod is not None:
            gpio = self._mod.GPIO
            gpio.output(self.sck_pin, False)
            gpio.cleanup((self.sck_pin, self.dout_pin))


__all__ = ["GpioReader"]
