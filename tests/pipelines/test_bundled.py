import json
import random
import re
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_punct import load_pipeline, punctuate
from spacy_punct.cli import app
from spacy_punct.languages import LANGUAGES, language_entry
from spacy_punct.pipelines.bundled import (
    BUNDLED_DIR,
    ShadowedPipelineWarning,
    bundled_names,
    default_pipeline,
    resolve_model,
)

TEXT = "so how was the trip it was long but we saw the coast where did you stay in a small hotel near the harbour"


def _words(text):
    return re.sub(r"[,.?!;:]", "", text).lower().split()


def _bundle_model():
    """scripts/bundle_model.py as a module."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "bundle_model", Path(__file__).parents[2] / "scripts" / "bundle_model.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# the most each bundled pipeline may take on disk
SIZE_LIMITS = {"en_punct_sm": 16e6, "en_punct_trf": 35e6, "hu_punct_trf": 35e6, "bn_punct_trf": 35e6}
ENGLISH = ["en_punct_sm", "en_punct_trf"]


def test_every_pipeline_of_the_registry_ships_and_has_a_size_limit():
    registered = {name for entry in LANGUAGES.values() for name in entry.pipelines}
    assert registered == set(SIZE_LIMITS) == {path.parent.name for path in BUNDLED_DIR.glob("*/config.cfg")}


@pytest.mark.parametrize("name", sorted(SIZE_LIMITS))
def test_the_pipelines_ship_with_the_package(name):
    assert name in bundled_names()
    folder = BUNDLED_DIR / name
    meta = json.loads((folder / "meta.json").read_text(encoding="utf8"))
    assert meta["lang"] + "_" + meta["name"] == name
    assert meta["license"] and meta["sources"]
    headline = language_entry(meta["lang"]).test_sets[0].name
    assert meta["performance"][headline]["punct_f"] > 0
    assert (folder / "MODEL_CARD.md").is_file()
    size = sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())
    assert size < SIZE_LIMITS[name]


@pytest.mark.parametrize(
    "name,encoder",
    [
        ("en_punct_trf", "sentence-transformers/all-MiniLM-L6-v2"),
        ("hu_punct_trf", "intfloat/multilingual-e5-small"),
        ("bn_punct_trf", "intfloat/multilingual-e5-small"),
    ],
)
def test_the_transformer_pipelines_name_their_encoder_by_its_hub_name(name, encoder):
    from spacy.util import load_config

    config = load_config(BUNDLED_DIR / name / "config.cfg")
    assert config["components"]["transformer"]["model"]["name"] == encoder


@pytest.mark.parametrize("lang", ["en", "hu", "bn"])
def test_the_language_code_names_the_most_accurate_pipeline(lang):
    assert lang in bundled_names()
    assert default_pipeline(lang) == f"{lang}_punct_trf"
    assert resolve_model(lang) == BUNDLED_DIR / f"{lang}_punct_trf"
    assert default_pipeline("xx") is None


@pytest.mark.parametrize(
    "lang,text,expected",
    [
        ("hu", "szia hogy vagy jól vagyok köszönöm", ["szia", "hogy", "vagy", "jól", "vagyok", "köszönöm"]),
        ("bn", "আমি ভাত খাই তুমি কোথায় যাও", ["আমি", "ভাত", "খাই", "তুমি", "কোথায়", "যাও"]),
    ],
)
def test_hungarian_and_bangla_punctuate_by_their_code_and_keep_every_word(lang, text, expected):
    doc = next(punctuate(load_pipeline(lang), [text]))
    assert [t.text.lower() for t in doc if not t.is_punct] == expected
    assert doc.text[-1] in ".?!।"


@pytest.fixture(scope="module", params=ENGLISH)
def english(request):
    return load_pipeline(request.param)


def test_the_english_pipeline_punctuates_by_name(english):
    doc = next(punctuate(english, [TEXT]))
    assert _words(doc.text) == TEXT.split()  # only marks and case change
    assert doc.text[0].isupper() and doc.text[-1] in ".?!"  # the text ends a sentence (close_last_sentence)


def test_input_in_capitals_gets_the_marks_of_lower_case_input(english):
    # the CPU recipe reads the words lower-cased (spacy_punct.LowercaseEmbed.v1); a text
    # all in capitals takes the truecaser's case, capitals elsewhere stay
    lower, upper, title = punctuate(english, [TEXT, TEXT.upper(), TEXT.title()])
    assert upper.text == lower.text
    assert [t.text for t in title if t.is_punct] == [t.text for t in lower if t.is_punct]


def test_empty_and_blank_texts_beside_others(english):
    texts = ["", TEXT, "   ", "\n"]
    assert [doc.text for doc in punctuate(english, texts)][::2] == ["", "   "]
    assert [doc.text for doc in punctuate(english, texts)][1] == next(punctuate(english, [TEXT])).text


def test_a_bundled_name_wins_over_a_folder_and_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert resolve_model("en_punct_sm") == BUNDLED_DIR / "en_punct_sm"
    (tmp_path / "en").mkdir()  # a folder that holds no pipeline (data, say) is not one
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert resolve_model("en") == BUNDLED_DIR / "en_punct_trf"
    (tmp_path / "en" / "config.cfg").write_text("", encoding="utf8")
    with pytest.warns(ShadowedPipelineWarning, match=r"give \./en to load that one"):
        assert resolve_model("en") == BUNDLED_DIR / "en_punct_trf"
    assert resolve_model(Path("en")) == Path("en")
    assert resolve_model("./en") == "./en"
    assert resolve_model("en_core_web_sm") == "en_core_web_sm"


def test_the_command_line_says_which_pipeline_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "en_punct_sm").mkdir()
    (tmp_path / "en_punct_sm" / "config.cfg").write_text("", encoding="utf8")
    result = CliRunner().invoke(app, ["punctuate", "en_punct_sm"], input=TEXT + "\n")
    assert result.exit_code == 0, result.output
    assert "Warning: 'en_punct_sm' loads the bundled pipeline en_punct_sm" in result.stderr
    assert "Traceback" not in result.stderr and "warnings.warn" not in result.stderr


def test_the_command_line_takes_the_name():
    result = CliRunner().invoke(app, ["punctuate", "en"], input=TEXT + "\n")
    assert result.exit_code == 0, result.output
    assert _words(result.stdout) == TEXT.split()


def test_whitespace_between_words_changes_no_mark_or_case(english):
    """Line breaks, tabs and runs of spaces inside a text (a transcript kept in
    lines, `punctuate --whole`) are tokens the models never read: each word
    gets the mark and case it gets with single spaces, and the whitespace
    stays as it was."""
    words = TEXT.split()
    rng = random.Random(0)
    for _ in range(5):
        gaps = [rng.choice([" ", " ", "  ", "\n", "\t", " \n ", "\n\n"]) for _ in words[1:]]
        spaced = words[0] + "".join(gap + word for gap, word in zip(gaps, words[1:]))
        plain_doc, spaced_doc = punctuate(english, [TEXT, spaced])
        assert spaced_doc.text.split() == plain_doc.text.split()
        assert re.sub(r"[^\s]", "", spaced_doc.text) == re.sub(r"[^\s]", "", spaced)


def test_a_transcript_in_lines_read_whole(tmp_path):
    lines = [
        "so how was the trip",
        "it was long but we saw the coast",
        "where did you stay",
        "in a small hotel near the harbour",
    ]
    path = tmp_path / "transcript.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    whole = CliRunner().invoke(app, ["punctuate", "en", str(path), "--whole"])
    assert whole.exit_code == 0, whole.output
    one_line = CliRunner().invoke(app, ["punctuate", "en"], input=" ".join(lines) + "\n")
    assert whole.stdout.splitlines() != one_line.stdout.splitlines()
    assert whole.stdout.split() == one_line.stdout.split()
    assert [_words(line) for line in whole.stdout.splitlines()] == [line.split() for line in lines]


@pytest.mark.parametrize("name", sorted(SIZE_LIMITS))
def test_the_model_cards_give_the_kept_measurements(name):
    """Each bundled pipeline's meta.json scores and model card are those of
    its measurement files in projects/benchmarks/metrics/ (bundle_model.py card)."""
    root = Path(__file__).parents[2]
    bundle_model = _bundle_model()
    metrics = root / "projects" / "benchmarks" / "metrics" / name
    meta = json.loads((BUNDLED_DIR / name / "meta.json").read_text(encoding="utf8"))
    entry = language_entry(meta["lang"])
    assert meta["performance"] == bundle_model.performance(metrics, entry)
    card = (BUNDLED_DIR / name / "MODEL_CARD.md").read_text(encoding="utf8")
    assert bundle_model.scores_table(metrics, entry) in card


def test_a_card_keeps_the_scores_of_the_pipeline_it_replaced(tmp_path):
    """bundle_model.py card --replaced: the replaced pipeline's scores, from
    its metrics folder kept aside, in a section of their own."""
    bundle_model = _bundle_model()
    root = Path(__file__).parents[2] / "projects" / "benchmarks" / "metrics"
    meta = json.loads((BUNDLED_DIR / "en_punct_trf" / "meta.json").read_text(encoding="utf8"))
    entry = language_entry("en")
    (tmp_path / "old").mkdir()
    old = json.loads((root / "en_punct_trf" / "test2011.json").read_text(encoding="utf8"))
    old["punct_f"] = 0.5
    (tmp_path / "old" / "test2011.json").write_text(json.dumps(old), encoding="utf8")
    plain = bundle_model.model_card(meta, root / "en_punct_trf", "", entry)
    card = bundle_model.model_card(meta, root / "en_punct_trf", "", entry, replaced=tmp_path / "old")
    assert "replaced" not in plain
    new_part, old_part = card.split("## The pipeline it replaced")
    assert new_part.strip() == plain.strip()
    assert "| 50.0 |" in old_part and bundle_model.scores_table(tmp_path / "old", entry) in old_part


@pytest.mark.parametrize("command", ["punctuate", "stream"])
def test_a_line_broken_off_by_a_dash_ends_with_it(command):
    """`and then -` once came out as `and then. -`, and the stream wrote the dash on a line of its own."""
    result = CliRunner().invoke(app, [command, "en_punct_sm"], input="so we went to the market and then -\n")
    assert result.exit_code == 0, result.output
    (line,) = result.stdout.splitlines()  # the dash stays on the line
    # the model's commas aside: no sentence end before the dash, and the words as they were
    assert line.startswith("So we went to the market") and line.endswith(" and then -") and "." not in line


def test_a_bundled_pipeline_is_scored_on_the_test_sets_its_language_lists(tmp_path):
    """bundle_model.py score: one evaluate command a converted test set of the
    registry, a noisy variant on its base set with the noise level, a spoken
    one with its numbers written as words."""
    bundle_model = _bundle_model()
    (tmp_path / "en" / "eval").mkdir(parents=True)
    for name in ("test2011", "gum_dev"):
        (tmp_path / "en" / "eval" / f"{name}.spacy").touch()
    commands = bundle_model.evaluate_commands("en_punct_sm", Path("m"), 1, corpus=tmp_path)
    sets = [(Path(command[3]).name, command[8:]) for command in commands]
    assert sets == [
        ("test2011.spacy", []),
        ("test2011.spacy", ["--asr-noise", "0.1"]),
        ("gum_dev.spacy", []),
        ("gum_dev.spacy", ["--spoken-numbers"]),
    ]
    assert bundle_model.evaluate_commands("xx_punct_trf", Path("m"), 1, corpus=tmp_path) == []
    # a candidate bundle in a folder of its own is scored as its name's language
    candidate = bundle_model.evaluate_commands(str(tmp_path / "cand" / "en_punct_trf"), Path("m"), 1, corpus=tmp_path)
    assert [Path(command[3]).name for command in candidate] == [name for name, _ in sets]


def test_a_bundle_is_filed_under_its_folder_s_name(trained, tmp_path):
    """bundle_model.py pipeline: the scores and card of `en_punct_x` are found
    by the meta's name, whatever the trained run's meta called it."""
    bundle_model = _bundle_model()
    trained.meta["name"] = "some_run"
    trained.to_disk(tmp_path / "run")
    bundle_model.bundle_pipeline(tmp_path / "run", tmp_path / "en_punct_x", int8=False, keep_float=[], stride=0)
    assert json.loads((tmp_path / "en_punct_x" / "meta.json").read_text())["name"] == "punct_x"
    bundle_model.bundle_pipeline(tmp_path / "run", tmp_path / "new" / "candidate", int8=False, keep_float=[], stride=0)
    assert (
        json.loads((tmp_path / "new" / "candidate" / "meta.json").read_text())["name"] == "some_run"
    )  # its folder made


def test_a_bundle_takes_decision_settings_chosen_after_it_was_bundled(trained, tmp_path):
    """bundle_model.py pipeline and decisions: the thresholds and end
    threshold land in the bundle's config, and the loaded pipeline decides
    with them; a setting out of range changes nothing."""
    bundle_model = _bundle_model()
    trained.to_disk(tmp_path / "run")
    bundle = tmp_path / "en_punct_x"
    bundle_model.bundle_pipeline(
        tmp_path / "run", bundle, int8=False, keep_float=[], stride=0, thresholds={"COMMA": 0.4}, end_threshold=0.5
    )
    settings = load_pipeline(bundle).get_pipe("punctuator").settings
    assert (settings.thresholds, settings.end_threshold, settings.close_last_sentence) == ({"COMMA": 0.4}, 0.5, True)
    bundle_model.set_decisions(bundle, {"QUESTION": 0.3}, 0.55)
    settings = load_pipeline(bundle).get_pipe("punctuator").settings
    assert (settings.thresholds, settings.end_threshold, settings.close_last_sentence) == (
        {"QUESTION": 0.3},
        0.55,
        True,
    )
    config = (bundle / "config.cfg").read_text()
    with pytest.raises(SystemExit, match="The end threshold 1.5: give a number from 0 to 1"):
        bundle_model.set_decisions(bundle, {}, 1.5)
    assert (bundle / "config.cfg").read_text() == config
