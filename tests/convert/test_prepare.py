import zipfile
from pathlib import Path

import pytest
import spacy
from spacy.tokens import DocBin

from spacy_punct.convert import CONVERTERS, ConversionError, prepare
from spacy_punct.convert.prepare import prepare_corpus, split_off_dev
from spacy_punct.languages import CORPORA, LANGUAGES, CorpusFile, corpus_files

TEST_TEXT = (
    "I'm a savant, or more precisely, a high-functioning autistic savant. It's a rare condition, "
    "and rarer still when accompanied, as in my case, by self-awareness and a mastery of language."
)
ROOT = Path(__file__).resolve().parent.parent.parent
BLOCKS = [f"Block number {n} is here, and it ends. Does it?" for n in range(10)]


def _texts(path):
    return [doc.text for doc in DocBin().from_disk(path).get_docs(spacy.blank("en").vocab)]


@pytest.fixture
def assets(tmp_path):
    folder = tmp_path / "assets"
    (folder / "talks").mkdir(parents=True)
    (folder / "talks" / "train.txt").write_text("\n\n".join(BLOCKS + [TEST_TEXT + " And more words follow here."]))
    (folder / "talks" / "test.txt").write_text(TEST_TEXT)
    with zipfile.ZipFile(folder / "talks" / "speeches.zip", "w") as zipped:
        zipped.writestr("speeches/one.txt", "We shall go on to the end, and we shall fight on the beaches.")
    return folder


def test_a_corpus_is_written_as_its_files_say(assets, tmp_path, monkeypatch):
    files = (
        CorpusFile("text", "talks/test.txt", "eval/test.spacy", required=True),
        CorpusFile(
            "text", "talks/train.txt", "train/talks.spacy", blocks=True, dev_fraction=0.2, guard=("eval/*.spacy",)
        ),
        CorpusFile("text", "talks", "extra/speeches.spacy", glob="**/*.txt", unzip=True),
        CorpusFile("text", "talks/missing.txt", "train/missing.spacy"),  # not fetched: skipped
        CorpusFile("text", "talks/test.txt", "eval/when.spacy", when="talks/missing.txt"),
        CorpusFile("text", "talks/test.txt", "eval/unless.spacy", unless="talks/train.txt"),
        CorpusFile("text", "README.md", "eval/shipped.spacy", shipped=True),
    )
    monkeypatch.setattr(prepare, "corpus_files", lambda name: ("en", files))
    prepared = list(prepare_corpus("toy", assets, corpus=tmp_path / "corpus", project=ROOT))
    out = tmp_path / "corpus" / "toy"
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*.spacy")) == [
        "dev.spacy",
        "eval/shipped.spacy",
        "eval/test.spacy",
        "extra/speeches.spacy",
        "train/talks.spacy",
    ]
    # the planted copy of the test text was dropped and named; the last tenths held out
    talks = prepared[1]
    assert talks.stats.skipped_files and "test.spacy" in talks.stats.skipped_files[0]
    assert _texts(out / "train" / "talks.spacy") + _texts(out / "dev.spacy") == BLOCKS
    assert talks.dev == out / "dev.spacy" and talks.n_dev == 2
    assert "fight on the beaches" in _texts(out / "extra" / "speeches.spacy")[0]


def test_a_missing_required_asset_and_an_unknown_corpus_fail_in_one_line(tmp_path):
    with pytest.raises(ConversionError, match="fetch the assets"):
        list(prepare_corpus("en", tmp_path, corpus=tmp_path / "corpus"))
    with pytest.raises(ValueError, match="Unknown corpus 'xx'"):
        list(prepare_corpus("xx", tmp_path))


def test_the_registry_lists_a_corpus_for_every_language_and_only_known_formats():
    for name in [*LANGUAGES, *CORPORA]:
        lang, files = corpus_files(name)
        assert files and any(file.required for file in files)
        assert {file.format for file in files} <= set(CONVERTERS)
        outputs = [file.output for file in files]
        assert any(output.startswith("eval/") for output in outputs)
        assert any(file.dev_fraction for file in files) or "dev.spacy" in outputs


def test_split_off_dev_keeps_one_document_on_each_side():
    assert split_off_dev([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.1) == ([1, 2, 3, 4, 5, 6, 7, 8, 9], [10])
    assert split_off_dev([1, 2], 0.9) == ([1], [2])
    with pytest.raises(ValueError):
        split_off_dev([1], 0.1)
    with pytest.raises(ValueError):
        split_off_dev([1, 2], 1.5)
