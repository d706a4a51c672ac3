import io
import json

from spacy_punct.inference.output_formats import make_writer
from spacy_punct.inference.text_jobs import punctuated_output
from spacy_punct.inference.textio import TextReader


def _reader(text, keep_line_ends=True):
    return TextReader(io.BytesIO(text.encode("utf8")), "input", keep_line_ends=keep_line_ends)


def test_each_line_comes_out_as_it_is_done_with_its_own_line_end(trained):
    lines = ["so how was the trip", "", "it was long but we saw the coast"]
    out = list(punctuated_output(trained, _reader("\r\n".join(lines) + "\n"), make_writer("text")))
    texts = [text for _, text in out]
    assert [t.rstrip("\r\n") for t in texts][1] == ""
    assert texts[0].endswith("\r\n") and texts[-1].endswith("\n") and not texts[-1].endswith("\r\n")
    assert [t.rstrip("\r\n").lower().replace(",", "").replace(".", "").replace("?", "") for t in texts] == lines


def test_records_keep_their_fields_and_the_whole_input_is_one_document(trained):
    records = [{"id": 7, "text": "so how was the trip"}, {"id": 8, "text": "it was long"}]
    text = "\n".join(json.dumps(r) for r in records) + "\n\n"
    out = list(punctuated_output(trained, _reader(text, False), make_writer("jsonl"), records=True))
    assert [json.loads(line)["id"] for _, line in out] == [7, 8]
    whole = list(punctuated_output(trained, _reader("so how was\nthe trip\n", False), make_writer("text"), whole=True))
    assert len(whole) == 1
    for writer in ("text", "jsonl"):
        assert list(punctuated_output(trained, _reader("", False), make_writer(writer), whole=True)) == []


def test_a_stream_writes_the_words_before_a_bad_line_then_names_it(trained):
    import pytest

    from spacy_punct.inference.streaming import FixedLookahead, Streamer
    from spacy_punct.inference.text_jobs import StreamStopped, streamed_output

    streamer = Streamer(trained, FixedLookahead(2))
    chunks = []
    with pytest.raises(StreamStopped, match="line 3"):
        for chunk in streamed_output(streamer, _reader('so how\nwas the trip\n{"word": \n'), make_writer("text")):
            chunks.append(chunk)
    written = "".join(chunks)
    assert written.lower().replace(",", "").replace(".", "").replace("?", "").split() == "so how was the trip".split()
