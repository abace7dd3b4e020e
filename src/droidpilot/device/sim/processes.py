"""Which of SimPhone's apps have a live process, and which start of it that is.

An app's process starts when it is launched without one and ends when its task goes (force-stop, swiped
from Recents, Clear all, backed out of) or when it is killed in the background (`am kill`). Each start gets
a new number that is never reused, even across resets, so the ADB front hands a relaunched app a new pid
however long nobody looked (a pid follows the start, not the app)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Processes:
    """Live app processes: app name -> the number of its start."""

    live: dict[str, int] = field(default_factory=dict)
    started: int = 0  # starts so far, on this phone; only ever grows

    def ensure(self, name: str) -> int:
        """The start number of ``name``'s process, starting one if it has none."""
        if name not in self.live:
            self.started += 1
            self.live[name] = self.started
        return self.live[name]

    def end(self, name: str) -> None:
        """End ``name``'s process, if it has one."""
        self.live.pop(name, None)

    def end_all(self) -> None:
        """End every app's process (Clear all, a reset)."""
        self.live.clear()
