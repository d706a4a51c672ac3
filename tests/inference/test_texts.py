"""Punctuating texts in batches, long ones in pieces."""

import pytest

from spacy_punct import texts as text_module
from spacy_punct.inference.records import punctuate_records
from spacy_punct.inference.texts import punctuate, punctuate_pieces

from ..conftest import TEXTS

BARE = [t.lower().replace(",", "").replace(".", "").replace("?", "") for t in TEXTS]


def test_punctuate_texts_in_order_whatever_the_batch(trained):
    expected = [trained(text).text for text in BARE]
    for batch_size in (1, 4, 64):
        assert [doc.text for doc in punctuate(trained, iter(BARE), batch_size=batch_size)] == expected
    with pytest.raises(ValueError, match="batch_size"):
        list(punctuate(trained, BARE, batch_size=0))
    for wrong in ("64", 2.5):
        with pytest.raises(TypeError, match="batch_size must be a whole number"):
            list(punctuate(trained, BARE, batch_size=wrong))


def test_one_text_or_record_alone_is_refused_at_the_call(trained):
    # iterated, a string would be texts of one character each
    with pytest.raises(TypeError, match=r"\[text\]"):
        punctuate(trained, BARE[0])
    with pytest.raises(TypeError, match=r"\[record\]"):
        punctuate_records(trained, {"text": BARE[0]})
    assert [doc.text for doc in punctuate(trained, [BARE[0]])] == [trained(BARE[0]).text]


def test_a_pipeline_not_loaded_or_without_a_punctuator_is_refused_at_the_call():
    import spacy

    from spacy_punct.pipelines import PipelineError

    for call, items in ((punctuate, BARE), (punctuate_records, [{"text": BARE[0]}])):
        with pytest.raises(TypeError, match=r"not str: load it first, load_pipeline\('en'\)"):
            call("en", items)
        with pytest.raises(TypeError, match="a loaded spaCy pipeline with a punctuator, not NoneType"):
            call(None, items)
        with pytest.raises(PipelineError, match="no punctuator component"):
            call(spacy.blank("en"), items)


def test_an_item_that_is_not_a_text_is_named_after_the_texts_before_it(trained):
    done = []
    with pytest.raises(TypeError, match=r"text 3 is bytes, not a string \(decode bytes first"):
        for doc in punctuate(trained, [BARE[0], BARE[1], b"raw bytes", BARE[2]], batch_size=64):
            done.append(doc.text)
    assert done == [trained(BARE[0]).text, trained(BARE[1]).text]
    with pytest.raises(TypeError, match="text 1 is NoneType, not a string: punctuate takes texts"):
        list(punctuate(trained, [None]))


def test_punctuate_rewrites_when_the_pipeline_annotates_in_place(trained):
    trained.get_pipe("punctuator").rewrite = False
    assert [doc.text for doc in punctuate(trained, BARE[:1])] == [TEXTS[0]]
    assert not trained.get_pipe("punctuator").rewrite


def test_long_texts_are_punctuated_in_pieces(trained, monkeypatch):
    words = (" ".join(BARE) + " ") * 40
    pieces = list(punctuate_pieces(trained, words, piece_tokens=100, context_tokens=20))
    assert len(pieces) > 5
    joined = "".join(piece.text for piece in pieces)
    assert joined.lower().replace(",", "").replace(".", "").replace("?", "") == words
    assert joined.startswith(TEXTS[0] + " " + TEXTS[1])
    # a text over the length limit goes the same way, as one doc mapped to the input
    monkeypatch.setattr(text_module, "LONG_TEXT_CHARS", 1000)
    monkeypatch.setattr(text_module, "PIECE_TOKENS", 100)
    monkeypatch.setattr(text_module, "CONTEXT_TOKENS", 20)
    doc = next(punctuate(trained, [words]))
    assert doc.text == joined and doc._.source_text == words
    for token in doc:
        if token._.source_idx is not None:
            assert words[token._.source_idx : token._.source_idx + len(token.text)] == token.text.lower()


def test_a_long_run_without_a_place_to_end_a_piece_is_scanned_once(trained, monkeypatch):
    """A line of 800,000 characters with no break took 29 s, 19 of them
    searching the same run for a piece's end again at every token."""
    from spacy_punct import labels

    calls = []
    is_mark = labels.is_mark
    monkeypatch.setattr(labels, "is_mark", lambda text: calls.append(text) or is_mark(text))
    text = "so how was it " + "- " * 3000 + "it was long"
    pieces = list(punctuate_pieces(trained, text, piece_tokens=100, context_tokens=20))
    assert "".join(piece.text for piece in pieces).lower().replace(",", "").replace(".", "").replace("?", "") == text
    assert len(calls) < 2 * len(text.split())


def test_a_batch_ends_at_its_token_budget_whatever_the_batch_size(trained, monkeypatch):
    """--batch-size 1000 held every line's transformer output at once: 8.0 GB against 2.3 at 64."""
    monkeypatch.setattr(text_module, "BATCH_TOKENS", 30)
    sizes = []
    pipe = trained.pipe

    def counting_pipe(items, **kwargs):
        if kwargs.get("as_tuples"):  # spaCy's own pipe calls itself again without them
            items = list(items)
            sizes.append(sum(len(doc) for doc, _ in items))
        return pipe(items, **kwargs)

    monkeypatch.setattr(trained, "pipe", counting_pipe)
    texts = TEXTS * 4
    out = [doc.text for doc in punctuate(trained, texts, batch_size=1000)]
    assert len(sizes) > 1 and all(size < 30 + max(len(trained.make_doc(t)) for t in texts) for size in sizes)
    monkeypatch.setattr(trained, "pipe", pipe)
    assert out == [doc.text for doc in punctuate(trained, texts, batch_size=1)]


def test_memory_does_not_grow_with_the_batch_size(tmp_path):
    """Short lines beside long ones, through `en` at --batch-size 64 and 1000:
    the peaks were 1.5 and 3.8 GB (a batch of 8,192 tokens padded to its
    longest line); both now stay within a quarter of each other."""
    import random
    import subprocess
    import sys

    rng = random.Random(0)
    words = "so how was the trip it was long but we saw the coast i think john met mary in paris".split()
    lines = [" ".join(rng.choice(words) for _ in range(rng.randint(3, 15))) for _ in range(300)]
    for _ in range(4):
        lines.insert(rng.randint(0, len(lines)), " ".join(rng.choice(words) for _ in range(1200)))
    source = tmp_path / "mixed.txt"
    source.write_text("\n".join(lines) + "\n", encoding="utf8")
    script = (
        "import resource, sys\n"
        "from spacy_punct import load_pipeline, punctuate\n"
        "from spacy_punct.formats.textio import open_text\n"
        "nlp = load_pipeline('en')\n"
        "for doc in punctuate(nlp, open_text(sys.argv[1]), batch_size=int(sys.argv[2])):\n"
        "    pass\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)\n"
    )
    peaks = {}
    for batch_size in (64, 1000):
        result = subprocess.run(
            [sys.executable, "-c", script, str(source), str(batch_size)], capture_output=True, text=True, timeout=300
        )
        assert result.returncode == 0, result.stderr
        peaks[batch_size] = int(result.stdout.split()[-1])
    assert peaks[1000] <= 1.25 * peaks[64], peaks
