"""Everything that renders an Evaluation: one module per section (:mod:`.sections`), assembled by
:mod:`.report_writer`, :mod:`.figures`, :mod:`.html` and :mod:`.terminal_summary`; nothing here
scores or reads a dataset folder (the import-linter contract ``report-pure``)."""
