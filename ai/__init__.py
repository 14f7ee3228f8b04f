"""The AI worker: poker math, simulation, search, opponent models and bots."""
