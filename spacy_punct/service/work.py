"""What the service's batches do: a request's texts, records or recogniser's JSON punctuated,
the jobs of a batch that share their options run together, and a long
request in steps of bounded work."""

from typing import Any, Callable, Generator, List, Optional, Tuple

from spacy.language import Language

from ..inference.records import punctuate_records
from ..inference.texts import punctuate, punctuate_steps
from ..inference.transcripts import punctuate_recognised_many
from .batcher import BatchRun, Job, StepsRun

ItemsRun = Callable[[str, Any, List[Any]], List[Any]]  # (kind, settings, items) -> results


def run_items(nlp: Language, kind: str, settings: Any, items: List[Any]) -> List[Any]:
    """The items, texts (strings), records (objects) or a recogniser's JSON
    values ("transcript": each given back in its own shape) as `kind` says,
    punctuated with `settings`."""
    if kind == "texts":
        return [doc.text for doc in punctuate(nlp, items, settings=settings)]
    if kind == "transcript":  # the batch's recognisers' outputs together
        return punctuate_recognised_many(nlp, items, settings=settings)
    return list(punctuate_records(nlp, items, settings=settings))


def batch_run(run: ItemsRun) -> BatchRun:
    """A batcher's run over `run`: the jobs with the same options together,
    each job's share of the results handed back."""

    def process(jobs: List[Job]) -> List[Any]:
        results: List[Any] = [None] * len(jobs)
        groups: List[Tuple[Any, List[int]]] = []
        for index, job in enumerate(jobs):
            for options, members in groups:
                if options == job.options:
                    members.append(index)
                    break
            else:
                groups.append((job.options, [index]))
        for (kind, settings), members in groups:
            done = run(kind, settings, [item for index in members for item in jobs[index].items])
            start = 0
            for index in members:
                n = len(jobs[index].items)
                results[index], start = done[start : start + n], start + n
        return results

    return process


def item_words(item: Any) -> int:
    """The words of a text, record or recogniser's JSON value, counted
    high: every whitespace-parted run of characters in its strings."""
    if isinstance(item, str):
        return len(item.split())
    if isinstance(item, dict):
        return sum(item_words(value) for value in item.values())
    if isinstance(item, list):
        return sum(item_words(value) for value in item)
    return 0


def steps_in_groups(run: ItemsRun, step_words: int) -> StepsRun:
    """A long job's run over `run`, a group of its items of at most
    `step_words` words at a time (an item of more words a group alone)."""

    def steps(job: Job) -> Generator[Optional[List[Any]], None, None]:
        kind, settings = job.options
        results: List[Any] = []
        group: List[Any] = []
        words = 0
        for item in job.items:
            n = item_words(item)
            if group and words + n > step_words:
                results += run(kind, settings, group)
                yield None
                group, words = [], 0
            group.append(item)
            words += n
        if group:
            results += run(kind, settings, group)
        yield results

    return steps


def local_steps(nlp: Language, step_words: int) -> StepsRun:
    """A long job's run on `nlp` in this process: texts a piece of a long
    text or a batch at a time (`punctuate_steps`), records and recognisers'
    JSON in groups (`steps_in_groups`)."""
    in_groups = steps_in_groups(lambda kind, settings, items: run_items(nlp, kind, settings, items), step_words)

    def steps(job: Job) -> Generator[Optional[List[Any]], None, None]:
        kind, settings = job.options
        if kind != "texts":
            yield from in_groups(job)
            return
        texts: List[str] = []
        for doc in punctuate_steps(nlp, job.items, settings=settings):
            if doc is not None:
                texts.append(doc.text)
            yield None
        yield texts

    return steps
