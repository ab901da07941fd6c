"""pytest runs the Markdown pages of docs/ as doctests; conf.py is Sphinx's, not a test module."""

collect_ignore = ["conf.py"]
collect_ignore_glob = ["_build/*", "generated/*"]
