"""Drawing shared by the analyses' figures (matplotlib; imported by their ``figures`` only)."""
from __future__ import annotations

from pathlib import Path

import numpy as np


def pyplot():
    """``matplotlib.pyplot`` drawing to files (the Agg back end: no display needed)."""
    import matplotlib  # local: matplotlib is slow to import; only the figures need it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # local: matplotlib is slow to import; only the figures need it

    return plt


def percent_grid(ax, m: np.ndarray, grid, xlabel: str, ylabel: str, title: str):
    """Draw ``m`` (float[len(grid), len(grid)], percent, NaN: no cell) on ``ax`` as a heat map,
    row 0 at the bottom, each cell's value written in it, both axes labelled by ``grid``.
    Returns the image (for the colour bar)."""
    im = ax.imshow(m, origin="lower", cmap="viridis", vmin=0, vmax=100, aspect="auto")
    for y in range(m.shape[0]):
        for x in range(m.shape[1]):
            if not np.isnan(m[y, x]):
                ax.text(x, y, f"{m[y, x]:.0f}", ha="center", va="center", fontsize=7,
                        color="white" if m[y, x] < 50 else "black")
    ax.set_xticks(range(len(grid)), [str(v) for v in grid])
    ax.set_yticks(range(len(grid)), [str(v) for v in grid])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    return im


def frame_cell(ax, x: int, y: int):
    """Draw a black frame around the grid cell at column ``x``, row ``y`` of an ``imshow`` on
    ``ax``: the charts' mark for a cell singled out (the best lead; a cell whose two judges, the
    game and the deal or the rubber and the points, choose differently)."""
    from matplotlib.patches import Rectangle  # local: matplotlib is slow to import; only the figures need it

    ax.add_patch(Rectangle((x - 0.48, y - 0.48), 0.96, 0.96, fill=False, lw=2, color="black"))


def save_figure(fig, path, dpi: int = 100, **savefig) -> Path:
    """Write ``fig`` to ``path`` (PNG at ``dpi``, 100 the report's size; its folder created) and
    close it, so a long analysis does not keep every figure in memory; ``savefig``: more of
    matplotlib's ``savefig`` keywords (``bbox_inches``).  Returns the path."""
    plt = pyplot()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=dpi, **savefig)
    plt.close(fig)
    return path
