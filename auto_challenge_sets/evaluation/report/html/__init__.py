"""``index.html`` (:mod:`.html_report`), the Jinja2 environment and the templates in ``templates/``."""
