"""Subtitles cut as subtitlers cut them."""

import pytest

from spacy_punct.formats.captions import CaptionWord, cues
from spacy_punct.formats.subtitles import CutWords, SubtitleRules, break_cost, cue_times, cut_sentence


def _timed(text: str, per_word: float = 0.3):
    return [CutWords(word, k * per_word, (k + 1) * per_word) for k, word in enumerate(text.split())]


def _cue_texts(text: str, rules: SubtitleRules, lang="en"):
    words = _timed(text)
    out = []
    for cut in cut_sentence(words, rules, lang):
        lines = [words[a:b] for a, b in zip((cut.start, *cut.line_starts), (*cut.line_starts, cut.end))]
        out.append("\n".join(" ".join(w.text for w in line) for line in lines))
    return out


def test_a_long_sentence_is_cut_where_a_reader_pauses_in_balanced_lines():
    sentence = (
        "When we finally reached the coast after three long days on the road, we found that the little hotel "
        "we had booked in the old town was closed for the winter."
    )
    found = _cue_texts(sentence, SubtitleRules())
    assert " ".join(found).split() == sentence.split()
    for cue in found:
        lines = cue.split("\n")
        assert len(lines) <= 2 and all(len(line) <= 42 for line in lines)
        if len(lines) == 2:
            assert abs(len(lines[0]) - len(lines[1])) <= 20  # balanced
    assert any(cue.endswith("road,") for cue in found)  # the comma ends a cue
    for cue in found:  # never after an article, a determiner or a title
        for line in cue.split("\n"):
            assert line.split()[-1].lower() not in {"the", "a", "an", "this", "that's", "mr", "ms"}


@pytest.mark.parametrize(
    "before, after, worse_than_comma",
    [("the", "coast", True), ("Ms", "Moreno", True), ("5", "km", True), ("road,", "we", False)],
)
def test_what_a_cut_costs(before, after, worse_than_comma):
    comma = break_cost("road,", "we", "en")
    assert (break_cost(before, after, "en") > comma + 10) == worse_than_comma
    assert break_cost("coast", "and", "en") < break_cost("coast", "sea", "en")  # before a conjunction


def test_one_or_two_lines_and_reading_speed():
    one_line = _cue_texts("so how was the trip it was long but we saw the coast", SubtitleRules(lines=1))
    assert all("\n" not in cue and len(cue) <= 42 for cue in one_line)
    times = cue_times([(0.0, 0.5, 34), (3.0, 3.4, 10)], SubtitleRules())
    assert times[0] == (0.0, 2.0)  # 34 characters at 17 a second
    assert times[1] == (3.0, 3.0 + 0.833)  # the shortest duration
    crowded = cue_times([(0.0, 0.5, 34), (1.0, 1.4, 10)], SubtitleRules())
    assert crowded[0][1] == pytest.approx(1.0 - 0.083)  # up to the gap before the next
    with pytest.raises(ValueError):
        SubtitleRules(lines=3)


def test_the_builder_gives_a_cue_out_once_the_next_one_starts():
    words = [
        CaptionWord("So", 0.0, 0.2),
        CaptionWord("how?", 0.2, 0.4, sentence_end=True),
        CaptionWord("Fine.", 3.0, 3.3, sentence_end=True),
    ]
    found = list(cues(words))
    assert [c.text for c in found] == ["So how?", "Fine."]
    assert found[0].end == pytest.approx(0.833) and found[1].start == 3.0
