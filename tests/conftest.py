"""Hypothesis profiles for the whole suite.

``dev`` (the default) keeps hypothesis' randomness and example database, without deadlines
(the machine is shared: timing is no test of ours). ``ci`` is deterministic: examples derive
from each test's name (``derandomize``), no database, no deadline. Select one with
``HYPOTHESIS_PROFILE=ci`` or ``pytest --hypothesis-profile ci`` (hypothesis' own option, which
takes precedence); ``CI`` set in the environment selects ``ci`` too. Tests that set
``max_examples`` keep their own count; the profile's applies to the others.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# The suite's outputs are those of a run outside GitHub Actions (where stdout is fenced off
# with ::stop-commands::, SPEC §22); the tests of that set the variable themselves.
os.environ.pop("GITHUB_ACTIONS", None)

settings.register_profile("dev", deadline=None)
settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=100,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)
