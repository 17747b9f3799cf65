"""Pure signal processing for the load cells: counts in; grams, stability, steps and verdicts out.

No I/O, no clock, no threads: everything takes the sample times it needs, so the same code runs
on the box, in the simulation and on synthetic streams in tests. ``calibration`` (counts to grams
and the procedure that finds them), ``stability`` (spike filter, motion band), ``channel`` (one
pan's chain, ``ScaleChannel``) and ``judge`` (two pans compared once both have been stable
together for ``judge_s``); ``zero`` (zero tracking, the fresh zero, the warm-up notice) and
``range`` (overload and underload as a state); ``snapshot`` (``PanSnapshot``: one pan now, for
whoever reads it).
"""

from .calibration import (CALIBRATION_HOLD_S, CALIBRATION_MASS_G, MAX_LOAD_G, MAX_MASS_G,
                          MAX_MASSES, MIN_SPAN_COUNTS, Calibration, CalibrationError, Calibrator)
from .channel import ChannelSettings, ScaleChannel, WeighEvent
from .judge import JUDGE_S, RESULTS, TIE_BAND_G, Compare, Judge, Judgement, result_of
from .snapshot import EMPTY_G, STATES, PanSnapshot
from .stability import SpikeFilter, StabilityDetector
from . import tempco

__all__ = [
    "CALIBRATION_HOLD_S", "CALIBRATION_MASS_G", "MAX_LOAD_G", "MAX_MASS_G", "MAX_MASSES",
    "Calibration", "CalibrationError", "Calibrator",
    "ChannelSettings", "Compare", "EMPTY_G", "JUDGE_S", "Judge", "Judgement", "MIN_SPAN_COUNTS",
    "PanSnapshot", "RESULTS", "STATES", "ScaleChannel", "SpikeFilter", "StabilityDetector",
    "TIE_BAND_G", "WeighEvent", "result_of", "tempco",
]
