"""What a caller asks of punctuation, however it asks: the command line's
options, a service request's fields, the Python API's arguments. One object,
checked in one place and turned into the pipeline's decision settings."""

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from spacy.language import Language

from ..decode import DecisionSettings, check_settings
from ..errors import UserError
from ..languages import language_entry
from ..layers import transformer
from ..pipelines.loading import PipelineError, find_punctuator

# the settings a request to the service may give, with the kind of value each takes
REQUEST_FLAGS = ("keep_existing", "add_marks", "repair", "merge")


@dataclass(frozen=True)
class PunctOptions:
    """The choices of one job; None (or empty) leaves the pipeline's own.
    `names`: what the caller calls the thresholds and margins, for errors
    (`--threshold` on the command line, `thresholds` in a request)."""

    keep_existing: Optional[bool] = None
    repair: Optional[bool] = None
    merge: bool = False
    add_marks: Optional[bool] = None
    thresholds: Mapping[str, float] = field(default_factory=dict)
    margins: Mapping[str, float] = field(default_factory=dict)
    end_threshold: Optional[float] = None
    window: int = 0
    stride: int = 0
    cpu_precision: str = ""
    names: Tuple[str, str] = field(default=("--threshold", "--margin"), compare=False)

    @classmethod
    def with_pairs(cls, thresholds: Sequence[str] = (), margins: Sequence[str] = (), **options: Any) -> "PunctOptions":
        """Options whose thresholds and margins are written LABEL=NUMBER (`QUESTION=0.3`)."""
        return cls(
            thresholds=label_values(thresholds, "--threshold"), margins=label_values(margins, "--margin"), **options
        )

    @classmethod
    def from_request(cls, body: Mapping[str, Any]) -> "PunctOptions":
        """A service request's options (`repair`, `thresholds`: {"QUESTION": 0.3}, ...)."""
        flags: Dict[str, Any] = {}
        for key in REQUEST_FLAGS:
            if body.get(key) is not None:
                if not isinstance(body[key], bool):
                    raise UserError(f'"{key}" must be true or false.')
                flags[key] = body[key]
        end = body.get("end_threshold")
        if end is not None and (not is_number(end) or not 0 <= end <= 1):
            raise UserError('"end_threshold" must be a number from 0 to 1.')
        return cls(
            **flags,
            thresholds=_request_values(body, "thresholds"),
            margins=_request_values(body, "margins"),
            end_threshold=None if end is None else float(end),
            names=("thresholds", "margins"),
        )

    @property
    def chose_marks(self) -> bool:
        """Whether the caller said what becomes of the input's own marks."""
        return self.keep_existing is not None or self.repair is not None or self.add_marks is not None or self.merge

    @property
    def engine_settings(self) -> bool:
        """Whether any option changes how the encoder runs (`window`, `stride`, `cpu_precision`)."""
        return bool(self.window or self.stride or self.cpu_precision)

    def given(self) -> List[str]:
        """The command line's names of the options given."""
        given = {
            "--keep-existing/--replace-existing": self.keep_existing is not None,
            "--repair/--no-repair": self.repair is not None,
            "--merge": self.merge,
            "--add-marks/--case-only": self.add_marks is not None,
            "--threshold": bool(self.thresholds),
            "--margin": bool(self.margins),
            "--end-threshold": self.end_threshold is not None,
            "--window": bool(self.window),
            "--stride": bool(self.stride),
            "--cpu-precision": bool(self.cpu_precision),
        }
        return [name for name, is_given in given.items() if is_given]

    def changes(self) -> Dict[str, Any]:
        """The decision settings these options change (`DecisionSettings.replace`), for a pipeline loaded elsewhere."""
        return dict(
            keep_existing=self.keep_existing, add_marks=self.add_marks, repair=self.repair,
            end_threshold=self.end_threshold, merge=self.merge or None,
            thresholds=dict(self.thresholds) or None, margins=dict(self.margins) or None,
        )  # fmt: skip

    def settings(self, nlp: Language) -> DecisionSettings:
        """The pipeline's decision settings with these options."""
        language = language_entry(nlp.lang or "")
        if self.add_marks is False and not language.cased:
            raise UserError(f"--case-only: {language.name} has no case, so the text would come out as it went in.")
        try:
            pipe = find_punctuator(nlp)[1]
            check_settings(pipe.label_set, self.thresholds, self.margins, self.names)
            return pipe.settings.replace(**self.changes())
        except (PipelineError, ValueError) as e:
            raise UserError(str(e)) from None

    def prepare(self, nlp: Language) -> DecisionSettings:
        """Set the encoder's options on the pipeline; its decision settings."""
        settings = self.settings(nlp)
        self.apply_encoder_options(nlp)
        return settings

    def apply_encoder_options(self, nlp: Language) -> None:
        """Set `window`, `stride` and `cpu_precision` on the pipeline's transformer."""
        try:
            transformer.apply_transformer_settings(nlp, self.window, self.stride, self.cpu_precision)
        except ValueError as e:
            raise UserError(str(e)) from None

    def replace(self, **changes: Any) -> "PunctOptions":
        return dataclasses.replace(self, **changes)


def _request_values(body: Mapping[str, Any], key: str) -> Dict[str, float]:
    """A request's {"LABEL": number} setting."""
    given = body.get(key)
    if given is None:
        return {}
    if not isinstance(given, dict) or not all(is_number(v) for v in given.values()):
        raise UserError(f'"{key}" must be an object of labels and numbers.')
    return {label.upper(): float(value) for label, value in given.items()}


def label_values(values: Sequence[str], option: str) -> Dict[str, float]:
    """LABEL=NUMBER pairs of a repeated option."""
    parsed: Dict[str, float] = {}
    for value in values:
        label, sep, number = value.partition("=")
        try:
            parsed[label.strip().upper()] = float(number)
        except ValueError:
            sep = ""
        if not sep:
            raise UserError(f"{option} takes LABEL=NUMBER (e.g. QUESTION=0.3), not {value!r}.")
    return parsed


def is_number(value: Any) -> bool:
    """A JSON number a float holds (not true or false, not 1e400 nor an integer of 400 digits)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False
