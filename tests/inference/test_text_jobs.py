import io
import json

from spacy_punct.formats.output_formats import make_writer
from spacy_punct.formats.textio import TextReader
from spacy_punct.inference.text_jobs import punctuated_output


def _reader(text):
    return TextReader(io.BytesIO(text.encode("utf8")), "input")


def test_each_line_comes_out_as_it_is_done_with_its_own_line_end_and_word_count(trained):
    lines = ["so how was the trip", "", "it was long but we saw the coast"]
    out = list(punctuated_output(trained, _reader("\r\n".join(lines) + "\n"), make_writer("text")))
    assert out[0] == ("", 0) and out[-1] == ("", 0)  # the text format's header and footer
    texts = [text for text, _ in out[1:-1]]
    assert [words for _, words in out[1:-1]] == [5, 0, 8]
    assert [t.rstrip("\r\n") for t in texts][1] == ""
    assert texts[0].endswith("\r\n") and texts[-1].endswith("\n") and not texts[-1].endswith("\r\n")
    assert [t.rstrip("\r\n").lower().replace(",", "").replace(".", "").replace("?", "") for t in texts] == lines


def test_records_keep_their_fields_and_the_whole_input_is_one_document(trained):
    records = [{"id": 7, "text": "so how was the trip"}, {"id": 8, "text": "it was long"}]
    text = "\n".join(json.dumps(r) for r in records) + "\n\n"
    out = list(punctuated_output(trained, _reader(text), make_writer("jsonl"), records=True))
    assert [json.loads(line)["id"] for line, _ in out[1:-1]] == [7, 8]
    whole = list(punctuated_output(trained, _reader("so how was\r\nthe trip\r\n"), make_writer("text"), whole=True))
    assert len(whole) == 3 and whole[1].words == 5
    assert whole[1].text.count("\r\n") == 2 and "\n" not in whole[1].text.replace("\r\n", "")
    for writer in ("text", "jsonl"):
        assert [w.text for w in punctuated_output(trained, _reader(""), make_writer(writer), whole=True)] == ["", ""]


def test_a_stream_writes_the_words_before_a_bad_line_then_names_it(trained):
    import pytest

    from spacy_punct.inference.streaming import FixedLookahead, Streamer
    from spacy_punct.inference.text_jobs import StreamStopped, streamed_output

    streamer = Streamer(trained, FixedLookahead(2))
    chunks = []
    with pytest.raises(StreamStopped, match="line 3"):
        for chunk in streamed_output(streamer, _reader('so how\nwas the trip\n{"word": \n'), make_writer("text")):
            chunks.append(chunk)
    written = "".join(text for text, _ in chunks)
    assert sum(words for _, words in chunks) == 5
    assert written.lower().replace(",", "").replace(".", "").replace("?", "").split() == "so how was the trip".split()
