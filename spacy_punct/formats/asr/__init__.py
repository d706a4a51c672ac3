"""Speech recognisers' own files, a module per format (Whisper's, the cloud
recognisers', captions, tables, Kaldi's, NeMo's), each a `TranscriptFormat`
of `formats.recognisers` registered in `transcript_formats`."""

# the formats register themselves, in the order detection tries them
from . import transformers_asr  # noqa: F401, I001
from . import youtube  # noqa: F401  (before whisper, which takes any JSON list)
from . import whisper  # noqa: F401
from . import whisper_cpp  # noqa: F401
from . import amazon_transcribe  # noqa: F401
from . import speechmatics  # noqa: F401
from . import rev_ai  # noqa: F401
from . import deepgram  # noqa: F401
from . import google_speech  # noqa: F401
from . import assemblyai  # noqa: F401
from . import azure_speech  # noqa: F401
from . import vosk  # noqa: F401
from . import ctm  # noqa: F401
from . import pocketsphinx  # noqa: F401
from . import nemo  # noqa: F401
from . import srt_vtt  # noqa: F401
from . import segment_tables  # noqa: F401
from . import timestamped  # noqa: F401
from . import lrc  # noqa: F401
from . import sbv  # noqa: F401
