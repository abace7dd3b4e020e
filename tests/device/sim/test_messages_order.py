"""Messages lists conversations newest first (so "whoever wrote last" is the top row, whatever order the
threads are stored in), and a thread shows what I sent, oldest to newest."""

from __future__ import annotations

from tests.device.sim_driver import Driver

from droidpilot.device.sim.phone import SimDevice


def test_threads_are_listed_newest_first() -> None:
    d = SimDevice()
    d.apply_setup({"state": {"messages.threads": [
        {"name": "Ava Smith", "last": "a", "time": "09:15"},
        {"name": "Noah Brown", "last": "b", "time": "21:30"},
        {"name": "Mia Lee", "last": "c", "time": "13:45"},
    ]}})
    d.open_app("messages")
    texts = Driver(d).texts()
    order = [texts.index(n) for n in ("Noah Brown", "Mia Lee", "Ava Smith")]
    assert order == sorted(order)


def test_thread_shows_sent_messages_in_order() -> None:
    d = SimDevice()
    d.apply_setup({"state": {"messages.sent": [
        {"to": "Ava Smith", "text": "first note"}, {"to": "Noah Brown", "text": "elsewhere"},
        {"to": "Ava Smith", "text": "second note"}]}})
    d.open_app("messages")
    ui = Driver(d)
    ui.tap("Ava Smith")
    texts = ui.texts()
    assert "elsewhere" not in texts
    assert texts.index("first note") < texts.index("second note")
