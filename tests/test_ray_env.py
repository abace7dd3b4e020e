"""The Ray environment: a local Ray started for a run uses 127.0.0.1 only (checked on its real sockets),
addresses are checked before anything starts, a bare ``--ray`` means a local Ray, and a missing ``ray``
package gives a clear error naming the extra, with exit status 2 from the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.ray_cluster import LoopbackCluster, short_temp_dir

from droidpilot.cli._ray import bare_ray_flag
from droidpilot.errors import InputError
from droidpilot.ray_env import check_address, is_loopback

ROOT = Path(__file__).resolve().parents[1]

LOCAL_RAY = """
import json, os, sys
sys.path.insert(0, {root!r})
from droidpilot.ray_env import connect
from tests.support.ray_cluster import open_sockets, descendants

with connect(None, num_cpus=1) as ray:
    @ray.remote
    def where():
        return ray.get_runtime_context().get_node_id()

    ray.get(where.remote())
    ips = sorted({{n["NodeManagerAddress"] for n in ray.nodes()}})
    socks = open_sockets(descendants(os.getpid()))
    print(json.dumps({{"ips": ips, "count": len(socks),
                      "listening": sum(1 for s in socks if s.state == "0A"),
                      "outside": [repr(s) for s in socks if not s.loopback_only()]}}))
"""


@pytest.mark.slow
def test_a_local_ray_uses_loopback_only_and_is_its_own() -> None:
    """Run while another cluster is up on this machine (as after `ray start`, or a parallel test run's):
    a plain ``ray.init`` would join that one and refuse the CPU count; droidpilot's local Ray is its own."""
    with short_temp_dir() as root:
        other = LoopbackCluster(root / "r").start({}, {})
        try:
            proc = subprocess.run([sys.executable, "-c", LOCAL_RAY.format(root=str(ROOT))],
                                  capture_output=True, text=True, timeout=180, cwd=ROOT)
        finally:
            other.shutdown()
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["ips"] == ["127.0.0.1"]
    assert report["listening"] >= 3 and report["count"] > report["listening"]
    assert report["outside"] == []


def test_addresses() -> None:
    assert check_address(None) is None and check_address(" ") is None
    assert check_address("auto") == "auto"
    assert check_address("ray://10.0.0.5:10001") == "ray://10.0.0.5:10001"
    assert check_address("10.0.0.5:6379") == "10.0.0.5:6379"
    with pytest.raises(InputError, match=r"--ray 'headnode'.*HOST:PORT"):
        check_address("headnode")
    assert is_loopback("127.0.0.1") and is_loopback("127.3.0.1") and is_loopback("::ffff:127.0.0.1")
    assert is_loopback("::1") and not is_loopback("192.0.2.7") and not is_loopback("0.0.0.0")


def test_a_bare_ray_flag_means_a_local_ray() -> None:
    assert bare_ray_flag(["bench", "--ray"]) == ["bench", "--ray=local"]
    assert bare_ray_flag(["bench", "--ray", "--out", "x"]) == ["bench", "--ray=local", "--out", "x"]
    assert bare_ray_flag(["bench", "--ray", "auto"]) == ["bench", "--ray", "auto"]
    assert bare_ray_flag(["bench", "--", "--ray"]) == ["bench", "--", "--ray"]


def test_without_ray_the_error_names_the_extra(tmp_path: Path) -> None:
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "one.json").write_text("[]")
    rule = ROOT / "src/droidpilot/verify/examples"
    script = ("import sys; sys.modules['ray'] = None\n"  # what an environment without ray looks like
              "from droidpilot.cli import main\n"
              f"sys.argv = ['droidpilot', 'verify-batch', {str(next(rule.rglob('rule.yaml')))!r}, "
              f"{str(tmp_path / 't')!r}, '--ray']\n"
              "main()\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "droidpilot[ray]" in proc.stderr and "Traceback" not in proc.stderr
