import tarfile

import pytest
import spacy

from spacy_punct.convert import ConversionError, ConversionStats, ConvertOptions
from spacy_punct.convert.tei import convert_tei

TEI = """<?xml version='1.0' encoding='utf-8'?>
<TEI xml:lang="hu"><teiHeader><fileDesc><titleStmt><title>Cím</title></titleStmt></fileDesc></teiHeader>
<text><body><div><p><s>
<token join="no"><form>Mikor</form><morph><ana><lemma>mikor</lemma></ana></morph></token>
<token join="yes"><form>jössz</form></token>
<token join="no"><form>?</form></token>
<token join="yes"><form>Holnap</form></token>
<token join="no"><form>.</form></token>
</s></p></div></body></text></TEI>
"""


def test_tei_tokens_with_their_joins(tmp_path):
    (tmp_path / "blog_annot1.xml").write_text(TEI, encoding="utf8")
    stats = ConversionStats()
    docs = list(convert_tei(tmp_path, spacy.blank("hu"), stats, ConvertOptions()))
    assert [doc.text for doc in docs] == ["Mikor jössz? Holnap."]
    assert stats.words == 3 and stats.labels["QUESTION"] == 1 and stats.labels["PERIOD"] == 1


def test_tei_from_a_tar_archive(tmp_path):
    (tmp_path / "a_annot1.xml").write_text(TEI, encoding="utf8")
    with tarfile.open(tmp_path / "corpus.tar.gz", "w:gz") as archive:
        archive.add(tmp_path / "a_annot1.xml", arcname="x/a_annot1.xml")
    docs = list(convert_tei(tmp_path / "corpus.tar.gz", spacy.blank("hu"), ConversionStats(), ConvertOptions()))
    assert [doc.text for doc in docs] == ["Mikor jössz? Holnap."]


def test_tei_that_is_not_xml_is_named(tmp_path):
    (tmp_path / "bad.xml").write_text("<TEI><text>", encoding="utf8")
    with pytest.raises(ConversionError, match="bad.xml: not XML"):
        list(convert_tei(tmp_path, spacy.blank("hu"), ConversionStats(), ConvertOptions()))


def test_an_empty_tei_file_is_skipped_and_named(tmp_path):
    (tmp_path / "a_annot1.xml").write_text(TEI, encoding="utf8")
    (tmp_path / "b_annot1.xml").write_text("", encoding="utf8")
    stats = ConversionStats()
    docs = list(convert_tei(tmp_path, spacy.blank("hu"), stats, ConvertOptions()))
    assert len(docs) == 1 and stats.skipped_files == [f"{tmp_path / 'b_annot1.xml'} (empty)"]
