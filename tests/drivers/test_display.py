"""Display: real luma drivers over a recording bus, luma's dummy device, repeats skipped."""

from __future__ import annotations

from PIL import Image, ImageDraw

from spielleiter.drivers.display import Display, RecordingBus, open_device, to_blocks


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
