"""The pipeline components and their model code, one module each (the layout
of `spacy/pipeline/`): the punctuator, the truecaser, the rewriter, the int8
quantizer, the tokenizer, the word classifier's architecture and the
transformer's windows. Their factories and registered functions are found
through entry points."""
