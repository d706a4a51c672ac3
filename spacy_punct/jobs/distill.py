"""`spacy-punct distill` as a job: a teacher's class probabilities on
training docs, written to one .spacy file or to a folder of parts. A folder
run keeps what it was asked beside its parts (`distill.json`), so that a
stopped run goes on after its last whole part (`resume`) and the folder ends
as one unbroken run would have left it."""

import hashlib
import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Tuple

from spacy.tokens import Doc, DocBin

from ..errors import UserError
from ..formats.output_files import prepare_output, prepare_output_folder
from ..inference.options import PunctOptions
from ..word_records import docbin_parts, read_docbins, write_docbin_parts
from .inputs import load_punctuator

# what a folder run was asked, beside its parts
SETTINGS_FILE = "distill.json"


@dataclass
class DistillJob:
    """One `distill` run (see `spacy-punct distill --help` for each field)."""

    teacher: str
    input: Path
    output: Path
    ensemble: List[str] = field(default_factory=list)
    lowercase: bool = True
    batch_size: int = 8
    tokens_per_file: int = 500_000
    window: int = 0
    stride: int = 0
    resume: bool = False

    @property
    def one_file(self) -> bool:
        return self.output.suffix == ".spacy"

    def settings(self) -> Dict[str, Any]:
        """What decides the parts' contents: a run goes on from another's
        parts only where these are the same."""
        return {
            "teachers": [_named(name) for name in [self.teacher, *self.ensemble]],
            "input": str(self.input.resolve()),
            "lowercase": self.lowercase,
            "tokens_per_file": self.tokens_per_file,
            "window": self.window,
            "stride": self.stride,
        }


@dataclass
class DistillDone:
    """What a run wrote: docs and tokens taught by this run, where, and the
    docs of the parts an earlier run had written (`resume`)."""

    docs: int
    tokens: int
    where: str
    kept_docs: int = 0


def run_distill(job: DistillJob, advance: Callable[[], None]) -> DistillDone:
    """Teach the input's docs; `advance` is called after each doc. Errors
    are `UserError`s, raised before anything is written."""
    from ..pipelines.distillation import teacher_docs

    first_part, kept_docs = _prepare(job)
    teachers = [load_punctuator(name) for name in [job.teacher, *job.ensemble]]
    for nlp in teachers:
        PunctOptions(window=job.window, stride=job.stride).apply_encoder_options(nlp)
    docs = read_docbins(job.input, teachers[0].vocab)
    try:  # an input that is not a DocBin fails here, before anything is written
        docs = itertools.chain(list(itertools.islice(docs, kept_docs, kept_docs + 1)), docs)
    except ValueError as e:
        raise UserError(str(e)) from None
    done = DistillDone(0, 0, str(job.output), kept_docs)

    def counted(docs: Iterator[Doc]) -> Iterator[Doc]:
        for doc in docs:
            done.docs += 1
            done.tokens += len(doc)
            advance()
            yield doc

    try:
        taught = counted(teacher_docs(teachers, docs, lowercase=job.lowercase, batch_size=job.batch_size))
        if job.one_file:
            DocBin(docs=taught, store_user_data=True).to_disk(job.output)
        else:
            paths = write_docbin_parts(taught, job.output, tokens_per_file=job.tokens_per_file, first=first_part)
            done.where = f"{first_part + len(paths)} file(s) in {job.output}"
    except ValueError as e:
        raise UserError(str(e)) from None
    return done


def _prepare(job: DistillJob) -> Tuple[int, int]:
    """Check the output and say where the run starts: the first part to
    write and the input docs that earlier parts hold already."""
    if job.one_file:
        if job.resume:
            raise UserError("resume goes on in a folder of parts: give a folder as the output, not a .spacy file.")
        prepare_output(job.output, job.input)
        return 0, 0
    settings_file = job.output / SETTINGS_FILE
    if job.resume and settings_file.is_file():
        asked = json.loads(settings_file.read_text(encoding="utf8"))
        changed = [
            f"{key} {asked.get(key)!r}, not {value!r}"
            for key, value in job.settings().items()
            if asked.get(key) != value
        ]
        if changed:
            raise UserError(
                f"the parts in {job.output} were written with other settings ({'; '.join(changed)}): "
                "ask as they were, or choose an empty folder."
            )
        try:
            return docbin_parts(job.output)
        except ValueError as e:
            raise UserError(f"{e}: choose an empty folder.") from None
    if settings_file.is_file() and any(job.output.glob("*.spacy")):
        raise UserError(
            f"the output folder {job.output} holds the parts of a distill run: add --resume to go on from them, "
            "or choose an empty folder (nothing was written)."
        )
    prepare_output_folder(job.output, job.input)
    settings_file.write_text(json.dumps(job.settings(), indent=2) + "\n", encoding="utf8")
    return 0, 0


def _named(teacher: str) -> str:
    """A teacher by its folder and a digest of its files' sizes and times
    (a later model-best in the same folder is another teacher), else by its
    name."""
    folder = Path(teacher)
    if not folder.exists():
        return teacher
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        stat = path.stat()
        digest.update(f"{path.relative_to(folder)} {stat.st_size} {stat.st_mtime_ns}\n".encode())
    return f"{folder.resolve()} ({digest.hexdigest()[:16]})"
