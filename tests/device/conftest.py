"""Fixtures shared by the device tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.device.adbd_support import Front
from tests.device.u2_raw import running_u2_front


@pytest.fixture(scope="module")
def u2_front() -> Iterator[Front]:
    """One SimPhone behind the ADB front with its uiautomator server listening on the phone's tcp:9008,
    for tests that speak raw HTTP to it (see u2_raw); one per test module."""
    with running_u2_front() as front:
        yield front
