"""The real-crop label loader: right files read, near-miss entries refused with the file, line and fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from droidpilot.errors import InputError
from droidpilot.perception.icons.learned.real_labels import load_label_file

KNOWN = {"settings", "search", "home", "arrow_back"}
HEAD = "root: ../shared/reference/mobile-eval-real\nscreens:\n"
SCREEN = "  - path: A/1/1.jpg\n    split: train\n    icons:\n"  # lines 3-5; its first icon is line 6


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "real_icon_train_x.yaml"
    path.write_text(HEAD + body, encoding="utf-8")
    return path


def test_a_right_file_reads_glyphs_brands_and_other(tmp_path: Path) -> None:
    path = _write(tmp_path, """\
  - path: Settings/2/1.jpg
    split: train
    icons:
      - {query: "gray gear, top right", box: [400, 80, 440, 120], glyph: settings}
      - {query: "chrome icon", box: [10, 10, 60, 60], glyph: "brand:chrome"}
      - {query: "odd squiggle", box: [100, 100, 130, 130], glyph: other}
  - path: Settings/2/3.jpg
    split: train
    icons:
      - query: "back arrow"
        box: [8, 60, 40, 92]
        glyph: arrow_back
""")
    lf = load_label_file(path, KNOWN)
    assert [(lb.glyph, lb.is_glyph) for lb in lf.labels] == [
        ("settings", True), ("brand:chrome", False), ("other", False), ("arrow_back", True)]
    assert lf.labels[0].run == "Settings/2" and lf.labels[0].box == (400, 80, 440, 120)
    assert lf.labels[3].where == f"{path}:12"  # the line of its mapping
    assert lf.root.name == "mobile-eval-real" and len(lf.digest()) == 16


@pytest.mark.parametrize(("body", "words"), [  # the file's own lines: the header takes two
    (SCREEN + "      - {query: gear, box: [1, 2, 3], glyph: settings}\n",
     [":6:", "four whole numbers"]),
    (SCREEN + "      - {query: gear, box: [9, 2, 3, 8], glyph: settings}\n",
     [":6:", "empty or negative"]),
    (SCREEN.replace("train", "tune") + "      - {query: gear, box: [1, 2, 3, 4], glyph: settings}\n",
     [":3:", "split 'tune'", "only 'split: train'"]),
    (SCREEN + "      - {query: gear, box: [1, 2, 3, 4]}\n",
     [":6:", "needs 'glyph'"]),
    (SCREEN + "      - {query: gear, box: [1, 2, 3, 4], glyph: 'brand:'}\n",
     [":6:", "'brand:'"]),
    (SCREEN + "      - {query: '', box: [1, 2, 3, 4], glyph: home}\n",
     [":6:", "non-empty 'query'"]),
    ("  - path: A/1/1.jpg\n    split: train\n    icons: []\n", [":3:", "no 'icons' list"]),
    (SCREEN + "      - {query: a, box: [1, 2, 3, 4], glyph: home}\n"
     + SCREEN + "      - {query: b, box: [1, 2, 3, 4], glyph: home}\n",
     [":7:", "listed again (first at line 3)"]),
])
def test_a_near_miss_entry_is_refused_with_its_line_and_the_fix(tmp_path: Path, body: str,
                                                                words: list[str]) -> None:
    path = _write(tmp_path, body)
    with pytest.raises(InputError) as err:
        load_label_file(path, KNOWN)
    message = str(err.value)
    assert str(path) in message
    for w in words:
        assert w in message, message


def test_an_unknown_glyph_name_is_refused_with_the_close_names(tmp_path: Path) -> None:
    path = _write(tmp_path, "  - path: A/1/1.jpg\n    split: train\n    icons:\n"
                            "      - {query: gear, box: [1, 2, 30, 40], glyph: setting}\n")
    with pytest.raises(InputError, match=r":6: glyph 'setting' is not a class .*close: settings"):
        load_label_file(path, KNOWN)


def test_bad_yaml_and_a_missing_root_name_the_file(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("root: x\nscreens:\n  - path: [unclosed\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"broken.yaml: not valid YAML"):
        load_label_file(broken, KNOWN)
    rootless = tmp_path / "rootless.yaml"
    rootless.write_text("screens: []\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"rootless.yaml: 'root' .* is missing"):
        load_label_file(rootless, KNOWN)
    with pytest.raises(InputError, match=r"cannot read the label file .*absent.yaml"):
        load_label_file(tmp_path / "absent.yaml", KNOWN)
