"""What a service batch does: jobs with the same options run together, each gets its own results."""

from spacy_punct import load_pipeline, punctuate, punctuate_recognised, punctuate_records
from spacy_punct.service.batcher import Job
from spacy_punct.service.work import batch_run, run_items


def test_jobs_that_share_options_run_together_and_get_their_own_share():
    calls = []

    def run(kind, settings, items):
        calls.append((kind, settings, list(items)))
        return [f"{settings}:{item}" for item in items]

    jobs = [Job([1, 2], ("texts", "a")), Job([3], ("texts", "b")), Job([4], ("texts", "a"))]
    assert batch_run(run)(jobs) == [["a:1", "a:2"], ["b:3"], ["a:4"]]
    assert calls == [("texts", "a", [1, 2, 4]), ("texts", "b", [3])]


def test_texts_and_records_punctuated_as_the_library_does():
    nlp = load_pipeline("en_punct_sm")
    settings = nlp.get_pipe("punctuator").settings
    lines = ["so how was the trip", "hi kevin"]
    assert run_items(nlp, "texts", settings, lines) == [doc.text for doc in punctuate(nlp, lines)]
    records = [{"id": 7, "text": "where did you stay"}]
    assert run_items(nlp, "records", settings, records) == list(punctuate_records(nlp, records))
    # recognisers' outputs of a batch together, each as the library writes it alone
    transcripts = [
        {"segments": [{"start": 0.0, "end": 2.0, "text": " so how was the trip it was long"}]},
        "1\n00:00:00,000 --> 00:00:02,000\nwhere did you stay\n",
        [{"word": "hi", "start": 0.0, "end": 0.2}, {"word": "kevin", "start": 0.2, "end": 0.6}],
    ]
    together = run_items(nlp, "transcript", settings, transcripts)
    assert together == [punctuate_recognised(nlp, item, settings=settings) for item in transcripts]
