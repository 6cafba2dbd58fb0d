"""The report of a tiny real run: built by the workflow, then opened in Debian's Chromium."""

from __future__ import annotations

import base64
import io
import json
import re
import time
import zipfile
from pathlib import Path

import pandas as pd
import pytest
import yaml

from bufrepro.pipeline import show
from conftest import REPO, TINY, copy_repo, snakemake

pytestmark = pytest.mark.usefixtures("ns_available")
CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOT = REPO / "results" / "report_screenshot.png"
MEASURES = REPO / "results" / "report_browser.json"


@pytest.fixture(scope="module")
def tiny_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the repository after the workflow ran on the tiny grid (report included)."""
    work = copy_repo(tmp_path_factory.mktemp("report") / "repo")
    (work / "tiny.yaml").write_text(yaml.safe_dump(TINY))
    proc = snakemake(work, "--cores", "2", "--configfile", "tiny.yaml")
    assert proc.returncode == 0, proc.stderr[-4000:]
    return work


def _html(work: Path) -> str:
    return (work / "report" / "index.html").read_text(encoding="utf-8")


def test_report_opens_with_the_summary_contents_and_provenance(tiny_report: Path) -> None:
    html = _html(tiny_report)
    top = html.index('id="summary-table"')
    assert top < html.index('id="contents"') < html.index('id="provenance"')
    body = html[top : html.index("</table>", top)]
    for study in TINY["studies"]:
        assert f'<a href="#{study}">{study}</a>' in body
    for label in ("git commit", "command", "profile", "config files merged", "ns builds"):
        assert f"<dt>{label}" in html
    assert "snakemake --cores 2 --configfile tiny.yaml" in html
    assert "config/config.yaml, config/dumbbell.yaml" in html and "tiny.yaml</dd>" in html
    # Every link of the table of contents lands on a heading of the page.
    ids = set(re.findall(r'id="([^"]+)"', html))
    assert set(re.findall(r'href="#([^"]+)"', html)) <= ids


def test_diff_cells_keep_not_run_apart_and_the_csv_is_embedded(tiny_report: Path) -> None:
    html = _html(tiny_report)
    assert '<td class="st-notrun"' in html and '<td class="st-few"' in html
    # The tiny run has 2 seeds: no value may be called inside (or outside) its CI.
    assert '<td class="st-inside"' not in html and '<td class="st-outside"' not in html
    uri = re.search(r'href="data:text/csv;base64,([^"]+)" download="dumbbell_diff.csv"', html)
    assert uri is not None
    embedded = pd.read_csv(io.BytesIO(base64.b64decode(uri.group(1))))
    diff = pd.read_csv(tiny_report / "results" / "dumbbell" / "tables" / "diff.csv")
    assert len(embedded) == len(diff) and "status" in embedded
    assert set(embedded["status"]) == {"not run", "n < 5 seeds: not judged"}


def test_snakemake_report_tables_are_written_and_identical_on_rebuild(tiny_report: Path) -> None:
    out = tiny_report / "results" / "report"
    names = [
        "summary.csv",
        *(f"{s}_{t}.csv" for s in TINY["studies"] for t in ("diff", "claims", "claims_calibrated")),
    ]
    before = {n: (out / n).read_bytes() for n in names}
    summary = pd.read_csv(out / "summary.csv")
    assert summary["study"].tolist() == TINY["studies"]
    assert summary["verdict"].tolist() == ["calibration not run"] * 2
    proc = snakemake(tiny_report, "--cores", "1", "--configfile", "tiny.yaml", "-R", "build_report")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert {n: (out / n).read_bytes() for n in names} == before


def test_snakemake_report_carries_the_tables_and_a_plain_landing_text(tiny_report: Path) -> None:
    proc = snakemake(tiny_report, "--configfile", "tiny.yaml", "--report", "sm-report.zip")
    assert proc.returncode == 0, proc.stderr[-3000:]
    with zipfile.ZipFile(tiny_report / "sm-report.zip") as zf:
        names = {Path(n).name for n in zf.namelist()}
        landing = zf.read(next(n for n in zf.namelist() if n.endswith("report.html")))
    assert {"summary.csv", "dumbbell_diff.csv", "hstcp_claims.csv"} <= names
    assert {"dumbbell_claims_calibrated.csv", "hstcp_claims_calibrated.csv"} <= names
    text = landing.decode("utf-8")
    assert "Studies: dumbbell, hstcp; profile: none" in text and "[&#39;" not in text


def test_show_diff_rebuilds_the_report_and_show_prints_the_summary_first(
    tiny_report: Path,
) -> None:
    text = show.show(tiny_report / "results", TINY["studies"])
    first = text.splitlines()[:9]
    assert first[0].startswith("== did it reproduce?")
    assert first[1].startswith("dumbbell: ") and first[5].startswith("hstcp: ")
    (tiny_report / "report" / "index.html").unlink()
    proc = snakemake(tiny_report, "--cores", "1", "--configfile", "tiny.yaml", "-n", "show_diff")
    assert "build_report" in proc.stdout + proc.stderr


def test_report_in_chromium(tiny_report: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is absent (apt-get install chromium); the browser test needs it")
    from playwright.sync_api import sync_playwright

    page_file = tiny_report / "report" / "index.html"
    if not page_file.exists():  # the previous test removed it to see show_diff rebuild it
        proc = snakemake(tiny_report, "--cores", "1", "--configfile", "tiny.yaml")
        assert proc.returncode == 0, proc.stderr[-3000:]
    url = page_file.as_uri()
    errors: list[str] = []
    requests: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1366, "height": 900})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("request", lambda r: requests.append(r.url))
        start = time.perf_counter()
        page.goto(url, wait_until="load")
        load_s = time.perf_counter() - start
        metrics = page.evaluate(
            """() => ({
              scroll: document.documentElement.scrollWidth,
              client: document.documentElement.clientWidth,
              height: document.documentElement.scrollHeight,
              paint: performance.getEntriesByName('first-contentful-paint').map(e => e.startTime),
              broken: [...document.images].filter(i => !i.complete || i.naturalWidth === 0)
                        .map(i => i.alt),
              images: document.images.length,
              rows: [...document.querySelectorAll('#summary-table tbody tr')]
                      .map(r => [...r.cells].map(c => c.textContent.trim())),
            })"""
        )
        # A claim's scope ("DropTail") reads on one line, even on a narrow screen.
        page.set_viewport_size({"width": 640, "height": 900})
        scopes = page.evaluate(
            """() => [...document.querySelectorAll('td.scope')].map(c => {
                const r = document.createRange(); r.selectNodeContents(c);
                return [c.textContent, r.getClientRects().length];
            })"""
        )
        page.set_viewport_size({"width": 1366, "height": 900})
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOT))
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        opened = page.evaluate("document.documentElement.scrollWidth")
        browser.close()
    assert errors == []
    assert [u for u in requests if u != url and not u.startswith("data:")] == []
    assert metrics["images"] > 0 and metrics["broken"] == []
    assert metrics["scroll"] <= metrics["client"] == 1366 and opened <= 1366
    assert [r[0] for r in metrics["rows"]] == TINY["studies"]
    assert all(all(cell for cell in row) for row in metrics["rows"])
    assert scopes and [text for text, lines in scopes if lines > 1] == []
    MEASURES.write_text(
        json.dumps(
            {
                "bytes": page_file.stat().st_size,
                "height_px": metrics["height"],
                "first_contentful_paint_ms": metrics["paint"],
                "load_s": round(load_s, 3),
            },
            indent=1,
        )
    )
