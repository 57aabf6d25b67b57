"""The build's provenance (pipeline/build_provenance.py, each backend's ``provenance()``): what
``acs_build.json`` records of the parser, the aligner, the tokenization and the package versions,
the one line the card and the reports show, and the warning of an eflomal alignment of too few
pairs without priors. Checksums are checked against hashlib on the very files; versions against
importlib.metadata."""

from __future__ import annotations

import hashlib
import json
import platform
from importlib.metadata import version
from pathlib import Path

import pytest

from auto_challenge_sets import __version__
from auto_challenge_sets.demo_data import demo_file
from auto_challenge_sets.pipeline.build_provenance import (
    EFLOMAL_PRIORS_ADVISED_BELOW,
    NOT_RECORDED,
    summary_line,
    weak_alignment,
)

from conftest import shared_path


def _sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _eflomal(pairs: int, priors: dict | None = None) -> dict:
    """An aligner entry as the record keeps one, made by hand."""
    return {"backend": "eflomal", "package": "eflomal", "version": "2.0.0", "model": None, "file": None,
            "sha256": None, "symmetrization": "grow-diag-final-and", "priors": priors,
            "priors_used": priors is not None, "options": {"seed": 1}, "pairs": pairs}


@pytest.mark.parametrize(("aligner", "warned"), [
    (_eflomal(1_000), True),
    (_eflomal(EFLOMAL_PRIORS_ADVISED_BELOW - 1), True),
    (_eflomal(EFLOMAL_PRIORS_ADVISED_BELOW), False),  # enough pairs to learn from
    (_eflomal(1_000, {"file": "de-en.priors", "sha256": "0" * 64}), False),  # priors learned from more text
    ({**_eflomal(1_000), "backend": "simalign", "priors_used": None}, False),  # not learned from the corpus
    ({**_eflomal(1_000), "backend": "pharaoh", "priors_used": None}, False),
    (None, False),  # not aligned
])
def test_only_eflomal_on_fewer_than_10000_pairs_without_priors_is_warned(aligner, warned) -> None:
    warning = weak_alignment(aligner)
    assert (warning is not None) == warned
    if warned:
        assert warning == (f"eflomal aligned {aligner['pairs']:,} pairs without priors (fewer than 10,000): its links "
                           "are noisy at this size")


def test_the_one_line_names_models_by_name_and_short_sha256_and_says_when_nothing_was_recorded() -> None:
    record = {"parser": {"backend": "udpipe", "package": "ufal.udpipe", "version": "1.4.0.1", "model": "german.udpipe",
                         "file": None, "sha256": "ab" * 32, "options": {"pretokenized": False}},
              "aligner": _eflomal(1_000, {"file": "de-en.priors", "sha256": "cd" * 32}),
              "tokenization": {"source": "udpipe's tokenizer", "target": "white space"},
              "packages": {"auto_challenge_sets": "9.9", "python": "3.11.7"}}
    assert summary_line(record) == (
        "parser udpipe 1.4.0.1 (german.udpipe, sha256 abababababab); aligner eflomal 2.0.0 (grow-diag-final-and, "
        "1,000 pairs, priors de-en.priors, sha256 cdcdcdcdcdcd); tokens: udpipe's tokenizer (source), white space "
        "(target); auto_challenge_sets 9.9")
    assert summary_line({**record, "aligner": None}).startswith("parser udpipe 1.4.0.1 (german.udpipe, sha256 "
                                                                "abababababab); not aligned; tokens:")
    without = {**_eflomal(1_000), "backend": "simalign", "version": None, "model": "bert", "priors_used": None}
    assert "aligner simalign (bert, sha256 not recorded, grow-diag-final-and, 1,000 pairs);" in \
        summary_line({**record, "aligner": without})
    # a record written before provenance: its labels, and that nothing more was recorded
    assert summary_line(None, "udpipe (german.udpipe)", "eflomal (seed=1)") == \
        f"parser udpipe (german.udpipe); aligner eflomal (seed=1); {NOT_RECORDED}"
    assert summary_line(None) == NOT_RECORDED and NOT_RECORDED.startswith("provenance not recorded (built before")


@pytest.fixture
def demo(demo_sets) -> Path:
    return demo_sets


def test_the_demo_records_its_pre_parsed_and_pre_aligned_files_by_name_and_sha256(demo) -> None:
    record = json.loads((demo / "acs_build.json").read_text(encoding="utf-8"))
    assert record["format"] == 3
    de_en = next(b for b in record["builds"] if b["pair"] == "de-en")["provenance"]
    assert de_en["parser"] == {"backend": "conllu", "package": None, "version": None, "model": None,
                               "file": "sample.de.conllu", "sha256": _sha256(demo_file("sample.de.conllu")),
                               "options": {}}
    assert de_en["aligner"] == {"backend": "pharaoh", "package": None, "version": None, "model": None,
                                "file": "sample.de-en.pharaoh", "sha256": _sha256(demo_file("sample.de-en.pharaoh")),
                                "symmetrization": None, "priors": None, "priors_used": None, "options": {},
                                "pairs": 29}
    assert de_en["tokenization"] == {"source": "the words of sample.de.conllu", "target": "white space"}
    assert de_en["packages"] == {"auto_challenge_sets": __version__, "python": platform.python_version()}
    card = (demo / "README.md").read_text(encoding="utf-8")
    assert (f"  - made with: parser conllu (sample.de.conllu, sha256 {_sha256(demo_file('sample.de.conllu'))[:12]}); "
            f"aligner pharaoh (sample.de-en.pharaoh, sha256 {_sha256(demo_file('sample.de-en.pharaoh'))[:12]}, "
            "29 pairs); tokens: the words of sample.de.conllu (source), white space (target); "
            f"auto_challenge_sets {__version__}\n") in card
    assert card.count("  - made with: ") == 2 and "  - warning: " not in card


def test_eflomal_records_its_priors_and_the_card_warns_only_without_them(tmp_path: Path) -> None:
    pytest.importorskip("eflomal")
    from auto_challenge_sets.backends.aligners.eflomal import make_priors
    from auto_challenge_sets.dataset.writer import build_into_folder
    from auto_challenge_sets.pipeline.run_build import BuildSpec
    from auto_challenge_sets.pipeline.specs import AlignerSpec

    files = {"pair": "de-en", "corpus": "sample", "source": demo_file("sample.de"), "target": demo_file("sample.en"),
             "source_conllu": demo_file("sample.de.conllu"), "cache_dir": tmp_path / "cache"}
    fast = {"seed": 1, "model": 1, "n_samplers": 1, "rel_iterations": 0.05}

    def built(aligner: AlignerSpec, out: Path) -> tuple[dict, str]:
        build_into_folder(BuildSpec(**files, aligner=aligner), out, license="apache-2.0", progress=False)
        [build] = json.loads((out / "acs_build.json").read_text(encoding="utf-8"))["builds"]
        return build["provenance"]["aligner"], (out / "README.md").read_text(encoding="utf-8")

    aligner, card = built(AlignerSpec("eflomal", fast), tmp_path / "plain")
    assert aligner == {"backend": "eflomal", "package": "eflomal", "version": version("eflomal"), "model": None,
                       "file": None, "sha256": None, "symmetrization": "grow-diag-final-and", "priors": None,
                       "priors_used": False, "pairs": 29,
                       "options": {"seed": 1, "model": 1, "n_samplers": 1, "rel_iterations": 0.05, "null_prior": 0.2,
                                   "max_tokens": 1023}}
    assert "grow-diag-final-and, 29 pairs, no priors)" in card
    assert ("  - warning: eflomal aligned 29 pairs without priors (fewer than 10,000): its links are noisy at this "
            "size; the `reorder` configs and the `alignment` column rest on these links\n") in card

    pairs = [(s.split(), t.split()) for s, t in zip(demo_file("sample.de").read_text(encoding="utf-8").splitlines(),
                                                    demo_file("sample.en").read_text(encoding="utf-8").splitlines())]
    priors = tmp_path / "de-en.priors"
    make_priors(pairs, priors)
    aligner, card = built(AlignerSpec("eflomal", {**fast, "priors": priors}), tmp_path / "priors")
    assert aligner["priors"] == {"file": "de-en.priors", "sha256": _sha256(priors)} and aligner["priors_used"] is True
    assert f"29 pairs, priors de-en.priors, sha256 {_sha256(priors)[:12]})" in card and "  - warning: " not in card


def test_udpipe_records_its_model_file_its_sha256_and_the_package_version(tmp_path: Path) -> None:
    """The real UDPipe model of ../shared, by name and sha256 as hashlib reads it."""
    pytest.importorskip("ufal.udpipe")
    from auto_challenge_sets.backends.parsers import get_parser
    from auto_challenge_sets.pipeline.build_provenance import build_provenance

    model = shared_path("models", "german.udpipe")
    parser = get_parser("udpipe", lang="de", udpipe_model=model)
    found = build_provenance(parser, None, 0)
    assert found["parser"] == {"backend": "udpipe", "package": "ufal.udpipe", "version": version("ufal.udpipe"),
                               "model": "german.udpipe", "file": None, "sha256": _sha256(model),
                               "options": {"pretokenized": False}}
    assert found["aligner"] is None
    assert found["tokenization"] == {"source": "udpipe's tokenizer", "target": "white space"}
    assert found["packages"]["ufal.udpipe"] == version("ufal.udpipe")
    pretokenized = build_provenance(get_parser("udpipe", lang="de", udpipe_model=model, pretokenized=True), None, 0)
    assert pretokenized["tokenization"]["source"] == "white space (pretokenized)"


def test_the_wmt21_build_records_udpipe_and_eflomal_and_warns_of_its_1000_pairs(wmt21_de_en) -> None:
    """The suite's real UDPipe + eflomal build (1,002 lines of WMT21 de-en, no priors)."""
    [build] = json.loads((wmt21_de_en / "acs_build.json").read_text(encoding="utf-8"))["builds"]
    provenance = build["provenance"]
    assert provenance["parser"]["sha256"] == _sha256(shared_path("models", "german.udpipe"))
    assert provenance["aligner"]["backend"] == "eflomal" and provenance["aligner"]["priors_used"] is False
    assert provenance["aligner"]["pairs"] == build["pairs"] < EFLOMAL_PRIORS_ADVISED_BELOW
    assert provenance["packages"]["eflomal"] == version("eflomal")
    card = (wmt21_de_en / "README.md").read_text(encoding="utf-8")
    assert f"  - warning: eflomal aligned {build['pairs']:,} pairs without priors" in card


def test_simalign_records_its_model_and_the_sha256_of_its_weights_file(tmp_path: Path) -> None:
    pytest.importorskip("simalign")
    from auto_challenge_sets.backends.aligners import get_aligner

    from tiny_bert import make_tiny_bert

    lines = demo_file("sample.de").read_text(encoding="utf-8").splitlines()
    model = make_tiny_bert(tmp_path / "tiny-bert", lines + demo_file("sample.en").read_text(encoding="utf-8").splitlines(),
                           vocab_size=300, layers=1)
    weights = next(model / name for name in ("model.safetensors", "pytorch_model.bin") if (model / name).is_file())
    found = get_aligner("simalign", model=str(model), layer=1).provenance()
    assert {key: found[key] for key in ("backend", "package", "version", "model", "file", "sha256", "symmetrization",
                                        "priors", "priors_used")} == {
        "backend": "simalign", "package": "simalign", "version": version("simalign"), "model": "tiny-bert",
        "file": None, "sha256": _sha256(weights), "symmetrization": "argmax", "priors": None, "priors_used": None}
    assert found["options"]["layer"] == 1 and found["options"]["token_type"] == "bpe"


def test_trankit_records_its_language_folder_and_the_checksum_of_its_files(tiny_cache) -> None:
    from auto_challenge_sets.backends.parsers import get_parser

    parser = get_parser("trankit", lang="de", trankit_cache=tiny_cache)
    found = parser.provenance()
    assert found["backend"] == "trankit" and found["model"] == "xlm-roberta-base/german"
    assert found["version"] == version("trankit") and found["file"] is None
    assert found["sha256"] == parser.signature()["models"] and len(found["sha256"]) == 64
    assert found["options"] == {"xlmr": parser.signature()["xlmr"], "pretokenized": False}
