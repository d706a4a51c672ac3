import spacy

from spacy_punct.convert import ConversionStats, ConvertOptions
from spacy_punct.convert.lines import convert_lines


def test_lines_become_documents_of_whole_lines_never_across_files(tmp_path):
    (tmp_path / "a.bn").write_text("আমি ভাত খাই।\n\nতুমি কোথায়?\nসে  আসবে।\n", encoding="utf8")
    (tmp_path / "b.bn-en.bn").write_text("ভালো আছি।\n", encoding="utf8")
    (tmp_path / "README.md").write_text("not text", encoding="utf8")
    (tmp_path / "LICENSE").write_text("not text", encoding="utf8")
    stats = ConversionStats()
    docs = list(convert_lines(tmp_path, spacy.blank("bn"), stats, ConvertOptions(doc_length=4)))
    assert [doc.text for doc in docs] == ["আমি ভাত খাই। তুমি কোথায়?", "সে আসবে।", "ভালো আছি।"]
    assert stats.documents == 3


def test_a_glob_picks_the_files_of_a_folder(tmp_path):
    (tmp_path / "a.bn").write_text("আমি ভাত খাই।\n", encoding="utf8")
    (tmp_path / "a.en").write_text("I eat rice.\n", encoding="utf8")
    docs = list(convert_lines(tmp_path, spacy.blank("bn"), ConversionStats(), ConvertOptions(glob="*.bn")))
    assert [doc.text for doc in docs] == ["আমি ভাত খাই।"]
