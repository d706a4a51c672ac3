"""Converters from source formats to DocBins of natural punctuated text."""
from .common import ConversionError, ConversionStats, ConvertOptions
from .conllu import convert_conllu
from .iwslt import convert_iwslt_xml
from .punctuator2 import convert_punctuator2
from .text import convert_text
from .timed import convert_timed_jsonl
from .tokens import convert_tokens

CONVERTERS = {
    "tokens": convert_tokens,
    "punctuator2": convert_punctuator2,
    "conllu": convert_conllu,
    "iwslt-xml": convert_iwslt_xml,
    "text": convert_text,
    "timed-jsonl": convert_timed_jsonl,
}

__all__ = ["CONVERTERS", "ConversionError", "ConversionStats", "ConvertOptions"]
