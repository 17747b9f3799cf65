"""scripts/i18n.py writes the catalogues itself (a fresh machine has no msgfmt, and its own
format keeps the .po sorted and merge-friendly); Babel, the Python world's reference for
gettext catalogues, reads what it writes and compiles the same translations, so the hand-written
reader, writer and .mo compiler are checked against it on every run."""

from __future__ import annotations

import gettext
import io

import pytest
from support import i18n_script

babel_po = pytest.importorskip("babel.messages.pofile")
babel_mo = pytest.importorskip("babel.messages.mofile")

LANGUAGES = ("de", "en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_babel_reads_every_message_of_the_catalogue_as_the_script_does(lang):
    script = i18n_script()
    ours = script.read_po(script.po_path(lang))
    with open(script.po_path(lang), "rb") as po:
        theirs = babel_po.read_po(po)
    theirs_by_id = {(m.id[0] if isinstance(m.id, tuple) else m.id): m for m in theirs if m.id}
    assert set(theirs_by_id) == {msgid for msgid in ours if msgid}
    for msgid, message in ours.items():
        if not msgid:
            continue
        strings = theirs_by_id[msgid].string
        read = list(strings) if isinstance(strings, tuple) else [strings]
        assert read == (message.strings or [""]), msgid


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_scripts_mo_says_what_babels_mo_says_for_every_message(lang):
    script = i18n_script()
    ours = gettext.GNUTranslations(io.BytesIO(script.mo_bytes(lang)))
    with open(script.po_path(lang), "rb") as po:
        catalog = babel_po.read_po(po)
    compiled = io.BytesIO()
    babel_mo.write_mo(compiled, catalog)
    compiled.seek(0)
    theirs = gettext.GNUTranslations(compiled)
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            for n in (1, 2, 5):
                assert ours.ngettext(*message.id, n) == theirs.ngettext(*message.id, n)
        else:
            assert ours.gettext(message.id) == theirs.gettext(message.id), message.id
