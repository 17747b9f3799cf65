"""Benchmark: the room's memory and page with 30 boxes and a term of answers, then under a flood
of hostile messages.

    python benchmarks/room_door.py [--rate 1000] [--seconds 60] [--children 30]

What runs: a real Mosquitto on 127.0.0.1 (``tests/mosquitto.py``) and ``spielleiter room`` as a
teacher starts it, in a process of its own, on a database that already holds 30 boxes (24 game
tables with 40 finished games each and a live state, 6 learning stations) and a term of answers
(``room_page.term``: 12 weeks, two sessions a week, 15 answers a session, every child). Then a
stranger's client publishes ``--rate`` messages a second for ``--seconds`` (QoS 0, as an
attacker would) on the topics of real and invented boxes: arbitrary JSON, the right envelope
with bodies of the wrong shape, states with huge numbers, a state and a stream message past the
size limit (1 in 100), bytes that are no text, invented box names.

Figures: the room's resident memory (VmRSS from /proc) with the term before any page, after the
pages, every second of the flood (first, peak, last); the overview's answer time and status
every half second during the flood against before it (the baseline, same run); what the room
refused (the counts its page shows) and how many lines its log got; whether every real box's
card still shows its game. Prints the figures; the exit status is 0 either way (a report).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from mosquitto import BINARY, Mosquitto, free_port  # noqa: E402
from room_page import term  # noqa: E402

TABLES, STATIONS, GAMES_EACH = 24, 6, 40


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def fill(db: Path, children: int) -> int:
    """30 boxes and a term, through the room's own store (what the collector would do)."""
    from spielleiter.device.room.store import Store

    store = Store(db)
    count = term(store, children)
    rng = random.Random(2)
    now = time.time()
    for t in range(TABLES):
        box, stream = f"tisch-{t + 1}", f"s-tisch-{t + 1}"
        messages = []
        for g in range(GAMES_EACH):
            players = ["Anna", "Ben", "Cem"]
            scores = [rng.randint(0, 30) for _ in players]
            standings = sorted(zip(scores, players), reverse=True)
            messages.append((f"spielleiter/{box}/games", json.dumps({
                "v": 1, "box": box, "stream": stream, "n": g + 1, "journal": 1, "kind": "game",
                "game_id": g + 1, "record": {
                    "game_id": g + 1, "game": "bunte-runde", "title": "Bunte Runde",
                    "status": "over", "started": None, "ended": None, "players": players,
                    "standings": [{"rank": i + 1, "player": p, "score": s}
                                  for i, (s, p) in enumerate(standings)],
                    "winners": [standings[0][1]], "actions": 40,
                    "box": {"id": box, "name": f"Tisch {t + 1}"}}}).encode()))
        messages.append((f"spielleiter/{box}/state", json.dumps({
            "v": 1, "box": box, "name": f"Tisch {t + 1}", "stream": stream, "n": GAMES_EACH,
            "game": "bunte-runde", "game_id": GAMES_EACH + 1, "journal": 1,
            "title": "Bunte Runde", "players": ["Anna", "Ben", "Cem"], "actions": 3, "at": now,
            "public": {}, "waiting_for": ["Ben"], "over": False, "winners": [],
            "standings": [{"rank": 1, "player": "Anna", "score": 3},
                          {"rank": 2, "player": "Ben", "score": 1},
                          {"rank": 3, "player": "Cem", "score": 0}]}).encode()))
        messages.append((f"spielleiter/{box}/status", b"online"))
        store.ingest_many(messages)
    store.close()
    return count


def hostile(rng: random.Random, good_state: dict) -> tuple[str, bytes]:
    """One stranger's message (see the module doc)."""
    roll = rng.random()
    box = f"tisch-{rng.randint(1, TABLES)}" if rng.random() < 0.7 else \
        f"fake-{rng.randrange(10**6)}"
    topic = f"spielleiter/{box}/{rng.choice(['status', 'state', 'events', 'learning', 'games'])}"
    if roll < 0.01:
        return topic, json.dumps({**good_state, "box": box, "title": "x" * 100_000}).encode()
    if roll < 0.05:
        return topic, bytes(rng.randrange(256) for _ in range(40))
    if roll < 0.30:
        return f"spielleiter/{box}/state", json.dumps({
            **good_state, "box": box, "n": rng.choice([10**15, 2**70, -1]),
            "players": ["Mallory"]}).encode()
    if roll < 0.60:
        return topic, json.dumps({
            "v": 1, "box": box, "stream": f"s-{box}", "n": rng.randint(1, 10**9), "journal": 1,
            "kind": rng.choice(["start", "action", "answer", "game", "forget"]),
            "actions": "many", "standings": 7, "title": {"a": 1}, "at": 1e15,
            "child": ["x"], "record": {"box": {"id": "tisch-1"}}}).encode()
    shapes = [None, True, 1e308, "=cmd", [1, [2, [3]]], {"a": {"b": {"c": []}}}]
    return topic, json.dumps(rng.choice(shapes)).encode()


def flood(port: int, rate: int, seconds: float, sent: list[int]) -> None:
    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="stranger")
    client.max_queued_messages_set(0)
    client.connect("127.0.0.1", port)
    client.loop_start()
    rng = random.Random(7)
    good = {"v": 1, "box": "tisch-1", "name": "Tisch 1", "stream": "s-tisch-1", "n": 1,
            "game": "bunte-runde", "title": "Bunte Runde", "players": ["Anna"],
            "actions": 0, "waiting_for": [], "standings": [], "over": False, "winners": []}
    start, batch = time.monotonic(), max(1, rate // 20)
    tick = 0
    while time.monotonic() - start < seconds:
        for _ in range(batch):
            client.publish(*hostile(rng, good), qos=0)
            sent[0] += 1
        tick += 1
        delay = start + tick * batch / rate - time.monotonic()
        if delay > 0:
            time.sleep(delay)
    client.disconnect()
    client.loop_stop()


def one_huge_state(port: int, pid: int, url: str) -> tuple[int, int]:
    """A 20 MB retained state for tisch-1 (the finding's attack): RSS and the page after."""
    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="stranger-big")
    client.connect("127.0.0.1", port)
    client.loop_start()
    state = {"v": 1, "box": "tisch-1", "name": "Tisch 1", "stream": "s-tisch-1", "n": 1,
             "game": "bunte-runde", "title": "x" * 20_000_000, "players": [], "actions": 0,
             "waiting_for": [], "standings": [], "over": False, "winners": []}
    client.publish("spielleiter/tisch-1/state", json.dumps(state), qos=1,
                   retain=True).wait_for_publish(timeout=60)
    client.publish("spielleiter/tisch-1/state", b"", qos=1, retain=True).wait_for_publish(
        timeout=60)  # the retained message taken away again
    client.disconnect()
    client.loop_stop()
    time.sleep(3)
    return rss_kib(pid), len(get(url)[2])


def get(url: str) -> tuple[int, float, str]:
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            body = response.read().decode()
            return response.status, time.perf_counter() - t0, body
    except urllib.error.HTTPError as exc:
        return exc.code, time.perf_counter() - t0, ""
    except OSError:
        return 0, time.perf_counter() - t0, ""


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=int, default=1000, help="hostile messages a second")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the flood lasts")
    parser.add_argument("--children", type=int, default=30)
    args = parser.parse_args()
    if BINARY is None:
        print("needs mosquitto (Debian: apt-get install mosquitto)")
        return 0
    folder = Path(tempfile.mkdtemp(prefix="room-door-"))
    db = folder / "room.sqlite3"
    answers = fill(db, args.children)
    log = folder / "room.log"
    with Mosquitto(folder / "broker") as broker:
        page_port = free_port()
        room = subprocess.Popen(
            [sys.executable, "-m", "spielleiter.device.cli", "room", "--broker",
             f"127.0.0.1:{broker.port}", "--db", str(db), "--port", str(page_port),
             "--lang", "en"], stdout=subprocess.DEVNULL, stderr=open(log, "w"))
        url = f"http://127.0.0.1:{page_port}/"
        try:
            deadline = time.monotonic() + 30
            while get(url)[0] != 200 and time.monotonic() < deadline:
                time.sleep(0.2)
            time.sleep(2)  # connected, the probe done
            idle_kib = rss_kib(room.pid)
            before = [get(url)[1] for _ in range(20)]
            sizes = {p: len(get(url + p)[2]) for p in ("", "class", "history.csv")}
            fragment = get(url + "fragment/boxes")[2]
            cards = {m.group(1): m.group(0) for m in re.finditer(
                r'<section class="box [a-z]+" data-box="([^"]+)">.*?</section>', fragment)}
            pages_kib = rss_kib(room.pid)
            sent = [0]
            sender = threading.Thread(target=flood, args=(broker.port, args.rate, args.seconds,
                                                          sent))
            memory, answered, statuses = [], [], []
            busy_start = time.monotonic()
            sender.start()
            while sender.is_alive():
                status, spent, _body = get(url)
                statuses.append(status)
                answered.append(spent)
                memory.append(rss_kib(room.pid))
                time.sleep(0.5)
            sender.join()
            flood_s = time.monotonic() - busy_start
            time.sleep(3)  # the room's queue drained
            after = get(url + "fragment/boxes")[2]
            refused = sum(int(n) for n in re.findall(r"(\d+) messages? refused", after))
            still = sum(1 for box, card_html in cards.items()
                        if re.search(rf'data-box="{box}">.*?Bunte Runde', after) or
                        "learning" in card_html)
            log_lines = len(log.read_text().splitlines())
            end_kib = rss_kib(room.pid)
            big_kib, big_page = one_huge_state(broker.port, room.pid, url)
        finally:
            room.terminate()
            room.wait(timeout=30)
    print(f"room with {TABLES + STATIONS} boxes, {TABLES * GAMES_EACH} finished games and "
          f"{answers} answers ({args.children} children); database "
          f"{db.stat().st_size / 2**20:.1f} MiB")
    print(f"room memory (RSS): {idle_kib / 1024:.1f} MiB started, {pages_kib / 1024:.1f} MiB "
          f"after its pages (overview {sizes[''] // 1024} KiB, class {sizes['class'] // 1024} "
          f"KiB, CSV {sizes['history.csv'] // 1024} KiB)")
    print(f"flood: {sent[0]} hostile messages in {flood_s:.0f} s "
          f"({sent[0] / flood_s:.0f} a second); memory first {memory[0] / 1024:.1f}, peak "
          f"{max(memory) / 1024:.1f}, last {memory[-1] / 1024:.1f} MiB, "
          f"{end_kib / 1024:.1f} MiB after")
    print(f"overview during the flood: {statuses.count(200)} of {len(statuses)} answered 200, "
          f"p50 {statistics.median(answered) * 1000:.0f} ms, p99 "
          f"{pct(answered, 99) * 1000:.0f} ms; before it (baseline): p50 "
          f"{statistics.median(before) * 1000:.0f} ms, p99 {pct(before, 99) * 1000:.0f} ms")
    print(f"one retained state of 20 MB on a real box's topic: memory {big_kib / 1024:.1f} MiB "
          f"after it, the overview {big_page // 1024} KiB")
    print(f"refused as shown on the cards: {refused} (the rest by invented boxes, counted "
          f"together); log lines: {log_lines}; real boxes still showing their game or answers: "
          f"{still} of {len(cards)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
