"""Write the module map in docs/architecture.md: each module of the package,
its lines, the first sentence of its docstring and its tests (the mirrored
`tests/<folder>/test_<module>.py`, or the reason in `TESTED_ELSEWHERE`); the
check fails on a module with neither.

    python scripts/module_map.py            # rewrite the map
    python scripts/module_map.py --check    # fail if the map is stale
"""

import argparse
import ast
import re
import sys
from pathlib import Path

from generated import write_between

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
START, END = "<!-- module map: written by scripts/module_map.py -->", "<!-- end of module map -->"
# modules without a mirrored test file, and where they are tested instead
TESTED_ELSEWHERE = {
    "__main__.py": "runs the command line: tests/cli/test_app.py",
    "about.py": "the version only: tests/test_metadata.py",
    "cli/_util.py": "what the commands share, through them: tests/cli/",
    "errors.py": "the error type only, raised and printed through every command: tests/jobs/, tests/cli/",
    "jobs/__init__.py": "a package docstring",
    "cli/distill.py": "tests/pipelines/test_distillation.py",
    "cli/install.py": "tests/pipelines/test_packages.py",
    "cli/quantize.py": "tests/components/test_quantizer.py",
    "cli/serve.py": "starts uvicorn on the app of tests/service/test_app.py and test_page.py",
    "convert/common.py": "what the converters share, through them: tests/convert/",
    "convert/conllup.py": "tests/convert/test_conllup_json.py",
    "convert/iwslt.py": "tests/convert/test_iwslt_text.py",
    "convert/json_sentences.py": "tests/convert/test_conllup_json.py",
    "convert/text.py": "tests/convert/test_iwslt_text.py",
    "formats/asr/ctm.py": "tests/formats/test_recognisers.py",
    "formats/asr/pocketsphinx.py": "tests/formats/test_recognisers.py",
    "formats/asr/nemo.py": "tests/formats/test_recognisers.py",
    "formats/asr/srt_vtt.py": "tests/formats/test_recognisers.py",
    "formats/asr/vosk.py": "tests/formats/test_recognisers.py",
    "formats/asr/whisper.py": "tests/formats/test_recognisers.py",
    "formats/asr/whisper_cpp.py": "tests/formats/test_recognisers.py",
    "service/local.py": "tests/service/test_page.py",
}


def purpose(path: Path) -> str:
    """The first sentence of a module's docstring, on one line."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf8"))) or ""
    paragraph = " ".join(doc.split("\n\n", 1)[0].split())
    match = re.match(r"(.+?\.)(\s|$)", paragraph)
    return (match.group(1) if match else paragraph).replace("|", "\\|")


def tests_of(module: Path) -> str:
    """Where a module of the package is tested; "" where nowhere is said."""
    mirrored = Path("tests") / module.parent / f"test_{module.stem}.py"
    if (ROOT / mirrored).exists():
        return f"`{mirrored}`"
    if module.name == "__init__.py":
        return "its package's"
    return TESTED_ELSEWHERE.get(str(module), "")


def table() -> str:
    rows = ["| module | lines | what it does | tests |", "|---|---:|---|---|"]
    package = ROOT / "spacy_punct"
    untested = []
    for path in sorted(package.rglob("*.py"), key=lambda p: (len(p.relative_to(package).parts), str(p))):
        module = path.relative_to(package)
        if "models" in module.parts:
            continue
        lines = len(path.read_text(encoding="utf8").splitlines())
        tests = tests_of(module)
        untested += [] if tests else [str(module)]
        rows.append(f"| `{module}` | {lines} | {purpose(path)} | {tests} |")
    if untested:
        sys.exit(f"No test file and no reason in TESTED_ELSEWHERE for: {', '.join(untested)}")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if the map is stale")
    args = parser.parse_args()
    write_between(DOC, START, END, table(), args.check, "python scripts/module_map.py")


if __name__ == "__main__":
    main()
