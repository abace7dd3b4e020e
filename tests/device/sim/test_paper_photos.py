"""Photos of paper in Gallery: the receipt's text is in the pixels (OCR reads its total) and nowhere in the
UI dump, whose image node names only the photo; an ordinary photo still draws a landscape."""

from __future__ import annotations

from tests.device.sim_driver import Driver

from droidpilot.device.sim.phone import SimDevice

RECEIPT = {"title": "Receipt Tea House", "date": "Nov 20", "album": "Receipts", "color": "#FFFFFF",
           "text": "Tea House\nMilk  $21.50\nTea  $10.00\nTOTAL  $31.50"}


def _open_receipt() -> SimDevice:
    phone = SimDevice(seed=0)
    phone.apply_setup({"state": {"gallery.photos": [RECEIPT]}})
    phone.open_app("gallery")
    Driver(phone).tap("Receipt Tea House")
    return phone


def test_the_receipt_text_is_not_in_the_ui_dump() -> None:
    phone = _open_receipt()
    xml = phone.ui_xml()
    assert "paper_photo" in xml and 'content-desc="Receipt Tea House"' in xml
    assert "31.50" not in xml and "TOTAL" not in xml and "Milk" not in xml


def test_ocr_reads_the_total_from_the_pixels() -> None:
    from droidpilot.perception.ocr import make_ocr_engine

    engine = make_ocr_engine("rapidocr")
    lines = [line.text.replace(" ", "") for line in engine.recognize(_open_receipt().screenshot())]
    assert "TOTAL$31.50" in lines
