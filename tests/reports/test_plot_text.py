"""Plot text readable at the page's width (issue 37 item 3): every text of every figure of a
report is at least MIN_TEXT_PX pixels high once the page fits the PNG into its 1152 px column,
and no axis label is overprinted by its (rotated) tick labels."""

import matplotlib.text
import pytest

from reports import make_report, plots
from reports.synthetic import write_run


@pytest.fixture(scope="module")
def figures(tmp_path_factory):
    """Every figure of a two-axis report of six variants, inspected just before it is closed."""
    base = tmp_path_factory.mktemp("plottext")
    run = write_run(
        base / "run",
        games=600,
        grid={"players": [3, 4], "roles.trusted.rp_as_vp": [1, 2, 3]},
        boost={4: ("trusted", 20), 5: ("trusted", 40)},
    )
    seen = []
    close = plots.plt.close

    def spy(fig=None):
        if fig is not None and not isinstance(fig, str):
            fig.canvas.draw()  # lay it out again at the figure's own dpi before measuring
            renderer = fig.canvas.get_renderer()
            texts = [
                (t.get_text(), plots.text_px(fig, t.get_fontsize()))
                for t in fig.findobj(matplotlib.text.Text)
                if t.get_text() and t.get_visible()
            ]
            overlaps = []
            for ax in fig.axes:
                label = ax.xaxis.label
                if not label.get_text():
                    continue
                box = label.get_window_extent(renderer)
                for tick in ax.get_xticklabels():
                    if tick.get_text() and tick.get_window_extent(renderer).overlaps(box):
                        overlaps.append((label.get_text(), tick.get_text()))
            seen.append((fig.get_label() or ax.get_title(), texts, overlaps))
        return close(fig)

    mp = pytest.MonkeyPatch()
    mp.setattr(plots.plt, "close", spy)
    try:
        make_report([run], base / "report")
    finally:
        mp.undo()
    return seen


def test_every_plot_text_is_at_least_ten_pixels_on_the_page(figures):
    assert len(figures) >= 8
    small = [(name, t, round(px, 1)) for name, ts, _ in figures for t, px in ts if px < 9.95]
    assert not small, small[:10]


def test_no_axis_label_is_overprinted_by_tick_labels(figures):
    clashes = [(name, o) for name, _, overlaps in figures for o in overlaps]
    assert not clashes, clashes[:10]
