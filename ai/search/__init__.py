"""Information-set Monte Carlo tree search over the opponent models (DOMAIN.md §4).

`Search.run` searches one decision from the deciding seat's view: each iteration
deals the opponents' hole cards from their ranges (`ai.search.deals`), walks the
tree of our decisions (UCT or PUCT), draws the opponents' actions from the
opponent model (`ai.search.opponents`), lets the simulator deal the board, and
plays out to the end of the hand (`ai.search.kernel`). Chips won are backed up.
"""

from ai.search.mcts import Search, SearchConfig, SearchResult

__all__ = ["Search", "SearchConfig", "SearchResult"]
