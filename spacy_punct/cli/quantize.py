"""`spacy-punct quantize`: save an int8 copy of a transformer pipeline."""

from pathlib import Path
from typing import List

import typer

from ..jobs.inputs import load_punctuator
from ..pipelines.loading import PipelineError, load_pipeline
from ._util import (
    app,
    fail,
)


@app.command(short_help="Save an int8 copy of a transformer pipeline.")
def quantize(
    model: str = typer.Argument(..., help="A transformer pipeline name or path with a punctuator."),
    output: Path = typer.Argument(..., help="The folder to write the quantized pipeline to (must not exist)."),
    dtype: str = typer.Option("qint8", help="qint8 (int8 linear layers) or float16."),
    weights_storage: str = typer.Option(
        "float32",
        help="How the encoder's weights are saved: float32, or int8 (a quarter of the size, one scale per row).",
    ),
    keep_float: List[str] = typer.Option(
        [],
        help="A regular expression: linear layers whose names match it stay float32, a head's ReLU layer named "
        "'<component>.relu' (repeatable).",
    ),
    weight_bits: int = typer.Option(
        7,
        help="qint8: the weights' bits, 7 (exact int8 products with fbgemm on CPUs without int8 dot-product "
        "instructions) or 8.",
    ),
) -> None:
    """Add an `int8_quantizer` before the transformers: at inference their
    linear layers, and the ReLU layers of the heads that read them, run with
    int8 weights and int8 inputs, each token scaled on its own (CPU);
    the float weights are what is saved (in `--weights-storage`), so the copy
    loads anywhere."""
    from ..components.quantizer import add_quantizer, storage_overrides

    if output.exists():
        fail(f"{output} exists: choose a new folder (nothing was written).")
    nlp = load_punctuator(model)
    try:
        if weights_storage != "float32":
            nlp = load_pipeline(model, config=storage_overrides(nlp, weights_storage), threads=None)
        add_quantizer(nlp, dtype, keep_float, weight_bits)
    except (PipelineError, ValueError) as e:
        fail(str(e))
    nlp.to_disk(output)
    typer.echo(f"Wrote {output} (pipeline: {', '.join(nlp.pipe_names)})")
