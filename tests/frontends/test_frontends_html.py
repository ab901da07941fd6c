"""The agreement report page (pandas_agree.frontends.html) and its command-line flags.

The page is parsed back with the standard library's HTML parser: its numbers must be the
result objects' numbers, its order the issue's, and nothing from the data may become markup.
The browser tests open the written file in headless Chromium (Playwright driving the system's
``/usr/bin/chromium``): no request may leave the page, no script from the data may run, the
tables sort, and the page is drawn at 1280 x 800 and at phone width. They skip with a reason
when Playwright or Chromium is missing.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import pandas_agree as pa
from pandas_agree.errors import InvalidParameterError
from pandas_agree.frontends import html as page_html
from pandas_agree.frontends.cli import main, read_table
from pandas_agree.frontends.html import (
    ReportPage,
    report_page,
    span_report_page,
    write_file,
)

#: HTML and script fragments that a hostile export could hold in any label.
PAYLOADS = (
    "<script>window.__pwned=1</script>",
    '"><img src=x onerror="window.__pwned=1">',
    "'><svg onload=window.__pwned=1>",
    "</table><iframe src=javascript:window.__pwned=1></iframe>",
    "<!-- --> &amp; ]]>",
)

#: Every element and attribute the page itself writes (the sorting script adds buttons).
ELEMENTS = {
    "html",
    "head",
    "meta",
    "title",
    "style",
    "body",
    "a",
    "header",
    "h1",
    "nav",
    "ol",
    "li",
    "main",
    "section",
    "h2",
    "h3",
    "dl",
    "dt",
    "dd",
    "code",
    "div",
    "p",
    "span",
    "strong",
    "em",
    "table",
    "caption",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "th",
    "td",
    "figure",
    "img",
    "figcaption",
    "ul",
    "footer",
    "time",
    "script",
    "button",
}
ATTRIBUTES = {
    "lang",
    "charset",
    "http-equiv",
    "content",
    "name",
    "class",
    "href",
    "id",
    "aria-label",
    "aria-labelledby",
    "scope",
    "data-v",
    "data-metric",
    "src",
    "alt",
    "datetime",
    "type",
    "aria-sort",
}

#: The issue's order of the page's sections.
SECTIONS = [
    "measured",
    "headline",
    "groups-section",
    "coders-section",
    "labels-section",
    "items-section",
    "notes",
]


class Parsed(HTMLParser):
    """Every start tag and attribute, the tables by id (cells with data-v and text), the
    inline script and style, the section ids in order and the text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.tables: dict[str, list[list[dict]]] = {}
        self.sections: list[str] = []
        self.script = ""
        self.style = ""
        self.text_parts: list[str] = []
        self._table: str | None = None
        self._cell: dict | None = None
        self._raw: str | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "section":
            self.sections.append(a.get("id"))
        if tag == "table":
            self._table = a.get("id")
            self.tables[self._table] = []
        if tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
        if tag in ("td", "th") and self._table is not None:
            self._cell = {"tag": tag, "attrs": a, "text": ""}
            self.tables[self._table][-1].append(self._cell)
        if tag in ("script", "style"):
            self._raw = tag

    def handle_endtag(self, tag):
        if tag == "table":
            self._table = None
        if tag in ("td", "th"):
            self._cell = None
        if tag in ("script", "style"):
            self._raw = None

    def handle_data(self, data):
        if self._raw == "script":
            self.script += data
        elif self._raw == "style":
            self.style += data
        else:
            self.text_parts.append(data)
            if self._cell is not None:
                self._cell["text"] += data

    @property
    def text(self) -> str:
        return "".join(self.text_parts)


def _sha(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


def _hostile() -> pd.DataFrame:
    """Long data whose groups, units, coders and values are all HTML and script fragments."""
    rng = np.random.default_rng(7)
    rows = []
    coders = [PAYLOADS[1], PAYLOADS[0], "C"]
    for g in (PAYLOADS[2], PAYLOADS[3]):
        for u in range(12):
            unit = f"{PAYLOADS[4]}{u}"
            for c in coders:
                rows.append((g, unit, c, PAYLOADS[int(rng.integers(0, 3))]))
    return pd.DataFrame(rows, columns=["<b onmouseover=x>", "unit", "coder", "value"])


def _hostile_spans() -> tuple[pd.DataFrame, dict[str, str]]:
    doc = PAYLOADS[0]
    text = PAYLOADS[1] + " and " + PAYLOADS[2] + " " + PAYLOADS[3]
    spans = pd.DataFrame(
        {
            "document": doc,
            "coder": [PAYLOADS[1], PAYLOADS[1], PAYLOADS[2], PAYLOADS[2], PAYLOADS[2]],
            "start": [0, 45, 0, 45, 60],
            "end": [40, 70, 41, 70, 80],
            "label": [PAYLOADS[0], PAYLOADS[3], PAYLOADS[0], PAYLOADS[4], PAYLOADS[4]],
        }
    )
    return spans, {doc: text}


def _assert_no_markup_from_data(parsed: Parsed) -> None:
    for tag, attrs in parsed.tags:
        assert tag in ELEMENTS, tag
        assert set(attrs) <= ATTRIBUTES, (tag, attrs)
        if tag == "img":
            assert attrs["src"].startswith("data:image/svg+xml;base64,")
    assert sum(tag == "script" for tag, _ in parsed.tags) == 1


@pytest.fixture(scope="module")
def k2011_page() -> ReportPage:
    # Krippendorff (2011), section C: nominal 0.743, interval 0.849.
    return report_page(
        pa.datasets.krippendorff_2011(), ["nominal", "interval"], ci=0.95, n_boot=300, rng=3
    )


@pytest.fixture(scope="module")
def studies_page() -> ReportPage:
    # Krippendorff (2011) section C and Wikipedia's example (public_examples.md) as two
    # groups: nominal 0.743, 0.691, pooled 0.724 (docs/reports.md).
    studies = pd.concat(
        [
            pa.datasets.krippendorff_2011().assign(study="k2011"),
            pa.datasets.wikipedia_alpha().assign(study="wiki"),
        ],
        ignore_index=True,
    )
    return report_page(studies, ["nominal", "interval"], by="study", digits=4, top=5)


@pytest.fixture(scope="module")
def k2011_html(k2011_page) -> str:
    return k2011_page.to_html()


@pytest.fixture(scope="module")
def studies_html(studies_page) -> str:
    return studies_page.to_html()


@pytest.fixture
def no_figures(monkeypatch):
    """Pages drawn without matplotlib (faster, where the figures are not the point)."""
    monkeypatch.setattr(page_html, "_matplotlib", lambda: None)


# ---------------------------------------------------------------------------------------------
# what the page holds


@pytest.mark.slow
def test_sections_come_in_the_issues_order(studies_html):
    parsed = Parsed(studies_html)
    assert parsed.sections == SECTIONS
    assert parsed.text.index("What was measured") < parsed.text.index("Headline")


@pytest.mark.slow
def test_published_alphas_on_the_page(k2011_page, k2011_html):
    # Krippendorff (2011), section C: nominal 0.743 (113/152), interval 0.849.
    text = k2011_html
    parsed = Parsed(text)
    values = re.findall(
        r'data-metric="([^"]+)"><h3>[^<]*</h3><p class="value" data-v="([^"]*)">'
        r"([^<]*)</p>",
        text,
    )
    assert [(m, shown) for m, _, shown in values] == [("nominal", "0.743"), ("interval", "0.849")]
    assert float(values[0][1]) == pytest.approx(113 / 152, rel=1e-12)
    assert float(values[0][1]) == k2011_page.table["nominal"].iloc[-1]
    assert "Tentative." in parsed.text and "Reliable." in parsed.text


def test_numbers_on_the_page_are_the_results(studies_page, studies_html):
    page = studies_page
    parsed = Parsed(studies_html)
    rows = parsed.tables["groups"]
    header = [c["text"].strip() for c in rows[0]]
    body = rows[1:]
    # one row per group, then the pooled row
    assert [r[0]["text"] for r in body] == ["k2011", "wiki", "pooled"]
    assert header[:3] == ["study", "nominal", "interval"]
    for row, (_, expected) in zip(body, page.table.iterrows()):
        for cell, column in zip(row[1:], header[1:]):
            value = expected[column]
            if isinstance(value, (float, np.floating)):
                assert float(cell["attrs"]["data-v"]) == value  # the exact number
                assert cell["text"] == f"{value:.4f}"  # with the digits asked for
                assert "num" in cell["attrs"]["class"]
            else:
                assert int(cell["text"]) == value
    # the published values: 0.743, 0.691, pooled 0.724
    assert [round(float(r[1]["text"]), 3) for r in body] == [0.743, 0.691, 0.724]
    # coders: alpha without each coder
    coders = parsed.tables["coders"]
    expected = page.coders
    for row in coders[1:]:
        coder = row[0]["text"]
        assert float(row[3]["attrs"]["data-v"]) == expected.loc[coder, "alpha_without"]
    # items: capped at top=5, with the count of all
    items = parsed.tables["items"]
    assert len(items) - 1 == 5 == len(page.items)
    assert page.n_items > 5
    assert f"out of {page.n_items:,}" in parsed.text
    shares = [float(r[3]["attrs"]["data-v"]) for r in items[1:]]
    assert shares == page.items["share"].tolist()


def test_pairwise_and_per_category_tables_are_the_library_functions(k2011_page, k2011_html):
    df = pa.datasets.krippendorff_2011()
    pd.testing.assert_frame_equal(k2011_page.pairwise, pa.pairwise(df, "alpha", "nominal"))
    pd.testing.assert_frame_equal(k2011_page.labels, pa.category_agreement(df))
    pd.testing.assert_frame_equal(k2011_page.coders, pa.alpha(df).by_coder())
    pd.testing.assert_frame_equal(k2011_page.items, pa.alpha(df).disagreements())
    parsed = Parsed(k2011_html)
    labels = parsed.tables["labels"]
    kappas = [float(r[6]["attrs"]["data-v"]) for r in labels[1:]]
    assert kappas == k2011_page.labels["kappa"].tolist()


def test_labels_of_sets_are_category_agreement_of_each_label():
    # Passonneau (2006), Figures 2-4: per label, the data recoded to "the set holds the
    # label" (True) or not, then category_agreement's row of True.
    figs = pa.datasets.masi_figures()
    page = report_page(figs, "masi", by="figure")
    nested = figs.assign(unit=figs["figure"] + "/" + figs["unit"].astype(str))
    for label in ("x", "y", "z", 6):
        binary = nested.assign(value=nested["value"].map(lambda s, lab=label: lab in s))
        expected = pa.category_agreement(binary, categories=[False, True]).loc[True]
        got = page.labels.loc[label]
        for column in ("n_ratings", "specific_agreement", "kappa", "alpha"):
            assert got[column] == pytest.approx(expected[column], nan_ok=True), (label, column)


def test_grouped_items_equal_disagreements(studies_page):
    studies = pd.concat(
        [
            pa.datasets.krippendorff_2011().assign(study="k2011"),
            pa.datasets.wikipedia_alpha().assign(study="wiki"),
        ],
        ignore_index=True,
    )
    pd.testing.assert_frame_equal(
        studies_page.disagreements(), pa.disagreements(studies, "nominal", by="study", top=5)
    )


def test_csp_allows_only_the_pages_own_style_and_script(k2011_html):
    text = k2011_html
    parsed = Parsed(text)
    csp = [a["content"] for t, a in parsed.tags if a.get("http-equiv") == "Content-Security-Policy"]
    assert len(csp) == 1
    policy = dict(part.strip().split(" ", 1) for part in csp[0].split(";"))
    assert policy["default-src"] == "'none'"
    assert policy["img-src"] == "data:"
    assert policy["script-src"] == f"'sha256-{_sha(parsed.script)}'"
    assert policy["style-src"] == f"'sha256-{_sha(parsed.style)}'"
    # nothing points outside the file
    for _, attrs in parsed.tags:
        for name in ("src", "href"):
            if name in attrs:
                assert attrs[name].startswith(("data:", "#")), attrs
    assert re.search(r"https?://", re.sub(r'src="data:[^"]*"', "", text)) is None


def test_page_without_matplotlib_says_so(monkeypatch, k2011_page):
    monkeypatch.setattr(page_html, "_matplotlib", lambda: None)
    parsed = Parsed(k2011_page.to_html())
    assert not [t for t, _ in parsed.tags if t == "img"]
    assert "Figures need matplotlib" in parsed.text


def test_figures_are_inline_svg_with_alt_text(k2011_html):
    pytest.importorskip("matplotlib")
    parsed = Parsed(k2011_html)
    images = [a for t, a in parsed.tags if t == "img"]
    assert len(images) == 2  # forest plot and heatmap
    for attrs in images:
        svg = base64.b64decode(attrs["src"].split(",", 1)[1])
        assert svg.lstrip().startswith(b"<?xml") and b"<svg" in svg
        assert len(attrs["alt"]) > 40


# ---------------------------------------------------------------------------------------------
# untrusted data


def test_injection_long_data_is_text():
    df = _hostile()
    page = report_page(df, "nominal", by="<b onmouseover=x>", source=PAYLOADS[0], title=PAYLOADS[1])
    text = page.to_html()
    parsed = Parsed(text)
    _assert_no_markup_from_data(parsed)
    for payload in PAYLOADS[:4]:
        assert payload in parsed.text  # shown as text
        assert payload not in text  # never as markup
    assert "<b onmouseover=x>" in parsed.text
    assert len(parsed.tables["groups"]) == 1 + 3  # header, two groups, pooled


def test_injection_spans_is_text(no_figures):
    spans, texts = _hostile_spans()
    page = span_report_page(spans, "char", texts=texts, source=PAYLOADS[2])
    text = page.to_html()
    parsed = Parsed(text)
    _assert_no_markup_from_data(parsed)
    assert len(page.items) > 0
    for payload in PAYLOADS[:4]:
        assert payload in parsed.text
        assert payload not in text


# ---------------------------------------------------------------------------------------------
# degenerate data, caps, bad input


def test_no_pairable_unit_gives_a_page_that_says_so(tmp_path, no_figures):
    df = pd.DataFrame({"unit": [1, 2, 3], "coder": ["a", "b", "a"], "value": ["x", "y", "x"]})
    page = report_page(df)
    parsed = Parsed(page.to_html(tmp_path / "empty.html"))
    assert "No unit was rated by two or more coders" in parsed.text
    assert "Nothing to adjudicate: no unit was rated by two or more coders." in parsed.text
    assert "Undefined." in parsed.text
    assert page.items.empty and page.n_items == 0
    assert (tmp_path / "empty.html").exists()


def test_no_variation_gives_a_page(no_figures):
    df = pd.DataFrame({"unit": [1, 1, 2, 2], "coder": list("abab"), "value": ["x"] * 4})
    parsed = Parsed(report_page(df).to_html())
    assert "Nothing to adjudicate: the coders agree on every unit." in parsed.text
    assert "Undefined." in parsed.text


def test_items_and_groups_are_capped(monkeypatch, no_figures):
    rng = np.random.default_rng(0)
    n = 300
    df = pd.DataFrame(
        {
            "g": np.repeat(np.arange(n) % 30, 3),
            "unit": np.repeat(np.arange(n), 3),
            "coder": np.tile(["a", "b", "c"], n),
            "value": rng.integers(0, 3, 3 * n),
        }
    )
    monkeypatch.setattr(page_html, "MAX_GROUP_ROWS", 10)
    page = report_page(df, by="g", top=7)
    parsed = Parsed(page.to_html())
    assert len(parsed.tables["items"]) - 1 == 7
    assert page.n_items > 7 and f"out of {page.n_items:,}" in parsed.text
    assert len(parsed.tables["groups"]) - 1 == 10 + 1  # 10 lowest groups, then pooled
    assert "30 groups: the 10 with the lowest nominal are shown" in parsed.text


def test_coder_named_like_a_column_leaves_a_note(no_figures):
    df = pd.DataFrame({"unit": [1, 1, 2, 2], "coder": ["share", "b"] * 2, "value": list("xyxx")})
    page = report_page(df)
    assert page.items.empty and page.n_items == 1
    parsed = Parsed(page.to_html())
    assert "could not be made: coder 'share' is named like a column" in parsed.text


def test_many_coders_share_one_values_column(no_figures):
    rng = np.random.default_rng(1)
    coders = [f"c{i}" for i in range(20)]
    df = pd.DataFrame(
        [(u, c, int(rng.integers(0, 3))) for u in range(10) for c in coders],
        columns=["unit", "coder", "value"],
    )
    parsed = Parsed(report_page(df).to_html())
    header = [c["text"] for c in parsed.tables["items"][0]]
    assert header[-1] == "values (coder: value)"
    assert "c0: " in parsed.tables["items"][1][-1]["text"]


@pytest.mark.parametrize(
    "kwargs, match",
    [
        pytest.param({"top": 0}, r"`top` must be a positive integer, got 0", id="top"),
        pytest.param(
            {"digits": 16}, r"`digits` must be an integer from 0 to 15, got 16", id="digits"
        ),
        pytest.param({"title": 3}, r"`title` must be a string or None, got 3", id="title"),
    ],
)
def test_bad_arguments(kwargs, match):
    with pytest.raises(InvalidParameterError, match=match):
        report_page(pa.datasets.krippendorff_2011(), **kwargs)


def test_unwritable_path_is_an_error_and_leaves_nothing(tmp_path, k2011_page, no_figures):
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    with pytest.raises(InvalidParameterError, match=r"`path` .*file.txt/page.html.* cannot be"):
        k2011_page.to_html(blocker / "page.html")
    with pytest.raises(InvalidParameterError, match=r"is a directory"):
        write_file(tmp_path, "text")
    with pytest.raises(InvalidParameterError, match=r"`path` .* cannot be written"):
        write_file(tmp_path / "missing" / "page.html", "text")
    with pytest.raises(InvalidParameterError, match=r"`path` must be a file name, got 3"):
        write_file(3, "text")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]


def test_failed_write_keeps_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "page.html"
    target.write_text("old")

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(page_html.os, "replace", refuse)
    with pytest.raises(InvalidParameterError, match="Permission denied"):
        write_file(target, "new")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.html"]


def test_written_file_is_the_text_and_readable_by_others(tmp_path, k2011_page, no_figures):
    out = tmp_path / "page.html"
    text = k2011_page.to_html(out)
    assert out.read_text(encoding="utf-8") == text
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask


def test_caller_frame_is_not_modified_nor_kept(no_figures):
    df = pa.datasets.krippendorff_2011()
    before = df.copy()
    page = report_page(df, "interval")
    pd.testing.assert_frame_equal(df, before)
    for value in vars(page).values():
        assert value is not df


# ---------------------------------------------------------------------------------------------
# the command line


@pytest.mark.slow
def test_cli_report_html_and_disagreements(tmp_path, capsys):
    data = tmp_path / "masi.csv"
    figs = pa.datasets.masi_figures()
    figs.assign(
        value=figs["value"].map(lambda v: "[" + ", ".join(f'"{x}"' for x in sorted(v)) + "]")
    ).to_csv(data, index=False)
    html_out, csv_out = tmp_path / "r.html", tmp_path / "d.csv"
    argv = [
        "report",
        str(data),
        "--by",
        "figure",
        "--distance",
        "masi",
        "nominal",
        "--html",
        str(html_out),
        "--disagreements",
        str(csv_out),
    ]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    # Passonneau (2006), Figures 2-4: MASI alpha -0.349, 0.010, -0.327, pooled 0.116.
    assert "-0.349" in printed and "0.116" in printed
    parsed = Parsed(html_out.read_text())
    assert "pandas-agree report" in parsed.text and "--html" in parsed.text
    assert [r[1]["text"] for r in parsed.tables["groups"][1:]] == [
        "-0.349",
        "0.010",
        "-0.327",
        "0.116",
    ]
    # the CSV holds every unit with disagreement, and reads back as the same sets
    items = read_table(csv_out, value="A3")
    expected = pa.disagreements(figs, "masi", by="figure", top=None)
    assert len(items) == len(expected)
    assert items["unit"].astype(str).tolist() == expected["unit"].astype(str).tolist()
    got = [v for v in items["A3"] if v is not None]
    want = [frozenset(str(x) for x in v) for v in expected["A3"] if v is not None]
    assert got == want


def test_cli_unwritable_html_is_one_line(tmp_path, capsys, no_figures):
    data = tmp_path / "k.csv"
    pa.datasets.krippendorff_2011().to_csv(data, index=False)
    status = main(["report", str(data), "--html", str(tmp_path / "no" / "r.html")])
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith("pandas-agree: error: --html ") and "cannot be written" in err
    assert not (tmp_path / "no").exists()


def test_cli_spans_html(tmp_path, capsys, no_figures):
    brat = Path(pa.__file__).parent / "io" / "examples" / "brat"
    out = tmp_path / "s.html"
    csv_out = tmp_path / "s.csv"
    assert (
        main(
            [
                "spans",
                str(brat),
                "--format",
                "brat",
                "--html",
                str(out),
                "--disagreements",
                str(csv_out),
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    parsed = Parsed(out.read_text())
    assert parsed.sections == SECTIONS
    assert "Ericsson" in parsed.text
    items = pd.read_csv(io.StringIO(csv_out.read_text()))
    assert items["kind"].tolist() == ["label", "only b"]
    assert "(pooled)" in printed and "sony" not in printed  # --by document not asked


# ---------------------------------------------------------------------------------------------
# in a real browser


def _browser():
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright for Python is not installed"
    )
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    return sync_api, executable


@pytest.fixture(scope="module")
def browser():
    sync_api, executable = _browser()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable)
        yield b
        b.close()


def _open(browser, path: Path, width: int, height: int):
    page = browser.new_page(viewport={"width": width, "height": height})
    requests: list[str] = []
    errors: list[str] = []
    target = path.resolve().as_uri()

    def route(r):
        requests.append(r.request.url)
        if r.request.url == target:
            r.continue_()
        else:
            r.abort()

    page.route("**/*", route)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(target)
    page.wait_for_load_state("load")
    return page, requests, errors, target


def _not_blank(png: bytes) -> None:
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("L")
    low, high = image.getextrema()
    assert high - low > 100
    assert sum(1 for count in image.histogram() if count) > 20


@pytest.mark.slow
def test_browser_report_page(browser, tmp_path, studies_page):
    path = tmp_path / "report.html"
    studies_page.to_html(path)
    page, requests, errors, target = _open(browser, path, 1280, 800)
    try:
        assert requests == [target]  # nothing but the file itself
        assert errors == []  # the script ran under the CSP, no violation
        _not_blank(page.screenshot(path=str(tmp_path / "desktop.png")))
        assert page.locator("#headline .card").count() == 2
        assert page.locator("#groups tbody tr").count() == 2  # one row per group
        assert page.locator("#groups tfoot tr").count() == 1  # the pooled row
        assert page.locator("#items tbody tr").count() == 5
        images = page.locator("figure img")
        if page_html._matplotlib() is not None:
            assert images.count() == 2
            for i in range(2):
                assert images.nth(i).evaluate("img => img.complete && img.naturalWidth > 0")
        shown = page.locator("#headline .card .value").all_inner_texts()
        assert shown == [f"{studies_page.table[n].iloc[-1]:.4f}" for n in ("nominal", "interval")]
        # sorting by a click: the group rows by nominal alpha, ascending then descending
        page.locator("#groups thead th").nth(1).locator("button").click()
        assert page.locator("#groups tbody tr th").all_inner_texts() == ["wiki", "k2011"]
        assert page.locator("#groups thead th").nth(1).get_attribute("aria-sort") == "ascending"
        page.locator("#groups thead th").nth(1).locator("button").click()
        assert page.locator("#groups tbody tr th").all_inner_texts() == ["k2011", "wiki"]
        assert page.locator("#groups tfoot tr th").inner_text() == "pooled"
    finally:
        page.close()
    phone, requests, errors, _ = _open(browser, path, 390, 844)
    try:
        _not_blank(phone.screenshot(path=str(tmp_path / "phone.png"), full_page=True))
        # wide tables scroll inside their box; the page itself does not scroll sideways
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        assert errors == []
    finally:
        phone.close()


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["long", "spans"])
def test_browser_injection_runs_nothing(browser, tmp_path, kind):
    if kind == "long":
        built = report_page(_hostile(), "nominal", by="<b onmouseover=x>", title=PAYLOADS[1])
    else:
        spans, texts = _hostile_spans()
        built = span_report_page(spans, "char", texts=texts, title=PAYLOADS[3])
    path = tmp_path / "hostile.html"
    built.to_html(path)
    page, requests, errors, target = _open(browser, path, 1280, 800)
    try:
        assert requests == [target]
        assert page.evaluate("typeof window.__pwned") == "undefined"
        found = page.evaluate(
            """() => Array.from(document.querySelectorAll('*')).map(e =>
                   [e.tagName.toLowerCase(), Array.from(e.attributes).map(a => a.name)])"""
        )
        for tag, attrs in found:
            assert tag in ELEMENTS, tag
            assert set(attrs) <= ATTRIBUTES, (tag, attrs)
        assert page.locator("script").count() == 1
        body = page.locator("body").inner_text()
        for payload in PAYLOADS[:4]:
            assert payload in body
        # clicking every header of the items table runs only the sorting script
        headers = page.locator("#items thead th button")
        for i in range(headers.count()):
            headers.nth(i).click()
        assert page.evaluate("typeof window.__pwned") == "undefined"
        assert errors == []
    finally:
        page.close()
