"""The device's pans: readers from the config, channels fed on the loop thread, the judged
verdict of two pans, calibration kept.

Readers (real or simulated) only enqueue samples; ``Scales.on_sample`` runs on the loop thread,
feeds the pan's ``ScaleChannel``, brings the ``Judge`` of the first two pans up to date (a verdict
only after both have been stable together for ``judge_s``) and only then tells listeners, as
``Weight``s carrying every pan's ``PanSnapshot`` and the judgement: whoever is told sees the
verdict of the same sample. What changes with time alone (a load held still long enough) is
told when a mode asked for it (``hold``, ``holds.py``), so no mode polls. Each pan's
calibration lives in the journal (once calibrated, across power cuts). Pans are named in the
config; any count, one alone works.

The module is longer than most because ``Scales`` is one object on the loop thread: what comes
in (samples, status), what goes out (news, holds) and the commands that change what a sample
means (tare, calibration, temperature) share its state; the parts that stand alone live beside
it (``holds``, ``checks``, ``words``, ``simulated``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol

from ...games.core import compare_grams
from ...drivers.loadcell import LoadCellError, LoadCellSample, LoadCellStatus, make_reader
from ...drivers.weighing import (
    JUDGE_S, TIE_BAND_G, Calibration, CalibrationError, Calibrator, Judge, Judgement, PanSnapshot,
    ScaleChannel
)
from ..config.core import Config
from ..inputs import Weight
from ..journal.store import Journal
from .holds import Hold, Holds
from .words import PanReading, verdict_text
from .checks import (MAX_COUNTS_PER_GRAM, MAX_OFFSET_COUNTS, MIN_COUNTS_PER_GRAM, implausible,
                     saved_calibration)

log = logging.getLogger(__name__)

def _reason(name: str, exc: Exception) -> str:
    """A reader's error without the pan's name the drivers put first."""
    text = str(exc) or type(exc).__name__
    return text[len(name) + 2:] if text.startswith(f"{name}: ") else text


class TableScales(Protocol):
    """What a mode may use of the pans (``Table.scales``): their names, the pans now as a
    ``Weight`` (``news``: where a mode starts listening), holds, tare and the one calibration
    procedure. A mode decides on the ``Weight``s it is told; each pan's snapshot and reading and
    the judgement are here for what a screen shows now (the Scale tool's live grams). No
    channel: what a pan shows is its ``PanSnapshot``."""

    @property
    def pans(self) -> Mapping[str, object]: ...  # the configured pans, by name, in order
    @property
    def judge_s(self) -> float: ...
    @property
    def tie_band_g(self) -> float: ...
    def news(self) -> Weight: ...
    def hold(self, pan: str, seconds: float, *, judged: bool = False) -> Hold: ...
    def release(self, hold: Hold | None) -> None: ...
    def snapshot(self, name: str) -> PanSnapshot: ...
    def snapshots(self) -> dict[str, PanSnapshot]: ...
    def reading(self, name: str) -> "PanReading": ...
    def judged_pans(self) -> tuple[str, str] | None: ...
    def judgement(self) -> Judgement | None: ...
    def verdict(self) -> str | None: ...
    def tare(self) -> list[str]: ...
    def begin_calibration(self, calibrator: Calibrator,
                          on_step: Callable[[Calibrator, CalibrationError | None], None]
                          | None = None) -> None: ...
    def cancel_calibration(self) -> None: ...
    def calibrate_again(self) -> dict[str, float]: ...


@dataclass
class Pan:
    """One configured pan on the device: its channel, its reader and how it is doing.
    ``error`` says why its reader could not be made or started (a missing module, no bus)."""

    name: str
    channel: ScaleChannel
    reader: Any = None
    connected: bool = False
    calibrated: bool = False
    status: str = "starting"
    error: str | None = None


@dataclass
class Scales:
    """The configured pans (any number, or none when the config has no load cells)."""

    journal: Journal | None  # None: calibrations live for this run only (``weigh --sim``)
    tie_band_g: float = TIE_BAND_G
    judge_s: float = JUDGE_S
    pans: dict[str, Pan] = field(default_factory=dict)
    # Told every pan's news as a ``Weight``, after the judge has seen the same sample.
    listeners: list[Callable[[Weight], Any]] = field(default_factory=list)
    sim: Any = None
    judge: Judge | None = None
    holds: Holds = field(default_factory=Holds)
    _shown: dict[str, str] = field(default_factory=dict)
    _told: dict[str, tuple[object, ...]] = field(default_factory=dict)  # each pan's state, told
    _calibrating: tuple[Calibrator, Any] | None = None

    @classmethod
    def build(cls, config: Config, journal: Journal, post: Callable[[Any], None], *,
              simulated: bool = False, seed: int = 0, physics: Any = None) -> "Scales":
        """Readers for every configured pan; ``simulated`` puts them on simulated HX711s,
        whose pans and cells are ``physics`` (a ``drivers.sim.PanPhysics``; None: ideal cells)."""
        scales = cls(journal, config.tie_band_g, config.judge_s)
        cells = config.loadcells
        names = [c.pan for c in cells]
        if simulated and cells:
            from ...drivers.sim import SimScale

            scales.sim = SimScale(names, seed=seed, rate=cells[0].rate, on_event=post,
                                  physics=physics)
        scales._judge_pans(names)
        for cell in cells:
            pan = scales._add_pan(cell.pan, cell.rate)
            if scales.sim is None:
                try:
                    pan.reader = make_reader(cell.reader, cell.pan, on_event=post,
                                             rate=cell.rate, **cell.settings)
                except (LoadCellError, ValueError, TypeError) as exc:
                    pan.error = _reason(cell.pan, exc)
                    pan.status = f"reader: {pan.error}"
                    log.error("%s pan: %s", cell.pan, exc)
        return scales

    @classmethod
    def simulated(cls, names: list[str] | tuple[str, ...], *, seed: int = 0, rate: int = 10,
                  judge_s: float = JUDGE_S, tie_band_g: float = TIE_BAND_G,
                  journal: Journal | None = None, physics: Any = None) -> "Scales":
        """Scales on simulated pans fed on the caller's thread as virtual time runs
        (``scales.sim.run_for``): the one pipeline for ``weigh --sim``, tests and benchmarks.
        Each pan starts on its saved calibration, else on the simulated chip's own;
        ``physics`` as for ``build``."""
        from ...drivers.sim import SimScale

        scales = cls(journal, tie_band_g, judge_s)
        scales.sim = SimScale(list(names), seed=seed, rate=rate, on_event=scales.feed,
                              physics=physics)
        scales._judge_pans(list(names))
        for name in names:
            scales._add_pan(name, rate)
        return scales

    @classmethod
    def fed(cls, names: list[str] | tuple[str, ...], *, rate: int = 10,
            calibrations: Mapping[str, Calibration] | None = None, judge_s: float = JUDGE_S,
            tie_band_g: float = TIE_BAND_G, journal: Journal | None = None) -> "Scales":
        """Scales whose pans have no reader: the caller hands them samples (``feed``), e.g. a
        benchmark stepping simulated conversions faster than the bit-level readers could."""
        scales = cls(journal, tie_band_g, judge_s)
        scales._judge_pans(list(names))
        for name in names:
            pan = scales._add_pan(name, rate)
            given = (calibrations or {}).get(name)
            if given is not None:
                pan.channel.set_calibration(given)
                pan.calibrated = True
        return scales

    def _judge_pans(self, names: list[str]) -> None:
        if len(names) >= 2:
            self.judge = Judge(names[0], names[1], compare=compare_grams,
                               judge_s=self.judge_s, tie_band_g=self.tie_band_g)

    def _add_pan(self, name: str, rate: int) -> Pan:
        calibration = saved_calibration(self.journal, name)
        if calibration is None and self.sim is not None:
            calibration = self.sim.true_calibration(name)  # a factory-calibrated sim
        pan = Pan(name, ScaleChannel(name, calibration, rate=rate),
                  calibrated=calibration is not None)
        if self.sim is not None:
            pan.reader = self.sim.readers[name]
        self.pans[name] = pan
        return pan

    def start(self) -> None:
        if self.sim is not None:
            self.sim.start()
            return
        for pan in self.pans.values():
            if pan.reader is not None:
                try:
                    pan.reader.start()
                except Exception as exc:  # a missing chip or bus must not stop the box
                    pan.error = _reason(pan.name, exc)
                    pan.status = f"cannot start: {pan.error}"
                    log.error("%s pan: %s", pan.name, exc)

    def failed(self) -> dict[str, str]:
        """The pans whose reader could not be made or started, with the reason."""
        return {name: pan.error for name, pan in self.pans.items() if pan.error is not None}

    def close(self) -> None:
        if self.sim is not None:
            self.sim.close()
        else:
            for pan in self.pans.values():
                if pan.reader is not None:
                    pan.reader.close()

    # -- on the loop thread ----------------------------------------------------------------------
    def feed(self, event: LoadCellSample | LoadCellStatus) -> bool:
        """A reader's event, whichever it is (``on_sample`` or ``on_status``)."""
        if isinstance(event, LoadCellSample):
            return self.on_sample(event)
        return self.on_status(event)

    def on_sample(self, sample: LoadCellSample) -> bool:
        """Feed one sample; True when what a screen shows of this pan (or the verdict) changed."""
        pan = self.pans.get(sample.pan)
        if pan is None:
            return False
        pan.connected = True
        events = pan.channel.feed(sample.t, sample.counts)
        judged = self._judge(lambda judge: judge.observe_channel(pan.channel))
        stepped = self._advance_calibration(pan.name)
        news = [Weight(e.pan, e.kind, e.total_g if e.kind == "stable" else e.grams, e.t)
                for e in events]
        if judged and not news:
            news = [Weight(pan.name, "judged", None, sample.t)]
        shot = self.snapshot(pan.name)
        state = (shot.state, shot.zeroed, shot.calibrated)
        if not news and state != self._told.get(pan.name):
            news = [Weight(pan.name, "state", None, sample.t)]
        elif not news and shot.state == "moving":  # no number beyond the range (``reading``)
            news = [Weight(pan.name, "reading", self.reading(pan.name).grams, sample.t)]
        self._told[pan.name] = state
        heard = self._tell(news)
        heard = self._tell_holds() or heard
        shown = self.reading(pan.name).text()
        changed = bool(events) or judged or stepped or heard or shown != self._shown.get(pan.name)
        self._shown[pan.name] = shown
        return changed

    def on_status(self, status: LoadCellStatus) -> bool:
        pan = self.pans.get(status.pan)
        if pan is None:
            return False
        pan.status = status.state if not status.detail else f"{status.state}: {status.detail}"
        was = pan.connected
        pan.connected = status.state == "connected"
        if status.state == "disconnected":
            pan.channel.reset()
            self._judge(lambda judge: judge.forget(pan.name))
            log.warning("%s pan disconnected: %s", pan.name, status.detail)
            heard = self._tell([Weight(pan.name, "disconnected", None, status.t)])
            self._told[pan.name] = ("disconnected",)
            return heard or was != pan.connected
        return was != pan.connected

    def _judge(self, step: Callable[[Judge], Any]) -> bool:
        """Run ``step`` on the judge; True when the verdict in force changed."""
        if self.judge is None:
            return False
        before = self.verdict()
        step(self.judge)
        return self.verdict() != before

    def _tell(self, news: list[Weight]) -> bool:
        """Tell the listeners, each ``Weight`` with the pans and the judgement as they are now;
        True when a listener says what it shows changed."""
        if not news or not self.listeners:
            return False
        pans, judgement = self.snapshots(), self.judgement()
        heard = False
        for weight in news:
            told = Weight(weight.pan, weight.kind, weight.grams, weight.t, pans, judgement)
            for listener in list(self.listeners):
                heard = bool(listener(told)) or heard
        return heard

    def _tell_holds(self) -> bool:
        """A ``held`` Weight for each hold that matures at this sample (as ``_tell``)."""
        if not self.holds:
            return False
        shots, judgement, heard = self.snapshots(), self.judgement(), False
        for hold in self.holds.matured(shots, judgement):
            shot = shots[hold.pan]
            told = Weight(hold.pan, "held", shot.settled_g, shot.t or 0.0, shots, judgement, hold)
            for listener in list(self.listeners):
                heard = bool(listener(told)) or heard
        return heard

    # -- queries and commands --------------------------------------------------------------------
    def news(self) -> Weight:
        """The pans as they are now, as a ``now`` Weight: what a mode that starts listening
        (a weighing begins, a game resumes) starts from."""
        shots = self.snapshots()
        t = max((s.t for s in shots.values() if s.t is not None), default=0.0)
        return Weight("", "now", None, t, shots, self.judgement())

    def hold(self, pan: str, seconds: float, *, judged: bool = False) -> Hold:
        """Ask for a ``held`` Weight once ``pan`` has been still for ``seconds``, counted from
        its latest sample (see ``holds.py``); ``judged``: once the judgement of the first two
        pans has stood that long. It stands until ``release``."""
        if pan not in self.pans:
            raise KeyError(f"no pan named {pan!r}")
        since = self.pans[pan].channel.t
        return self.holds.add(Hold(pan, seconds, 0.0 if since is None else since, judged))

    def release(self, hold: Hold | None) -> None:
        """The mode no longer waits for ``hold``."""
        self.holds.release(hold)

    def snapshot(self, name: str) -> PanSnapshot:
        """The pan ``name`` now (KeyError for a pan that is not configured)."""
        pan = self.pans[name]
        return PanSnapshot.of(pan.channel, connected=pan.connected, calibrated=pan.calibrated,
                              starting=pan.status == "starting" and pan.error is None)

    def snapshots(self) -> dict[str, PanSnapshot]:
        return {name: self.snapshot(name) for name in self.pans}

    def reading(self, name: str) -> PanReading:
        pan, channel = self.pans[name], self.pans[name].channel
        if channel.overload or channel.underload:
            return PanReading(name, None, False, pan.connected, pan.calibrated,
                              overload=channel.overload, underload=channel.underload)
        grams = channel.settled_g if channel.stable else channel.grams
        limits = channel.settings.range
        if pan.calibrated and not channel.stable and grams is not None and \
                not limits.min_g <= grams <= limits.max_g:
            grams = None  # beyond the range, not yet confirmed: no number meanwhile ("...")
        return PanReading(name, grams, channel.stable, pan.connected, pan.calibrated)

    def judged_pans(self) -> tuple[str, str] | None:
        """The two pans the judge compares (first, second), None with fewer than two pans."""
        return None if self.judge is None else (self.judge.first, self.judge.second)

    def judgement(self) -> Judgement | None:
        """The judged comparison of the first two pans, once both have been stable together
        for ``judge_s`` (and are connected); None before, and always with fewer than two."""
        judge = self.judge
        if judge is None or not all(self.pans[n].connected for n in (judge.first, judge.second)):
            return None
        return judge.judgement

    def verdict(self) -> str | None:
        """"balanced" or "<first pan>-lighter"/"-heavier" (e.g. "left-lighter"), else None."""
        judgement = self.judgement()
        return None if judgement is None else judgement.verdict

    def tare(self, *, save: bool = True) -> list[str]:
        """Zero every stable pan; the names of those that could not be zeroed (moving). The
        new zero is kept in the journal unless ``save`` is False (an uncalibrated one never)."""
        refused = [name for name, pan in self.pans.items() if not pan.channel.tare()]
        for name, pan in self.pans.items():
            if name not in refused and pan.calibrated and save and self.journal is not None:
                self.journal.save_calibration(name, pan.channel.calibration.to_json())
        return refused

    def begin_calibration(self, calibrator: Calibrator,
                          on_step: Callable[[Calibrator, CalibrationError | None], None]
                          | None = None) -> None:
        """Arm ``calibrator`` (the one procedure: empty pan, then a known mass, each held still)
        for its next step: it captures now or at a later sample of its pan, then disarms and
        calls ``on_step(calibrator, None)``; the finished result is adopted and saved. A
        capture that defines no scale disarms it and calls ``on_step(calibrator, error)``."""
        if calibrator.pan not in self.pans:
            raise KeyError(f"no pan named {calibrator.pan!r}")
        self._calibrating = (calibrator, on_step)
        self._advance_calibration(calibrator.pan)

    def cancel_calibration(self) -> None:
        self._calibrating = None

    def _advance_calibration(self, name: str) -> bool:
        if self._calibrating is None or self._calibrating[0].pan != name:
            return False
        calibrator, on_step = self._calibrating
        error: CalibrationError | None = None
        try:
            if not calibrator.capture(self.pans[name].channel):
                return False
            problem = implausible(calibrator.result) if calibrator.result is not None else None
            if problem is not None:
                calibrator.result = None
                raise problem
        except CalibrationError as exc:
            error = exc
            log.warning("calibrating the %s pan failed: %s", name, exc)
        self._calibrating = None
        if error is None and calibrator.result is not None:
            self.set_calibration(name, calibrator.result)
        if on_step is not None:
            on_step(calibrator, error)
        return True

    def set_calibration(self, name: str, calibration: Calibration) -> None:
        """Adopt and persist a new calibration for a pan (journal first), with what the pan's
        earlier calibrations at other temperatures taught about its span
        (``Calibration.learned_from``)."""
        pan = self.pans[name]
        calibration = calibration.learned_from(pan.channel.calibration if pan.calibrated
                                               else None)
        if self.journal is not None:
            self.journal.save_calibration(name, calibration.to_json())
        self.use_calibration(name, calibration)

    def set_temperature(self, temp_c: float | None) -> bool:
        """The cells' temperature (the box's thermometer; None when it failed): each pan's
        readings are compensated for its span's drift from then on. True when that changes
        which pans ``calibrate_again`` names (the Scale tool's hint)."""
        due = self.calibrate_again().keys()
        for pan in self.pans.values():
            pan.channel.set_temperature(temp_c)
        return due != self.calibrate_again().keys()

    def calibrate_again(self) -> dict[str, float]:
        """The pans a calibration now would teach how their span moves with warmth
        (``Calibration.learns_at``), each with how much warmer (negative: colder) it is than
        at its calibration, in kelvin."""
        due = {}
        for name, pan in self.pans.items():
            cal, temp_c = pan.channel.calibration, pan.channel.temperature_c
            if pan.calibrated and temp_c is not None and cal.temp_c is not None \
                    and cal.learns_at(temp_c):
                due[name] = temp_c - cal.temp_c
        return due

    def use_calibration(self, name: str, calibration: Calibration) -> None:
        """Weigh ``name`` on ``calibration`` from now on, for this run only (nothing saved)."""
        pan = self.pans[name]
        pan.channel.set_calibration(calibration)
        pan.calibrated = True
        self._judge(lambda judge: judge.forget(name))


__all__ = ["Hold", "MAX_COUNTS_PER_GRAM", "MAX_OFFSET_COUNTS", "MIN_COUNTS_PER_GRAM", "Pan", "PanReading",
           "Scales", "TableScales", "implausible", "verdict_text"]
