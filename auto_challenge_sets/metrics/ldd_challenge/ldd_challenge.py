# Copyright 2024 The auto_challenge_sets developers.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""ldd_challenge: BLEU, chrF and RIBES on a long-distance-dependency challenge set, against a
length-matched random baseline, with a breakdown by minimum distance.

The numeric work lives in the tested package ``auto_challenge_sets`` (module
``auto_challenge_sets.metrics.compute``); this script only adapts it to ``evaluate``.
One import per line: evaluate's import scanner does not understand ``import a, b``.
"""

import inspect

import datasets
import evaluate

from auto_challenge_sets.citation import CHOSHEN_ABEND_2019
from auto_challenge_sets.evaluation.memory import check_references, check_strings
from auto_challenge_sets.metrics.compute import compute

_CITATION = CHOSHEN_ABEND_2019 + """\
@inproceedings{isozaki-etal-2010-automatic,
    title = "Automatic Evaluation of Translation Quality for Distant Language Pairs",
    author = "Isozaki, Hideki and Hirao, Tsutomu and Duh, Kevin and Sudoh, Katsuhito and Tsukada, Hajime",
    booktitle = "Proceedings of the 2010 Conference on Empirical Methods in Natural Language Processing",
    month = oct,
    year = "2010",
    address = "Cambridge, MA",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/D10-1092",
    pages = "944--952",
}
@inproceedings{post-2018-call,
    title = "A Call for Clarity in Reporting {BLEU} Scores",
    author = "Post, Matt",
    booktitle = "Proceedings of the Third Conference on Machine Translation: Research Papers",
    month = oct,
    year = "2018",
    address = "Brussels, Belgium",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/W18-6319",
    pages = "186--191",
}
@inproceedings{popovic-2015-chrf,
    title = "chr{F}: character n-gram {F}-score for automatic {MT} evaluation",
    author = "Popovi{\\'c}, Maja",
    booktitle = "Proceedings of the Tenth Workshop on Statistical Machine Translation",
    month = sep,
    year = "2015",
    address = "Lisbon, Portugal",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/W15-3049",
    pages = "392--395",
}
"""

_DESCRIPTION = """\
Scores machine translation output on a challenge set of long-distance dependencies (LDD),
extracted automatically as in Choshen & Abend (2019): corpus BLEU and chrF (sacrebleu) and RIBES
(Isozaki et al. 2010, as NTT's RIBES.py 1.03.1 defines it). Given the system's output on the
full corpus, it also draws length-matched random corpora (every challenge sentence replaced by a
random corpus sentence whose source length differs by at most one token) and reports where the
challenge score falls among them, which separates the LDD effect from a length effect. Given
each row's dependency distance, it reports scores per minimum distance D and their Spearman
correlation with D.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (`list` of `str`): the system's translations of the challenge rows.
    references (`list` of `str`, or `list` of `list` of `str`): one reference, or several, per row.
    lengths (`list` of `int`, optional): source length (tokens) of each row; needed for the
        random baseline.
    distances (`list` of `int`, optional): dependency distance of each row (the dataset's
        `distance` column); adds `distance_breakdown` and `spearman`.
    pool_predictions (`list` of `str`, optional): the system's translations of the full corpus
        (e.g. the `{pair}.baseline` config); adds `random_baseline`.
    pool_references (`list` of `str` or of `list` of `str`, optional): references of the pool.
    pool_lengths (`list` of `int`, optional): source lengths of the pool.
    ids, pool_ids (`list` of `str`, optional): row ids (the dataset's `id` column), used to leave
        the challenge rows out of the pool; without them, identical (prediction, references)
        pairs are left out.
    n_samples (`int`, default 100): random corpora to draw.
    length_tolerance (`int`, default 1): largest source-length difference of a replacement.
    length_relative (`float`, default 0.02): or this share of the row's source length where that
        is wider (paragraph-level test sets); 0: the tolerance alone.
    seed (`int`, default 1, as in acs evaluate): random seed; the same seed gives the same numbers
        (the random corpora acs evaluate draws for the config); None draws afresh on every call.
    tokenize (`str`, default "13a"): sacrebleu tokenizer, used for BLEU and RIBES alike (chrF
        works on the raw text).
    lowercase_ribes (`bool`, default True): lowercase before RIBES, as RIBES.py does.
    min_distances (`list` of `int`, optional): the D values of the breakdown (default: every
        distinct distance).
    instances (`list` of `list` of `dict`, optional): a lexical config's `instances` column; with
        source_alignments (the dataset's `alignment` column) adds `targeted`.
    source_alignments, hypothesis_alignments (`list` of Pharaoh lines or of lists of (i, j),
        optional): source-reference and source-prediction word alignments; without
        hypothesis_alignments the expected words must be present in the prediction.
    targeted_chrf (`float`, default 50): chrF threshold of the inflection fallback.
    metrics (`list` of `str`, optional): registered metrics to score besides BLEU, chrF and RIBES
        (`["ter"]`, or one a package registers under the entry-point group
        `auto_challenge_sets.metrics`); each gets its score, `{name}_signature`, and its place in
        random_baseline, distance_breakdown and spearman.
    sources, pool_sources (`list` of `str`, optional): the source sentence of each row and of
        each pool row, for a metric that reads them (COMET).

Returns:
    bleu (`float`): corpus BLEU, 0-100 (sacrebleu.corpus_bleu defaults).
    ribes (`float`): corpus RIBES, 0-1 (mean of sentence scores, best over references).
    chrf (`float`): corpus chrF, 0-100 (sacrebleu.corpus_chrf defaults: character 6-grams,
        beta 2; with several references, each sentence's best-matching one).
    n (`int`): rows scored.
    signature (`str`): sacrebleu's signature; ribes_signature likewise for RIBES;
        chrf_signature (`str`): sacrebleu's chrF signature.
    random_baseline (`dict` or None): for bleu, ribes, chrf and each of metrics (the same random
        corpora): mean, std, min, max, p5, p95,
        percentile (share of random corpora scoring at or worse than the challenge set, in %;
        worse is lower, or higher for a metric where lower is better, as TER),
        p_value ((1 + #random at or worse) / (n_samples + 1), one-sided); and widened
        (challenge rows whose length had no candidate within its window: max(length_tolerance,
        floor(length_relative × length)) tokens); its length_tolerance, length_relative and
        signature (`random[n:…|tol:…|rel:…|seed:…]`, the rule that drew it).
    distance_breakdown (`list` of `dict` or None): min_distance, n, bleu, ribes, chrf (and
        random_baseline when a pool is given) for the rows with distance >= D.
    spearman (`dict` or None): rho and p of bleu, ribes and chrf against D.
    targeted (`dict` or None): instances, correct, wrong, unaligned, absorbed, accuracy,
        by_distance (per exact d) and signature: was each dependency's head and dependent
        translated as the reference translates them.

Examples:
    >>> import auto_challenge_sets
    >>> ldd = evaluate.load(auto_challenge_sets.METRIC_PATH)  # the module installed with the package
    >>> results = ldd.compute(predictions=["the cat sat on the mat"],
    ...                       references=[["the cat sat on the mat"]])
    >>> print(round(results["bleu"], 1), round(results["ribes"], 3))
    100.0 1.0
"""


_OPTIONS = frozenset(inspect.signature(compute).parameters) - {"predictions", "references"}


class _Failure:
    """An error of ``_compute``, carried past evaluate's clean-up (see ``LddChallenge._compute``)."""

    def __init__(self, error):
        self.error = error


def _check_utf8(texts):
    """evaluate stores the text as UTF-8 (Arrow): a lone surrogate cannot be stored. ``texts``:
    (name, text) pairs."""
    for name, text in texts:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as error:
            raise ValueError(f"{name} is not valid Unicode text ({error.reason}): {text!r}") from None


def _checked_batch(predictions, references):
    """The batch as evaluate should store it, or a ValueError naming the bad argument: evaluate
    would read a string as a list of characters, report a None or a non-string without naming it,
    and store a list of references in a column of single strings as its text. References are
    stored as lists of strings (one string = a list of one), so batches and examples of either
    form mix."""
    preds = check_strings("predictions", predictions, allow_empty_list=True)
    refs = check_references("references", references, len(preds), "predictions")
    _check_utf8((f"predictions[{i}]", text) for i, text in enumerate(preds))
    _check_utf8((f"references[{i}][{j}]", text) for i, items in enumerate(refs) for j, text in enumerate(items))
    return preds, [list(r) for r in refs]


def _checked_example(prediction, reference):
    """One prediction and its reference(s), as ``add`` takes them; ValueError naming the bad one."""
    if not isinstance(prediction, str):
        raise ValueError(f"prediction must be a string, got {type(prediction).__name__}: {prediction!r}")  # noqa: TRY004
    refs = [reference] if isinstance(reference, str) else check_strings("reference", reference)
    _check_utf8([("prediction", prediction), *((f"reference[{j}]", text) for j, text in enumerate(refs))])
    return prediction, refs


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class LddChallenge(evaluate.Metric):
    """BLEU, chrF and RIBES on an LDD challenge set with a length-matched random baseline."""

    def _info(self):
        return evaluate.MetricInfo(
            module_type="metric",
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                datasets.Features({"predictions": datasets.Value("string", id="sequence"),
                                   "references": datasets.Sequence(datasets.Value("string", id="sequence"),
                                                                   id="references")}),
                datasets.Features({"predictions": datasets.Value("string", id="sequence"),
                                   "references": datasets.Value("string", id="sequence")}),
            ],
            homepage="https://github.com/auto-challenge-sets/auto_challenge_sets",
            codebase_urls=["https://github.com/auto-challenge-sets/auto_challenge_sets"],
            reference_urls=[
                "https://aclanthology.org/K19-1028",
                "https://aclanthology.org/D10-1092",
                "https://github.com/mjpost/sacrebleu",
                "https://aclanthology.org/W15-3049",
            ],
        )

    # evaluate appends the inputs' description to these docstrings, so they must have one.
    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Add a batch of predictions and references (checked first: a ValueError names the bad one)."""
        predictions, references = _checked_batch(predictions, references)
        if not predictions:
            if self.writer is None:  # evaluate cannot tell the format from an empty first batch
                raise ValueError("predictions is empty")
            return
        super().add_batch(predictions=predictions, references=references, **kwargs)

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Add one prediction and its reference(s) (checked first: a ValueError names the bad one)."""
        prediction, reference = _checked_example(prediction, reference)
        super().add(prediction=prediction, reference=reference, **kwargs)

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Score the predictions (a bad argument: a ValueError naming it)."""
        output = super().compute(predictions=predictions, references=references, **kwargs)
        if isinstance(output, _Failure):
            raise output.error
        return output

    def _compute(self, predictions, references, **kwargs):
        # An exception raised here would skip evaluate's clean-up after _compute: its cache file
        # and lock would stay, and the next call would wait a second for the lock. So the error
        # is returned, and compute raises it once evaluate is done.
        try:
            unknown = sorted(set(kwargs) - _OPTIONS)
            if unknown:
                raise ValueError(f"unknown argument(s) {unknown}; the metric takes {sorted(_OPTIONS)}")
            return compute(predictions=predictions, references=references, **kwargs)
        except Exception as error:  # noqa: BLE001 (raised again by compute)
            return _Failure(error)
