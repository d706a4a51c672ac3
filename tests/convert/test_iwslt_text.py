import pytest
import spacy

from spacy_punct.convert import ConversionError, ConversionStats, ConvertOptions
from spacy_punct.convert.iwslt import convert_iwslt_xml
from spacy_punct.convert.text import convert_text

from ..conftest import split_marks

XML = """<?xml version="1.0" encoding="UTF-8"?>\r
<mteval>\r
<srcset setid="iwslt2011" srclang="english">\r
<doc docid="1" genre="lectures">\r
<talkid>1</talkid>\r
<seg id="1"> So, how was the trip? </seg>\r
<seg id="2">It was long &amp; cold.</seg>\r
</doc>\r
<doc docid="2"><seg id="1">Thanks.</seg></doc>\r
</srcset></mteval>\r
"""


def _run(converter, tmp_path, name, data: bytes, **options):
    path = tmp_path / name
    path.write_bytes(data)
    stats = ConversionStats()
    return list(converter(path, spacy.blank("en"), stats, ConvertOptions(**options))), stats


def test_iwslt_xml(tmp_path):
    docs, stats = _run(convert_iwslt_xml, tmp_path, "t.xml", XML.encode("utf8"))
    assert [d.text for d in docs] == ["So, how was the trip? It was long & cold.", "Thanks."]
    assert stats.labels == {"EMPTY": 7, "COMMA": 1, "QUESTION": 1, "PERIOD": 2}


def test_iwslt_xml_wrong_format(tmp_path):
    with pytest.raises(ConversionError, match="no <doc> elements"):
        _run(convert_iwslt_xml, tmp_path, "t.xml", b"so\tCOMMA\n")


def test_text_per_file_and_per_block(tmp_path):
    data = b"Hello there. How are\ryou?\r\n  \r\nFine, thanks\xff.\n"
    docs, stats = _run(convert_text, tmp_path, "t.txt", data)
    assert [d.text for d in docs] == ["Hello there. How are you? Fine, thanks\ufffd."]
    assert stats.invalid_bytes == 1
    docs, _ = _run(convert_text, tmp_path, "t.txt", data, blocks=True)
    assert [d.text for d in docs] == ["Hello there. How are you?", "Fine, thanks\ufffd."]
    assert split_marks(docs[0])[2] == ["", ".", "", "", "?"]


def test_text_refuses_binary_files(tmp_path):
    with pytest.raises(ConversionError, match="binary"):
        _run(convert_text, tmp_path, "t.txt", b"\x00\x00\x00")


def test_text_reads_utf16_and_refuses_binary_without_nul_bytes(tmp_path):
    path = tmp_path / "t16.txt"
    path.write_bytes("So, how was it?\n".encode("utf-16"))
    docs = list(convert_text(path, spacy.blank("en"), ConversionStats(), ConvertOptions()))
    assert [doc.text for doc in docs] == ["So, how was it?"]
    noise = tmp_path / "noise.txt"
    noise.write_bytes(bytes(range(1, 256)) * 20)
    with pytest.raises(ConversionError, match="does not look like text"):
        list(convert_text(noise, spacy.blank("en"), ConversionStats(), ConvertOptions()))
