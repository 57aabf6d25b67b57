"""Shared fixtures. Real corpora live in ../shared (read in place, never copied into the repo);
tests that need them skip with a reason when it is absent (a user's fresh clone has no shared/).

The ``shared`` marker: a test that reads ../shared carries it, so ``-m "not shared"`` selects what a
fresh clone runs (``make test-offline`` runs the whole suite with ``ACS_SHARED_DIR`` pointing to an
empty folder instead). It is added here, at collection, to every test that uses ``shared_data`` or
``shared_models``, or whose code, fixtures or same-module helpers name ``shared_path`` or
``SHARED`` (:mod:`shared_marker`), and may be written by hand. At run time an audit hook watches
every file opened and folder listed: a test that reads under ``SHARED`` without the marker fails,
naming the path, so a read that the collection missed is caught the first time it runs.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import mutation_scope
import shared_marker
from toy_dataset import Toy, make, make_wide

# Set before anything imports huggingface_hub or transformers: they read these at import time,
# and without them a load that has every file on disk still asks the Hub (minutes of time-outs).
for _flag in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(_flag, "1")

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ACS_SHARED_DIR", REPO.parent / "shared"))


def corpus_ribes(hypotheses: list[str], references: list[list[str]], lowercase: bool = True) -> float:
    """Corpus RIBES by its definition, the reference the metric's numbers are checked against: the
    mean of the sentence scores of tokenized strings, each the best over its references."""
    from auto_challenge_sets.scoring.metrics.ribes import sentence_ribes, words

    return sum(sentence_ribes(words(h, lowercase), [words(r, lowercase) for r in refs])
               for h, refs in zip(hypotheses, references, strict=True)) / len(hypotheses)


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or a skip naming what is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(SHARED_ABSENT if not SHARED_PRESENT else f"needs {path} (the team's shared data, absent here)")
    return path


@contextlib.contextmanager
def shared_when_present() -> Iterator[Path]:
    """``SHARED`` for a fixture that prefers shared data but runs without it (``tiny_cache``): what
    it reads here does not mark the tests that use it."""
    with shared_marker.allowed():
        yield SHARED


# Read before the audit hook watches SHARED: a fresh clone has no ../shared, `make test-offline` an
# empty folder in its place.
SHARED_PRESENT = SHARED.is_dir() and any(SHARED.iterdir())
SHARED_ABSENT = f"needs {SHARED} (the team's shared data, absent in a fresh clone)"

shared_marker.install(SHARED)


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("MUTANT_UNDER_TEST") == "stats":
        config.pluginmanager.register(mutation_scope.WallTimes(), "mutation-wall-times")
    if mutation_scope.mutant_run():
        mutation_scope.own_progress_lock()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    shared_marker.mark_items(items)
    if mutation_scope.mutant_run():
        mutation_scope.cheapest_first(items)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test marked ``shared`` skips before its fixtures are set up when ../shared is absent: it
    would skip anyway, after minutes of building (the tiny trankit model of ``tiny_cache``)."""
    if not SHARED_PRESENT and item.get_closest_marker("shared"):
        pytest.skip(SHARED_ABSENT)


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """The skipped tests, one line per reason with a count (``-ra`` would print a line per test and
    place: 109 lines on a fresh clone; addopts asks for failures and errors only)."""
    import collections

    reasons: collections.Counter[str] = collections.Counter()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
        reasons[reason.removeprefix("Skipped: ")] += 1
    if not reasons:
        return
    terminalreporter.write_sep("=", f"{sum(reasons.values())} skipped, by reason")
    for reason, count in reasons.most_common():
        terminalreporter.write_line(f"{count:5d}  {reason}")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    with shared_marker.running(item):
        return (yield)


@pytest.fixture
def c_locale() -> Iterator[None]:
    """A user's LANG=C: Python's default text encoding becomes ASCII."""
    import locale

    before = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")
    yield
    locale.setlocale(locale.LC_CTYPE, before)


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> Toy:
    """The toy dataset folder, its systems' outputs and human table (tests/toy_dataset.py), made once
    per test module: the tests that use it read it and write only outside ``toy["root"]``."""
    return make(tmp_path_factory.mktemp("toy"))


@pytest.fixture(scope="module")
def wide_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wide toy's folder (tests/toy_dataset.py ``make_wide``), built once per test module."""
    return make_wide(tmp_path_factory.mktemp("wide"))["root"]


@pytest.fixture
def wide_folder(wide_built: Path, tmp_path: Path) -> Path:
    """A copy of the wide toy's folder for one test alone, to change as it likes."""
    return Path(shutil.copytree(wide_built, tmp_path / "ldd"))


@pytest.fixture
def plain_wide_folder(wide_folder: Path) -> Path:
    """The wide toy's folder with the card's data_files written as the build writes them: each
    split's file by its name (the toy's card has ``{split}-*`` patterns)."""
    readme = wide_folder / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8").replace("-*\n", "-00000-of-00001.parquet\n"),
                      encoding="utf-8")
    assert "-*" not in readme.read_text(encoding="utf-8")
    return wide_folder


@pytest.fixture
def fresh_toy(tmp_path: Path) -> Toy:
    """The same toy made for one test alone, in ``tmp_path / "project"``: for a test that changes it
    (moves its folder aside, writes files beside it)."""
    return make(tmp_path / "project")


@pytest.fixture
def shared_data() -> Path:
    return shared_path("data")


@pytest.fixture
def shared_models() -> Path:
    return shared_path("models")


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """No test may reach the Hub; caches go to the test's own folder. Afterwards, every
    results.json the test wrote there must validate against the shipped JSON Schema."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    monkeypatch.setenv("ACS_CACHE_DIR", str(tmp_path / "acs-cache"))
    yield
    for path in tmp_path.rglob("results.json"):
        check_results_json(path)


def results_json_error(path: Path) -> str | None:
    """Why ``path`` (an ``acs evaluate --out`` results.json) does not validate against the
    package's JSON Schema, or None."""
    import json

    import jsonschema

    from auto_challenge_sets.evaluation.results import SCHEMA_PATH

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    try:
        jsonschema.validate(json.loads(path.read_text(encoding="utf-8")), schema, cls=jsonschema.Draft202012Validator)
    except jsonschema.ValidationError as error:
        return f"{error.message} at /{'/'.join(map(str, error.absolute_path))}"
    except ValueError as error:
        return f"not JSON: {error}"
    return None


def check_results_json(path: Path) -> None:
    error = results_json_error(path)
    if error is not None:
        pytest.fail(f"{path} does not validate against the shipped results.schema.json: {error}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The results.json files written under module- and session-scoped folders, checked once."""
    factory = getattr(session.config, "_tmp_path_factory", None)
    if factory is None or exitstatus not in (0, 1):
        return
    bad = [f"{path}: {error}" for path in factory.getbasetemp().rglob("results.json")
           if (error := results_json_error(path)) is not None]
    if bad:
        session.exitstatus = 1
        print("\nresults.json files that do not validate against the shipped schema:\n" + "\n".join(bad))


@pytest.fixture(scope="session")
def tiny_cache() -> Path:
    """A random-weight trankit model (German, English) in trankit's cache layout, built once and
    cached by tests/tiny_models.py; its vocabulary comes from newstest2013, else the demo sample."""
    from tiny_models import DEMO, tiny_trankit_cache

    def lines(path: Path) -> list[str]:
        return [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]

    with shared_when_present() as shared:
        newstest = shared / "data" / "newstest2013"
        if newstest.exists():
            return tiny_trankit_cache(lines(newstest / "newstest2013.de") + lines(newstest / "newstest2013.en"))
    return tiny_trankit_cache(lines(DEMO / "sample.de") * 20 + lines(DEMO / "sample.en") * 20)


@pytest.fixture(scope="session")
def wmt21_de_en(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """WMT21 de-en (newstest2021, reference A) built once with UDPipe and eflomal (seed 1), the
    paper's three phenomena: the folder the many-system and targeted-accuracy tests read (and
    never write)."""
    from auto_challenge_sets.dataset.writer import build_into_folder
    from auto_challenge_sets.pipeline.run_build import BuildSpec
    from auto_challenge_sets.pipeline.specs import AlignerSpec, ParserSpec

    wmt21 = shared_path("data", "wmt21")

    def build(out: Path) -> None:
        build_into_folder(BuildSpec(
            pair="de-en", corpus="newstest2021", source=wmt21 / "sources" / "newstest2021.de-en.src.de",
            target=wmt21 / "references" / "newstest2021.de-en.ref.A.en",
            parser=ParserSpec("udpipe", {"udpipe_model": shared_path("models", "german.udpipe")}),
            aligner=AlignerSpec("eflomal", {"seed": 1}), cache_dir=out.parent / "cache",
            phenomena=("reflexive", "particle", "prep_stranding")), out, license="other", progress=False)

    return built_once(tmp_path_factory, "wmt21", build) / "sets"


@pytest.fixture(scope="session")
def demo_sets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``acs demo``'s folder (both directions of the packaged sample: hand-checked trees, hand
    alignments), built once: tests read it, or copy it to change it."""
    from auto_challenge_sets.dataset.demo_folder import build_demo

    return built_once(tmp_path_factory, "demo", build_demo) / "sets"


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build) -> Path:
    """A folder ``name`` holding ``build(folder / "sets")``'s output, built once per test run: with
    pytest-xdist every worker has its own session, so the workers share the run's temporary root and
    a file lock lets the first build while the others wait for it (minutes saved per worker)."""
    from filelock import FileLock

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # pytest-N/popen-gwK: the workers' common parent
    folder, done = root / f"shared-{name}", root / f"shared-{name}.done"
    with FileLock(str(root / f"shared-{name}.lock")):
        if not done.exists():
            folder.mkdir(parents=True, exist_ok=True)
            build(folder / "sets")
            done.touch()
    return folder
