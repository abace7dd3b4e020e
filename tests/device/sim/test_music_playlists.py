"""Music's playlists on SimPhone: Your playlists lists them with their song counts, and a playlist's page
lists its songs numbered in order with their lengths as M:SS (a single-digit second keeps its zero); a new
playlist gets the songs in the order they are tapped, the playing queue keeps its order, and Export saves
the playlist as a file that Files lists in Download."""

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
    assert texts.index("1. Red Kite") < texts.index("2. Low Tide")
    assert "3:05" in texts and "5:41" in texts and "3:5" not in texts


def test_an_empty_playlist_says_so() -> None:
    ui = _music()
    ui.tap("Empty one")
    assert ui.has("This playlist is empty.") and ui.has("Total length 0:00")


def test_a_playlist_page_shows_its_total_length() -> None:
    ui = _music()
    ui.tap("Morning run")
    assert ui.has("Total length 8:46")  # 3:05 + 5:41, the seconds carried into a minute


def test_the_total_length_filter_counts_whole_lengths_only() -> None:
    from droidpilot.device.sim.appmodel.expr import total_length

    assert total_length([{"minutes": 59, "seconds": "30"}, {"minutes": 1, "seconds": "45"}]) == "61:15"
    assert total_length([{"minutes": 2, "seconds": "x"}, {"name": "no length"}, "Red Kite"]) == "0:00"
    assert total_length(None) == "0:00"


LIBRARY = [
    {"name": "Red Kite", "artist": "Ava Smith", "minutes": 3, "seconds": "05"},
    {"name": "Low Tide", "artist": "Noah Brown", "minutes": 5, "seconds": "41"},
    {"name": "Glass Bay", "artist": "Mia Lee", "minutes": 4, "seconds": "12"},
]


def _library() -> Driver:
    ui = Driver(SimDevice())
    ui.d.apply_setup({"state": {"music.library": LIBRARY, "music.playlists": PLAYLISTS}})
    ui.d.open_app("music")
    return ui


def _names(songs: list[dict[str, object]]) -> list[object]:
    return [s["name"] for s in songs]


def test_a_new_playlist_gets_its_songs_in_the_order_tapped() -> None:
    ui = _library()
    ui.tap("Your playlists")
    ui.tap(desc="New playlist")
    ui.d.type_text("Night drive")
    ui.tap("Create")
    assert ui.screen() == "playlist" and ui.has("This playlist is empty.")
    ui.tap("Add songs")
    ui.tap("Glass Bay")
    ui.tap("Red Kite")
    ui.d.key("back")
    texts = ui.texts()
    assert "Night drive" in texts and "2 songs" in texts
    assert texts.index("1. Glass Bay") < texts.index("2. Red Kite")
    made = ui.d.state()["music"]["playlists"][-1]
    assert made["name"] == "Night drive" and _names(made["songs"]) == ["Glass Bay", "Red Kite"]
    assert made["songs"][0] == LIBRARY[2]  # the whole record: its artist and length come along


def test_a_playlist_needs_a_name() -> None:
    ui = _library()
    ui.tap("Your playlists")
    ui.tap(desc="New playlist")
    ui.tap("Create")
    assert ui.screen() == "new_playlist" and len(ui.d.state()["music"]["playlists"]) == 2


def test_add_to_playlist_from_a_song_appends_to_the_chosen_one_only() -> None:
    ui = _library()
    ui.tap("Songs")
    ui.tap("Low Tide")
    ui.tap("Add to playlist")
    ui.tap("Empty one")
    lists = ui.d.state()["music"]["playlists"]
    assert _names(lists[1]["songs"]) == ["Low Tide"] and _names(lists[0]["songs"]) == ["Red Kite", "Low Tide"]


def test_the_queue_keeps_the_order_songs_were_added_in() -> None:
    ui = _library()
    ui.tap("Songs")
    for name in ("Low Tide", "Red Kite"):
        ui.tap(name)
        ui.tap("Add to queue")
        ui.d.key("back")
    assert _names(ui.d.state()["music"]["queue"]) == ["Low Tide", "Red Kite"]
    ui.d.key("back")
    ui.tap("Playing queue")
    texts = ui.texts()
    assert texts.index("1. Low Tide") < texts.index("2. Red Kite") and "2 songs up next" in texts


def test_export_saves_the_playlist_where_files_lists_it() -> None:
    ui = _library()
    ui.tap("Your playlists")
    ui.tap("Morning run")
    ui.tap("Export")
    saved = ui.d.state()["files"]["files"][-1]
    assert saved == {"name": "Morning run.m3u", "size": "2 songs", "folder": "Download"}
    ui.d.open_app("files")
    assert ui.has("Morning run.m3u") and ui.has("Download · 2 songs")
