"""Write the module map in docs/architecture.md: each module of the package,
its lines and the first sentence of its docstring.

    python scripts/module_map.py            # rewrite the map
    python scripts/module_map.py --check    # fail if the map is stale
"""
import argparse
import ast
import re
import sys
from pathlib import Path

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
    text = DOC.read_text(encoding="utf8")
    before, rest = text.split(START, 1)
    _, after = rest.split(END, 1)
    new = f"{before}{START}\n{table()}\n{END}{after}"
    if args.check:
        if new != text:
            sys.exit("docs/architecture.md's module map is stale: run python scripts/module_map.py")
        print("docs/architecture.md's module map is up to date.")
        return
    DOC.write_text(new, encoding="utf8")
    print(f"Wrote the module map in {DOC}")


if __name__ == "__main__":
    main()
