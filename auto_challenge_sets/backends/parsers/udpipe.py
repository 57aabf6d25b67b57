"""UDPipe 1 (``ufal.udpipe``), the parser the paper used: tokenizer, tagger and parser in one file.

Each line is processed alone (its tokenizer may cut a line into sentences, which are merged);
pre-tokenized lines use the ``horizontal`` input format (the whole line one sentence).

Without a model file it takes the one for its language in ``CACHE/udpipe`` (:func:`udpipe_models`).
"""

from __future__ import annotations

import os
from pathlib import Path

from auto_challenge_sets.backends import PARSER, Option, register_backend
from auto_challenge_sets.backends.file_provenance import file_checksum
from auto_challenge_sets.backends.parsers import PRETOKENIZED, Parser, ParserError, merge_sentences
from auto_challenge_sets.backends.parsers.trankit_models import trankit_language
from auto_challenge_sets.formats.conllu import parse_conllu
from auto_challenge_sets.formats.ud import Sentence
from auto_challenge_sets.paths import default_cache_dir

# LINDAT's UD 2.5 models (CC BY-NC-SA 4.0), the release the backend is tested with
UDPIPE_MODELS_URL = ("https://lindat.mff.cuni.cz/repository/xmlui/bitstream/handle/11234/1-3131/"
                     "udpipe-ud-2.5-191206.zip")
UDPIPE_RELEASE = "ud-2.5-191206"
# per language, the treebank whose model is preferred (the largest); its LINDAT name starts the file name
UDPIPE_TREEBANKS = {
    "cs": "czech-pdt", "de": "german-hdt", "en": "english-ewt", "es": "spanish-ancora", "fr": "french-gsd",
    "hi": "hindi-hdtb", "is": "icelandic-icepahc", "ru": "russian-syntagrus", "zh": "chinese-gsd",
    "ja": "japanese-gsd", "uk": "ukrainian-iu",
}


def udpipe_folder() -> Path:
    """Where UDPipe models are kept: ``CACHE/udpipe`` (CACHE: :func:`~auto_challenge_sets.paths.default_cache_dir`)."""
    return default_cache_dir() / "udpipe"


def udpipe_models(lang: str, folder: Path | None = None) -> list[Path]:
    """The models for ``lang`` in ``folder`` (default: :func:`udpipe_folder`), the one used first: the
    files whose name up to its first ``-`` is the language's code or English name (``de.udpipe``,
    ``german.udpipe``, LINDAT's ``german-hdt-ud-2.5-191206.udpipe``); a name without ``-`` (one a
    user gave it) first, then the treebank of :data:`UDPIPE_TREEBANKS`, then by name."""
    folder = udpipe_folder() if folder is None else Path(folder)
    preferred = UDPIPE_TREEBANKS.get(lang, lang) + "-"
    names = {lang, trankit_language(lang), preferred.split("-")[0]}
    found = [path for path in folder.glob("*.udpipe") if path.stem.split("-")[0].lower() in names and path.is_file()]
    return sorted(found, key=lambda path: ("-" in path.stem, not path.name.startswith(preferred), path.name))


def missing_model_text(*langs: str) -> str:
    """Where UDPipe models for ``langs`` go, for an error or a check that finds none."""
    names = ", ".join(f"{UDPIPE_TREEBANKS.get(lang, trankit_language(lang) + '-*')}-{UDPIPE_RELEASE}.udpipe"
                      for lang in langs)
    return (f"put {names} (in {UDPIPE_MODELS_URL}, CC BY-NC-SA 4.0), or your own named by its language "
            f"({trankit_language(langs[0])}.udpipe), into {udpipe_folder()}")


@register_backend(PARSER, "udpipe")
class UDPipeParser(Parser):
    requires = ("ufal.udpipe",)
    options = (
        Option("udpipe_model", Path, None, "UDPipe 1 model file (--parser udpipe; default: the language's in "
               "CACHE/udpipe, see `acs doctor`)", metavar="FILE"),
        PRETOKENIZED,
    )

    def __init__(self, lang: str = "en", cache_dir: str | os.PathLike[str] | None = None,
                 udpipe_model: str | os.PathLike[str] | None = None, pretokenized: bool = False):
        # cache_dir: UDPipe keeps no cache; lang: which model to find when none is given
        if udpipe_model is None:
            if not (found := udpipe_models(lang)):
                raise ParserError(f"no UDPipe model for {lang} in {udpipe_folder()}: "
                                             f"{missing_model_text(lang)}, or pass udpipe_model FILE", field="udpipe_model")
            udpipe_model = found[0]
        self.model_path = Path(udpipe_model)
        self.pretokenized = pretokenized
        self._pipeline = None
        self._model = None

    @classmethod
    def label(cls, options: dict) -> str:
        model = options.get("udpipe_model")
        return f"udpipe ({Path(model).name})" if model else cls.name

    def check_ready(self) -> None:
        if not self.model_path.is_file():
            found = "is not a regular file" if self.model_path.exists() else "not found"
            raise ParserError(f"UDPipe model {self.model_path} {found}: pass an existing "
                                         "UDPipe 1 model file with udpipe_model FILE", field="udpipe_model")

    def signature(self) -> dict:
        self.check_ready()
        return {"model": self.model_path.name, "sha256": file_checksum(self.model_path),
                "pretokenized": self.pretokenized}

    def provenance(self) -> dict:
        signature = self.signature()
        return {**super().provenance(), "model": signature["model"], "sha256": signature["sha256"],
                "options": {"pretokenized": self.pretokenized}}

    def _load(self):
        if self._pipeline is None:
            self.check_ready()
            from ufal.udpipe import Model, Pipeline

            model = Model.load(str(self.model_path))
            if model is None:
                raise ParserError(f"{self.model_path} is not a UDPipe 1 model (Model.load failed)")
            source = "horizontal" if self.pretokenized else "tokenize"
            self._model = model  # the pipeline keeps a pointer into it: keep it alive
            self._pipeline = Pipeline(model, source, Pipeline.DEFAULT, Pipeline.DEFAULT, "conllu")
        return self._pipeline

    def parse(self, lines: list[str]) -> list[Sentence]:
        from ufal.udpipe import ProcessingError

        pipeline = self._load()
        error = ProcessingError()
        out = []
        for line in lines:
            text = " ".join(line.split()) if self.pretokenized else line.strip()
            result = pipeline.process(text, error)
            if error.occurred():
                raise ParserError(f"UDPipe failed on {line[:60]!r}: {error.message}")
            parts = parse_conllu(result, "<udpipe output>")
            if not parts:
                raise ParserError(f"UDPipe returned no sentence for {line[:60]!r}")
            for part in parts:
                part.comments.clear()
            # UDPipe records the end of its input as SpacesAfter=\n on the last token: not ours.
            last = parts[-1]
            last.words[-1].misc = _drop_final_newline(last.words[-1].misc)
            for mwt in last.multiword_tokens:
                mwt.columns[9] = _drop_final_newline(mwt.columns[9])
            out.append(merge_sentences(parts))
        return out

    def close(self) -> None:
        self._pipeline = None
        self._model = None


def _drop_final_newline(misc: str) -> str:
    items = [item for item in misc.split("|") if item not in ("SpacesAfter=\\n", "_")]
    return "|".join(items) or "_"
