"""What users bring and take away, read and written without punctuating:
text files in any encoding, words with timings, JSONL records, captions, the
output formats and recognisers' own files. `inference` punctuates them."""

from . import asr  # noqa: F401  (the recognisers' formats register themselves)
