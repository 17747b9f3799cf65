"""Home Assistant's MQTT discovery: the box and its current game as sensors, from what the uplink
publishes anyway.

Each sensor's config (retained, under ``<prefix>/sensor/spielleiter_<box>/<sensor>/config``)
points Home Assistant at the box's retained ``state`` topic and its ``status`` for availability,
with a template that picks one field; nothing new leaves the box, so nothing secret can. The pans
are not offered: the uplink reads only the journal, and a Trödel game's grams are secret.
"""

from __future__ import annotations

import json
from typing import Any

from .. import fleet

# (object id, name, template over the box's public state, icon)
SENSORS = (
    ("game", "Game", "{{ value_json.title if value_json.game else 'none' }}", "mdi:dice-multiple"),
    ("phase", "Phase", "{{ value_json.public.phase if value_json.game else 'none' }}", "mdi:flag"),
    ("waiting_for", "Waiting for",
     "{{ (value_json.waiting_for or []) | join(', ') if value_json.game else '' }}",
     "mdi:account-clock"),
    ("winners", "Winners",
     "{{ (value_json.winners or []) | join(', ') if value_json.game else '' }}", "mdi:trophy"),
)


def discovery(box_id: str, name: str, prefix: str) -> list[tuple[str, str]]:
    """(topic, retained payload) for each sensor of box ``box_id``; none without a ``prefix``."""
    if not prefix:
        return []
    node = f"spielleiter_{box_id.replace('-', '_')}"
    device = {"identifiers": [node], "name": name or box_id, "manufacturer": "Spielleiter",
              "model": "Spielleiter referee box"}
    out = []
    for object_id, label, template, icon in SENSORS:
        config: dict[str, Any] = {
            "name": label, "unique_id": f"{node}_{object_id}", "object_id": f"{node}_{object_id}",
            "state_topic": fleet.topic(box_id, fleet.STATE), "value_template": template,
            "availability_topic": fleet.topic(box_id, fleet.STATUS),
            "payload_available": fleet.ONLINE, "payload_not_available": fleet.OFFLINE,
            "icon": icon, "device": device,
        }
        if object_id == "game":
            config["json_attributes_topic"] = fleet.topic(box_id, fleet.STATE)
            config["json_attributes_template"] = (
                "{{ {'players': value_json.players or [], 'box': value_json.name} | tojson }}")
        out.append((f"{prefix}/sensor/{node}/{object_id}/config",
                    json.dumps(config, ensure_ascii=False, sort_keys=True)))
    return out


__all__ = ["SENSORS", "discovery"]
