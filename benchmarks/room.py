"""Benchmark: many boxes, one room, through one Mosquitto on this machine.

    python benchmarks/room.py [--boxes 50] [--rate 10] [--seconds 60] [--children 30]

What runs: a real Mosquitto on 127.0.0.1 (``tests/mosquitto.py``), the room's collector and
database in a process of its own, one ``spielleiter uplink`` process per box (the command the
unit starts, each with its own state directory and box id), and the boxes' journals written by a
few writer processes (the boxes' files in memory by default, as each box has a card of its own;
the room's database on this machine's disk): each box commits a random legal action of a Currency Torraku or Bunte
Runde game through ``Session.apply`` (engine, journal with ``synchronous=FULL``) ``--rate`` times
a second, starting a new game when one ends.

Figures: end-to-end latency from the box's commit (the journal's ``at``) to the room's commit
of the batch that holds it, p50/p99; each uplink's CPU (user + system, from /proc) over the
steady part of the run, and with the box idle; the page's load time with a term's data for
``--children`` children (server: the time to answer each page; browser: Chromium's load event,
if installed). Baselines in the same run: a writer that publishes each action itself at commit
(no journal following, no outbox: the least a box could do), and a static file as large as the
class page served by the standard library.

Prints the figures; the exit status is 0 either way (it is a report).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from mosquitto import BINARY, Mosquitto  # noqa: E402

from spielleiter.device.journal.header import Header  # noqa: E402
from spielleiter.device.journal.store import Journal  # noqa: E402
from spielleiter.device.session import Session  # noqa: E402
from spielleiter.games import GAMES, complete  # noqa: E402

GAMES_PLAYED = ("currency-torraku", "bunte-runde")
TICK = os.sysconf("SC_CLK_TCK")


from room_page import page

def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def machine_busy() -> tuple[float, float]:
    """(busy, all) CPU seconds of the whole machine so far, from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields) - idle) / TICK, sum(fields) / TICK


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


# -- the boxes -------------------------------------------------------------------------------------
def write_boxes(dirs: list[str], rate: float, seconds: float, seed: int,
                direct_port: int | None = None) -> None:
    """One writer process: a thread per box committing ``rate`` actions a second."""
    client = None
    if direct_port is not None:  # the baseline: publish at commit, nothing else
        import paho.mqtt.client as mqtt

        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"direct-{seed}")
        client.connect("127.0.0.1", direct_port)
        client.loop_start()

    def box(index: int, folder: str) -> None:
        rng = random.Random(seed * 1000 + index)
        journal = Journal(Path(folder) / "journal.sqlite3")
        session = None
        period, start = 1.0 / rate, time.monotonic()
        for tick in range(int(seconds * rate)):
            if session is None or session.state.is_over:
                game = GAMES_PLAYED[rng.randrange(2)]
                session = Session.new(journal, Header(game, ("Anna", "Ben", "Cem"), {},
                                                      rng.randrange(1000)))
            info = GAMES[session.header.game]
            player = rng.choice(session.state.waiting_for())
            action = complete(info, rng.choice(session.state.legal_actions(player)), rng)
            session.apply(action)
            if client is not None:
                client.publish(f"direct/{index}", json.dumps({"at": time.time()}), qos=1)
            delay = start + (tick + 1) * period - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        journal.close()

    threads = [threading.Thread(target=box, args=(i, d)) for i, d in enumerate(dirs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if client is not None:
        client.loop_stop()


# -- the room --------------------------------------------------------------------------------------
def run_room(db: str, port: int, ready, done, out) -> None:
    """The room's collector in its own process; sends back each action's commit-to-room time."""
    from spielleiter.device.room.collector import Collector
    from spielleiter.device.room.store import Store
    from spielleiter.device.uplink.publisher import Broker

    latencies: list[float] = []

    class TimedStore(Store):
        def ingest_many(self, messages):
            new = super().ingest_many(messages)
            now = time.time()  # after the commit
            for topic, payload in messages:
                if topic.endswith("/events"):
                    doc = json.loads(payload)
                    if doc.get("kind") == "action" and doc.get("at"):
                        latencies.append((doc["at"], now - doc["at"]))
            return new

    store = TimedStore(db)
    collector = Collector(store, Broker("127.0.0.1", port), session="bench-room")
    collector.start()
    collector.connected.wait(10)
    ready.set()
    done.wait()
    collector.stop(timeout=300)
    store.close()
    out.put(latencies)


def run_direct_room(port: int, ready, done, out) -> None:
    import paho.mqtt.client as mqtt

    latencies: list[float] = []
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="direct-room")
    client.on_message = lambda c, u, m: latencies.append(time.time() - json.loads(m.payload)["at"])
    client.on_connect = lambda c, u, f, rc, p: (c.subscribe("direct/#", qos=1), ready.set())
    client.connect("127.0.0.1", port)
    client.loop_start()
    done.wait()
    client.loop_stop()
    out.put(latencies)


def throughput(args: argparse.Namespace, work: Path, boxes: Path, port: int,
               broker_pid: int) -> dict[str, object]:
    dirs = [str(boxes / f"box-{i}") for i in range(args.boxes)]
    for d in dirs:
        Path(d).mkdir(parents=True)
        Journal(Path(d) / "journal.sqlite3").close()  # the box has started once
    ctx = multiprocessing.get_context("spawn")
    ready, done, out = ctx.Event(), ctx.Event(), ctx.Queue()
    room = ctx.Process(target=run_room, args=(str(work / "room.sqlite3"), port, ready, done, out))
    room.start()
    ready.wait(30)
    observer = None
    sub = shutil.which("mosquitto_sub")
    if sub:  # an independent listener: when each action reached the broker
        observer = subprocess.Popen([sub, "-h", "127.0.0.1", "-p", str(port), "-q", "0",
                                     "-t", "spielleiter/+/events", "-F", "%U %p"],
                                    stdout=open(work / "observed.txt", "w"))
    logs = [open(Path(d) / "uplink.log", "w") for d in dirs]
    uplinks = [subprocess.Popen(
        [sys.executable, "-m", "spielleiter.device.cli", "uplink", "--state-dir", d,
         "--box-id", f"box-{i}", "--broker", f"127.0.0.1:{port}"],
        stderr=log) for i, (d, log) in enumerate(zip(dirs, logs))]
    import sqlite3

    def online() -> int:
        try:
            with sqlite3.connect(work / "room.sqlite3") as db:
                return db.execute("SELECT COUNT(*) FROM boxes WHERE status='online'").fetchone()[0]
        except sqlite3.Error:
            return 0

    deadline = time.monotonic() + 120
    while online() < args.boxes and time.monotonic() < deadline:
        time.sleep(0.5)  # every uplink started (Python, paho) and said "online"
    time.sleep(2)
    idle0 = [cpu_s(p.pid) for p in uplinks]
    time.sleep(10)
    idle = [(cpu_s(p.pid) - c) / 10 for p, c in zip(uplinks, idle0)]
    writers = 5
    chunks = [dirs[i::writers] for i in range(writers)]
    started = [cpu_s(p.pid) for p in uplinks]
    room_cpu0, broker_cpu0 = cpu_s(room.pid), cpu_s(broker_pid)
    before = os.times()
    machine0 = machine_busy()
    t0 = time.monotonic()
    procs = [ctx.Process(target=write_boxes, args=(chunk, args.rate, args.seconds, i))
             for i, chunk in enumerate(chunks)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    busy_s = time.monotonic() - t0
    after = os.times()
    machine1 = machine_busy()
    busy = [(cpu_s(p.pid) - c) / busy_s for p, c in zip(uplinks, started)]
    shares = {"boxes": (after.children_user + after.children_system - before.children_user
                        - before.children_system) / busy_s,
              "room": (cpu_s(room.pid) - room_cpu0) / busy_s,
              "broker": (cpu_s(broker_pid) - broker_cpu0) / busy_s,
              "uplinks": sum(busy)}
    shares["whole machine"] = (machine1[0] - machine0[0]) / busy_s
    time.sleep(3)  # the last ones arrive (the room keeps what is on its way before it stops)
    done.set()
    latencies = out.get(timeout=600)  # a room behind finishes what reached it first
    room.join()
    for p in uplinks:
        p.terminate()
    for p in uplinks:
        p.wait(timeout=20)
    for log in logs:
        log.close()
    broker_lat = []
    if observer is not None:
        observer.terminate()
        observer.wait(timeout=10)
        for line in (work / "observed.txt").read_text().splitlines():
            stamp, _, payload = line.partition(" ")
            try:
                doc = json.loads(payload)
            except ValueError:
                continue
            if doc.get("kind") == "action" and doc.get("at"):
                broker_lat.append((float(stamp) - doc["at"]) * 1000)
    said = [line for d in dirs for line in (Path(d) / "uplink.log").read_text().splitlines()
            if "sending again" in line]
    for line in said[:3]:
        print("  e.g.", line)
    resends = len(said)
    expected = args.boxes * int(args.seconds * args.rate)
    return {"latencies": latencies, "expected": expected, "busy": busy, "idle": idle,
            "busy_s": busy_s, "resends": resends, "shares": shares, "broker": broker_lat}


def direct(args: argparse.Namespace, boxes: Path, port: int) -> list[float]:
    dirs = [str(boxes / f"direct-{i}") for i in range(args.boxes)]
    for d in dirs:
        Path(d).mkdir(parents=True)
    ctx = multiprocessing.get_context("spawn")
    ready, done, out = ctx.Event(), ctx.Event(), ctx.Queue()
    room = ctx.Process(target=run_direct_room, args=(port, ready, done, out))
    room.start()
    ready.wait(30)
    chunks = [dirs[i::5] for i in range(5)]
    procs = [ctx.Process(target=write_boxes, args=(chunk, args.rate, min(args.seconds, 20), i,
                                                    port)) for i, chunk in enumerate(chunks)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    time.sleep(2)
    done.set()
    latencies = out.get(timeout=60)
    room.join()
    return latencies


# -- the page --------------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boxes", type=int, default=50)
    parser.add_argument("--rate", type=float, default=10.0, help="actions a second per box")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--children", type=int, default=30)
    parser.add_argument("--boxes-on-disk", action="store_true",
                        help="the boxes' journals and outboxes on this machine's disk too "
                             "(default: in memory, /dev/shm: each real box has a card of its "
                             "own, and 100 files fsyncing on one disk measure the disk)")
    args = parser.parse_args()
    if BINARY is None:
        sys.exit("mosquitto is not installed (Debian: apt-get install mosquitto)")
    shm = None if args.boxes_on_disk or not os.path.isdir("/dev/shm") else "/dev/shm"
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory(dir=shm) as cards:
        work = Path(tmp)
        broker = Mosquitto(work / "broker").start()
        try:
            run = throughput(args, work, Path(cards), broker.port, broker.proc.pid)
            base = direct(args, Path(cards), broker.port)
        finally:
            broker.stop()
        figures = page(args, work)
    timed = sorted(run["latencies"])
    lat = [x * 1000 for _at, x in timed]
    third = max(1, len(lat) // 3)
    print(f"  p50 in the first third of the run {pct(lat[:third], 50):.1f} ms, the last "
          f"{pct(lat[-third:], 50):.1f} ms")
    base_ms = [x * 1000 for x in base]
    print(f"{args.boxes} boxes x {args.rate:g} actions/s for {run['busy_s']:.0f} s: "
          f"{run['expected']} actions, {len(lat)} arrivals in the room's database "
          f"({run['resends']} resends by the uplinks)")
    print(f"commit on the box -> room's database: p50 {pct(lat, 50):.1f} ms, "
          f"p99 {pct(lat, 99):.1f} ms, max {max(lat):.0f} ms")
    if run["broker"]:
        print(f"  of which commit on the box -> the broker (mosquitto_sub listening): p50 "
              f"{pct(run['broker'], 50):.1f} ms, p99 {pct(run['broker'], 99):.1f} ms")
    print(f"baseline, publish at commit (no follower, no outbox): p50 {pct(base_ms, 50):.1f} ms,"
          f" p99 {pct(base_ms, 99):.1f} ms ({len(base_ms)} messages)")
    busy, idle = run["busy"], run["idle"]
    print("CPU while playing, in cores (this machine has %d): %s" % (os.cpu_count(), ", ".join(
        f"{k} {v:.2f}" for k, v in run["shares"].items())))
    print(f"uplink CPU per box while its box plays: mean {statistics.mean(busy) * 100:.2f} % "
          f"of a core, max {max(busy) * 100:.2f} %; idle: {statistics.mean(idle) * 60:.2f} "
          "CPU s a minute")
    print(f"page with a term for {args.children} children ({figures['answers']} answers):")
    for name in ("overview", "class", "child", "csv"):
        seconds, size = figures[name]
        print(f"  {name:9} {seconds * 1000:7.1f} ms  {size / 1024:7.0f} KiB")
    seconds, size = figures["static"]
    print(f"  baseline: a static file as large as the class page {seconds * 1000:.1f} ms")
    if figures["browser_class"] is not None:
        print(f"  class page in Chromium, to the load event: {figures['browser_class'] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
