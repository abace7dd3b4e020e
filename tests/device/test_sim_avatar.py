"""Procedural avatars: seeded by a person's name and the phone's seed, detailed (not a flat block or a
tinted icon), cached per (seed text, size), and drawn in the lists and cards that show people."""

from __future__ import annotations

import pytest
from tests.device.sim_driver import Driver

from droidpilot.device.sim.draw.avatar import avatar_image
from droidpilot.device.sim.phone import SimDevice


def test_same_name_same_face_and_names_differ() -> None:
    a, _ = avatar_image("Ava Smith#0", 112)
    assert a.tobytes() == avatar_image("Ava Smith#0", 112)[0].tobytes()
    others = {avatar_image(f"{name}#0", 112)[0].tobytes() for name in ("Ava Smith", "Noah Brown", "Mia Chen")}
    assert len(others) == 3
    assert avatar_image("Ava Smith#1", 112)[0].tobytes() != a.tobytes()  # another phone seed, another face


def test_avatar_is_detailed_and_round() -> None:
    for name in ("Ava Smith", "Noah Brown", "Liam Carter", "Zoe Park", "Omar Haddad", "小明"):
        picture, mask = avatar_image(f"{name}#0", 112)
        colours = picture.getcolors(112 * 112) or []
        assert len(colours) > 40, name  # gradients, shapes and anti-aliasing: not a flat block
        assert mask.getpixel((0, 0)) == 0 and mask.getpixel((56, 56)) == 255


def test_cached_per_name_and_size() -> None:
    before = avatar_image.cache_info().hits
    avatar_image("Cache Test#0", 96)
    avatar_image("Cache Test#0", 96)
    assert avatar_image.cache_info().hits == before + 1


def test_contacts_and_messages_draw_avatars_in_their_rows() -> None:
    ui = Driver(SimDevice())
    ui.d.open_app("contacts")
    ops = ui.d.view().ops
    seeds = [op[1] for op in ops if op[0] == "avatar"]
    assert seeds == ["Ava Smith#0", "Noah Brown#0"]
    assert not any(op[0] == "glyph" and op[1] == "person" for op in ops)
    ui.tap("Ava Smith")
    assert [op[1] for op in ui.d.view().ops if op[0] == "avatar"] == ["Ava Smith#0"]  # the contact card
    ui.d.open_app("messages")
    ui.tap("Ava Smith")
    assert "Ava Smith#0" in [op[1] for op in ui.d.view().ops if op[0] == "avatar"]  # the thread's bubble


@pytest.mark.parametrize(("n", "top", "bottom"), [(160, "#1E88E5", "#FFFFFF"), (264, "#3949AB", "#00897B"),
                                                  (7, "#000000", "#FFFFFF"), (1, "#D81B60", "#6D4C41")])
def test_the_backdrop_is_the_gradient_drawn_row_by_row(n: int, top: str, bottom: str) -> None:
    """The gradient filled at once is, pixel for pixel, the one drawn as a line per row with ``mix``."""
    from PIL import Image, ImageDraw

    from droidpilot.device.sim.draw.avatar import _backdrop
    from droidpilot.device.sim.draw.theme import mix, rgb

    drawn = Image.new("RGB", (n, n))
    d = ImageDraw.Draw(drawn)
    for row in range(n):
        d.line((0, row, n, row), fill=rgb(mix(top, bottom, row / max(n - 1, 1))))
    filled = Image.new("RGB", (n, n))
    _backdrop(filled, n, top, bottom)
    assert filled.tobytes() == drawn.tobytes()
