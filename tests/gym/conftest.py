"""Skip the gym tests where the optional ``gym`` extra (gymnasium) is not installed; the loopback Ray
cluster (head and one worker node, one CPU each) that the gym's Ray tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

# Before anything imports ray: its node-IP lookup must answer 127.0.0.1 (see tests/support/ray_cluster.py).
from tests.support.ray_cluster import LoopbackCluster, short_temp_dir

pytest.importorskip("gymnasium")


# module-scoped: a cluster left up for the rest of the session makes later tests' own ray.init fail
@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[LoopbackCluster]:
    pytest.importorskip("ray")
    with short_temp_dir() as root:
        running = LoopbackCluster(root / "r").start({}, {"w1": {}})
        try:
            yield running
        finally:
            running.shutdown()
