"""Fuzz ``spielleiter replay``'s core: any document gives a state or a ReplayError, never a crash."""

from __future__ import annotations

import json

from fuzz_strategies import documents, fuzz_settings
from hypothesis import event, given

from spielleiter.device.replay import ReplayError, run


@fuzz_settings()
@given(documents())
def test_any_document_replays_or_is_refused_with_one_line(text):
    try:
        state, error = run(text)
    except ReplayError as exc:  # exit 2: one line, always printable
        message = str(exc)
        event(f"refused: {message.split(':')[0].split(' (')[0].split(' game ')[0][:40]}")
        assert message and "\n" not in message
        message.encode("utf-8")
        return
    # exit 0 or 1: the state is printed as JSON, so it must be JSON that UTF-8 can carry
    printed = json.dumps(state, ensure_ascii=False, allow_nan=False)
    printed.encode("utf-8")
    assert error is None or (error.startswith("action ") and "\n" not in error)
    event("replayed to the end" if error is None else "stopped at an illegal action")
    event(f"actions in the document: {min(len(json.loads(text).get('actions', [])), 10)}+"
          if error is None else "actions: see error")
    assert run(text) == (state, error)  # deterministic: the same document, the same result
