"""Everything that renders an Evaluation, one module per section (:mod:`.sections`), assembled by
:mod:`.report`, :mod:`.figures`, :mod:`.html` and :mod:`.terminal_summary`. Nothing here scores or
reads a dataset folder (the import-linter contract ``report-pure``)."""
