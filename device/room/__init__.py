"""The room: ``spielleiter room`` on a teacher's or a club's laptop collects every box into one
SQLite database and serves a page (docs/room.md). ``collector`` is the MQTT side, ``store`` the
database, ``views`` what the page shows, ``pages`` and ``plots`` its HTML and SVG, ``web`` the
server.
"""
