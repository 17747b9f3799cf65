"""The box's thermometer through the kernel's sysfs files (an I2C sensor via hwmon, or a
DS18B20 on 1-Wire), and its simulated twin."""

import pytest

from spielleiter.drivers import sim
from spielleiter.drivers.sim.cell_physics import CellProfile
from spielleiter.drivers.thermometer import (RESOLUTION_K, SysfsThermometer, ThermometerError,
                                             find_sensor)


def sensor(tmp_path, **files):
    dev = tmp_path / "28-0316a2799cff"
    dev.mkdir()
    for name, text in files.items():
        (dev / name).write_text(text)
    return tmp_path


def test_the_temperature_file_reads_in_degrees(tmp_path):
    bus = sensor(tmp_path, temperature="23562\n")
    assert SysfsThermometer(devices=str(bus), hwmon=str(bus)).read_c() == pytest.approx(23.562)


def test_an_older_kernels_w1_slave_reads_and_a_failed_crc_is_refused(tmp_path):
    good = ("6a 01 4b 46 7f ff 06 10 55 : crc=55 YES\n"
            "6a 01 4b 46 7f ff 06 10 55 t=22625\n")
    bus = sensor(tmp_path, w1_slave=good)
    thermo = SysfsThermometer(devices=str(bus), hwmon=str(bus))
    assert thermo.read_c() == pytest.approx(22.625)
    (bus / "28-0316a2799cff" / "w1_slave").write_text(good.replace("YES", "NO"))
    with pytest.raises(ThermometerError, match="CRC"):
        thermo.read_c()


@pytest.mark.parametrize("text", ["85000", "-127000", "garbage", ""])
def test_the_power_on_value_and_nonsense_are_not_readings(tmp_path, text):
    bus = sensor(tmp_path, temperature=text)
    with pytest.raises(ThermometerError):
        SysfsThermometer(devices=str(bus), hwmon=str(bus)).read_c()


def test_no_sensor_says_how_to_enable_the_bus_and_a_vanished_one_says_so(tmp_path):
    assert find_sensor(str(tmp_path)) is None
    with pytest.raises(ThermometerError, match="i2c-sensor"):
        SysfsThermometer(devices=str(tmp_path), hwmon=str(tmp_path)).read_c()
    bus = sensor(tmp_path, temperature="21000")
    thermo = SysfsThermometer(devices=str(bus), hwmon=str(bus))
    (bus / "28-0316a2799cff" / "temperature").unlink()
    with pytest.raises(ThermometerError, match="gone"):
        thermo.read_c()


def test_the_twin_lags_the_warming_bar_in_sixteenths_of_a_kelvin():
    clock = sim.VirtualClock()
    cell = sim.make_cell(clock, seed=4, physics=sim.PanPhysics.realistic(
        cell=CellProfile(box_rise_k=(10.0, 10.0))))
    thermo = sim.SimThermometer(cell.pan, seed=4, lag_s=60.0)
    start = thermo.read_c()
    assert abs(start - sim.thermometer.ROOM_C) <= 0.5 + RESOLUTION_K
    clock.advance(300.0)
    read = thermo.read_c()
    assert (read / RESOLUTION_K) == pytest.approx(round(read / RESOLUTION_K))
    assert 0.0 < read - start < thermo.true_c() - sim.thermometer.ROOM_C  # behind the bar
    clock.advance(7200.0)
    assert thermo.read_c() - start == pytest.approx(10.0, abs=0.2)
    thermo.failed = True
    with pytest.raises(ThermometerError):
        thermo.read_c()


def test_an_i2c_sensor_under_hwmon_is_found_and_the_pis_own_cpu_sensor_never(tmp_path):
    hwmon = tmp_path / "hwmon"
    for i, (name, milli) in enumerate([("cpu_thermal", "61000"), ("tmp102", "24125")]):
        folder = hwmon / f"hwmon{i}"
        folder.mkdir(parents=True)
        (folder / "name").write_text(name + "\n")
        (folder / "temp1_input").write_text(milli + "\n")
    found = find_sensor(str(tmp_path / "w1"), str(hwmon))
    assert found == str(hwmon / "hwmon1")
    assert SysfsThermometer(found).read_c() == pytest.approx(24.125)
    (hwmon / "hwmon1" / "name").write_text("tmp102_gone\n")
    assert find_sensor(str(tmp_path / "w1"), str(hwmon)) is None  # the SoC is no cell
