"""Words per second of pipelines side by side: the same lines, batch size and
threads for each, timed in alternating rounds, the best round of each
counting (other processes sharing the cores only ever slow a round)."""

import platform
import time
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Mapping, Optional, Set, Union

from spacy.language import Language

from ..formats import textio
from ..layers.int8_linear import INT_MM, U8S8, fastest_product, weight_levels
from ..training.corpus import PunctCorpus


def benchmark_lines(
    nlp: Language, path: Union[str, Path], words_per_line: int = 40, encoding: Optional[str] = None
) -> List[str]:
    """The texts to time. A `.spacy` test set: its words as `evaluate` reads
    them (bare, lower-case), cut into lines of `words_per_line` words (0:
    whole documents). Any other file: its lines that are not blank, each one
    a document, as `punctuate` reads them."""
    path = Path(path)
    if path.suffix == ".spacy":
        docs = [[token.text for token in eg.predicted] for eg in PunctCorpus(path, max_length=0)(nlp)]
        if words_per_line > 0:
            words = [word for doc in docs for word in doc]
            docs = [words[i : i + words_per_line] for i in range(0, len(words), words_per_line)]
        lines = [" ".join(doc) for doc in docs if doc]
    else:
        reader = textio.open_text(path, encoding)
        try:
            lines = [line for line in reader if line.strip()]
        finally:
            reader.close()
    if not lines:
        raise ValueError(f"{path} has no words to time.")
    return lines


def count_words(lines: List[str]) -> int:
    """The words of the lines, split at whitespace."""
    return sum(len(line.split()) for line in lines)


def words_per_second(nlp: Language, lines: List[str], batch_size: int, n_process: int = 1) -> float:
    """`nlp.pipe` over the lines once, after one batch to warm up."""
    list(nlp.pipe(lines[:batch_size], batch_size=batch_size))
    start = time.perf_counter()
    for _ in nlp.pipe(lines, batch_size=batch_size, n_process=n_process):
        pass
    return count_words(lines) / (time.perf_counter() - start)


def compare_speeds(
    pipelines: Dict[str, Language],
    lines: List[str],
    batch_size: int = 64,
    rounds: int = 3,
    progress: Optional[Callable[[int], None]] = None,
    n_process: int = 1,
) -> Dict[str, float]:
    """The best words/s of each pipeline over `rounds` rounds, each round
    timing every pipeline once in turn (`nlp.pipe` with `n_process`, the
    workers' start included); `progress` is called with 1 after each timing."""
    if rounds < 1 or batch_size < 1 or n_process < 1:
        raise ValueError(
            f"Need rounds >= 1, batch_size >= 1 and n_process >= 1, not {rounds}, {batch_size} and {n_process}."
        )
    best = dict.fromkeys(pipelines, 0.0)
    for _ in range(rounds):
        for name, nlp in pipelines.items():
            best[name] = max(best[name], words_per_second(nlp, lines, batch_size, n_process))
            if progress is not None:
                progress(1)
    return best


def _cpuinfo(field: str) -> str:
    """The first value of `field` in Linux's /proc/cpuinfo; "" where there is none."""
    try:
        with open("/proc/cpuinfo", encoding="utf8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith(field) and ":" in line:
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def cpu_name() -> str:
    """The CPU's model name as the system gives it (Linux: /proc/cpuinfo)."""
    return _cpuinfo("model name") or platform.processor() or platform.machine() or "unknown"


# the instructions that int8 and float32 products run fastest on, as Linux names them
VECTOR_FLAGS = ("avx2", "avx512f", "avx512_vnni", "avx_vnni", "amx_int8")


def vector_instructions(flags: Iterable[str]) -> str:
    """Which of `VECTOR_FLAGS` a CPU's flags hold, in words: "avx2, avx512f"."""
    held = set(flags)
    return ", ".join(flag for flag in VECTOR_FLAGS if flag in held) or "none of " + ", ".join(VECTOR_FLAGS)


def cpu_flags() -> List[str]:
    """The CPU's flags as the system gives them (Linux: /proc/cpuinfo); none elsewhere."""
    return _cpuinfo("flags").split()


PRODUCT_NAMES = {
    INT_MM: "int8 instructions",
    U8S8: "fbgemm's int8 kernels",
    "float32": "float32 (no fast int8 product)",
}


def machine(weight_bits: Iterable[int] = (7,)) -> Dict[str, str]:
    """What a speed depends on besides the pipeline: the CPU, its vector
    instructions (one CPU name covers models with and without int8 dot
    products), and how int8 layers with weights of each of `weight_bits`
    (those of the pipelines timed, see `int8_weight_bits`) compute their
    products on it (`layers.int8_linear`)."""
    ways = sorted({PRODUCT_NAMES[fastest_product(weight_levels(bits))] for bits in weight_bits})
    return {
        "cpu": cpu_name(),
        "instructions": vector_instructions(cpu_flags()),
        "int8_products": " and ".join(ways) if ways else "none (no int8 layers)",
    }


def machine_in_words(host: Mapping[str, str]) -> str:
    """A `machine()` record as the reports write it; records written before
    the instructions were, without them."""
    instructions = f" ({host['instructions']})" if "instructions" in host else ""
    return f"{host['cpu']}{instructions}, the int8 layers' products in {host['int8_products']}"


def int8_weight_bits(nlp: Language) -> Set[int]:
    """The weight bits of the pipeline's int8 layers: none without an int8 quantizer."""
    from ..components.quantizer import Int8Quantizer

    return {pipe.weight_bits for _, pipe in nlp.components if isinstance(pipe, Int8Quantizer) and pipe.dtype == "qint8"}
