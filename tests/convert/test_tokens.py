import pytest
import spacy

from spacy_punct.convert import ConversionError, ConversionStats, ConvertOptions
from spacy_punct.convert.tokens import convert_tokens

from ..conftest import split_marks


def _convert(tmp_path, data: bytes, lang="en", **options):
    path = tmp_path / "words.txt"
    path.write_bytes(data)
    stats = ConversionStats()
    docs = list(convert_tokens(path, spacy.blank(lang), stats, ConvertOptions(**options)))
    return docs, stats


UGLY = (
    b"so\tCOMMA\r\nhow\tO\r\nwas\tO\r\nit\tQUESTION\r\n"  # CRLF
    b"it\tO\r's\tO\rfine\tO\r"  # lone CR
    b"do\tO\nn't\tO\nworry\tO\n--\tPERIOD\n"  # LF, clitics, a dash word
    b"\tCOMMA\n"  # an empty word
    b"caf\xe9\tO\nok\tPERIOD\n"  # an invalid byte
)


def test_ugly_input(tmp_path):
    docs, stats = _convert(tmp_path, UGLY)
    assert len(docs) == 1
    assert docs[0].text == "so, how was it? it's fine don't worry --. caf\ufffd ok."
    words, _, marks = split_marks(docs[0])
    assert words == ["so", "how", "was", "it", "it", "'s", "fine", "do", "n't", "worry", "--", "caf\ufffd", "ok"]
    assert marks == [",", "", "", "?", "", "", "", "", "", "", ".", "", "."]
    assert stats.words == 13
    assert stats.labels == {"EMPTY": 9, "COMMA": 1, "QUESTION": 1, "PERIOD": 2}
    assert stats.invalid_bytes == 1
    assert stats.skipped == {"lines with an empty word": 1}
    assert "undecodable characters replaced by U+FFFD: 1" in stats.summary()


def test_documents_are_cut_after_sentence_ends(tmp_path):
    data = b"".join(b"w%d\t%s\n" % (i, b"PERIOD" if i % 5 == 4 else b"O") for i in range(30))
    docs, stats = _convert(tmp_path, data, doc_length=7)
    assert [len(split_marks(d)[0]) for d in docs] == [10, 10, 10]
    docs, _ = _convert(tmp_path, data.replace(b"w14\tPERIOD\n", b"w14\tPERIOD\n\n"))
    assert [len(split_marks(d)[0]) for d in docs] == [15, 15]


def test_extra_labels_and_no_clitics_outside_english(tmp_path):
    docs, stats = _convert(tmp_path, "নমস্কার\tEXCLAMATION\n's\tO\nভালো\tPERIOD\n".encode(), lang="bn")
    assert docs[0].text == "নমস্কার! 's ভালো."
    assert stats.labels["EXCLAMATION"] == 1


@pytest.mark.parametrize(
    "data",
    [b"# text = a conllu file\n1\tso\tso\tADV\t_\t_\t0\troot\t_\t_\n", b"word\tNOT_A_LABEL\n", b"\x00\x01binary"],
)
def test_wrong_format_is_a_clear_error(tmp_path, data):
    with pytest.raises(ConversionError, match="expected 'word<TAB>LABEL'|binary"):
        _convert(tmp_path, data)


def test_a_folder_skips_files_not_in_the_format(tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "talk1").write_bytes(b"so\tCOMMA\nhow\tO\nis\tO\nit\tQUESTION\n")
    (folder / "README.md").write_text("# A corpus\n\nSome words about it.\n")
    (folder / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    stats = ConversionStats()
    docs = list(convert_tokens(folder, spacy.blank("en"), stats, ConvertOptions()))
    assert [doc.text for doc in docs] == ["so, how is it?"]
    summary = stats.summary()
    assert "README.md (not in the word<TAB>LABEL format)" in summary and "logo.png" in summary
    # one file named on its own is still an error
    with pytest.raises(ConversionError, match="expected 'word<TAB>LABEL'"):
        list(convert_tokens(folder / "README.md", spacy.blank("en"), ConversionStats(), ConvertOptions()))
