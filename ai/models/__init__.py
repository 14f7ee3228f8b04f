"""Opponent models (DOMAIN.md §3; docs/models.md): what each player is likely to do.

- `public`: stored hands as what was public at the table (the only way hands reach a model);
- `replay`, `features`, `dataset`: each decision replayed and turned into the model's inputs;
- `stats`: per-player frequency tables (inputs, and the fallback without a network);
- `training` (PyTorch), `weights`, `inference` (the compiled forward pass);
- `model`: `OpponentModel`, the one interface bots, search and advice ask;
- `ranges`: weight tables re-weighted by the model after each action;
- `fit`, `online`, `store`: versions fitted, accepted on held-out hands, kept in MongoDB;
- `evaluation`, `metrics`, `report`, `holdings`: the cross-validated report.

Importing the package imports nothing heavy: torch only with `training`.
"""
