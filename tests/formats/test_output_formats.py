"""Output formats: one writer per registered format, shared by `punctuate` and
`stream`; a format registered from outside is usable by name."""

import catalogue
import pytest
import spacy
from typer.testing import CliRunner

from spacy_punct.cli import app
from spacy_punct.formats.output_formats import OutputWriter, format_names, make_writer, output_formats
from spacy_punct.inference.streaming import CommittedWord


def _word(index, text, start=None, end_=False):
    return CommittedWord(
        index, text.lower().strip(",.?"), text, "", index == 0, end_, 0, start, None if start is None else start + 0.5
    )


def test_the_four_formats_are_registered():
    assert {"text", "jsonl", "srt", "vtt"} <= set(format_names())
    assert [make_writer(name).timed for name in ("text", "jsonl", "srt", "vtt")] == [False, False, True, True]


def test_an_unknown_format_names_the_choices():
    with pytest.raises(ValueError, match="unknown --format 'docx'; choose ") as error:
        make_writer("docx")
    assert all(name in str(error.value) for name in ("text", "jsonl", "srt", "vtt"))


def test_text_writes_a_sentence_per_line_from_a_stream():
    writer = make_writer("text")
    out = writer.words(
        [_word(0, "So,"), _word(1, "how"), _word(2, "was"), _word(3, "it?", end_=True), _word(4, "Long")]
    )
    assert out + writer.footer() == "So, how was it?\nLong\n"


def test_captions_number_cues_across_calls_and_need_timings():
    writer = make_writer("vtt", max_chars=30)
    text = writer.header() + writer.words([_word(0, "Hello", 0.0), _word(1, "there.", 1.0, end_=True)])
    text += writer.words([_word(2, "Bye.", 2.0, end_=True)]) + writer.footer()
    assert text.startswith("WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.500\nHello there.\n\n2\n00:00:02.000")
    with pytest.raises(ValueError, match="word 1 .* has no timings"):
        make_writer("srt").words([_word(0, "Hello")])


def test_a_registered_format_is_used_by_punctuate_and_stream(tmp_path, monkeypatch):
    class UpperWriter(OutputWriter):
        def document(self, doc, record, *, number=0, last=True):
            return doc.text.upper() + "\n"

        def words(self, words):
            return "".join(word.text.upper() + "\n" for word in words)

    output_formats.get_all()  # the entry points first, then the new format beside them
    monkeypatch.setitem(catalogue.REGISTRY, ("spacy_punct", "output_formats", "upper"), UpperWriter)
    nlp = spacy.blank("en")
    nlp.add_pipe("punctuator")
    nlp.initialize()
    nlp.to_disk(tmp_path / "model")
    runner = CliRunner()
    result = runner.invoke(app, ["punctuate", str(tmp_path / "model"), "--format", "upper"], input="so how\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("SO HOW") and result.stdout == result.stdout.upper()
    result = runner.invoke(app, ["stream", str(tmp_path / "model"), "--format", "upper"], input="so how\n")
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 2 and result.stdout.startswith("SO")
    assert result.stdout == result.stdout.upper()
