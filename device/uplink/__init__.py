"""The uplink: a second service beside the box that follows its journal read-only and publishes
what the table may see to a room's MQTT broker (docs/room.md). ``reader`` opens the journal,
``follower`` turns it into messages, ``outbox`` keeps them and the cursor, ``publisher`` is the
MQTT side, ``service`` the loop, ``public`` what may leave the box.

Import the modules themselves; paho-mqtt (the ``room`` extra) is needed by ``publisher`` and
``service`` only.
"""
