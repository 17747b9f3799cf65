"""The room's page in a real browser (headless Chromium from Debian, driven by Selenium) over a
real broker: three boxes report through their uplinks, the page follows them live without a
reload, marks the one whose uplink went offline, and shows the class's plots.

Debian: ``apt-get install chromium chromium-driver mosquitto``; without them the test skips.
``SPIELLEITER_ROOM_SHOTS=DIR`` saves screenshots of each page into DIR to look at.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from spielleiter.device import i18n
from spielleiter.device.journal.learning import History
from spielleiter.device.room.web import RoomServer
from spielleiter.games.learning import Attempt
from roomkit import Room, RunningUplink, TableBox, get, wait_for

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
pytestmark = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)),
    reason="headless Chromium not installed (Debian: apt-get install chromium chromium-driver)")


@pytest.fixture
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="room-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                 f"--user-data-dir={profile}", "--window-size=1200,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def shot(driver, name: str) -> None:
    """The whole page as a PNG (Chromium's own full-page capture), when asked for."""
    folder = os.environ.get("SPIELLEITER_ROOM_SHOTS")
    if folder:
        import base64

        Path(folder).mkdir(parents=True, exist_ok=True)
        data = driver.execute_cdp_cmd("Page.captureScreenshot",
                                      {"format": "png", "captureBeyondViewport": True})["data"]
        (Path(folder) / f"{name}.png").write_bytes(base64.b64decode(data))


def card(driver, box: str, what: str = "text"):
    """The text (or ``class``, or the count of standings) of a box's card now; None while the
    fragment is being swapped (the page replaces the cards every two seconds)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    try:
        found = driver.find_elements(By.CSS_SELECTOR, f'section.box[data-box="{box}"]')
        if not found:
            return None
        if what == "text":
            return found[0].text
        if what == "rows":
            return len(found[0].find_elements(By.TAG_NAME, "li"))
        return found[0].get_attribute(what)
    except StaleElementReferenceException:
        return None


def test_the_room_follows_every_box_live_in_a_browser(tmp_path, broker, browser, monkeypatch):
    from selenium.webdriver.common.by import By

    from spielleiter.device.room import pages

    monkeypatch.setattr(pages, "REFRESH_MS", 200)  # the page asks every 2 s in the room
    i18n.use(os.environ.get("SPIELLEITER_ROOM_LANG", "en"))
    room = Room(tmp_path / "room.sqlite3", broker.port).start()
    server = RoomServer(room.store, "127.0.0.1", 0).start()
    names = {"tisch-1": "Tisch 1", "tisch-2": "Tisch 2", "lern-1": "Lernstation"}
    boxes = {key: TableBox(tmp_path / key, seed=i) for i, key in enumerate(names)}
    uplinks = {key: RunningUplink(box.path, tmp_path / f"{key}-uplink", key, broker.port,
                                  name=names[key]).start() for key, box in boxes.items()}
    try:
        boxes["tisch-1"].new("bunte-runde", ("Anna", "Ben", "Cem"))
        boxes["tisch-1"].play(6)
        boxes["tisch-2"].new("tatort-tonne", ("Dora", "Emil", "Finn"))
        boxes["tisch-2"].finish()
        history = History(boxes["lern-1"].journal)
        for i in range(24):
            history.add(("Mia", "Ole", "Pia")[i % 3],
                        Attempt(("grams", "heavier")[i % 2], 1 + i // 8, 20.0, "21", 1.0,
                                i % 4 != 0))
        wait_for(lambda: all(u.pending() == 0 for u in uplinks.values()), what="the outboxes")

        browser.get(server.url)
        wait_for(lambda: all(card(browser, key) for key in names), what="three cards")
        session = boxes["tisch-1"].session
        turn = ", ".join(session.state.waiting_for())

        def shows(box: str, *texts: str):
            return lambda: all(t in (card(browser, box) or "") for t in texts)

        # each box's live state goes at most every STATE_S: it may come after the outbox drained
        wait_for(shows("tisch-1", "Bunte Runde", f"Waiting for {turn}"), what="tisch-1's turn")
        wait_for(shows("tisch-2", "Over; won:"), what="tisch-2's winner")
        wait_for(shows("lern-1", "Learning: Pia"), what="the learning station")
        shot(browser, "overview")

        boxes["tisch-1"].play(1)  # the page follows without a reload
        turn = ", ".join(session.state.waiting_for())
        wait_for(lambda: f"Waiting for {turn}" in (card(browser, "tisch-1") or "")
                 and card(browser, "tisch-1", "rows") == 3, what="the new turn on the page")
        uplinks.pop("tisch-2").stop()  # says "offline" as it goes
        wait_for(lambda: "offline" in (card(browser, "tisch-2", "class") or ""),
                 what="the offline mark")
        shot(browser, "overview-offline")

        browser.find_element(By.LINK_TEXT, i18n._("Class")).click()
        wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "svg.spark"), what="the plots")
        assert len(browser.find_elements(By.CSS_SELECTOR, "svg.spark")) == 6  # 3 children x 2
        assert browser.find_elements(By.CSS_SELECTOR, 'section[data-quiz="grams"] tr')
        shot(browser, "class")
        browser.find_element(By.LINK_TEXT, "Mia").click()
        wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "svg.plot"), what="Mia's page")
        assert browser.find_element(By.TAG_NAME, "h2").text == "Mia"
        shot(browser, "child")

        status, _kind, text = get(server.url + "history.csv")
        assert status == 200 and len(text.strip().splitlines()) == 25
    finally:
        for uplink in uplinks.values():
            uplink.stop()
        server.stop()
        room.stop()
        i18n.use("en")
