"""The page at / in a real headless Chromium (Playwright): pasted text is
punctuated, typed words come back over the WebSocket as they are
committed, and a recogniser's file comes back in its own format. Skipped where no Chromium and no Playwright are installed."""

import shutil

import pytest

pytest.importorskip("fastapi")
playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [pytest.mark.browser, pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium")]

from spacy_punct import load_pipeline, punctuate  # noqa: E402
from spacy_punct.service.local import HEADLESS_CHROMIUM_ARGS as ARGS  # noqa: E402
from spacy_punct.service.local import running_service  # noqa: E402


def test_the_page_punctuates_pasted_text_and_typed_words(tmp_path):
    line = "so how was the trip it was long but we saw the coast"
    expected = next(punctuate(load_pipeline("en_punct_sm"), [line])).text
    with running_service(["en_punct_sm"]) as url, playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector("#model option", state="attached")
        page.fill("#input", line)
        page.click("#punctuate")
        page.wait_for_function(f"document.getElementById('output').textContent === {expected!r}", timeout=30_000)
        page.check("#live-mode")
        page.fill("#input", "")
        page.type("#input", "hello kevin how are you today ", delay=20)
        page.wait_for_function(
            "document.getElementById('committed').textContent.trim().startsWith('Hello')", timeout=30_000
        )
        assert page.inner_text("#committed").split()[0].startswith("Hello")
        srt = tmp_path / "talk.srt"
        srt.write_text("1\n00:00:00,000 --> 00:00:02,000\nso how was the trip it was long\n", encoding="utf8")
        page.set_input_files("#file", str(srt))  # a recogniser's file comes back in its own format
        page.wait_for_function("!document.getElementById('download').hidden", timeout=30_000)
        assert page.get_attribute("#download", "download") == "talk.punct.srt"
        assert page.inner_text("#output").startswith("1\n00:00:00,000 --> ")
        page.screenshot(path=str(tmp_path / "page.png"))
        browser.close()
    assert (tmp_path / "page.png").stat().st_size > 1000
