"""Display: real luma drivers over a recording bus, luma's dummy device, repeats skipped."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from spielleiter.drivers.display import Display, DisplayError, RecordingBus, open_device, to_blocks


def frame(text: str) -> Image.Image:
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).text((0, 0), text, fill=1)
    return image


def test_ssd1306_over_a_recording_bus_sends_a_full_frame_once():
    bus = RecordingBus()
    display = Display(open_device("ssd1306", bus=bus))
    setup = bus.bytes_sent
    assert display.show(frame("hello"))
    sent = bus.bytes_sent - setup
    assert 1024 <= sent < 1200  # 1024 pixels bytes in 32-byte blocks plus framing
    assert not display.show(frame("hello"))
    assert bus.bytes_sent - setup == sent and display.frames_skipped == 1


def test_sh1106_is_driven_through_the_same_wrapper():
    bus = RecordingBus()
    display = Display(open_device("sh1106", bus=bus))
    before = bus.bytes_sent
    assert display.show(frame("x"))
    assert bus.bytes_sent > before + 1024


def page_addresses(log) -> list[tuple[int, ...]]:
    """The SH1106's per-page commands: page, low column nibble, high column nibble."""
    return [data for control, data in log if control == 0x00 and len(data) == 3
            and 0xB0 <= data[0] <= 0xB7]


def test_the_sh1106_column_offset_reaches_the_panel():
    """luma fixed the SH1106's first column at 2; some modules need 0."""
    for offset in (0, 2, 3):
        bus = RecordingBus(log=[])
        device = open_device("sh1106", bus=bus, column_offset=offset)
        del bus.log[:]
        device.display(frame("x"))
        pages = page_addresses(bus.log)
        assert pages == [(0xB0 + page, offset, 0x10) for page in range(8)], offset


def test_an_sh1106_offset_luma_cannot_take_is_refused(monkeypatch):
    """A luma.oled older than 3.16 would swallow the keyword and keep 2: refused, not ignored."""
    import luma.oled.device as oled

    class OldSH1106:  # luma.oled 3.15's signature: no page_address_offset
        def __init__(self, serial_interface=None, width=128, height=64, rotate=0, **kwargs):
            self.kwargs = kwargs

    monkeypatch.setattr(oled, "sh1106", OldSH1106)
    assert "page_address_offset" not in open_device("sh1106", bus=RecordingBus(),
                                                    column_offset=2).kwargs
    with pytest.raises(DisplayError, match="luma.oled 3.16 or later takes column_offset = 0"):
        open_device("sh1106", bus=RecordingBus(), column_offset=0)


def test_a_failing_bus_drops_the_frame_without_raising_and_retries_next_time():
    bus = RecordingBus()
    display = Display(open_device("ssd1306", bus=bus))
    bus.fail = True
    assert not display.show(frame("a"))
    assert display.errors == 1
    bus.fail = False
    assert display.show(frame("a"))  # the same frame is sent once the cable is back


def test_dummy_device_keeps_the_last_image():
    device = open_device("dummy")
    Display(device).show(frame("hi"))
    assert device.image is not None and device.image.getbbox() is not None


def test_block_rendering_is_64_by_32_characters():
    text = to_blocks(frame("x"))
    lines = text.splitlines()
    assert len(lines) == 32 and all(len(line) == 64 for line in lines)
    assert to_blocks(Image.new("1", (128, 64), 1)).count("█") == 64 * 32
