"""One settings object for the command line, the service and the Python API."""

import pytest

from spacy_punct.errors import UserError
from spacy_punct.inference.options import PunctOptions, label_values


def test_the_command_lines_options_and_a_requests_give_the_same_settings(trained):
    given = PunctOptions.with_pairs(["question=0.3"], ["COMMA=0.2"], repair=True, end_threshold=0.5)
    asked = PunctOptions.from_request(
        {"repair": True, "thresholds": {"question": 0.3}, "margins": {"COMMA": 0.2}, "end_threshold": 0.5}
    )
    assert given == asked and given.settings(trained) == asked.settings(trained)
    settings = given.settings(trained)
    assert settings.repair and settings.thresholds == {"QUESTION": 0.3} and settings.end_threshold == 0.5


def test_merge_reaches_pipelines_loaded_elsewhere():
    # the changes a worker process or a Ray actor applies to its own copy of the pipeline
    assert PunctOptions(merge=True).changes()["merge"] is True
    assert PunctOptions().changes()["merge"] is None and not PunctOptions().chose_marks


@pytest.mark.parametrize(
    "body, message",
    [
        ({"repair": "yes"}, '"repair" must be true or false'),
        ({"thresholds": [0.3]}, '"thresholds" must be an object'),
        ({"end_threshold": 2}, '"end_threshold" must be a number from 0 to 1'),
    ],
)
def test_a_bad_request_is_one_line(body, message):
    with pytest.raises(UserError, match=message):
        PunctOptions.from_request(body)


def test_bad_choices_are_named_as_the_caller_names_them(trained):
    with pytest.raises(UserError, match="--threshold takes LABEL=NUMBER"):
        label_values(["QUESTION"], "--threshold")
    with pytest.raises(UserError, match="thresholds"):
        PunctOptions.from_request({"thresholds": {"QUESTION": 3}}).settings(trained)
    with pytest.raises(UserError, match="merge decides every mark again"):
        PunctOptions(merge=True, keep_existing=True).settings(trained)
    assert PunctOptions(merge=True, window=8).given() == ["--merge", "--window"]
