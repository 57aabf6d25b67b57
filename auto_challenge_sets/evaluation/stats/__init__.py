"""The statistics an evaluation runs on its scores, each a stage the engine calls or a command
built on saved results: paired significance tests and the full test set's ranking, multiple-testing
correction, agreement with human system and segment scores, targeted accuracy with its control,
each config against the full test set, and the meta-evaluation pooled over runs. Numbers in,
typed results out (:mod:`auto_challenge_sets.evaluation.results`); nothing here renders.
"""

# Every random draw here seeds ``numpy.random.default_rng([seed, STREAMS[kind], ...])``, a stream per
# kind of draw (scoring.kernel's are 0 and 1). The targeted control shares 3 with the segment
# bootstrap, kept for the published numbers: its third word, the config's crc32, tells it apart.
SEED = 1
STREAMS = {"human_bootstrap": 2, "segment_bootstrap": 3, "targeted_control": 3, "segment_permutations": 4,
           "meta_bootstrap": 5, "meta_permutations": 6, "meta_swaps": 7, "human_permutations": 8}
