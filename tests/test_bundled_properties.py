"""Properties of the bundled pipelines over generated lines: a line's output
is the same alone and beside any other lines, in any batch size."""

import json
import random
import threading

import pytest

from spacy_punct import load_pipeline, punctuate

from .test_rewrite_properties import TRICKY, WORDS

SYMBOLS = ["™", "&", "→", "🙂", "<unk>", "[UNK]", "--", "½", "ß"]


def _lines(n: int, seed: int):
    rng = random.Random(seed)
    vocabulary = WORDS + ["said", "meeting", "we", "in", "paris", "the"] * 3
    lines = []
    for _ in range(n):
        words = [
            rng.choice(TRICKY + SYMBOLS) if rng.random() < 0.15 else rng.choice(vocabulary)
            for _ in range(rng.randint(1, 40))
        ]
        lines.append(" ".join(words))
    return lines


@pytest.mark.parametrize("name", ["en_punct_trf", "en_punct_sm", "hu_punct_trf", "bn_punct_trf"])
def test_a_line_comes_out_the_same_beside_any_partner_lines(name):
    nlp = load_pipeline(name)
    lines = _lines(48, seed=7) + ["in said paris the meeting the we ™"]
    alone = [next(punctuate(nlp, [line])).text for line in lines]
    rng = random.Random(1)
    for batch_size in (2, 7, 64):
        shuffled = list(range(len(lines)))
        rng.shuffle(shuffled)
        together = [doc.text for doc in punctuate(nlp, [lines[i] for i in shuffled], batch_size=batch_size)]
        assert [together[shuffled.index(i)] for i in range(len(lines))] == alone, (name, batch_size)


@pytest.mark.parametrize("name", ["en_punct_trf", "en_punct_sm", "hu_punct_trf"])
def test_one_pipeline_from_four_threads_gives_the_output_of_one_thread(name):
    """Each thread punctuates every line in its own random batches, beside
    random partner lines, while the other three do the same."""
    nlp = load_pipeline(name)
    lines = _lines(60, seed=11)
    alone = [doc.text for doc in punctuate(nlp, lines, batch_size=8)]
    outputs: dict = {}

    def work(seed: int) -> None:
        rng = random.Random(seed)
        order = list(range(len(lines)))
        rng.shuffle(order)
        while order:
            size = rng.randint(1, 9)
            batch, order = order[:size], order[size:]
            for i, doc in zip(batch, punctuate(nlp, [lines[i] for i in batch], batch_size=len(batch))):
                outputs.setdefault(i, []).append(doc.text)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    differ = [i for i in range(len(lines)) if outputs.get(i) != [alone[i]] * 4]
    assert not differ, (name, len(differ), lines[differ[0]], outputs.get(differ[0]), alone[differ[0]])


# shapes where readers found marks and capitals they did not expect
SHAPES = [
    "so how was the trip 😀 it was long",
    "so how was the trip \ufffd\ufffd it was long but we saw the coast",
    "hi kevin my internet connection keeps dropping can you help",
    "hi mom yes i am fine",
    "and then he said that -- no way",
    "next think the ß",
    "well hello 🙂 🙂 yes that was it",
]


def _bare_words(text: str):
    return [word.strip(",.?!।;:").lower() for word in text.split() if word.strip(",.?!।;:")]


@pytest.mark.parametrize("name", ["en_punct_trf", "en_punct_sm", "hu_punct_trf", "bn_punct_trf"])
def test_no_mark_after_a_symbol_that_follows_one_no_capital_after_a_comma_no_word_altered(name):
    from spacy_punct.casing import function_words, is_symbol
    from spacy_punct.languages import language_rules

    nlp = load_pipeline(name)
    lines = SHAPES + _lines(40, seed=3)
    rules = language_rules(nlp.lang)
    no_capital = (function_words(nlp.lang) | rules.interjections) - rules.always_capitalised
    for line, doc in zip(lines, punctuate(nlp, lines)):
        out = doc.text
        assert _bare_words(out) == _bare_words(line), (name, line, out)
        assert "SS" not in out or "SS" in line, (name, line, out)
        written = out.split()
        for before, word in zip(written, written[1:]):
            core = word.rstrip(",.?!।")
            if is_symbol(core) and core and before[-1] in ",.?!।":
                assert core == word or word[-1] == "." and before[-1] == ",", (name, line, out)
            if is_symbol(core) and core and core != word:  # a symbol's mark only after a word's (`trip, 😀.`)
                assert before[-1] in ",.?!।" or is_symbol(before), (name, line, out)
            if before.endswith(",") and core.lower() in no_capital and core.lower() in line.split():
                assert core == core.lower(), (name, line, out)


def test_streams_on_one_pipeline_from_four_threads_commit_what_one_thread_commits():
    """Each stream took the punctuator out of the shared pipeline for its
    model run (`nlp.select_pipes`): another thread's stream then failed."""
    from spacy_punct import FixedLookahead, Streamer

    nlp = load_pipeline("en_punct_trf")
    lines = _lines(12, seed=5)

    def streamed() -> list:
        streamer = Streamer(nlp, FixedLookahead(2))
        texts = [w.text for line in lines for w in streamer.push_many(line.split())]
        return texts + [w.text for w in streamer.flush()]

    alone = streamed()
    results: list = []
    threads = [threading.Thread(target=lambda: results.append(streamed())) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [alone] * 4


REPAIR_TEXTS = {  # a written sentence, then a stretch that lost its marks and case
    "en_punct_trf": ("Thank you all for coming.", "today i want to talk about the budget"),
    "en_punct_sm": ("Thank you all for coming.", "today i want to talk about the budget"),
    "hu_punct_trf": ("Köszönöm, hogy eljöttetek.", "ma a költségvetésről szeretnék beszélni veletek"),
    "bn_punct_trf": ("আপনাদের সবাইকে ধন্যবাদ।", "আজ আমি বাজেট নিয়ে কথা বলতে চাই তারপর আমরা প্রশ্ন নেব"),
}


@pytest.mark.parametrize("name", sorted(REPAIR_TEXTS))
def test_every_bundle_repairs_with_its_head_keeping_what_is_written(name):
    nlp = load_pipeline(name)
    assert nlp.get_pipe("punctuator").cfg.get("repair"), f"{name} has no repair head"
    written, stripped = REPAIR_TEXTS[name]
    out = next(punctuate(nlp, [f"{written} {stripped}"], repair=True)).text
    assert out.startswith(written + " "), out  # the written sentence stays as written
    bare = [word.strip(".,?!।").lower() for word in out.split()]
    assert bare == [word.strip(".,?!।").lower() for word in f"{written} {stripped}".split()], out  # no word altered


@pytest.mark.parametrize("name", ["en_punct_trf", "en_punct_sm"])
def test_a_title_before_a_name_is_a_title_not_an_acronym(name):
    text = "i need to report a lost card of course thank you ms moreno i've blocked the card"
    out = next(punctuate(load_pipeline(name), [text])).text
    assert "Ms Moreno" in out, out


@pytest.mark.parametrize("name", ["en_punct_trf", "en_punct_sm"])
def test_a_stretch_that_starts_with_a_capital_still_takes_case(name):
    """A recogniser's run that kept its first capital and lost the rest."""
    written = "So, how was the trip? It was long, but we saw the coast."
    stretch = "Did you stay in lisbon the whole time no we drove down to lagos for three days"
    out = next(punctuate(load_pipeline(name), [f"{written} {stretch}"], repair=True)).text
    assert out.startswith(written + " Did you stay in Lisbon ") and "Lagos" in out, out


@pytest.mark.parametrize("name", sorted(REPAIR_TEXTS))
@pytest.mark.parametrize("kind", ["srt", "vosk"])
def test_every_bundle_writes_a_recogniser_s_file_back_with_its_words_and_times(name, kind):
    from spacy_punct.formats.recognisers import make_format
    from spacy_punct.inference.transcripts import punctuate_transcript

    words = " ".join(REPAIR_TEXTS[name]).lower().replace(".", "").replace(",", "").replace("।", "").split()
    times = [(round(0.5 * i, 2), round(0.5 * i + 0.4, 2)) for i in range(len(words))]
    if kind == "srt":
        half = len(words) // 2
        text = (
            f"1\n00:00:00,000 --> 00:00:0{half // 2},000\n{' '.join(words[:half])}\n\n"
            f"2\n00:00:0{half // 2},000 --> 00:00:09,000\n{' '.join(words[half:])}\n"
        )
    else:
        result = [{"word": w, "start": s, "end": e, "conf": 1.0} for w, (s, e) in zip(words, times)]
        text = json.dumps({"result": result, "text": " ".join(words)}, ensure_ascii=False)
    transcript_format = make_format(kind)
    transcript = transcript_format.read(text, f"a.{kind}")
    _, punctuated = punctuate_transcript(load_pipeline(name), transcript)
    again = transcript_format.read(transcript_format.write(transcript, punctuated), f"b.{kind}")
    assert [w.text.strip(".,?!।").lower() for w in again.words] == words
    if kind == "srt":  # cues re-cut at sentence ends: the words' times within them are spread anew
        assert (again.words[0].start, again.words[-1].end) == (transcript.words[0].start, transcript.words[-1].end)
    else:
        assert [(w.start, w.end) for w in again.words] == times
