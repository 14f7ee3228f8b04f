"""Hand review: a finished hand's decisions, valued by the AI advisor and graded."""
