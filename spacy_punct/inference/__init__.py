"""Punctuating what users bring: texts of any length, records, streams of
words and recognisers' files (read and written by `formats`), and the loops
over them."""
