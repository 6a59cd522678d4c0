"""Measurements of speed, memory and robustness, each a script with a JSON last line.

Run each from the checkout's root as a module: ``.venv/bin/python -m benchmarks.NAME``.
What two or more of them need (free ports, processes, the broker, the hall, boards,
statistics) is in `benchmarks.harness`; the scripts never import each other's private
names, and nothing here patches ``sys.path`` (``tests/test_layout.py`` checks both, and
that their imports make no circle).
"""
