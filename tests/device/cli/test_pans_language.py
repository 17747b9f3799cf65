"""``spielleiter calibrate`` and ``weigh`` speak the table's language, as the box's screens do:
``--lang``, else the Settings choice saved in the journal, else ``[ui] language`` (German as
shipped). A German family calibrating its box reads each step in German, with decimal commas."""

from __future__ import annotations

import json

import pytest

from spielleiter.device import i18n
from spielleiter.device.journal import settings as settings_store
from spielleiter.device.cli import main
from spielleiter.device.journal.store import Journal


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


def test_calibrate_with_lang_de_says_every_step_in_german(tmp_path, capsys):
    assert main(["calibrate", "--sim", "--yes", "--pan", "left", "--mass", "200", "--mass",
                 "500", "--lang", "de", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Kalibriere die Schale links. Leere sie."
    assert out[1] == "Lege 200 g auf die Schale links."
    assert out[3] == "Nimm die 200 g ab, dann lege 500 g auf die Schale links."
    done = out[5]
    assert done.startswith("Schale links kalibriert mit 200, 500 g: ") and \
        " Counts je Gramm, Bogen " in done and "," in done.split(":")[1].split()[0]
    assert out[6].startswith("  bei 2") and " °C; kalibriere sie noch einmal" in out[6]


def test_calibrate_speaks_the_language_the_table_chose_in_settings(tmp_path, capsys):
    with Journal(tmp_path / "journal.sqlite3") as journal:
        settings_store.save(journal, settings_store.Settings(language="de"))
    assert main(["calibrate", "--sim", "--yes", "--pan", "right",
                 "--state-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.startswith("Kalibriere die Schale rechts.")
    assert main(["calibrate", "--sim", "--yes", "--pan", "right", "--lang", "en",
                 "--state-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.startswith("Calibrating the right pan. Empty it.")


def test_calibrate_refuses_a_bad_mass_in_german(tmp_path, capsys):
    assert main(["calibrate", "--sim", "--yes", "--mass", "900", "--lang", "de",
                 "--state-dir", str(tmp_path)]) == 2
    assert "ein bekanntes Gewicht von 1-500 g" in capsys.readouterr().err
    assert main(["calibrate", "--sim", "--yes", "--pan", "middle", "--lang", "de",
                 "--state-dir", str(tmp_path)]) == 2
    assert "keine middle in der Konfiguration (eingerichtet: left, right)" in \
        capsys.readouterr().err


def test_weigh_in_german_writes_decimal_commas_and_the_verdict_as_the_box_says_it(capsys):
    assert main(["weigh", "--sim", "12.3", "12.4", "--seed", "3", "--cells", "ideal",
                 "--lang", "de"]) == 0
    left, right, verdict = capsys.readouterr().out.splitlines()
    assert left.startswith("links : 12,") and ", ruhig nach 0," in left
    assert right.startswith("rechts: 12,")
    assert verdict.startswith("Urteil: Links ist leichter (geurteilt nach ")
    assert main(["weigh", "--sim", "1200", "--lang", "de"]) == 1
    assert "zu schwer für die Schale links" in capsys.readouterr().err


def test_weigh_json_is_the_same_in_every_language(capsys):
    answers = []
    for language in ("de", "en"):
        assert main(["weigh", "--sim", "12.3", "12.4", "--json", "--seed", "3",
                     "--lang", language]) == 0
        answers.append(json.loads(capsys.readouterr().out))
    assert answers[0] == answers[1] and answers[0]["verdict"] == "left-lighter"
