"""A live recogniser's lines: the words each holds, in every form a recogniser writes them."""

import json

import pytest

from spacy_punct.formats.live_lines import line_words
from spacy_punct.formats.timed import RecordError


def test_line_words():
    assert line_words("so how  was\n", "line 1") == ["so", "how", "was"]
    assert line_words('{"word": "a", "start": 0, "end": 1}', "line 1") == [{"word": "a", "start": 0, "end": 1}]
    assert line_words('[{"word": "a"}, "b"]', "line 1") == [{"word": "a"}, "b"]
    assert line_words('{"result": [{"word": "a"}], "text": "a"}', "line 1") == [{"word": "a"}]
    assert line_words('{"text": "a partial result"}', "line 1") == ["a", "partial", "result"]
    assert line_words('{"partial": "so how"}', "line 2") == []  # Vosk repeats it in its next result
    # whisper.cpp's stream writes tags as plain words: a line they lead is no JSON
    assert line_words("[BLANK_AUDIO]", "line 1") == ["[BLANK_AUDIO]"]
    assert line_words("[Music] so {noise} how", "line 1") == ["[Music]", "so", "{noise}", "how"]
    # whisper.cpp's printed segments: the words share its time
    printed = line_words("[00:00:01.000 --> 00:00:02.000]   so how", "line 1")
    assert printed == [{"word": "so", "start": 1.0, "end": 1.4}, {"word": "how", "start": 1.4, "end": 2.0}]
    # Deepgram's live messages: a final result's words; interim results and other events none
    said = [{"word": "so", "start": 0.1, "end": 0.3, "confidence": 0.9}]
    final = {"type": "Results", "is_final": True, "channel": {"alternatives": [{"transcript": "so", "words": said}]}}
    assert line_words(json.dumps(final), "line 1") == said
    assert line_words(json.dumps({**final, "is_final": False}), "line 1") == []
    assert line_words('{"type": "UtteranceEnd", "last_word_end": 2.1}', "line 1") == []
    marked = [{"word": "so", "punctuated_word": "So,", "start": 0.1, "end": 0.3}]
    final_marked = {"type": "Results", "is_final": True, "channel": {"alternatives": [{"words": marked}]}}
    assert line_words(json.dumps(final_marked), "line 1")[0]["word"] == "So,"  # as written, as in a file
    bare = {"type": "Results", "is_final": True, "channel": {"alternatives": [{"transcript": "so how", "words": []}]}}
    assert line_words(json.dumps(bare), "line 1") == ["so", "how"]
    with pytest.raises(RecordError, match="line 3: not JSON"):
        line_words('{"word": ', "line 3")
    with pytest.raises(RecordError, match="line 2: no words found"):
        line_words('{"speaker": 1}', "line 2")
    # Google's streaming responses logged a line each: the final results' words
    timed = [
        {"word": "so", "startTime": "0.5s", "endTime": "0.9s"},
        {"word": "how", "startTime": "1s", "endTime": "1.2s"},
    ]
    final = {"results": [{"alternatives": [{"transcript": "so how", "words": timed}], "isFinal": True}]}
    assert line_words(json.dumps(final), "line 1") == [
        {"word": "so", "start": 0.5, "end": 0.9}, {"word": "how", "start": 1.0, "end": 1.2}
    ]  # fmt: skip
    interim = {"results": [{"alternatives": [{"transcript": "so how"}], "stability": 0.8}]}
    assert line_words(json.dumps(interim), "line 1") == []
    untimed = {"results": [{"alternatives": [{"transcript": "so how"}], "is_final": True}]}
    assert line_words(json.dumps(untimed), "line 1") == ["so", "how"]
    # AssemblyAI's streaming messages: a turn once it ends, its times in milliseconds
    said = [{"start": 1920, "end": 2000, "text": "hi", "confidence": 0.9, "word_is_final": True}]
    turn = {"type": "Turn", "end_of_turn": True, "turn_is_formatted": False, "transcript": "hi", "words": said}
    assert line_words(json.dumps(turn), "line 1") == [{"word": "hi", "start": 1.92, "end": 2.0}]
    assert line_words(json.dumps({**turn, "end_of_turn": False}), "line 1") == []
    assert line_words(json.dumps({**turn, "turn_is_formatted": True, "transcript": "Hi."}), "line 1") == []
    assert line_words(json.dumps({"message_type": "PartialTranscript", "text": "hi", "words": said}), "line 1") == []
    assert line_words(json.dumps({"message_type": "FinalTranscript", "words": said}), "line 1")[0]["start"] == 1.92
    # Azure's real-time results: the display form's words, sharing the result's time (ticks of 100 ns)
    recognised = {"RecognitionStatus": "Success", "Offset": 5000000, "Duration": 5000000, "DisplayText": "so how"}
    assert line_words(json.dumps(recognised), "line 1") == [
        {"word": "so", "start": 0.5, "end": 0.7}, {"word": "how", "start": 0.7, "end": 1.0}
    ]  # fmt: skip
    detailed = {**recognised, "NBest": [{"Lexical": "so how", "Display": "So how?"}]}
    assert [w["word"] for w in line_words(json.dumps(detailed), "line 1")] == ["So", "how?"]
    assert line_words('{"RecognitionStatus": "InitialSilenceTimeout", "Offset": 0, "Duration": 0}', "line 1") == []
    with pytest.raises(RecordError, match="line 4: Azure's result has no 'DisplayText'"):
        line_words('{"RecognitionStatus": "Success", "Offset": 0}', "line 4")
    # Amazon Transcribe's streaming events: a final result's words, each with the marks after it
    items = [
        {"Type": "pronunciation", "Content": "so", "StartTime": 0.5, "EndTime": 0.7},
        {"Type": "pronunciation", "Content": "how", "StartTime": 0.7, "EndTime": 1.0},
        {"Type": "punctuation", "Content": "?"},
    ]
    event = {
        "Transcript": {"Results": [{"IsPartial": False, "Alternatives": [{"Items": items, "Transcript": "so how?"}]}]}
    }
    assert line_words(json.dumps(event), "line 1") == [
        {"word": "so", "start": 0.5, "end": 0.7}, {"word": "how?", "start": 0.7, "end": 1.0}
    ]  # fmt: skip
    said = [{"type": "word", "start_time": 0.5, "end_time": 0.7, "alternatives": [{"content": "so"}]}]
    said.append({"type": "punctuation", "start_time": 0.7, "end_time": 0.7, "alternatives": [{"content": ","}]})
    assert line_words(json.dumps({"message": "AddTranscript", "results": said}), "l") == [
        {"word": "so,", "start": 0.5, "end": 0.7}
    ]  # fmt: skip
    assert line_words(json.dumps({"message": "AddPartialTranscript", "results": said}), "l") == []
    partial = {"Transcript": {"Results": [{"IsPartial": True, "Alternatives": [{"Items": items}]}]}}
    assert line_words(json.dumps(partial), "line 1") == [] and line_words('{"Transcript": {"Results": []}}', "l") == []
