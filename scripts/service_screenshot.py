"""The README's picture of the service's page: `spacy-punct serve`'s page
in headless Chromium (Playwright, with the system's Chromium), after a
pasted text and a few typed words.

    python scripts/service_screenshot.py [docs/images/service.png] [--model en]
"""

import argparse
import shutil
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from spacy_punct.service.local import HEADLESS_CHROMIUM_ARGS as ARGS
from spacy_punct.service.local import running_service


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", nargs="?", type=Path, default=Path("docs/images/service.png"))
    parser.add_argument("--model", default="en")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("Error: no Chromium found (apt-get install chromium)")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with running_service([args.model]) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        page = browser.new_page(viewport={"width": 900, "height": 620})
        page.goto(url)
        page.wait_for_selector("#model option", state="attached")
        page.fill("#input", "so how was the trip it was long but we saw the coast\nhi kevin my internet is down again")
        page.click("#punctuate")
        page.wait_for_function("document.getElementById('output').textContent.length > 0")
        page.check("#live-mode")
        page.fill("#input", "")
        page.type("#input", "great news for the state senator john smith said on tuesday that the ", delay=30)
        page.wait_for_function("document.getElementById('committed').textContent.trim().length > 0")
        page.wait_for_timeout(500)
        page.screenshot(path=str(args.output))
        browser.close()
    print(f"Wrote {args.output}")


if __name__ == "__main__":
    main()
