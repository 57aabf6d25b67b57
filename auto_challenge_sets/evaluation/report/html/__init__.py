"""``index.html``: the page of a run (:mod:`.html_report`), the one Jinja2 environment
(:mod:`.environment`) and the templates, CSS and JavaScript in ``templates/`` (also the SVG
template every figure is written with). The data each part of the page lays out is its section's
(:mod:`..sections`).
"""
