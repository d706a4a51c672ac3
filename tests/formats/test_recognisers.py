"""Recognisers' own files: found by content and name, read as their words, written back."""

import json
from pathlib import Path

import pytest

from spacy_punct.formats.recognisers import OutputWord, detect_format, make_format
from spacy_punct.formats.timed import RecordError

DATA = Path(__file__).parents[1] / "data" / "recognisers"
WORDS = "so how was the trip it was long".split()
# as a pipeline would punctuate them: two sentences
PUNCTUATED = [OutputWord(t, t.endswith(("?", "."))) for t in "So how was the trip? It was long.".split()]


def _read(name, kind=None):
    text = (DATA / name).read_text(encoding="utf8")
    kind = kind or detect_format(DATA / name, text)
    transcript = make_format(kind).read(text, name)
    return kind, transcript


@pytest.mark.parametrize(
    "name, kind",
    [
        ("whisper.json", "whisper"),
        ("faster_whisper_words.json", "whisper"),
        ("whisperx.json", "whisper"),
        ("whisper_cpp.json", "whisper-cpp"),
        ("deepgram.json", "deepgram"),
        ("google.json", "google"),
        ("assemblyai.json", "assemblyai"),
        ("transformers.json", "transformers"),
        ("azure.json", "azure"),
        ("amazon.json", "amazon"),
        ("speechmatics.json", "speechmatics"),
        ("rev.json", "rev"),
        ("whisper.tsv", "tsv"),
        ("whisper_cpp.csv", "csv"),
        ("whisper_cpp_console.txt", "timestamped"),
        ("vosk.json", "vosk"),
        ("vosk_results.jsonl", "vosk"),
        ("sample.ctm", "ctm"),
        ("pocketsphinx.txt", "pocketsphinx"),
        ("manifest.json", "nemo"),
        ("sample.srt", "srt"),
        ("youtube.vtt", "vtt"),
    ],
)
def test_each_format_is_found_and_read_as_its_words(name, kind):
    found, transcript = _read(name)
    assert found == kind
    words = [word.text.lower() for word in transcript.words]  # wav2vec2's are capitals
    if name == "whisper.json":
        assert words == WORDS + "but we saw the coast".split()
    elif name == "manifest.json":
        assert words == WORDS + "where did you stay".split()
    else:
        assert words == WORDS  # the YouTube captions' rolling repeats are read once
    if kind != "nemo":
        starts = [word.start for word in transcript.words]
        assert all(start is not None for start in starts) and starts == sorted(starts)


def test_whisper_segments_are_recut_at_sentence_ends_with_their_fields():
    kind, transcript = _read("whisperx.json")
    out = json.loads(make_format(kind).write(transcript, PUNCTUATED))
    assert [s["text"] for s in out["segments"]] == [" So how was the trip?", " It was long."]
    assert [(s["start"], s["end"]) for s in out["segments"]] == [(0.0, 1.2), (1.6, 2.6)]
    assert out["segments"][1]["words"][0] == {"word": "It", "start": 1.6, "end": 1.8, "score": 0.9}  # as read: no space
    assert len(out["word_segments"]) == 8 and out["language"] == "en"
    bare = json.loads(make_format("whisper").write(_read("faster_whisper_words.json")[1], PUNCTUATED))
    assert [w["word"] for w in bare][-1] == " long." and bare[0]["probability"] == 0.91


def test_whisperx_words_without_timings_are_timed_between_their_neighbours_and_written_as_read():
    words = [{"word": "so", "start": 0.0, "end": 0.2}, {"word": "20"}, {"word": "was", "start": 0.9, "end": 1.0}]
    result = {"segments": [{"start": 0.0, "end": 1.4, "text": " so 20 was", "words": words + [{"word": "it"}]}]}
    transcript = make_format("whisper").read(json.dumps(result), "talk.json")
    assert [(w.start, w.end) for w in transcript.words] == [(0.0, 0.2), (0.2, 0.9), (0.9, 1.0), (1.0, 1.4)]
    punctuated = [OutputWord(t, t.endswith(".")) for t in "So 20. Was it.".split()]
    out = json.loads(make_format("whisper").write(transcript, punctuated))
    assert [(s["start"], s["end"], s["text"]) for s in out["segments"]] == [
        (0.0, 0.9, " So 20."),
        (0.9, 1.4, " Was it."),
    ]
    assert out["segments"][0]["words"][1] == {"word": "20."} and out["segments"][1]["words"][1] == {"word": "it."}


def test_whisperx_speakers_turns_are_texts_of_their_own():
    entries = [{"word": w, "start": k * 0.2, "end": k * 0.2 + 0.1} for k, w in enumerate(WORDS)]
    for k, entry in enumerate(entries):
        entry["speaker"] = "SPEAKER_00" if k < 5 else "SPEAKER_01"
    result = {
        "segments": [
            {"start": 0.0, "end": 1.6, "text": " " + " ".join(WORDS), "speaker": "SPEAKER_00", "words": entries}
        ]
    }
    transcript = make_format("whisper").read(json.dumps(result), "talk.json")
    assert transcript.turns == [0] * 5 + [1] * 3
    words = [OutputWord(t, k == 4 or k == 7) for k, t in enumerate("So how was the trip? It was long.".split())]
    out = json.loads(make_format("whisper").write(transcript, words))["segments"]
    assert [(s["speaker"], s["text"]) for s in out] == [
        ("SPEAKER_00", " So how was the trip?"),
        ("SPEAKER_01", " It was long."),
    ]


@pytest.mark.parametrize("with_words", [True, False])
def test_faster_whisper_segments_as_a_list_are_recut_and_written_as_a_list(with_words):
    read = json.loads((DATA / "whisper.json").read_text(encoding="utf8"))["segments"]
    segments = [
        {"id": n + 1, "seek": 0, "start": s["start"], "end": s["end"], "text": s["text"], "avg_logprob": -0.2}
        | {"words": s["words"] if with_words else None}
        for n, s in enumerate(read)
    ]
    text = json.dumps(segments)
    assert detect_format(Path("talk.json"), text) == "whisper"
    transcript = make_format("whisper").read(text, "talk.json")
    assert [w.text for w in transcript.words] == WORDS + "but we saw the coast".split()
    punctuated = PUNCTUATED + [OutputWord(t, t.endswith(".")) for t in "But we saw the coast.".split()]
    out = json.loads(make_format("whisper").write(transcript, punctuated))
    assert [(s["id"], s["text"]) for s in out] == [
        (1, " So how was the trip?"),
        (2, " It was long."),
        (3, " But we saw the coast."),
    ]
    assert out[0]["avg_logprob"] == -0.2 and (
        out[0]["words"][-1]["word"] == " trip?" if with_words else out[0]["words"] is None
    )


def test_a_users_list_of_segments_is_recut_as_a_list_with_its_texts_spacing():
    segments = [
        {"start": 0.0, "end": 1.2, "text": "so how was the trip", "confidence": 0.8},
        {"start": 1.6, "end": 1.8, "text": "it"},  # a segment of one word among them
        {"start": 1.8, "end": 2.6, "text": "was long"},
    ]
    text = json.dumps(segments)
    assert detect_format(DATA / "talk.json", text) == "whisper"
    transcript = make_format("whisper").read(text, "talk.json")
    assert [w.text for w in transcript.words] == WORDS and transcript.words[5].start == 1.6
    out = json.loads(make_format("whisper").write(transcript, PUNCTUATED))
    assert out == [
        {"start": 0.0, "end": 1.2, "text": "So how was the trip?", "confidence": 0.8},
        {"start": 1.6, "end": 2.6, "text": "It was long."},
    ]
    for key in ("text", "word"):  # a word list (NeMo's word timestamps) stays one
        words = json.dumps([{key: w, "start": k, "end": k + 0.5} for k, w in enumerate(WORDS)])
        assert detect_format(DATA / "words.json", words) == "whisper"
        written = make_format("whisper").write(make_format("whisper").read(words, "w.json"), PUNCTUATED)
        assert json.loads(written)[4] == {key: "trip?", "start": 4, "end": 4.5}


def test_openai_apis_words_beside_its_segments_time_them_and_are_written_back():
    said = [{"word": w, "start": round(0.3 * k, 1), "end": round(0.3 * k + 0.2, 1)} for k, w in enumerate(WORDS)]
    segments = [
        {"id": 0, "seek": 0, "start": 0.0, "end": 1.5, "text": " so how was the trip", "avg_logprob": -0.2},
        {"id": 1, "seek": 0, "start": 1.5, "end": 2.3, "text": " it was long", "avg_logprob": -0.3},
    ]
    value = {"task": "transcribe", "language": "english", "duration": 2.3, "text": " so how was the trip it was long"}
    for result in ({**value, "segments": segments, "words": said}, {**value, "words": said}):
        text = json.dumps(result)
        assert detect_format(DATA / "talk.json", text) == "whisper"
        transcript = make_format("whisper").read(text, "talk.json")
        assert [w.start for w in transcript.words] == [w["start"] for w in said] and transcript.language == "en"
        out = json.loads(make_format("whisper").write(transcript, PUNCTUATED))
        assert [w["word"] for w in out["words"]] == [w.text for w in PUNCTUATED]
        assert out["text"] == " So how was the trip? It was long."
        if "segments" in result:
            assert [(s["id"], s["start"], s["end"], "words" in s) for s in out["segments"]] == [
                (0, 0.0, 1.4, False), (1, 1.5, 2.3, False)
            ]  # fmt: skip
        else:
            assert "segments" not in out


def test_whisper_cpp_segments_are_recut_with_their_words_tokens():
    kind, transcript = _read("whisper_cpp.json")
    assert [(w.text, w.start, w.end) for w in transcript.words][4] == ("trip", 0.8, 1.2)  # two tokens
    out = json.loads(make_format(kind).write(transcript, PUNCTUATED))
    assert [s["text"] for s in out["transcription"]] == [" So how was the trip?", " It was long."]
    assert [s["timestamps"] for s in out["transcription"]][1] == {"from": "00:00:01,600", "to": "00:00:02,600"}
    assert [s["offsets"]["to"] for s in out["transcription"]] == [1200, 2600] and out["params"]["language"] == "en"
    tokens = [[t["text"] for t in s["tokens"]] for s in out["transcription"]]
    assert tokens == [["[_BEG_]", " so", " how", " was", " the", " tr", "ip"], [" it", " was", " long", "[_TT_130]"]]
    segments = json.dumps({"transcription": [{"offsets": {"from": 0, "to": 2600}, "text": " " + " ".join(WORDS)}]})
    plain = make_format("whisper-cpp").read(segments, "talk.json")  # -oj: words timed by length
    assert [w.text for w in plain.words] == WORDS and plain.words[-1].end == 2.6


def test_vosk_results_one_object_or_a_line_per_sentence():
    kind, transcript = _read("vosk.json")
    one = json.loads(make_format(kind).write(transcript, PUNCTUATED))
    assert one["text"] == "So how was the trip? It was long." and one["result"][0] == {
        "conf": 1.0,
        "end": 0.21,
        "start": 0.0,
        "word": "So",
    }
    kind, transcript = _read("vosk_results.jsonl")
    lines = [json.loads(line) for line in make_format(kind).write(transcript, PUNCTUATED).splitlines()]
    assert [line["text"] for line in lines] == ["So how was the trip?", "It was long."]


def test_vosk_results_without_word_timings_are_read_from_their_text_and_partial_results_left_out():
    lines = '{"partial": "so how"}\n{"text": "so how was the trip"}\n{"partial": ""}\n{"text": "it was long"}\n'
    assert detect_format(Path("talk.jsonl"), lines) == "vosk"
    transcript = make_format("vosk").read(lines, "talk.jsonl")
    assert [w.text for w in transcript.words] == WORDS and transcript.words[0].start is None
    out = [json.loads(line) for line in make_format("vosk").write(transcript, PUNCTUATED).splitlines()]
    assert out == [{"text": "So how was the trip?"}, {"text": "It was long."}]


def test_vosk_alternatives_punctuate_the_first_and_keep_the_others():
    best = {
        "confidence": 220.5,
        "result": [{"word": w, "start": k * 0.2, "end": k * 0.2 + 0.1} for k, w in enumerate(WORDS)],
    }
    other = {"confidence": 210.1, "text": "so how is the trip"}
    lines = json.dumps({"alternatives": [best | {"text": " ".join(WORDS)}, other]}) + '\n{"partial": "it"}\n'
    assert detect_format(Path("talk.jsonl"), lines) == "vosk"
    transcript = make_format("vosk").read(lines, "talk.jsonl")
    assert [w.text for w in transcript.words] == WORDS
    out = [json.loads(line) for line in make_format("vosk").write(transcript, PUNCTUATED).splitlines()]
    assert len(out) == 1 and out[0]["alternatives"][1] == other
    assert out[0]["alternatives"][0]["text"] == "So how was the trip? It was long."
    assert out[0]["alternatives"][0]["result"][4] == {"word": "trip?", "start": 0.8, "end": 0.9}


def test_pocketsphinx_keeps_fillers_and_times_and_rewrites_each_hypothesis():
    kind, transcript = _read("pocketsphinx.txt")
    assert [(word.start, word.end) for word in transcript.words][3] == (0.81, 0.9)  # `the(2)`
    lines = make_format(kind).write(transcript, PUNCTUATED).splitlines()
    assert lines[0] == "So how was the trip?" and lines[9] == "It was long."
    assert lines[6] == "the 0.810 0.900 0.934814" and lines[7] == "trip? 0.910 1.400 0.997603"
    assert lines[4] == "<sil> 0.460 0.600 0.887796" and lines[12] == "[NOISE] 2.210 2.300 0.500000"
    with pytest.raises(RecordError, match="line 1: a word line before any hypothesis"):
        make_format(kind).read("so 0.0 0.2 0.9\n", "p.txt")


def test_ctm_and_nemo_keep_every_field():
    kind, transcript = _read("sample.ctm")
    lines = make_format(kind).write(transcript, PUNCTUATED).splitlines()
    assert lines[4] == "talk1 1 0.80 0.40 trip? 0.95" and lines[-1] == "talk1 1 2.20 0.40 long. 0.90"
    tabbed = "talk1\t1\t0.00\t0.20\tso\t0.9\ntalk1  1  0.30  0.20  how\n"
    words = [OutputWord("So", False), OutputWord("how?", True)]
    assert make_format("ctm").write(make_format("ctm").read(tabbed, "t.ctm"), words) == tabbed.replace(
        "so", "So"
    ).replace("how", "how?")  # each line's own spacing kept
    kind, transcript = _read("manifest.json")
    words = [OutputWord(w, False) for w in "So how was the trip? It was long. Where did you stay?".split()]
    records = [json.loads(line) for line in make_format(kind).write(transcript, words).splitlines()]
    assert records[0] == {
        "audio_filepath": "audio/talk1.wav",
        "duration": 2.6,
        "text": "So how was the trip? It was long.",
    }
    assert records[1]["pred_text"] == "Where did you stay?" and records[1]["offset"] == 0.0


def test_captions_are_recut_at_sentence_ends():
    for name in ("sample.srt", "youtube.vtt"):
        kind, transcript = _read(name)
        written = make_format("srt").write(transcript, PUNCTUATED)
        assert "So how was the trip?\n\n" in written and "It was long.\n" in written
        assert written.count("-->") == 2


def test_youtube_s_word_timings_are_written_back_where_the_input_had_them():
    kind, transcript = _read("youtube.vtt")
    written = make_format(kind).write(transcript, PUNCTUATED)
    assert (
        "\nSo<00:00:00.300><c> how</c><00:00:00.500><c> was</c><00:00:00.700><c> the</c><00:00:00.800><c> trip?</c>\n"
        in written
    )
    assert "\nIt<00:00:01.800><c> was</c><00:00:02.200><c> long.</c>\n" in written
    again = make_format("vtt").read(written, "again.vtt")
    assert [w.start for w in again.words] == [w.start for w in transcript.words]
    plain = "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nso how was the trip\n"  # none to write back
    assert "<c>" not in make_format("vtt").write(make_format("vtt").read(plain, "a.vtt"), PUNCTUATED[:5])


def test_lines_of_spaces_are_a_cues_text_or_part_cues_and_text_after_an_empty_cue_is_its():
    # YouTube's first cue has a line of spaces above its words; some files part cues with one
    youtube = "WEBVTT\n\n00:00:00.000 --> 00:00:01.000 align:start\n \nso<00:00:00.500><c> how</c>\n"
    assert [w.text for w in make_format("vtt").read(youtube, "a.vtt").words] == ["so", "how"]
    spaced = "1\n00:00:00,000 --> 00:00:01,000\nso how\n  \n2\n00:00:01,000 --> 00:00:02,000\nwas it\n \n"
    assert [w.start for w in make_format("srt").read(spaced, "a.srt").words] == [0.0, 0.4, 1.0, 1.6]
    cleaned = "WEBVTT\n\n00:00:10.000 --> 00:00:12.000\n\nnous doublerons\n\n00:00:12.000 --> 00:00:13.000\nla\n"
    words = make_format("vtt").read(cleaned, "a.vtt").words
    assert [(w.text, w.start) for w in words] == [("nous", 10.0), ("doublerons", 10.571), ("la", 12.0)]


def test_a_cue_timing_without_spaces_around_its_arrow_is_read():
    text = "1\n00:00:01,000-->00:00:02,000\nso how\n"
    assert detect_format(Path("talk.txt"), text) == "srt"
    assert [(w.text, w.start) for w in make_format("srt").read(text, "talk.srt").words] == [("so", 1.0), ("how", 1.4)]


def test_a_captions_markup_is_no_word_but_a_recognisers_angle_brackets_are():
    text = '1\n00:00:00,000 --> 00:00:02,000\n<i>so how</i> <unk> was <font color="red">the trip</font>\n'
    words = [w.text for w in make_format("srt").read(text, "talk.srt").words]
    assert words == ["so", "how", "<unk>", "was", "the", "trip"]


def test_webvtt_keeps_its_header_blocks_and_each_cue_its_settings():
    text = (
        "WEBVTT\nKind: captions\n\nSTYLE\n::cue { color: red }\n\n"
        "00:00:00.000 --> 00:00:02.000 align:start\nso how was the trip\n\nNOTE a comment\n\n"
        "00:00:02.000 --> 00:00:03.000 line:0\nit was long\n"
    )
    written = make_format("vtt").write(make_format("vtt").read(text, "talk.vtt"), PUNCTUATED)
    assert written == (
        "WEBVTT\nKind: captions\n\nSTYLE\n::cue { color: red }\n\nNOTE a comment\n\n"
        "1\n00:00:00.000 --> 00:00:02.000 align:start\nSo how was the trip?\n\n"
        "2\n00:00:02.000 --> 00:00:03.000 line:0\nIt was long.\n\n"
    )
    srt = make_format("srt").write(make_format("vtt").read(text, "talk.vtt"), PUNCTUATED)
    assert srt.startswith("1\n00:00:00,000 --> 00:00:02,000\nSo how") and "line:0" not in srt


def test_webvtt_speakers_turns_are_texts_of_their_own_and_their_cues_keep_the_speaker():
    text = (
        "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n<v Bob>so how was the trip</v>\n\n"
        "00:00:02.000 --> 00:00:03.000\n<v Alice>it was\n\n00:00:03.000 --> 00:00:04.000\nlong\n"
    )
    kind = make_format("vtt")
    transcript = kind.read(text, "meeting.vtt")
    assert transcript.turns == [0] * 5 + [1] * 3 and transcript.groups == [0] * 5 + [1, 1, 2]
    words = [OutputWord(t, False) for t in "So how was the trip? It was long.".split()]  # no end marked
    written = kind.write(transcript, words)
    assert "\n<v Bob>So how was the trip?\n" in written and "\n<v Alice>It was long.\n" in written
    plain = make_format("vtt").read(text.replace("<v Bob>", "").replace("<v Alice>", ""), "captions.vtt")
    assert plain.turns == []  # captions without speakers: one text


def test_whisper_segments_without_word_timestamps_are_timed_by_length():
    result = {
        "text": " so how was the trip it was long",
        "segments": [
            {"id": 0, "start": 0.0, "end": 2.0, "text": " so how was the trip it", "avg_logprob": -0.2},
            {"id": 1, "start": 2.0, "end": 3.0, "text": " was long", "avg_logprob": -0.3},
        ],
    }
    transcript = make_format("whisper").read(json.dumps(result), "talk.json")
    assert [w.text for w in transcript.words] == WORDS
    assert transcript.words[0].start == 0.0 and transcript.words[-1].end == 3.0
    out = json.loads(make_format("whisper").write(transcript, PUNCTUATED))
    assert [s["text"] for s in out["segments"]] == [" So how was the trip?", " It was long."]
    assert out["segments"][1]["end"] == 3.0 and "words" not in out["segments"][0]
    assert out["text"] == " So how was the trip? It was long."


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("bad.ctm", "talk1 1 0.00 0.20 so\ntalk1 one two\n", "bad.ctm, line 2: not a CTM line"),
        ("bad.json", '{"segments": [{"text": " so"}]}', "bad.json, segment 1: no 'words'"),
        ("bad.jsonl", '{"audio_filepath": "a.wav", "text": "so"}\n{"audio_filepath": "b.wav"}\n', "bad.jsonl, line 2"),
        (
            "bad.srt",
            "1\n00:00:01,000 --> 00:00:02,500\nso how\n\n2\n00:00:02,600 --> 00:00:0X,000\nthe trip\n",
            "bad.srt, line 6: cannot read the cue timing",
        ),
        (
            "bad_vosk.json",
            '{"text": "so how was", "result": [{"word": "so", "start": 0, "end": 0.2, "conf": 1}]}',
            "result 1: its 'text' and the words of its 'result' differ",
        ),
        (
            "gap.srt",
            "1\n00:00:01,000 --> 00:00:02,500\nso how\n2\n00:00:02,600 --> 00:00:03,000\nwas\n",
            "line 5: a cue starts",
        ),
        (
            "arrow.srt",
            "1\n00:00:01,000 --> 00:00:02,500\nso how\n\n2\n00:00:02,600 -> 00:00:03,000\nthe trip\n",
            r"arrow.srt, line 6: cannot read the cue timing '00:00:02,600 -> 00:00:03,000' \('-->' between",
        ),
        (
            "cut.json",  # a pretty-printed Vosk result cut short: the break is at its end, not on line 1
            '{\n  "result": [\n    {\n      "conf": 1.0,\n      "end": 0.5,\n      "start": 0.1,\n      "word": "so"\n    },\n    {\n      "conf": 1.0,\n',
            r"cut.json, line 11: not JSON \(",
        ),
        (
            "lost.vtt",
            "WEBVTT\n\nNOTE made by hand\n\nso how\n\n00:00:01.000 --> 00:00:02.000\nwas\n",
            "line 5: text outside a cue",
        ),
    ],
)
def test_what_cannot_be_read_is_named_with_its_line(name, text, message):
    kind = detect_format(Path(name), text)
    with pytest.raises(RecordError, match=message):
        make_format(kind).read(text, name)


def test_words_a_cue_repeats_from_the_one_before_are_kept_unless_the_cue_rolls():
    srt = "1\n00:00:00,000 --> 00:00:01,000\nwe said no\n\n2\n00:00:01,000 --> 00:00:02,000\nno more\n"
    assert [w.text for w in make_format("srt").read(srt, "a.srt").words] == "we said no no more".split()
    again = (
        "1\n00:00:00,000 --> 00:00:01,000\nlet patients help\n\n2\n00:00:01,000 --> 00:00:02,000\nlet patients help\n"
    )
    assert len(make_format("srt").read(again, "a.srt").words) == 6  # said twice, kept twice


def test_a_numbered_speaker_is_named_as_captions_name_it():
    from spacy_punct.formats.recognisers import speaker_name

    names = [speaker_name(v) for v in (0, "2", "A", "SPEAKER_00", None, "")]
    assert names == ["Speaker 0", "Speaker 2", "Speaker A", "SPEAKER_00", "", ""]


@pytest.mark.parametrize(
    "name, code",
    [("whisper.json", "en"), ("google.json", "en"), ("youtube.vtt", "en"), ("sample.srt", None), ("vosk.json", None)],
)
def test_the_language_a_file_says_it_is_in_is_read_as_a_code(name, code):
    assert _read(name)[1].language == code


def test_a_language_is_a_code_or_none():
    from spacy_punct.formats.recognisers import language_code

    assert [language_code(v) for v in ("hu-HU", "en", "pt_BR", "auto", "Hungarian", "bangla", "klingon", None)] == [
        "hu",
        "en",
        "pt",
        None,
        "hu",
        "bn",
        None,
        None,
    ]  # fmt: skip  (OpenAI's API names Whisper's languages)


@pytest.mark.parametrize("kind", ["srt", "vtt"])
def test_a_captions_italics_and_bold_are_kept_on_the_words_they_held(kind):
    timing = "00:00:00,000 --> 00:00:02,600" if kind == "srt" else "00:00:00.000 --> 00:00:02.600"
    text = (
        "WEBVTT\n\n" if kind == "vtt" else ""
    ) + f"1\n{timing}\n<i>so how was</i> the trip it <b><i>was</i></b> long\n"
    transcript = make_format(kind).read(text, f"a.{kind}")
    assert [f["style"] for f in transcript.fields] == ["i", "i", "i", "", "", "", "bi", ""]
    written = make_format(kind).write(transcript, PUNCTUATED)
    assert "<i>So how was</i> the trip?" in written and "It <b><i>was</i></b> long." in written


def test_a_word_whisper_split_into_pieces_is_one_word_and_written_back_in_its_pieces():
    # faster-whisper's words for "a two-dimensional map": the second piece has no leading space
    words = [
        {"word": " a", "start": 0.0, "end": 0.1, "probability": 0.9},
        {"word": " two", "start": 0.1, "end": 0.3, "probability": 0.8},
        {"word": "-dimensional", "start": 0.3, "end": 0.9, "probability": 0.7},
        {"word": " map", "start": 0.9, "end": 1.2, "probability": 0.9},
    ]
    text = json.dumps({"text": " a two-dimensional map", "segments": [{"start": 0.0, "end": 1.2, "words": words}]})
    transcript = make_format("whisper").read(text, "w.json")
    assert [word.text for word in transcript.words] == ["a", "two-dimensional", "map"]
    assert (transcript.words[1].start, transcript.words[1].end) == (0.1, 0.9)
    out = json.loads(
        make_format("whisper").write(
            transcript, [OutputWord(t, t.endswith(".")) for t in ["A", "Two-Dimensional", "map."]]
        )
    )
    written = out["segments"][0]["words"]
    assert [w["word"] for w in written] == [" A", " Two", "-Dimensional", " map."]
    assert [w["probability"] for w in written] == [0.9, 0.8, 0.7, 0.9] and out["text"] == " A Two-Dimensional map."
    whisperx = json.dumps({"segments": [{"start": 0.0, "end": 1.0, "words": [{"word": "so"}, {"word": "how"}]}]})
    assert len(make_format("whisper").read(whisperx, "x.json").words) == 2  # WhisperX writes no spaces: no pieces
