"""Test sets by name from sacrebleu's registry: ``--testset wmt21 --pair de-en`` gives the source,
the references and the system outputs, as the files sacrebleu keeps in its cache (``$SACREBLEU``,
default ``~/.sacrebleu``). Its download errors become one
:class:`~auto_challenge_sets.errors.InputError` naming the test set and the cache.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from auto_challenge_sets.errors import InputError

# sacrebleu's own non-segment fields of a test set (WMT XML sets add one field per system output)
_META_FIELDS = ("src", "docid", "origlang", "domain")


def sacrebleu_dir() -> Path:
    """Where sacrebleu keeps test sets; read when asked, as sacrebleu reads it at import."""
    return Path(os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu")))


def split_name(testset: str) -> str:
    """The split a test set's rows go into: its name in ``\\w+`` (``wmt21/dev`` → ``wmt21_dev``)."""
    return re.sub(r"\W", "_", testset, flags=re.ASCII)


@dataclass
class NamedTestSet:
    """One test set and language pair as files: source, references (field → file), and the system
    outputs the set itself carries."""

    name: str
    pair: str
    source: Path
    references: dict[str, Path]
    systems: dict[str, Path] = field(default_factory=dict)

    @property
    def reference(self) -> Path:
        """The reference sacrebleu scores against by default (the first it allows)."""
        return next(iter(self.references.values()))

    @property
    def split(self) -> str:
        return split_name(self.name)


def _dataset(name: str):
    from sacrebleu.dataset import DATASETS

    if name not in DATASETS:
        close = difflib.get_close_matches(name, list(DATASETS), n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise InputError(f"sacrebleu has no test set {name!r}{hint}; `sacrebleu --list` lists them")
    return DATASETS[name]


def resolve_testset(name: str, pair: str) -> NamedTestSet:
    """The files of test set ``name`` for ``pair``, fetched by sacrebleu into its cache if missing."""
    dataset = _dataset(name)
    if pair not in dataset.langpairs:
        raise InputError(f"sacrebleu's test set {name!r} has no pair {pair!r} "
                         f"(it has: {', '.join(sorted(dataset.langpairs))}{_elsewhere(name, pair)})")
    return _files_of(dataset, name, pair)


def _elsewhere(name: str, pair: str) -> str:
    """The newest test sets of the registry that hold ``pair`` (its order is newest first), as a hint."""
    from sacrebleu.dataset import DATASETS

    others = [other for other, dataset in DATASETS.items() if other != name and pair in dataset.langpairs][:3]
    return f"; {', '.join(others)} {'has' if len(others) == 1 else 'have'} it" if others else ""


def resolve_systems(name: str, pair: str) -> dict[str, Path]:
    """System outputs for test set ``name``: those it carries, else those of ``{name}/systems`` (the
    same segments with every submitted system, as sacrebleu's ``wmt21/systems``); empty if neither."""
    own = resolve_testset(name, pair).systems
    if own:
        return own
    from sacrebleu.dataset import DATASETS

    companion = f"{name}/systems"
    if companion in DATASETS and pair in DATASETS[companion].langpairs:
        return _files_of(DATASETS[companion], companion, pair).systems
    return {}


def _files_of(dataset, name: str, pair: str) -> NamedTestSet:
    try:
        fields = dataset.fieldnames(pair)
        files = dict(zip(fields, (Path(path) for path in dataset.get_files(pair))))
        references = [Path(path) for path in dataset.get_reference_files(pair)]
    except (Exception, SystemExit) as error:  # noqa: BLE001 - sacrebleu's download/parse failures
        reason = "its download failed" if isinstance(error, SystemExit) else f"{type(error).__name__}: {error}"
        raise InputError(f"cannot get sacrebleu's test set {name} {pair} ({reason}); sacrebleu downloads it "
                         f"once into {sacrebleu_dir()} (set $SACREBLEU to use another cache)") from None
    by_path = {path: fieldname for fieldname, path in files.items()}
    chosen = {by_path.get(path, path.name): path for path in references}
    systems = {fieldname: path for fieldname, path in files.items()
               if fieldname not in _META_FIELDS and not fieldname.startswith("ref")}
    for path in [files.get("src", Path(dataset.get_source_file(pair))), *chosen.values()]:
        if not path.is_file():
            raise InputError(f"sacrebleu's cache lacks {path.name} of {name} {pair}", path)
    return NamedTestSet(name, pair, files.get("src") or Path(dataset.get_source_file(pair)), chosen, systems)


def cached_testsets() -> list[str]:
    """Names of the test sets sacrebleu's cache holds (``acs doctor``)."""
    from sacrebleu.dataset import DATASETS

    root = sacrebleu_dir()
    if not root.is_dir():
        return []
    # sacrebleu's folder of a test set is its name as a path (wmt21/systems inside wmt21/)
    return sorted(name for name in DATASETS if (root / name).is_dir() and any(
        path.is_file() for path in (root / name).iterdir()))
