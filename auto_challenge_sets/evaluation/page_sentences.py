"""The sentences behind each config as the page shows them and the run saves them
(``sentences.json.gz`` beside results.json): plain data, read by the report (:mod:`.report.html`,
``acs report``) without the dataset folder; :func:`.sentences.collect` builds them from it.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from auto_challenge_sets.errors import InputError
from auto_challenge_sets.formats.text import read_json


@dataclass(frozen=True)
class ConfigSentences:
    """A config's rows in the dataset's order, each ``{"line", "d", "inst", "c"?, "v"?, "o"?}`` (.sentences);
    their words are in :attr:`Sentences.texts`, once per corpus line for every config."""

    config: str
    rows: list[dict[str, Any]]
    verdicts: bool  # whether rows carry a verdict per system and instance


@dataclass(frozen=True)
class Sentences:
    systems: list[str]  # the order of every text's ``out`` and every row's ``v``
    texts: dict[int, dict[str, Any]]  # corpus line -> {"src": tokens, "ref": tokens, "out": [output per system]}
    configs: dict[str, ConfigSentences]
    notes: list[str]
    uncertain: str | None = None  # why every link of the reference's marks is uncertain (the build's provenance)

    def save(self, path: Path) -> None:
        """As gzipped JSON beside results.json (:data:`SAVED`): the run's verdicts are in no other
        file, so ``acs report`` renders the page's sentences from it. mtime 0: the same sentences
        make the same bytes."""
        document = {"systems": self.systems, "texts": self.texts, "notes": self.notes, "uncertain": self.uncertain,
                    "configs": {name: {"rows": c.rows, "verdicts": c.verdicts} for name, c in self.configs.items()}}
        text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
        path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))

    @classmethod
    def load(cls, path: Path) -> Sentences:
        """What :meth:`save` wrote; a file that is not is an error naming it."""
        document = read_json(path, gzipped=True)
        try:
            found = cls(document["systems"], {int(line): text for line, text in document["texts"].items()},
                        {name: ConfigSentences(name, c["rows"], c["verdicts"])
                         for name, c in document["configs"].items()}, document["notes"], document.get("uncertain"))
            lines = {row["line"] for c in found.configs.values() for row in c.rows}
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise InputError(f"is not the sentences of an acs evaluate report ({error})", path) from None
        if not lines <= found.texts.keys():  # a row's words are the texts' of its line
            raise InputError("holds the sentences of another run (a row's line has no text)", path)
        return found


SAVED = "sentences.json.gz"  # Sentences.save's file, beside results.json
