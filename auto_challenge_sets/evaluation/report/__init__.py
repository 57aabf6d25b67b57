"""Everything that renders an :class:`~auto_challenge_sets.evaluation.results.Evaluation`, reading
only the result (and, for the page, the saved sentences). By section, as compare-mt's reporters:
:mod:`.sections` holds one module per section of the report, each with its text and Markdown, its
page data and its figures' layout. The machinery they share: :mod:`.cells` (a table cell's text,
the systems' and configs' order), :mod:`.name_text` (a user's name as text), :mod:`.plots` (the SVG
drawing primitives), :mod:`.html.environment` (the Jinja2 environment, autoescaping). Assembled by
:mod:`.report` (the text, report.md and the ``--out`` folder), :mod:`.figures` (every figure drawn
once), :mod:`.html` (index.html) and :mod:`.terminal_summary`; :mod:`.report_folder` guards the
``--out`` folder and :mod:`.saved_report` reads one back (``acs report``); :mod:`.meta_report`
renders ``acs meta-evaluate``. Nothing here scores or reads a dataset folder (the import-linter
contract ``report-pure`` in .importlinter).
"""
