"""The ICM figure of docs/tournaments-ai.md: `python -m ai.tournament.figures [PNG]`.

Our share of the prizes against our share of the chips, the rest of the chips split
evenly among the others: three left of a 50/30/20 sit-and-go, and ten left of the
same (the bubble is far: three paid of ten).
"""

from __future__ import annotations

import sys
from pathlib import Path

from ai.tournament.icm import icm_exact

DEFAULT = Path("docs/figures/icm-curve.png")


def curve(players: int, prizes: list[float], points: int = 99) -> tuple[list[float], list[float]]:
    shares, equity = [], []
    for k in range(1, points + 1):
        share = k / (points + 1)
        rest = (1 - share) / (players - 1)
        shares.append(share)
        equity.append(icm_exact([share] + [rest] * (players - 1), prizes)[0] / sum(prizes))
    return shares, equity


def main(argv: list[str]) -> int:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(argv[0]) if argv else DEFAULT
    fig, ax = plt.subplots(figsize=(7, 5), dpi=100)
    try:
        ax.plot([0, 1], [0, 1], color="0.7", linewidth=1, label="chips = money (cash game)")
        for players in (3, 10):
            x, y = curve(players, [50.0, 30.0, 20.0])
            ax.plot(x, y, label=f"ICM, {players} left, prizes 50/30/20")
        ax.set_xlabel("our share of the chips (the others split the rest evenly)")
        ax.set_ylabel("our share of the prizes")
        ax.set_title("A chip won is worth less than a chip lost")
        ax.legend()
        fig.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path)
    finally:
        plt.close(fig)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
