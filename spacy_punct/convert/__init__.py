"""Converters from source formats to DocBins of natural punctuated text."""

from .common import ConversionError, ConversionStats, ConvertOptions
from .conllu import convert_conllu
from .conllup import convert_conllup
from .guard import ContaminationGuard
from .iwslt import convert_iwslt_xml
from .json_sentences import convert_json_sentences
from .lines import convert_lines
from .punctuator2 import convert_punctuator2
from .ted import convert_ted
from .tei import convert_tei
from .text import convert_text
from .timed import convert_timed_jsonl
from .tokens import convert_tokens
from .transcripts import convert_transcripts

CONVERTERS = {
    "tokens": convert_tokens,
    "punctuator2": convert_punctuator2,
    "conllu": convert_conllu,
    "conllup": convert_conllup,
    "iwslt-xml": convert_iwslt_xml,
    "text": convert_text,
    "timed-jsonl": convert_timed_jsonl,
    "ted": convert_ted,
    "tei": convert_tei,
    "json": convert_json_sentences,
    "lines": convert_lines,
    "transcripts": convert_transcripts,
}

__all__ = ["CONVERTERS", "ContaminationGuard", "ConversionError", "ConversionStats", "ConvertOptions"]
