"""The most the simulators set down on a pan, and the one refusal for more.

``weigh --sim``, ``scale --put``, ``sim --headless``'s ``put`` and the interactive sim's hand all
ask here, so each takes the same masses and says the same when one is too heavy. The limit is
5 kg: well past the 550 g beyond which a pan shows "too heavy" (``drivers.weighing.range``), the
1 kg cells' stop (600-800 g) and where the simulated HX711 saturates (near 3.9 kg), so a heavy
book on the pan can be tried, and far below what breaks the twin's physics.
"""

from __future__ import annotations

import math

from ..i18n import _, language

PAN_LIMIT_G = 5000.0


def grams_text(grams: float) -> str:
    """A mass as a person reads it: 12.3 -> "12.3" (German "12,3"), 10.0 -> "10", 9999999 ->
    "9999999" (never "1e+07"), to the microgram."""
    text = f"{grams:.6f}".rstrip("0").rstrip(".") if math.isfinite(grams) else f"{grams}"
    return text.replace(".", ",") if language() == "de" else text


def too_heavy(grams: float, on_pan_g: float = 0.0) -> str | None:
    """Why ``grams`` set down on a pan that holds ``on_pan_g`` is refused, or None: what lies on
    the pan then must be a number of at most ``PAN_LIMIT_G``."""
    load = on_pan_g + grams
    if math.isfinite(load) and load <= PAN_LIMIT_G:
        return None
    if on_pan_g:
        return _("{grams} g with {on_pan} g on it already: the simulator sets at most {limit} g "
                 "on a pan").format(grams=grams_text(grams), on_pan=grams_text(on_pan_g),
                                    limit=grams_text(PAN_LIMIT_G))
    return _("{grams} g: the simulator sets at most {limit} g on a pan").format(
        grams=grams_text(grams), limit=grams_text(PAN_LIMIT_G))


def mass_problem(grams: float) -> str | None:
    """Why ``grams`` set down on an empty pan (``weigh``, ``scale --put``) is refused, or None."""
    if not math.isfinite(grams):
        return _("{grams} g: not a number of grams").format(grams=grams)
    if grams < 0:
        return _("{grams} g: a mass weighs 0 g or more").format(grams=grams_text(grams))
    return too_heavy(grams)


__all__ = ["PAN_LIMIT_G", "grams_text", "mass_problem", "too_heavy"]
