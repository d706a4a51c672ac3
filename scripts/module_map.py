"""Write the module map in docs/architecture.md: each module of the package,
its lines and the first sentence of its docstring.

    python scripts/module_map.py            # rewrite the map
    python scripts/module_map.py --check    # fail if the map is stale
"""

import argparse
import ast
import re
from pathlib import Path

from generated import write_between

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
START, END = "<!-- module map: written by scripts/module_map.py -->", "<!-- end of module map -->"


def purpose(path: Path) -> str:
    """The first sentence of a module's docstring, on one line."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf8"))) or ""
    paragraph = " ".join(doc.split("\n\n", 1)[0].split())
    match = re.match(r"(.+?\.)(\s|$)", paragraph)
    return (match.group(1) if match else paragraph).replace("|", "\\|")


def table() -> str:
    rows = ["| module | lines | what it does |", "|---|---:|---|"]
    package = ROOT / "spacy_punct"
    for path in sorted(package.rglob("*.py"), key=lambda p: (len(p.relative_to(package).parts), str(p))):
        if "models" in path.relative_to(package).parts:
            continue
        lines = len(path.read_text(encoding="utf8").splitlines())
        rows.append(f"| `{path.relative_to(package)}` | {lines} | {purpose(path)} |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if the map is stale")
    args = parser.parse_args()
    write_between(DOC, START, END, table(), args.check, "python scripts/module_map.py")


if __name__ == "__main__":
    main()
