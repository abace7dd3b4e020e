"""Music's playlists on SimPhone: Your playlists lists them with their song counts, and a playlist's page
lists its songs in order with their lengths as M:SS (a single-digit second keeps its zero)."""

from __future__ import annotations

from tests.device.sim_driver import Driver

from droidpilot.device.sim.phone import SimDevice

SONGS = [
    {"name": "Red Kite", "artist": "Ava Smith", "minutes": 3, "seconds": "05"},
    {"name": "Low Tide", "artist": "Noah Brown", "minutes": 5, "seconds": "41"},
]
PLAYLISTS = [
    {"name": "Morning run", "songs": SONGS},
    {"name": "Empty one", "songs": []},
]


def _music() -> Driver:
    ui = Driver(SimDevice())
    ui.d.apply_setup({"state": {"music.playlists": PLAYLISTS}})
    ui.d.open_app("music")
    ui.tap("Your playlists")
    return ui


def test_playlists_are_listed_with_their_song_counts() -> None:
    texts = _music().texts()
    assert texts.index("Morning run") < texts.index("Empty one")
    assert "2 songs" in texts and "0 songs" in texts


def test_a_playlist_page_lists_its_songs_in_order_with_their_lengths() -> None:
    ui = _music()
    ui.tap("Morning run")
    texts = ui.texts()
    assert texts.index("Red Kite") < texts.index("Low Tide")
    assert "3:05" in texts and "5:41" in texts and "3:5" not in texts


def test_an_empty_playlist_says_so() -> None:
    ui = _music()
    ui.tap("Empty one")
    assert ui.has("This playlist is empty.")
