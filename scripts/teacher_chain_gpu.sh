#!/usr/bin/env bash
# The English teacher's chain on a machine with one GPU, in about ten minutes
# of an H100: the teacher's run (configs/en_teacher.cfg) goes on from its
# checkpoint in training/en_teacher (a CPU run's, where it was copied there)
# or starts, then the teacher's probabilities on the English text, then the
# student (configs/en_trf_student.cfg), each resumable and bounded in time.
# Needs what the project's steps write: corpus/en (spacy project run convert),
# encoders/all-mpnet-base-v2 (encoder-mpnet) and encoders/all-MiniLM-L6-v2
# (encoder-minilm), and spacy-punct installed with a CUDA build of torch.
#
#     bash scripts/teacher_chain_gpu.sh [TEACHER_MINUTES] [STUDENT_MINUTES]
set -euo pipefail
cd "$(dirname "$0")/.."
teacher_minutes="${1:-5}"
student_minutes="${2:-3}"
for needed in corpus/en/train corpus/en/dev.spacy encoders/all-mpnet-base-v2 encoders/all-MiniLM-L6-v2; do
    [ -e "$needed" ] || { echo "missing $needed: run the project's convert and encoder steps first" >&2; exit 1; }
done
mkdir -p corpus/en/dev_teacher  # the teacher's dev sets, by link: run again, nothing is copied onto itself
ln -sfn ../dev.spacy corpus/en/dev_teacher/iwslt_dev.spacy
ln -sfn ../eval/gum_dev.spacy corpus/en/dev_teacher/gum_dev.spacy

spacy-punct train configs/en_teacher.cfg --output training/en_teacher --gpu-id 0 --resume \
    --checkpoint-minutes 2 --max-minutes "$teacher_minutes" \
    --paths.train corpus/en/train --paths.dev corpus/en/dev_teacher \
    --components.transformer.model.name encoders/all-mpnet-base-v2
cat training/en_teacher/status.json

rm -rf corpus/en/teacher-mpnet  # a GPU labels it all in a minute: from the teacher just trained
spacy-punct distill training/en_teacher/model-best corpus/en/train corpus/en/teacher-mpnet --gpu-id 0

spacy-punct train configs/en_trf_student.cfg --output training/en_trf_student --gpu-id 0 --resume \
    --checkpoint-minutes 2 --max-minutes "$student_minutes" \
    --paths.train corpus/en/teacher-mpnet --paths.dev corpus/en/dev_teacher \
    --components.transformer.model.name encoders/all-MiniLM-L6-v2
cat training/en_trf_student/status.json
