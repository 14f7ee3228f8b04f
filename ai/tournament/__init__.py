"""Tournament play for the AI: prize equity (ICM) and heads-up push/fold equilibria."""
