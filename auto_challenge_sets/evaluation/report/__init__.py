"""Everything that renders an :class:`~auto_challenge_sets.evaluation.results.Evaluation`, reading
only the result (and, for the page, the saved sentences): the text and Markdown tables, the
terminal summary, the figures (laid out once, written as SVG), the ``--out`` folder and a saved one
read back (``acs report``), and :mod:`.html` for ``index.html``. Nothing here scores or reads a
dataset folder (the import-linter contract ``report-pure`` in .importlinter).
"""
