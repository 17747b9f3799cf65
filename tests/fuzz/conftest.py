"""Hypothesis profiles for the fuzz suite: a small, derandomized budget in the normal run (fast,
the same cases every time), a large random one with ``SPIELLEITER_FUZZ=1``.

``SPIELLEITER_FUZZ_EXAMPLES=N`` overrides the large budget. No example database is written into
the checkout; a failure prints the blob to reproduce it with ``@reproduce_failure``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

QUICK = settings(max_examples=20, deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture,
                                        HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("spielleiter-quick", QUICK)
settings.register_profile("spielleiter-fuzz", QUICK, max_examples=int(
    os.environ.get("SPIELLEITER_FUZZ_EXAMPLES", "2000")), derandomize=False, print_blob=True)

# Each fuzz test applies fuzz_strategies.fuzz_settings() itself: loading a profile here would
# change every other Hypothesis test in the session too.
