"""What the tests of the recognisers' JSON formats share."""

import json

import pytest

from spacy_punct.formats.recognisers import OutputWord, make_format

# the sample's words as a pipeline would punctuate them: two sentences
PUNCTUATED = [OutputWord(t, t.endswith(("?", "."))) for t in "So how was the trip? It was long.".split()]


@pytest.fixture
def json_round_trip():
    """A format's JSON (its text, or a value) read, written back punctuated as
    two sentences, and parsed: (the transcript read, the value written)."""

    def run(kind, value):
        text = value if isinstance(value, str) else json.dumps(value)
        transcript = make_format(kind).read(text, "talk.json")
        return transcript, json.loads(make_format(kind).write(transcript, PUNCTUATED[: len(transcript.words)]))

    return run
