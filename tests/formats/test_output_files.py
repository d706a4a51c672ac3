"""Outputs refused before anything is written, and written whole or not at all."""

import pytest

from spacy_punct.errors import UserError
from spacy_punct.formats.output_files import output_file, prepare_output, prepare_output_folder


def test_an_output_that_is_an_input_or_a_folder_is_refused(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text("words\n", encoding="utf8")
    with pytest.raises(UserError, match="is the input"):
        prepare_output(source, source)
    with pytest.raises(UserError, match="is a folder"):
        prepare_output(tmp_path, source)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "x.spacy").write_bytes(b"")
    with pytest.raises(UserError, match="holds .spacy files already"):
        prepare_output_folder(tmp_path / "out")


def test_what_was_written_before_an_error_of_the_input_is_put_in_place(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old\n", encoding="utf8")
    with pytest.raises(UserError):
        with output_file(target) as out:
            out.write("new\n")
            raise UserError("record 2: bad")
    assert target.read_text(encoding="utf8") == "new\n"
    with pytest.raises(KeyboardInterrupt):
        with output_file(target) as out:
            out.write("newer\n")
            raise KeyboardInterrupt
    assert target.read_text(encoding="utf8") == "new\n" and len(list(tmp_path.iterdir())) == 1
