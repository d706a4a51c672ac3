import pytest
import spacy

from spacy_punct.convert import CONVERTERS, ConversionError, ConversionStats, ConvertOptions
from spacy_punct.convert.punctuator2 import convert_punctuator2

from ..conftest import split_marks

UGLY = (
    b",COMMA so ,COMMA how was it ?QUESTIONMARK .PERIOD\r\n"  # a mark with no word before it, two marks in a row
    b"it 's <sil=0.412> fine !EXCLAMATIONMARK do n't worry .PERIOD\r\n"  # clitics, a pause, another mark
    b"\n"
    b"caf\xe9 ;SEMICOLON ok :COLON yes .PERIOD\n"  # an invalid byte, a new block
)


def _convert(tmp_path, data: bytes, **options):
    path = tmp_path / "p2.txt"
    path.write_bytes(data)
    stats = ConversionStats()
    return list(convert_punctuator2(path, spacy.blank("en"), stats, ConvertOptions(**options))), stats


def test_ugly_input(tmp_path):
    docs, stats = _convert(tmp_path, UGLY)
    assert [d.text for d in docs] == ["so, how was it? it's fine! don't worry.", "caf\ufffd; ok: yes."]
    words, _, marks = split_marks(docs[0])
    assert words == ["so", "how", "was", "it", "it", "'s", "fine", "do", "n't", "worry"]
    assert marks == [",", "", "", "?", "", "", "!", "", "", "."]
    assert stats.skipped == {"mark tokens after no word": 2} and stats.invalid_bytes == 1
    assert stats.labels["QUESTION"] == 1 and stats.labels["EXCLAMATION"] == 1


def test_documents_are_cut_after_sentence_ends(tmp_path):
    data = " ".join(f"w{i}" + (" .PERIOD" if i % 5 == 4 else "") for i in range(30)).encode()
    docs, _ = _convert(tmp_path, data, doc_length=7)
    assert [len(split_marks(d)[0]) for d in docs] == [10, 10, 10]


def test_not_the_format(tmp_path):
    with pytest.raises(ConversionError, match="punctuator2"):
        _convert(tmp_path, b"so\tCOMMA\nhow\tO\n")
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "README").write_text("the data of a paper\n")
    (folder / "test.txt").write_text("so ,COMMA how .PERIOD\n")
    stats = ConversionStats()
    docs = list(CONVERTERS["punctuator2"](folder, spacy.blank("en"), stats, ConvertOptions()))
    assert [d.text for d in docs] == ["so, how."] and len(stats.skipped_files) == 1
