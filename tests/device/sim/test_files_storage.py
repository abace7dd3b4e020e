"""SimPhone's one file system: Files lists its documents, Gallery's photos (DCIM, Pictures) and Recorder's
recordings (Recordings) in folders, and moves, copies, deletes and opens any of them through the UI, the
change landing in the owning app's list; a name clash keeps both files, the newcomer as ``name (1).ext``."""

from __future__ import annotations

import pytest
from tests.device.sim_driver import Driver

from droidpilot.device.sim.phone import SimDevice
from droidpilot.device.sim.storage import unique_name
from droidpilot.errors import InputError

RECEIPT = {"title": "receipt_4711", "date": "Nov 20", "album": "Receipts", "color": "#FFFFFF",
           "folder": "DCIM", "text": "Corner Bakery\nTOTAL $9.50"}


def _files(state: dict) -> tuple[SimDevice, Driver]:
    phone = SimDevice(seed=0)
    phone.apply_setup({"state": state})
    phone.open_app("files")
    return phone, Driver(phone)


def _open_folder(ui: Driver, folder: str) -> None:
    ui.tap("Folders")
    ui.tap(folder)


def test_photos_recordings_and_documents_are_files_in_their_folders() -> None:
    phone = SimDevice(seed=0)
    phone.open_app("camera")
    ui = Driver(phone)
    ui.tap("Take photo")
    phone.open_app("files")
    _open_folder(ui, "DCIM")
    assert ui.has("IMG_1.jpg")  # the Camera's photo, in DCIM
    phone.key("back")
    ui.tap("Pictures")
    assert ui.has("Beach sunset.jpg") and not ui.has("IMG_1.jpg")  # a Gallery photo of another album
    phone.key("back")
    ui.tap("Recordings")
    assert ui.has("Voice memo.m4a")
    phone.key("back")
    ui.tap("Download")
    assert ui.has("This folder is empty")


def test_move_a_document_between_folders() -> None:
    phone, ui = _files({"files.files": [{"name": "lease.pdf", "size": "1 MB", "folder": "Download"},
                                        {"name": "menu.pdf", "size": "2 MB", "folder": "Download"}]})
    _open_folder(ui, "Download")
    ui.tap("lease.pdf")
    ui.tap("Move to")
    ui.tap("Documents")
    assert phone.state()["files"]["files"] == [{"name": "lease.pdf", "size": "1 MB", "folder": "Documents"},
                                               {"name": "menu.pdf", "size": "2 MB", "folder": "Download"}]
    assert ui.has("lease.pdf") is False and ui.has("menu.pdf")  # back in Download, which no longer holds it


def test_copy_a_photo_keeps_the_original_and_the_name() -> None:
    phone, ui = _files({"gallery.photos": [RECEIPT]})
    _open_folder(ui, "DCIM")
    ui.tap("receipt_4711.jpg")
    ui.tap("Copy to")
    ui.tap("Download")
    photos = phone.state()["gallery"]["photos"]
    assert photos[0] == RECEIPT  # the original stays where it was
    assert photos[1] == {**RECEIPT, "folder": "Download"}  # a copy is a photo too: Gallery shows it
    phone.key("back")
    ui.tap("Download")
    assert ui.has("receipt_4711.jpg")


def test_a_name_clash_keeps_both_and_numbers_the_newcomer() -> None:
    phone, ui = _files({"gallery.photos": [RECEIPT, {**RECEIPT, "folder": "Download"}]})
    _open_folder(ui, "DCIM")
    ui.tap("receipt_4711.jpg")
    ui.tap("Copy to")
    ui.tap("Download")
    copied = {**RECEIPT, "folder": "Download", "file": "receipt_4711 (1).jpg"}
    assert phone.state()["gallery"]["photos"][2] == copied
    assert [p["folder"] for p in phone.state()["gallery"]["photos"][:2]] == ["DCIM", "Download"]


def test_moving_a_recording_changes_recorders_list_and_into_its_own_folder_is_refused() -> None:
    phone, ui = _files({})
    _open_folder(ui, "Recordings")
    ui.tap("Voice memo.m4a")
    ui.tap("Move to")
    ui.tap("Recordings")
    assert "folder" not in phone.state()["recorder"]["recordings"][0]  # nothing moved
    assert ui.has("Already in Recordings")
    ui.tap("Music")
    assert phone.state()["recorder"]["recordings"][0]["folder"] == "Music"


def test_open_shows_the_photo_in_gallery_and_trash_removes_it_from_gallery() -> None:
    phone, ui = _files({"gallery.photos": [RECEIPT]})
    _open_folder(ui, "DCIM")
    ui.tap("receipt_4711.jpg")
    ui.tap("Open")
    assert phone.state()["foreground"]["app"] == "gallery" and ui.screen() == "view"
    phone.open_app("files")
    ui.tap("Move to trash")
    assert phone.state()["gallery"]["photos"] == []


def test_a_document_without_an_app_shows_no_open_button() -> None:
    _, ui = _files({"files.files": [{"name": "lease.pdf", "size": "1 MB", "folder": "Download"}]})
    ui.tap("lease.pdf")
    assert ui.has("Move to") and not ui.has("Open")


def test_a_new_folder_is_listed_and_takes_files() -> None:
    phone, ui = _files({"files.files": [{"name": "lease.pdf", "size": "1 MB", "folder": "Download"}]})
    ui.tap("Folders")
    ui.tap(desc="New folder")
    phone.type_text("Taxes")
    ui.tap("Create")
    assert ui.has("Taxes") and phone.state()["files"]["folders"] == ["Taxes"]
    ui.tap("All files")
    ui.tap("lease.pdf")
    ui.tap("Move to")
    ui.tap("Taxes")
    assert phone.state()["files"]["files"][0]["folder"] == "Taxes"


@pytest.mark.parametrize(
    ("name", "taken", "result"),
    [
        ("a.jpg", set(), "a.jpg"),
        ("a.jpg", {"a.jpg"}, "a (1).jpg"),
        ("a.jpg", {"a.jpg", "a (1).jpg"}, "a (2).jpg"),
        ("a (1).jpg", {"a (1).jpg"}, "a (2).jpg"),
        ("README", {"README"}, "README (1)"),
        (".profile", {".profile"}, ".profile (1)"),
        ("a.tar.gz", {"a.tar.gz"}, "a.tar (1).gz"),
    ],
)
def test_unique_name_numbers_as_android_does(name: str, taken: set[str], result: str) -> None:
    assert unique_name(name, taken) == result


def test_a_bad_opens_entry_is_a_clear_error() -> None:
    _, ui = _files({"files.files": [{"name": "task.html", "size": "1 KB", "folder": "Download",
                                         "opens": {"app": "browser"}}]})
    ui.tap("task.html")
    with pytest.raises(InputError, match="opens needs `app` and `screen`"):
        ui.tap("Open")


def test_folders_count_their_files_in_words() -> None:
    _, ui = _files({"files.files": [{"name": "a.pdf", "size": "1 MB", "folder": "Documents"},
                                    {"name": "b.pdf", "size": "1 MB", "folder": "Work"},
                                    {"name": "c.pdf", "size": "1 MB", "folder": "Work"}]})
    ui.tap("Folders")
    texts = ui.texts()
    assert texts[texts.index("Documents") + 1] == "1 item"
    assert texts[texts.index("Work") + 1] == "2 items"
    assert texts[texts.index("Download") + 1] == "0 items"  # a standard folder, empty
