"""Generated parts of the project's documents: the text between two marker
lines, written anew from measurements, or checked against them."""

import sys
from pathlib import Path


def write_between(path: Path, start: str, end: str, content: str, check: bool, how: str) -> None:
    """Put `content` between the lines `start` and `end` of `path`; with
    `check`, exit with an error (naming `how` to renew it) if it differs."""
    text = path.read_text(encoding="utf8")
    if start not in text or end not in text:
        sys.exit(f"{path} lacks the markers {start} ... {end}.")
    before, rest = text.split(start, 1)
    _, after = rest.split(end, 1)
    new = f"{before}{start}\n{content}\n{end}{after}"
    if check:
        if new != text:
            sys.exit(f"{path} is stale: run {how}")
        print(f"{path} is up to date.")
        return
    path.write_text(new, encoding="utf8")
    print(f"Wrote {path}")
