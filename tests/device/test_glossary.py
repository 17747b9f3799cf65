"""One verb, one key: every footer of the box, in German and English, uses each word for the key
the glossary gives it (a word of OK's never names NEXT, "wählen" is OK's everywhere)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spielleiter.device import glossary, i18n

CATALOGUE = Path(i18n.__file__).parent / "locale" / "de" / "LC_MESSAGES" / "spielleiter.po"
FOOTER = re.compile(r"^(OK|NEXT|BACK|A/NEXT|B/OK)[ :]")


def footers() -> list[str]:
    """Every footer-shaped message of the catalogue (its English msgid): a host key first, short
    enough for the footer's line, no sentence."""
    text = CATALOGUE.read_text(encoding="utf-8")
    return [m for m in re.findall(r'^msgid "(.*)"$', text, re.M)
            if FOOTER.match(m) and len(m) <= 24 and not m.endswith(".")]


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_no_word_of_the_glossary_belongs_to_two_keys(language):
    i18n.use(language)
    assert glossary.clashes() == []


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_footer_uses_each_verb_for_the_key_the_glossary_says(language):
    i18n.use(language)
    found = footers()
    assert len(found) > 50                                   # the catalogue's footers, read
    wrong = {text: glossary.misused(i18n._(text)) for text in found}
    assert {text: why for text, why in wrong.items() if why} == {}


def test_the_check_fails_on_a_verb_used_for_another_key():
    i18n.use("de")
    assert glossary.misused("NEXT wählen  OK los") == ["NEXT 'wählen': that is OK's word"]
    i18n.use("en")
    assert glossary.misused("NEXT choose  OK go") == ["NEXT 'choose': that is OK's word"]
    assert glossary.misused("OK frobnicate") == ["OK 'frobnicate': not in the glossary"]


def test_a_footer_built_from_the_glossary_reads_in_the_box_language():
    i18n.use("de")
    assert glossary.footer("NEXT move", "OK choose") == "NEXT runter OK wählen"  # fits
    assert glossary.key_of("wählen") == "OK" and glossary.key_of("runter") == "NEXT"



def test_next_never_opens_a_menu_it_moves_and_turns_pages():
    i18n.use("de")
    assert glossary.misused("OK vor  NEXT Menü") == ["NEXT 'Menü': a menu opens with BACK or OK"]
    assert glossary.misused("OK vor  BACK Menü") == []
    i18n.use("en")
    assert glossary.misused("OK on  NEXT menu") == ["NEXT 'menu': a menu opens with BACK or OK"]
    assert glossary.misused("OK on  BACK menu") == []
