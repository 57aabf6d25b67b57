"""The statistics an evaluation runs on its scores, each a stage the engine calls or a command
built on saved results: paired significance tests and the full test set's ranking, multiple-testing
correction, agreement with human system and segment scores, targeted accuracy with its control,
each config against the full test set, and the meta-evaluation pooled over runs. Numbers in,
typed results out (:mod:`auto_challenge_sets.evaluation.results`); nothing here renders.
"""
