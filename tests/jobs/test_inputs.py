"""A job's input and pipeline, refused in one line before anything runs."""

import pytest

from spacy_punct.errors import UserError
from spacy_punct.jobs.inputs import check_input, load_punctuator, open_input, transcript_format, use_threads


class Silent:
    def note(self, text: str) -> None: ...

    def advance(self, words: int) -> None: ...


def test_missing_inputs_folders_and_unreadable_files_are_one_line(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        check_input(tmp_path / "missing.txt")
    with pytest.raises(UserError, match="is a folder: give a file"):
        check_input(tmp_path)
    (tmp_path / "binary.txt").write_bytes(b"\x00\x01\x02" * 100)
    with pytest.raises(UserError, match="binary.txt"):
        open_input(tmp_path / "binary.txt", None, Silent())
    check_input(None)  # standard input


def test_a_pipeline_or_thread_count_that_cannot_be_had_is_one_line(tmp_path):
    with pytest.raises(UserError, match="no-such-pipeline"):
        load_punctuator(str(tmp_path / "no-such-pipeline"))
    with pytest.raises(UserError):
        use_threads(0)


def test_a_recognisers_file_is_found_and_text_is_not(tmp_path):
    (tmp_path / "talk.txt").write_text("so how was it\n", encoding="utf8")
    (tmp_path / "talk.ctm").write_text("talk1 1 0.00 0.20 so\n", encoding="utf8")
    assert transcript_format(tmp_path / "talk.txt", None) is None
    assert transcript_format(tmp_path / "talk.ctm", None) == "ctm" and transcript_format(None, None) is None
