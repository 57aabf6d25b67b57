"""The build: a parallel corpus, its source-side parse and (optionally) an alignment → every
config of one language pair and corpus, exported into a Hub-ready folder.

The parse and alignment stages (parsers, aligners) produce the CoNLL-U and Pharaoh files this
step reads; from files on, the build is cheap and deterministic, so a rerun writes identical bytes.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from auto_challenge_sets import __version__
from auto_challenge_sets.configs import (
    BASELINE,
    LEXICAL_DISTANCES,
    REORDER,
    REORDER_DISTANCES,
    check_split_name,
    config_name,
    parse_pair,
)
from auto_challenge_sets.conllu_io import read_conllu
from auto_challenge_sets.corpus import ReadReport, read_parallel
from auto_challenge_sets.phenomena import PHENOMENA


@dataclass
class BuildSpec:
    pair: str
    corpus: str
    source: Path
    target: Path
    source_conllu: Path
    out: Path
    alignment: Path | None = None
    license: str | None = None
    parser: str = "conllu"
    aligner: str | None = None
    phenomena: tuple[str, ...] = ()
    lexical_distances: tuple[int, ...] = LEXICAL_DISTANCES
    reorder_distances: tuple[int, ...] = REORDER_DISTANCES

    def config_names(self) -> list[str]:
        src, tgt = parse_pair(self.pair)
        names = [config_name(src, tgt, BASELINE)]
        for phenomenon in self.phenomena or tuple(PHENOMENA):
            names += [config_name(src, tgt, phenomenon, d) for d in self.lexical_distances]
        if self.alignment is not None:
            names += [config_name(src, tgt, REORDER, d) for d in self.reorder_distances]
        return names


@dataclass
class BuildResult:
    out: Path
    sizes: dict[str, int] = field(default_factory=dict)  # config -> rows in this corpus
    lines: int = 0
    pairs: int = 0
    report: ReadReport = field(default_factory=ReadReport)


def _progress(iterable: Iterable, enabled: bool, **kwargs) -> Iterable:
    if not enabled:
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, **kwargs)


def build_challenge_sets(spec: BuildSpec, progress: bool = True) -> BuildResult:
    """Run the build of one (pair, corpus) into ``spec.out``; return the config sizes."""
    import datasets

    from auto_challenge_sets.builder.analysis import analyse, match_sentences, read_alignments, write_analyses
    from auto_challenge_sets.builder.challenge_builder import ChallengeSets
    from auto_challenge_sets.builder.export import (
        remove_split,
        render_readme,
        update_build_record,
        write_split,
    )

    parse_pair(spec.pair)
    check_split_name(spec.corpus)
    corpus = read_parallel(spec.source, spec.target, spec.corpus)
    sentences = list(_progress(read_conllu(spec.source_conllu), progress, total=len(corpus.pairs),
                               desc="reading parse", unit="sent"))
    sentences = match_sentences(corpus, sentences, str(spec.source_conllu))
    alignments = None if spec.alignment is None else read_alignments(spec.alignment, corpus, sentences)

    result = BuildResult(Path(spec.out), lines=corpus.total_lines, pairs=len(corpus.pairs), report=corpus.report)
    spec.out.mkdir(parents=True, exist_ok=True)
    was_enabled = datasets.utils.logging.is_progress_bar_enabled()
    datasets.disable_progress_bars()  # ours is the one that counts configs
    verbosity = datasets.logging.get_verbosity()
    datasets.logging.set_verbosity_error()
    try:
        with tempfile.TemporaryDirectory(prefix="acs-build-") as work:
            analysis_path = os.path.join(work, f"{spec.pair}.{spec.corpus}.jsonl")
            write_analyses(analyse(corpus, sentences, alignments, spec.phenomena or None), analysis_path)
            for name in _progress(spec.config_names(), progress, desc="writing configs", unit="config"):
                builder = ChallengeSets(cache_dir=os.path.join(work, "cache"), config_name=name,
                                        analyses=((spec.corpus, analysis_path),))
                builder.download_and_prepare()
                rows = builder.info.splits[spec.corpus].num_examples
                if rows:
                    write_split(builder.as_dataset(split=spec.corpus), spec.out, name, spec.corpus)
                else:
                    # datasets cannot load an empty split, so an empty config is not exported;
                    # a stale file from an earlier build of this corpus goes too.
                    remove_split(spec.out, name, spec.corpus)
                result.sizes[name] = rows
    finally:
        datasets.logging.set_verbosity(verbosity)
        if was_enabled:
            datasets.enable_progress_bars()

    update_build_record(spec.out, {
        "pair": spec.pair,
        "corpus": spec.corpus,
        "source": Path(spec.source).name,
        "target": Path(spec.target).name,
        "parser": spec.parser,
        "aligner": spec.aligner,
        "lines": corpus.total_lines,
        "pairs": len(corpus.pairs),
        "skipped_empty_lines": len(corpus.report.empty_lines),
        "version": __version__,
    }, spec.license)
    render_readme(spec.out)
    return result
