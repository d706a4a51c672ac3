"""Punctuating a recogniser's file: each word as punctuated."""

import json
from pathlib import Path

import pytest

from spacy_punct import RecordError, punctuate_recognised
from spacy_punct.formats.recognisers import Transcript
from spacy_punct.formats.timed import TimedWord, words_doc
from spacy_punct.inference import texts
from spacy_punct.inference.texts import punctuate_docs
from spacy_punct.inference.transcripts import output_words, punctuate_transcript

WORDS = "so how was the trip it was long".split()


def test_output_words_carry_marks_onto_their_words(trained):
    words = [TimedWord(text, k * 0.5, k * 0.5 + 0.4) for k, text in enumerate(WORDS)]
    doc, _ = next(iter(punctuate_docs(trained, [(words_doc(trained, words), None)])))
    out = output_words(doc, WORDS)
    assert [w.text.rstrip(",.?").lower() for w in out] == WORDS
    assert out[-1].sentence_end


def test_a_recognisers_output_is_punctuated_in_its_own_shape(trained):
    data = Path(__file__).parents[1] / "data" / "recognisers"
    result = json.loads((data / "whisper.json").read_text(encoding="utf8"))
    out = punctuate_recognised(trained, result)
    assert isinstance(out, dict) and out["language"] == result["language"]
    words = [w["word"] for s in out["segments"] for w in s["words"]]
    assert [w.strip(" ,.?").lower() for w in words] == [
        w["word"].strip() for s in result["segments"] for w in s["words"]
    ]
    for name in (
        "deepgram.json",
        "google.json",
        "assemblyai.json",
        "transformers.json",
        "azure.json",
        "amazon.json",
        "speechmatics.json",
        "rev.json",
    ):  # parsed: its shape tells the format
        read = json.loads((data / name).read_text(encoding="utf8"))
        assert punctuate_recognised(trained, read) == json.loads(punctuate_recognised(trained, json.dumps(read)))
    srt = punctuate_recognised(trained, (data / "sample.srt").read_text(encoding="utf8"), repair=True)
    assert isinstance(srt, str) and srt.startswith("1\n00:00:00,000 --> ")
    with pytest.raises(RecordError, match="talk.txt: not a recogniser's output"):
        punctuate_recognised(trained, "so how was it", name="talk.txt")


def test_a_long_transcripts_progress_is_told_piece_by_piece(trained, monkeypatch):
    monkeypatch.setattr(texts, "LONG_TEXT_CHARS", 200)
    monkeypatch.setattr(texts, "PIECE_TOKENS", 30)
    monkeypatch.setattr(texts, "CONTEXT_TOKENS", 5)
    transcript = Transcript([TimedWord(text) for text in WORDS * 20], groups=[0] * len(WORDS) * 20)
    told = []
    _, words = punctuate_transcript(trained, transcript, progress=told.append)
    assert len(told) > 3 and told == sorted(told) and told[-1] == len(words) == len(WORDS) * 20


def test_a_segment_of_tags_alone_stays_a_segment_of_its_own(trained):
    segments = [{"offsets": {"from": 0, "to": 100}, "text": " [BLANK_AUDIO]"}]
    segments += [{"offsets": {"from": 100, "to": 2000}, "text": " so how was the trip it was long"}]
    out = punctuate_recognised(trained, {"transcription": segments})["transcription"]
    assert out[0]["text"] == " [BLANK_AUDIO]" and out[0]["offsets"] == {"from": 0, "to": 100}
    assert out[1]["text"].lower().startswith(" so") and "[BLANK_AUDIO]" not in out[1]["text"]


def test_each_speakers_turn_is_punctuated_as_a_text_of_its_own(trained):
    words = [TimedWord(text) for text in WORDS]
    turns = [0] * 3 + [1] * 5  # "so how was" | "the trip it was long": no sentence ends after "was" on its own
    _, out = punctuate_transcript(trained, Transcript(words, groups=[0] * 8, turns=turns))
    assert out[2].sentence_end and out[2].text[-1] in ".?!" and out[-1].sentence_end


def test_transcripts_punctuated_together_come_out_as_each_alone(trained):
    from spacy_punct.inference.transcripts import punctuate_transcripts

    transcripts = [
        Transcript([TimedWord(text, k * 0.3, k * 0.3 + 0.2) for k, text in enumerate(WORDS * n)], groups=[0] * 8 * n)
        for n in (1, 3, 2)
    ]
    together = punctuate_transcripts(trained, [(t, False) for t in transcripts], batch_size=2)
    alone = [punctuate_transcript(trained, t) for t in transcripts]
    assert [words for _, words in together] == [words for _, words in alone]
    assert [[doc.text for doc in docs] for docs, _ in together] == [[doc.text for doc in docs] for docs, _ in alone]
