"""``index.html``: the page of a run (:mod:`.html_report`), the plain data its template lays out
(:mod:`.html_view`) and the Jinja2 templates, CSS and JavaScript in ``templates/`` (also the SVG
template every figure is written with).
"""
