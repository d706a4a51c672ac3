import pytest
import spacy

from spacy_punct.convert import ConversionError, ConversionStats, ConvertOptions
from spacy_punct.convert.conllu import convert_conllu

from ..conftest import split_marks

CONLLU = """# newdoc id = talk1
# sent_id = 1
# text = Well, I don't know.
1\tWell\twell\tINTJ\t_\t_\t4\tdiscourse\t_\tSpaceAfter=No
2\t,\t,\tPUNCT\t_\t_\t1\tpunct\t_\t_
3\tI\tI\tPRON\t_\t_\t4\tnsubj\t_\t_
4-5\tdon't\t_\t_\t_\t_\t_\t_\t_\t_
4\tdo\tdo\tAUX\t_\t_\t6\taux\t_\t_
5\tn't\tnot\tPART\t_\t_\t6\tadvmod\t_\t_
5.1\tknow\tknow\tVERB\t_\t_\t_\t_\t_\t_
6\tknow\tknow\tVERB\t_\t_\t0\troot\t_\tSpaceAfter=No
7\t.\t.\tPUNCT\t_\t_\t6\tpunct\t_\t_

# sent_id = 2
# text = Del -- ok?
1-2\tDel\t_\t_\t_\t_\t_\t_\t_\t_
1\tde\tde\tADP\t_\t_\t3\tcase\t_\t_
2\tel\tel\tDET\t_\t_\t3\tdet\t_\t_
3\t--\t--\tPUNCT\t_\t_\t0\troot\t_\t_
4\tok\tok\tINTJ\t_\t_\t3\tdiscourse\t_\tSpaceAfter=No
5\t?\t?\tPUNCT\t_\t_\t3\tpunct\t_\t_

# newdoc id = talk2
# sent_id = 3
1\tYes\tyes\tINTJ\t_\t_\t0\troot\t_\tSpaceAfter=No
2\t.\t.\tPUNCT\t_\t_\t1\tpunct\t_\t_
"""


def _convert(tmp_path, text: str, newline="\n", **options):
    path = tmp_path / "t.conllu"
    path.write_bytes(text.replace("\n", newline).encode("utf8"))
    stats = ConversionStats()
    docs = list(convert_conllu(path, spacy.blank("en"), stats, ConvertOptions(**options)))
    return docs, stats


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_documents_surface_text_and_marks(tmp_path, newline):
    docs, stats = _convert(tmp_path, CONLLU, newline)
    assert [d.text for d in docs] == ["Well, I don't know. Del -- ok?", "Yes."]
    words, spaces, marks = split_marks(docs[0])
    assert words == ["Well", "I", "do", "n't", "know", "Del", "ok"]
    assert marks == [",", "", "", "", ".", "-", "?"]
    assert stats.documents == 2 and stats.words == 8


def test_without_newdoc_sentences_are_grouped(tmp_path):
    text = CONLLU.replace("# newdoc id = talk1\n", "").replace("# newdoc id = talk2\n", "")
    docs, _ = _convert(tmp_path, text, doc_length=3)
    assert [d.text for d in docs] == ["Well, I don't know.", "Del -- ok? Yes."]


def test_wrong_format_is_a_clear_error(tmp_path):
    with pytest.raises(ConversionError, match="not CoNLL-U"):
        _convert(tmp_path, "so\tCOMMA\nhow\tO\n")
