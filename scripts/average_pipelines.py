"""Average the weights of trained pipelines of one recipe (a "model soup":
runs fine-tuned from the same start, such as two stages or two data mixes),
written as a new pipeline folder beside them. Any of them may be a bundled
one (its int8 weights are read as the next training stage reads them); the
output has the first one's settings.

    python scripts/average_pipelines.py OUTPUT PIPELINE PIPELINE [PIPELINE ...]
"""

import argparse
from pathlib import Path
from typing import List

import spacy
from spacy.language import Language
from thinc.api import Model


def average_into(target: Language, others: List[Language]) -> int:
    """Set each weight of `target` to its mean with the same weight of `others`
    (thinc parameters and the Hugging Face models in shims); return how many
    tensors were averaged. The pipelines must have the same components and shapes."""
    count = 0
    n = 1 + len(others)
    for name, pipe in target.pipeline:
        if not isinstance(getattr(pipe, "model", None), Model):  # no weights (a bundle's int8_quantizer)
            continue
        nodes = [list(other.get_pipe(name).model.walk()) for other in others]
        for i, node in enumerate(pipe.model.walk()):
            for param in node.param_names:
                if node.has_param(param):
                    total = node.get_param(param).copy()
                    for walked in nodes:
                        total += walked[i].get_param(param)
                    node.set_param(param, total / n)
                    count += 1
            for j, shim in enumerate(node.shims):
                torch_model = getattr(shim, "_model", None)
                if torch_model is None or not hasattr(torch_model, "state_dict"):
                    continue
                state = torch_model.state_dict()
                for key, value in state.items():
                    if value.is_floating_point():
                        for walked in nodes:
                            value += walked[i].shims[j]._model.state_dict()[key]
                        value /= n
                        count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", type=Path, help="the folder for the averaged pipeline")
    parser.add_argument("pipelines", type=Path, nargs="+", help="two or more trained pipelines of one recipe")
    args = parser.parse_args()
    if len(args.pipelines) < 2:
        raise SystemExit("Error: give two or more pipelines to average")
    if args.output.exists():
        raise SystemExit(f"Error: {args.output} exists; give a new folder")
    for path in args.pipelines:
        if not (path / "config.cfg").is_file():
            raise SystemExit(f"Error: {path} is not a pipeline folder (no config.cfg)")
    import spacy_punct  # noqa: F401  (registers the components)
    from spacy_punct.training import warm_start

    first = spacy.load(args.pipelines[0])
    others = []
    for path in args.pipelines[1:]:
        other = spacy.load(args.pipelines[0])
        warm_start(other, str(path))
        others.append(other)
    count = average_into(first, others)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    first.to_disk(args.output)
    print(f"Averaged {count} tensors of {len(args.pipelines)} pipelines into {args.output}")


if __name__ == "__main__":
    main()
