"""The public API as the README uses it: checked by mypy in tests/test_typing.py, never run."""

from pathlib import Path
from typing import Any, Dict, List

import spacy
from spacy.tokens import DocBin

from spacy_punct import (
    DecisionSettings,
    EntropyLookahead,
    FixedLookahead,
    PunctCorpus,
    Streamer,
    evaluate,
    load_pipeline,
    punctuate,
    punctuate_folder,
    punctuate_folder_in_processes,
    punctuate_recognised,
    punctuate_recognised_many,
    punctuate_records,
    stream_punctuate,
)


def readme() -> None:
    nlp = load_pipeline("en")
    for doc in punctuate(nlp, ["so how was the trip it was long but we saw the coast"]):
        print(doc.text, [s.text for s in doc.sents])
    nlp = load_pipeline("training/en/model-best", threads=2)
    for doc in punctuate(nlp, open("talk.txt"), batch_size=64, settings=DecisionSettings(thresholds={"COMMA": 0.4})):
        print(doc.text, doc[0]._.source_i)
    records: List[Dict[str, Any]] = [{"id": "utt2", "text": "where did you stay", "speaker": "B"}]
    for record in punctuate_records(nlp, records):
        print(record["id"], record["punctuated"])
    scores: Dict[str, Any] = evaluate(nlp, "corpus/en/eval/test2011.spacy")
    print(scores["punct_f"])

    blank = spacy.blank("en")
    DocBin(docs=[blank.make_doc("So, how was the trip?")]).to_disk("tiny.spacy")
    examples = list(PunctCorpus("tiny.spacy", max_length=0)(blank))
    blank.add_pipe("punctuator")
    blank.initialize(lambda: examples)

    streamer = Streamer(nlp, FixedLookahead(4), left_context=50)
    for word in streamer.push("so"):
        print(word.text, word.sentence_end)
    for word in streamer.push("how", 0.5, 0.7):
        print(word.start, word.end)
    for word in streamer.flush():
        print(word.text)
    for word in stream_punctuate(nlp, ["so", "how"], EntropyLookahead(0.5, 4)):
        print(word.text)

    whisper: Dict[str, Any] = punctuate_recognised(nlp, {"segments": [{"start": 0.0, "end": 1.0, "text": " so how"}]})
    print(whisper["segments"], punctuate_recognised(nlp, "1\n00:00:00,000 --> 00:00:01,000\nso how\n").upper())
    for out in punctuate_recognised_many(nlp, [whisper, "1\n00:00:00,000 --> 00:00:01,000\nso how\n"], batch_size=32):
        print(out)
    for file in punctuate_folder(nlp, Path("whisper"), Path("punctuated")):
        print(file.path, file.words, file.error, file.language)
    for file in punctuate_folder_in_processes(
        "en", Path("whisper"), Path("out"), processes=2, changes={"repair": True}
    ):
        print(file.path, file.marks)
