"""Punctuating what users bring: texts of any length, records, streams of
words, their input and output formats, captions, and the loops over them."""
