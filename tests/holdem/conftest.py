"""Hypothesis profile for the rules-core tests (derandomized: the same examples every run).

The profile is registered, not loaded, so the settings of other test folders are
untouched; every property test here takes `HOLDEM_SETTINGS` as its parent.
Run with `--hypothesis-profile=holdem` to apply it to a whole session.
"""

from __future__ import annotations

from holdem_testlib import HOLDEM_SETTINGS
from hypothesis import settings

settings.register_profile("holdem", HOLDEM_SETTINGS)
