import random
import time
import tracemalloc

import numpy
import pytest
import spacy
from spacy.tokens import Doc

from spacy_punct.components.punctuator import Punctuator

from ..conftest import TEXTS, TOK2VEC_CONFIG, listener_pipeline, reader_examples, train


def _gold(examples):
    return [[t._.punct for t in eg.reference] for eg in examples]


def _predicted(nlp, examples):
    pipe = nlp.get_pipe("punctuator")
    rewrite, pipe.rewrite = pipe.rewrite, False
    try:
        return [[t._.punct for t in nlp(eg.predicted.text)] for eg in examples]
    finally:
        pipe.rewrite = rewrite


def test_factory_defaults(nlp):
    pipe = nlp.add_pipe("punctuator")
    assert isinstance(pipe, Punctuator)
    assert pipe.labels == ("EMPTY", "COMMA", "PERIOD", "QUESTION")
    assert pipe.rewrite and not pipe.settings.keep_existing


def test_overfit_inline_tok2vec(nlp, corpus_path):
    nlp.add_pipe("punctuator")
    examples = reader_examples(nlp, corpus_path)
    losses = train(nlp, examples, n_iter=40)
    scores = nlp.evaluate(examples)
    print("inline tok2vec:", losses, {k: scores[k] for k in ("punct_f", "punct_macro_f", "sents_f")})
    assert losses["punctuator"] < 0.05
    assert _predicted(nlp, examples) == _gold(examples)
    assert scores["punct_f"] == 1.0


def test_overfit_tok2vec_listener(trained, corpus_path):
    examples = reader_examples(trained, corpus_path)
    scores = trained.evaluate(examples)
    print("tok2vec listener:", {k: scores[k] for k in ("punct_f", "punct_macro_f", "punct_ser", "sents_f")})
    assert _predicted(trained, examples) == _gold(examples)
    assert scores["punct_f"] == 1.0 and scores["punct_ser"] == 0.0
    doc = trained("so how was the trip it was long but we saw the coast")
    assert doc.text == TEXTS[0]
    assert [s.text for s in doc.sents] == ["So, how was the trip?", "It was long, but we saw the coast."]


def test_pipe_equals_call(trained):
    texts = [eg.lower().replace(",", "").replace(".", "").replace("?", "") for eg in TEXTS]
    texts += ["", "   ", "so how was  it\n\nwhere did you stay"]
    piped = [doc.text for doc in trained.pipe(texts, batch_size=3)]
    assert piped == [trained(text).text for text in texts]


def test_pipe_as_tuples_keeps_the_context(trained):
    out = list(trained.pipe([("so how was the trip", 1), ("where did you stay", {"id": 2})], as_tuples=True))
    assert [(doc.text, context) for doc, context in out] == [
        ("So, how was the trip?", 1),
        ("Where did you stay?", {"id": 2}),
    ]


def test_rewrite_off_annotates_in_place(trained):
    trained.get_pipe("punctuator").rewrite = False
    doc = trained.make_doc("where did you stay in a small hotel near the harbour")
    out = trained(doc)
    assert out is doc
    assert out._.punctuated == "Where did you stay? In a small hotel near the harbour."
    assert [t.text for t in out if t.is_sent_start] == ["where", "in"]
    assert out[3]._.punct == "?"


def test_evaluate_is_the_same_with_and_without_rewrite(trained, corpus_path):
    examples = reader_examples(trained, corpus_path)
    for eg in examples:  # make the model err a little, so the scores are not trivial
        eg.predicted[0].norm_ = "zzz"
    on = trained.evaluate(examples)
    trained.get_pipe("punctuator").rewrite = False
    off = trained.evaluate(examples)
    on.pop("speed"), off.pop("speed")
    assert on == off


def test_store_probs(trained):
    pipe = trained.get_pipe("punctuator")
    pipe.store_probs = True
    doc = trained("so how was the trip")
    assert doc._.punct_probs.shape == (len(doc), 4)
    words = [t.i for t in doc if t._.source_i is not None]
    assert numpy.allclose(doc._.punct_probs[words].sum(axis=1), 1.0, atol=1e-4)


def test_thresholds(trained):
    pipe = trained.get_pipe("punctuator")
    text = "well the weather was fine we walked we talked and we ate fish"
    assert "," in trained(text).text
    pipe.settings = pipe.settings.replace(thresholds={"COMMA": 1.0})
    assert "," not in trained(text).text
    with pytest.raises(ValueError, match="give a number from 0 to 1"):
        pipe.settings.replace(thresholds={"COMMA": 1.01})  # not a probability: refused at once
    pipe.settings = pipe.settings.replace(thresholds={"TILDE": 0.5})
    with pytest.raises(ValueError, match="unknown labels"):
        trained(text)


def test_settings_passed_per_call_leave_the_component_as_it_is(trained):
    from spacy_punct.decode import DecisionSettings
    from spacy_punct.inference.texts import punctuate

    text = "well the weather was fine we walked we talked and we ate fish"
    no_commas = DecisionSettings(thresholds={"COMMA": 1.0})
    assert "," not in trained(text, component_cfg={"punctuator": {"settings": no_commas}}).text
    assert all(
        "," not in doc.text for doc in trained.pipe([text] * 3, component_cfg={"punctuator": {"settings": no_commas}})
    )
    assert [doc.text for doc in punctuate(trained, [text], settings=no_commas)] == [
        doc.text for doc in trained.pipe([text], component_cfg={"punctuator": {"settings": no_commas}})
    ]
    assert "," in trained(text).text and trained.get_pipe("punctuator").settings == DecisionSettings()


def test_keep_existing(trained):
    pipe = trained.get_pipe("punctuator")
    text = "so, how was the trip? it was long but we saw the coast"
    pipe.settings = pipe.settings.replace(keep_existing=True)
    doc = trained(text)
    assert doc.text == TEXTS[0]
    assert ",," not in doc.text and "??" not in doc.text
    pipe.settings = pipe.settings.replace(keep_existing=False)
    assert trained("so. how was the trip").text.startswith("So, how")
    # a mark the label set cannot write stays where a mark is predicted
    assert trained("so! how was the trip").text.startswith("So! How")


def test_bad_input(trained):
    assert trained("").text == ""
    assert trained("   ").text == "   "
    doc = trained("so how was  the trip\n\nit was long")
    assert doc.text.startswith("So, how was  the trip?\n\nIt was long")


def test_long_doc_memory_is_bounded(trained):
    words = ("so how was the trip it was long but we saw the coast " * 7700).split()[:100_000]
    # the upstream tok2vec is spaCy's; this bounds what the punctuator adds
    doc = trained.get_pipe("tok2vec")(Doc(trained.vocab, words=words))
    tracemalloc.start()
    start = time.perf_counter()
    out = trained.get_pipe("punctuator")(doc)
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"punctuator on 100,000 words: {seconds:.1f} s, peak traced memory {peak / 1e6:.0f} MB")
    assert sum(1 for t in out if t._.source_i is not None) == 100_000
    assert out.text.count("?") > 1000
    assert peak < 500_000_000, f"peak {peak / 1e6:.0f} MB"


def test_uninitialized_component_is_a_clear_error(nlp):
    nlp.add_pipe("punctuator")
    with pytest.raises(ValueError, match="not initialized"):
        nlp("so how was it")


def test_add_label_and_label_data(nlp, corpus_path):
    pipe = nlp.add_pipe("punctuator")
    assert pipe.add_label("EXCLAMATION") == 1
    assert pipe.add_label("COMMA") == 0
    assert pipe.label_data == ["EMPTY", "COMMA", "PERIOD", "QUESTION", "EXCLAMATION"]
    with pytest.raises(ValueError, match="Unknown"):
        pipe.add_label("TILDE")
    nlp.initialize(lambda: reader_examples(nlp, corpus_path))
    with pytest.raises(ValueError):
        pipe.add_label("COLON")


def test_labels_inferred_or_given(corpus_path):
    nlp = spacy.blank("en")
    pipe = nlp.add_pipe("punctuator", config={"labels": None})
    nlp.initialize(lambda: reader_examples(nlp, corpus_path))
    assert pipe.labels == ("EMPTY", "COMMA", "PERIOD", "QUESTION")
    nlp = spacy.blank("en")
    pipe = nlp.add_pipe("punctuator")
    pipe.initialize(lambda: reader_examples(nlp, corpus_path), labels=["PERIOD", "EXCLAMATION"])
    assert pipe.labels == ("EMPTY", "PERIOD", "EXCLAMATION")


def test_custom_label_set_learns_exclamations(nlp, tmp_path):
    from spacy.tokens import DocBin

    path = tmp_path / "ex.spacy"
    texts = ["Stop! Look at this, please.", "Wow! What a view.", "Come here! Now, quickly."]
    DocBin(docs=[nlp(t) for t in texts]).to_disk(path)
    nlp.add_pipe("punctuator", config={"labels": ["EMPTY", "COMMA", "PERIOD", "EXCLAMATION"]})
    examples = reader_examples(nlp, path)
    train(nlp, examples, n_iter=40)
    assert nlp("wow what a view").text == "Wow! What a view."


def test_empty_weight_scales_the_loss(trained, corpus_path):
    examples = reader_examples(trained, corpus_path)
    pipe = trained.get_pipe("punctuator")
    scores = [numpy.full((len(eg.predicted), 4), 0.25, dtype="f") for eg in examples]
    full, _ = pipe.get_loss(examples, scores)
    pipe.empty_weight = 0.0
    light, d_scores = pipe.get_loss(examples, scores)
    assert 0 < light < full
    empty_rows = [i for i, t in enumerate(examples[0].reference) if not t._.punct]
    assert not d_scores[0][empty_rows].any()


def test_component_after_punctuator_sees_the_rewritten_doc(trained, corpus_path):
    tagger = trained.add_pipe(
        "tagger", config={"model": {"@architectures": "spacy.Tagger.v2", "tok2vec": TOK2VEC_CONFIG["model"]}}
    )
    tagger.add_label("X")
    tagger.initialize(lambda: reader_examples(trained, corpus_path))
    doc = trained("so how was the trip")
    assert doc.text == "So, how was the trip?"
    assert all(t.tag_ == "X" for t in doc)


def test_later_listener_is_refused(corpus_path):
    nlp = listener_pipeline()
    nlp.add_pipe(
        "tagger",
        config={
            "model": {
                "@architectures": "spacy.Tagger.v2",
                "tok2vec": {"@architectures": "spacy.Tok2VecListener.v1", "width": 96},
            }
        },
    )
    nlp.get_pipe("tagger").add_label("X")
    with pytest.raises(ValueError, match="listen to 'tok2vec'"):
        nlp.initialize(lambda: reader_examples(nlp, corpus_path))


def test_listener_added_after_training_is_refused(trained):
    trained.add_pipe(
        "tagger",
        config={
            "model": {
                "@architectures": "spacy.Tagger.v2",
                "tok2vec": {"@architectures": "spacy.Tok2VecListener.v1", "width": 96},
            }
        },
    )
    with pytest.raises(ValueError, match="listen to 'tok2vec'"):
        trained("so how was it")
    trained.get_pipe("punctuator").rewrite = False
    trained.remove_pipe("tagger")
    assert trained("so how was it")._.punctuated


def _weights(model):
    return [node.get_param(name).copy() for node in model.walk() for name in node.param_names if node.has_param(name)]


@pytest.mark.parametrize("scale", [0.0, 1.0, 3.0])
def test_learn_rate_scale(corpus_path, scale):
    """The scale applies to the punctuator's own weights; the shared tok2vec
    keeps the optimizer's rate."""
    nlp = listener_pipeline()
    pipe = nlp.get_pipe("punctuator")
    pipe.learn_rate_scale = scale
    examples = reader_examples(nlp, corpus_path)
    optimizer = nlp.initialize(lambda: examples)
    head = pipe.model.get_ref("output_layer")
    before_head, before_tok2vec = head.get_param("W").copy(), _weights(nlp.get_pipe("tok2vec").model)
    nlp.update(examples, sgd=optimizer, drop=0.0)
    head_step = numpy.abs(head.get_param("W") - before_head).max()
    # the output layer starts at zero: gradients reach the tok2vec from the second step
    nlp.update(examples, sgd=optimizer, drop=0.0)
    tok2vec_changed = any(
        not numpy.array_equal(a, b) for a, b in zip(before_tok2vec, _weights(nlp.get_pipe("tok2vec").model))
    )
    assert tok2vec_changed
    # Adam's first step moves every weight with a gradient by about the learning rate
    assert head_step == pytest.approx(scale * optimizer.learn_rate, rel=0.05)


def test_learn_rate_scale_must_not_be_negative(nlp):
    with pytest.raises(ValueError, match="learn_rate_scale"):
        nlp.add_pipe("punctuator", config={"learn_rate_scale": -1.0})


PIECES = [
    "so",
    "how",
    "was",
    "the",
    "trip",
    "it",
    "long",
    "we",
    "saw",
    "coast",
    "Paris",
    "NASA",
    "I",
    "i",
    "3.5",
    "100",
    "2020",
    "www.example.com",
    "me@example.com",
    "https://x.org/a?b=1",
    "start-up",
    "win-win",
    "c:/users/me/doc.txt",
    "km/h",
    "o'brien",
    "don't",
    "it's",
    "jean-luc",
    "well,",
    "trip.",
    "really?",
    "wow!",
    '"hello"',
    "(maybe)",
    "dr.",
    "u.s.",
    "etc.",
    "e.g.",
    "-",
    "—",
    "left;",
    "note:",
    "so...",
    "?",
    ",",
    "It",
    "McDonald's",
    "10%",
    "$5",
    "#tag",
    "@user",
]


def _lines(n: int, seed: int = 0):
    rng = random.Random(seed)
    return [" ".join(rng.choice(PIECES) for _ in range(rng.randint(1, 25))) for _ in range(n)]


def test_add_marks_off_changes_nothing_but_case(trained):
    """Without marks of its own the output is the input, character for
    character, but for case; sentences follow the input's marks."""
    pipe = trained.get_pipe("punctuator")
    # thresholds that would write marks nearly everywhere
    pipe.settings = pipe.settings.replace(add_marks=False, thresholds={"COMMA": 0.05, "QUESTION": 0.05})
    lines = _lines(300)
    for line, out in zip(lines, trained.pipe(lines, batch_size=7)):
        assert out.text.lower() == line.lower(), (line, out.text)
    doc = trained("so, how was the trip? it was long")
    assert doc.text == "So, how was the trip? It was long"
    assert [s.text for s in doc.sents] == ["So, how was the trip?", "It was long"]


@pytest.mark.parametrize("keep_existing", [False, True])
def test_words_are_preserved(trained, keep_existing):
    """Over varied lines, every input token comes out unchanged but for its
    case, in order, except marks of the label set that predictions replace
    (none with keep_existing); the only tokens added are marks."""
    from spacy_punct.casing import is_uncasable
    from spacy_punct.labels import is_mark, is_replaceable

    pipe = trained.get_pipe("punctuator")
    # many marks, many chances to misplace one
    pipe.settings = pipe.settings.replace(keep_existing=keep_existing, thresholds={"COMMA": 0.05, "QUESTION": 0.05})
    lines = _lines(300)
    outputs = list(trained.pipe(lines, batch_size=7))
    for line, out in zip(lines, outputs):
        source = trained.make_doc(line)
        kept = [t._.source_i for t in out if t._.source_i is not None]
        assert kept == sorted(set(kept)), line
        for token in out:
            if token._.source_i is None:
                assert token.text in (",", ".", "?"), (line, out.text)
                # never inside a word: followed by whitespace, the end or punctuation
                following = out[token.i + 1] if token.i + 1 < len(out) else None
                assert token.whitespace_ or following is None or is_mark(following.text), (line, out.text)
                continue
            original = source[token._.source_i].text
            assert token.text.lower() == original.lower(), (line, out.text)
            if is_uncasable(original):
                assert token.text == original, (line, out.text)
            assert line[token._.source_idx : token._.source_idx + len(original)] == original
        missing = [t for t in source if t.i not in set(kept)]
        assert all(is_replaceable(t.text) for t in missing) and not (keep_existing and missing), (line, out.text)
    assert [trained(line).text for line in lines[:40]] == [out.text for out in outputs[:40]]


def test_trains_on_spacys_natural_examples(nlp):
    """Example(make_doc(bare), make_doc(punctuated)) trained silently on all-EMPTY gold."""
    from spacy.training import Example

    nlp.add_pipe("punctuator")
    bare = [t.lower().replace(",", "").replace(".", "").replace("?", "") for t in TEXTS]
    examples = [Example(nlp.make_doc(b), nlp.make_doc(t)) for b, t in zip(bare, TEXTS)]
    train(nlp, examples, n_iter=40)
    assert nlp(bare[0]).text == TEXTS[0]


def test_a_punctuator_sourced_without_its_encoder_says_so(trained):
    """add_pipe("punctuator", source=...) without the tok2vec it listens to
    wrote no marks, silently."""
    text = "so how was the trip it was long but we saw the coast"
    nlp = spacy.blank("en")
    nlp.add_pipe("punctuator", source=trained)
    with pytest.raises(ValueError, match="replace_listeners"):
        nlp(text)
    # with the encoder brought along, as the message says, it punctuates
    trained.replace_listeners("tok2vec", "punctuator", ["model.tok2vec"])
    nlp = spacy.blank("en")
    nlp.add_pipe("punctuator", source=trained)
    assert nlp(text).text == TEXTS[0]


def test_components_after_the_punctuator_are_scored_by_nlp_evaluate():
    """nlp.evaluate on punctuator + NER raised spaCy's E949 as soon as one
    predicted mark differed from the reference."""
    import spacy
    from spacy.tokens import Span
    from spacy.training import Example

    from spacy_punct import load_pipeline

    nlp = load_pipeline("en_punct_sm")
    ruler = nlp.add_pipe("entity_ruler", last=True)
    ruler.add_patterns(
        [
            {"label": "PERSON", "pattern": [{"LOWER": "john"}, {"LOWER": "smith"}]},
            {"label": "DATE", "pattern": [{"LOWER": "tuesday"}]},
        ]
    )
    reference = spacy.blank("en")(
        "Great news for the state. Senator John Smith said on Tuesday that the bridge will open."
    )
    reference.ents = [Span(reference, 7, 9, "PERSON"), Span(reference, 11, 12, "DATE")]
    bare = "great news for the state senator john smith said on tuesday that the bridge will open"
    scores = nlp.evaluate([Example(nlp.make_doc(bare), reference)])
    assert scores["ents_f"] == 1.0 and scores["punct_f"] is not None
    reference.ents = [Span(reference, 7, 9, "PERSON")]  # one entity the ruler finds is not in the reference
    assert nlp.evaluate([Example(nlp.make_doc(bare), reference)])["ents_p"] == 0.5
