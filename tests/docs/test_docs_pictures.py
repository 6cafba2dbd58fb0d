"""The docs' pictures show their current inputs: each picture's record (docs/img/NAME.png.json,
written by `python -m bufrepro.pipeline.pictures`) names the sha256 of the picture and of the
template and layout code it shows, and a change to any of them without a new picture fails."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from docs_markup import REPO
from PIL import Image

from bufrepro.pipeline import pictures


def test_every_picture_shows_its_current_inputs() -> None:
    assert pictures.stale(REPO) == []


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The pictures, their records and their inputs, copied under a new root."""
    for p in pictures.PICTURES:
        for name in (p.png, p.record, *p.inputs):
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(REPO / name, tmp_path / name)
    return tmp_path


def test_a_template_changed_without_a_new_picture_fails(copy: Path) -> None:
    assert pictures.stale(copy) == []
    with (copy / "report" / "report.html.j2").open("a", encoding="utf-8") as fh:
        fh.write("<p>a new line in the summary's template</p>\n")
    (found,) = pictures.stale(copy)
    assert found.startswith("docs/img/report-summary.png: older than report/report.html.j2")


def test_a_picture_replaced_without_its_record_fails(copy: Path) -> None:
    with (copy / "docs" / "img" / "own-link-page.png").open("ab") as fh:
        fh.write(b"\0")
    (copy / "docs" / "img" / "report-summary.png.json").unlink()
    found = pictures.stale(copy)
    pngs = [f.split(":")[0] for f in found]
    assert pngs == ["docs/img/report-summary.png", "docs/img/own-link-page.png"]
    assert "no record" in found[0] and "not the picture its record names" in found[1]


def test_a_shot_is_the_page_at_its_size(tmp_path: Path) -> None:
    if not pictures.CHROMIUM.is_file():
        pytest.skip(f"{pictures.CHROMIUM} is absent (apt-get install chromium)")
    page = tmp_path / "page.html"
    page.write_text('<body style="margin:0;background:#c00"><h1>x</h1></body>', encoding="utf-8")
    out = tmp_path / "shot.png"
    pictures.shoot(page.as_uri(), out, 320, 200)
    image = Image.open(out)
    assert image.size == (320, 200)
    assert image.convert("RGB").getpixel((300, 190)) == (204, 0, 0)
