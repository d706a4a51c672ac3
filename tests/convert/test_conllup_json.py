import json

import pytest
import spacy

from spacy_punct.convert import ConversionError, ConversionStats, ConvertOptions
from spacy_punct.convert.conllup import convert_conllup
from spacy_punct.convert.json_sentences import convert_json_sentences

HEADER = "# global.columns = FORM LEMMA UPOS XPOS FEATS CONLL:NER EMMORPH:LEMMA\n"


def _row(form, upos):
    return "\t".join([form, form.lower(), upos, "_", "_", "O", form.lower()]) + "\n"


def test_conll_u_plus_without_spacing_gets_marks_onto_words(tmp_path):
    rows = [
        ("Lehetne", "VERB"),
        ("(", "PUNCT"),
        ("úgysem", "ADV"),
        (")", "PUNCT"),
        ("jó", "ADJ"),
        (",", "PUNCT"),
        ('"', "PUNCT"),
        ("mondta", "VERB"),
        ('"', "PUNCT"),
        ("?", "PUNCT"),
    ]
    text = HEADER + "".join(_row(f, u) for f, u in rows[:6]) + "\n" + "".join(_row(f, u) for f, u in rows[6:]) + "\n"
    (tmp_path / "a.conllup").write_text(text, encoding="utf8")
    stats = ConversionStats()
    docs = list(convert_conllup(tmp_path, spacy.blank("hu"), stats, ConvertOptions()))
    assert [doc.text for doc in docs] == ['Lehetne (úgysem) jó, "mondta"?']
    assert stats.words == 4


def test_conll_u_plus_needs_its_header(tmp_path):
    (tmp_path / "a.conllup").write_text(_row("jó", "ADJ"), encoding="utf8")
    with pytest.raises(ConversionError, match="global.columns"):
        list(convert_conllup(tmp_path / "a.conllup", spacy.blank("hu"), ConversionStats(), ConvertOptions()))


def test_a_folder_s_files_left_out_by_name_pattern(tmp_path):
    for name, word in (("film/opensubtitles_1.conllup", "Hol"), ("news/a.conllup", "Ma")):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(HEADER + _row(word, "ADV") + _row("?", "PUNCT") + "\n", encoding="utf8")

    def read(**options):
        return [
            doc.text
            for doc in convert_conllup(tmp_path, spacy.blank("hu"), ConversionStats(), ConvertOptions(**options))
        ]

    assert read() == ["Hol?", "Ma?"]
    assert read(exclude=frozenset({"opensubtitles_*"})) == ["Ma?"]
    assert read(exclude=frozenset({"news/*"})) == ["Hol?"]
    assert read(glob="opensubtitles_*.conllup") == ["Hol?"]


def test_json_sentences_one_doc_each_from_the_field_named(tmp_path):
    records = [{"id": "0", "Sent": "Nos,  ez jó.", "label": "neutral"}, {"id": "1", "Sent": "Miért?", "label": "x"}]
    (tmp_path / "sst.json").write_text(json.dumps(records, ensure_ascii=False), encoding="utf8")
    docs = list(
        convert_json_sentences(
            tmp_path / "sst.json", spacy.blank("hu"), ConversionStats(), ConvertOptions(field="Sent")
        )
    )
    assert [doc.text for doc in docs] == ["Nos, ez jó.", "Miért?"]
    with pytest.raises(ConversionError, match="no text field 'text'"):
        list(convert_json_sentences(tmp_path / "sst.json", spacy.blank("hu"), ConversionStats(), ConvertOptions()))


def test_json_texts_of_several_fields_each_once(tmp_path):
    records = [
        {"premise": "Jössz holnap? Igen.", "hypothesis": "Jön.", "label": "0"},
        {"premise": "Jössz holnap? Igen.", "hypothesis": "Nem jön.", "label": "1"},
    ]
    (tmp_path / "rte_train.json").write_text("\ufeff" + json.dumps(records, ensure_ascii=False), encoding="utf8")
    options = ConvertOptions(field="premise,hypothesis")
    docs = list(convert_json_sentences(tmp_path, spacy.blank("hu"), ConversionStats(), options))
    assert [doc.text for doc in docs] == ["Jössz holnap? Igen.", "Jön.", "Nem jön."]
