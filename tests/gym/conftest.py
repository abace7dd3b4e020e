"""Skip the gym tests where the optional ``gym`` extra (gymnasium) is not installed."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium")
