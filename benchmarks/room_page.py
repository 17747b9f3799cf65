"""The room benchmark's page figures (``room.py`` runs them): the room page's answer time
over HTTP and its load in a real browser (Chromium, when it is installed)."""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))





def term(store, children: int, seed: int = 1) -> int:
    """A term of answers: 12 weeks, two sessions a week, 15 answers a session, every child,
    across six learning stations; levels move by the box's own rule."""
    from spielleiter.games import learning
    from spielleiter.games.learning import Attempt

    rng = random.Random(seed)
    names = [f"Kind {i + 1:02d}" for i in range(children)]
    start = time.time() - 84 * 86400
    count = 0
    for child_index, name in enumerate(names):
        box = f"lern-{child_index % 6 + 1}"
        progress: dict[str, learning.Progress] = {}
        messages = []
        for session in range(24):
            at = start + session * 3.5 * 86400 + child_index * 600
            for i in range(15):
                quiz = learning.QUIZZES[(session + i) % 4]
                level = progress.get(quiz, learning.Progress()).level
                correct = rng.random() < 0.75
                attempt = Attempt(quiz, level, 20.0, "21", 1.0, correct)
                progress[quiz] = progress.get(quiz, learning.Progress()).after(attempt)
                count += 1
                messages.append((f"spielleiter/{box}/learning", json.dumps({
                    "v": 1, "box": box, "stream": f"s-{box}", "n": count, "journal": 1,
                    "kind": "answer", "id": count, "at": at + i * 40, "child": name,
                    "quiz": quiz, "level": level, "truth_g": 20.0, "guess": "21", "error": 1.0,
                    "correct": correct, "retry": False}).encode()))
        store.ingest_many(messages)
    return count


def timed_get(url: str, times: int = 20) -> tuple[float, int]:
    spent = []
    size = 0
    for _ in range(times):
        t0 = time.perf_counter()
        with urllib.request.urlopen(url, timeout=30) as response:
            size = len(response.read())
        spent.append(time.perf_counter() - t0)
    return statistics.median(spent), size


def browser_load(url: str) -> float | None:
    chromium, driver = "/usr/bin/chromium", "/usr/bin/chromedriver"
    if not (os.path.exists(chromium) and os.path.exists(driver)):
        return None
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    profile = tempfile.mkdtemp()
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    browser = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    try:
        loads = []
        for _ in range(5):
            browser.get(url)
            loads.append(browser.execute_script(
                "var t = performance.getEntriesByType('navigation')[0];"
                "return t.loadEventEnd - t.startTime;") / 1000)
        return statistics.median(loads)
    finally:
        browser.quit()


def page(args: argparse.Namespace, work: Path) -> dict[str, object]:
    import http.server
    import functools

    from spielleiter.device import i18n
    from spielleiter.device.room.store import Store
    from spielleiter.device.room.web import RoomServer

    i18n.use("de")
    store = Store(work / "term.sqlite3")
    answers = term(store, args.children)
    server = RoomServer(store, "127.0.0.1", 0).start()
    figures: dict[str, object] = {"answers": answers}
    for name, path in (("overview", ""), ("class", "class"),
                       ("child", "child?name=Kind%2001"), ("csv", "history.csv")):
        figures[name] = timed_get(server.url + path)
    figures["browser_class"] = browser_load(server.url + "class")
    static = work / "static"
    static.mkdir()
    size = figures["class"][1]
    (static / "class.html").write_bytes(b"x" * size)
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(static))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    figures["static"] = timed_get(f"http://127.0.0.1:{httpd.server_address[1]}/class.html")
    httpd.shutdown()
    server.stop()
    store.close()
    return figures
