"""Properties of the rewrite over generated lines: whatever the punctuator
decides and the truecaser predicts, no word of the input is lost or altered
but for the marks after it and the case the rules allow."""

import random

import numpy
import pytest
import spacy

from spacy_punct.casing import capitalise, decapitalise
from spacy_punct.extensions import set_token_values
from spacy_punct.rewrite import rewrite_doc

WORDS = "so how was the trip it was long but we saw the coast i think john met mary in paris".split()
TRICKY = [
    "...",
    "…",
    "e.g.",
    "i.e.",
    "dr.",
    "etc.",
    "/home/i/notes",
    "c:/users/i/docs",
    "km/h",
    "v1.2.3",
    "1.2.3",
    "co-operate",
    "jean-luc",
    "well-known",
    "a.b.c",
    "bob@x.org",
    "https://x.org/a",
    "snake_case",
    "don't",
    "i'm",
    '"hello"',
    "(maybe)",
    "'quoted'",
    "yes,",
    "no.",
    "why?",
    "wow!",
    "so;",
    "3.5",
    "u.s.",
    "o'brien",
    "\u200b",
    "\ufeff",
]
GAPS = [" ", " ", " ", " ", "\t", "  ", " \t "]
N_LINES = 420


def _lines(n: int, seed: int = 0):
    rng = random.Random(seed)
    lines = []
    for _ in range(n):
        words = [rng.choice(TRICKY) if rng.random() < 0.3 else rng.choice(WORDS) for _ in range(rng.randint(1, 12))]
        if rng.random() < 0.3:  # a tricky word, an abbreviation or an existing mark at the line's end
            words.append(rng.choice(TRICKY))
        line = words[0] + "".join(rng.choice(GAPS) + word for word in words[1:])
        lines.append(line)
    return lines


@pytest.fixture(scope="module")
def nlps():
    pipelines = {}
    for keep_existing in (False, True):
        nlp = spacy.blank("en")
        nlp.add_pipe("punctuator", config={"keep_existing": keep_existing, "close_last_sentence": True})
        pipelines[keep_existing] = nlp
    return pipelines


def _punctuated(nlp, line, rng):
    """The rewrite of `line` under random decisions and random truecaser forms."""
    pipe = nlp.get_pipe("punctuator")
    doc = nlp.make_doc(line)
    probs = numpy.asarray([rng.dirichlet(numpy.ones(4) * 0.3) for _ in doc], dtype="f").reshape(len(doc), 4)
    pipe.set_annotations([doc], [probs])
    forms = [rng.choice([None, token.text.upper(), token.text.title(), token.text]) for token in doc]
    set_token_values(doc, "truecase", [token.idx for token in doc], forms)
    return doc, rewrite_doc(doc), forms


def _words(doc):
    """(token index, text) of the doc's tokens that are not punctuation or whitespace."""
    return [(token.i, token.text) for token in doc if not (token.is_punct or token.is_space)]


@pytest.mark.parametrize("keep_existing", [False, True])
def test_no_word_is_lost_or_altered_but_for_marks_and_allowed_case(nlps, keep_existing):
    nlp = nlps[keep_existing]
    rng = numpy.random.default_rng(0)
    lines = _lines(N_LINES)
    assert len(lines) >= 400
    for line in lines:
        doc, out, forms = _punctuated(nlp, line, rng)
        # every word of the input is in the output, in order, from the same input token
        kept = [(token._.source_i, token.text) for token in out if token._.source_i is not None]
        kept_words = [(i, text) for i, text in kept if not (doc[i].is_punct or doc[i].is_space)]
        assert [i for i, _ in kept_words] == [i for i, _ in _words(doc)], line
        # the same letters, and the whitespace between the words as it was
        for i, text in kept_words:
            original = doc[i].text
            assert text.lower() == original.lower(), (line, original, text)
            allowed = {original, capitalise(original), decapitalise(original)}
            if forms[i] is not None:
                allowed.add(forms[i])
                allowed.add(capitalise(forms[i]))
            assert text in allowed, (line, original, text)
            # a letter other than the first changes only where a truecaser's form of the token is written
            if text[1:] != original[1:]:
                assert forms[i] is not None and text in (forms[i], capitalise(forms[i])), (line, original, text)
        assert [t.text for t in out if t.is_space] == [t.text for t in doc if t.is_space], line
        # every line ends a sentence unless its last word keeps a mark of its own with keep_existing
        # (a zero-width space or byte-order mark after it counts as whitespace)
        visible = out.text.rstrip().rstrip("\u200b\ufeff \t")
        assert visible[-1:] in ".?!…" or keep_existing or not visible, (line, out.text)


def test_inner_tokens_of_a_word_keep_their_case(nlps):
    """Within a written word of several tokens (a path, `km/h`) only the
    first token may change, and only at its first letter."""
    nlp = nlps[False]
    rng = numpy.random.default_rng(1)
    for line in _lines(200, seed=1):
        doc, out, forms = _punctuated(nlp, line, rng)
        for token in out:
            i = token._.source_i
            if i is None or i == 0 or doc[i - 1].is_space or doc[i - 1].whitespace_:
                continue  # the first token of a written word
            if doc[i - 1].is_punct and (i < 2 or doc[i - 2].is_space or doc[i - 2].whitespace_):
                continue  # a word after an opening quote or bracket
            if "-" in (doc[i - 1].text, doc[i + 1].text if i + 1 < len(doc) else ""):
                continue  # a part of a hyphenated word may take a truecaser's capital (Jean-Luc)
            assert token.text == doc[i].text, (line, doc[i].text, token.text)
