"""The table's settings, chosen in the Settings mode and kept in the journal database.

Kept as the latest ``settings`` note in the journal, so a power cut keeps the last choice and a
damaged or missing note falls back to the defaults.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .store import Journal

log = logging.getLogger(__name__)

# Pace: how pages after an action advance. None waits for OK; a number scales each page's length.
PACES: dict[str, float | None] = {"ok": None, "relaxed": 2.0, "fast": 1.0}
LANGUAGES = ("de", "en")
LANGUAGE_NAMES = {"de": "Deutsch", "en": "English"}
SOUNDS = ("normal", "quiet", "off")
BRIGHTNESS = {"high": 255, "medium": 128, "low": 32}  # luma's contrast
SLEEP_MIN = {"2": 2.0, "5": 5.0, "15": 15.0, "never": None}  # idle minutes until the OLED dims
CHOICES: dict[str, tuple[str, ...]] = {"language": LANGUAGES, "pace": tuple(PACES),
                                       "sound": SOUNDS, "brightness": tuple(BRIGHTNESS),
                                       "sleep": tuple(SLEEP_MIN)}


@dataclass(frozen=True)
class Settings:
    pace: str = "ok"
    language: str = "en"
    sound: str = "normal"
    brightness: str = "high"
    sleep: str = "5"

    @property
    def contrast(self) -> int:
        return BRIGHTNESS[self.brightness]

    @property
    def dim_after_s(self) -> float | None:
        minutes = SLEEP_MIN[self.sleep]
        return None if minutes is None else minutes * 60.0

    def page_seconds(self, seconds: float) -> float | None:
        """How long a page stays at this pace (None: until OK)."""
        factor = PACES[self.pace]
        return None if factor is None else seconds * factor

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any, base: "Settings | None" = None) -> "Settings":
        """Known keys with known values over ``base``; anything else is ignored (and logged)."""
        settings = base or cls()
        if not isinstance(data, dict):
            return settings
        for key, choices in CHOICES.items():
            value = data.get(key)
            if value in choices:
                settings = replace(settings, **{key: value})
            elif key in data:
                log.warning("settings: ignoring %s=%r", key, value)
        return settings


def load(journal: "Journal", base: Settings | None = None) -> Settings:
    """The settings last saved in ``journal`` over ``base`` (the config's defaults)."""
    try:
        notes = journal.notes("settings", limit=1)
    except Exception as exc:  # a damaged note must never stop the box
        log.warning("settings unreadable, using defaults: %s", exc)
        return base or Settings()
    return Settings.from_json(notes[0] if notes else {}, base)


def save(journal: "Journal", settings: Settings) -> None:
    journal.add_note("settings", settings.to_json())
