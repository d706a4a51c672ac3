"""What the service's batches do: a request's texts, records or recogniser's JSON punctuated,
and the jobs of a batch that share their options run together."""

from typing import Any, Callable, List, Tuple

from spacy.language import Language

from ..inference.records import punctuate_records
from ..inference.texts import punctuate
from ..inference.transcripts import punctuate_recognised_many
from .batcher import BatchRun, Job

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
