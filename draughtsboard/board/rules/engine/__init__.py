"""The engine: a search for every variant, on the rules' own move generator.

`search` (iterative deepening principal-variation search with a transposition table,
quiescence over captures, move ordering and budgets), `evaluation` (the judgement of a
quiet position, one family for single pieces and one for columns), `hashing` (Zobrist
keys that are the same in every run), `material` (forced material gain or loss within a
horizon, by exhaustive search on material alone: what a blunder warning and the tactics
suite mean by "loses material by force"). Pure: no threads, no I/O.
"""

from .evaluation import evaluation_for
from .search import MATE, MATE_BOUND, MAX_SECONDS, Engine, SearchLimitError, SearchResult

__all__ = ["MATE", "MATE_BOUND", "MAX_SECONDS", "Engine", "SearchLimitError", "SearchResult",
           "evaluation_for"]
