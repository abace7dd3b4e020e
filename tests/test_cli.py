"""The command line starts, lists its commands, and prints its version."""

from __future__ import annotations

import subprocess
import sys

from droidpilot import __version__


def test_version_command_prints_the_package_version() -> None:
    out = subprocess.run([sys.executable, "-m", "droidpilot", "version"], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == __version__


def test_help_lists_commands() -> None:
    out = subprocess.run([sys.executable, "-m", "droidpilot", "--help"], capture_output=True, text=True,
                         check=True)
    assert "version" in out.stdout
