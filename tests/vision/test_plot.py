"""The plot tool: every chart type draws a non-blank image of the requested size; bad data is refused."""

import threading

import numpy as np
import pytest

from mmtsb_env.tools.calling import invoke

CASES = {
    "line": {"x": [1, 2, 3, 4], "y": [1, 4, 9, 16], "marker": "o", "line_style": "dashed"},
    "line-groups": {"type": "line", "groups": {"a": [1, 2, 3], "b": [3, 2, 1]}, "x": [0, 1, 2]},
    "bar": {"categories": ["a", "b", "c"], "heights": [3, 1, 2], "bar_label_rotation": 45},
    "bar-groups": {"type": "bar", "categories": ["q1", "q2"], "groups": {"2025": [1, 2], "2026": [2, 3]}},
    "scatter": {"x": [1, 2, 3], "y": [3, 1, 2], "sizes": [10, 50, 90], "labels": ["p", "q", "r"]},
    "histogram": {"data": [1, 2, 2, 3, 3, 3, 4, 4, 5], "num_bins": 5},
    "boxplot": {"groups": {"a": [1, 2, 3, 4], "b": [2, 3, 5, 8]}, "show_means": True},
    "pie": {"sizes": [30, 50, 20], "labels": ["x", "y", "z"], "explode": [0, 0.1, 0], "start_angle": 90},
    "heatmap": {"matrix": {"values": [[1, 2], [3, 4]], "row_labels": ["r1", "r2"], "col_labels": ["c1", "c2"]},
                "color_map": "plasma"},
}


def _plot(vcall, case: str, **extra):
    args = {"type": case.split("-")[0], **CASES[case], **extra}
    return vcall("plot", **args)


@pytest.mark.parametrize("case", list(CASES))
def test_each_type_draws_a_non_blank_image_of_the_right_size(vcall, case):
    out = _plot(vcall, case, title=f"{case} $5 & $6")
    img = np.asarray(vcall.image(out))
    assert img.shape == (480, 640, 3) and out.image_ids == [3]
    assert (img < 200).any(axis=2).mean() > 0.01  # something was drawn
    assert out.result["width"] == 640 and case.split("-")[0] in out.result["description"]


def test_figsize_and_dpi_set_the_pixel_size(vcall):
    img = vcall.image(_plot(vcall, "bar", figsize=[4, 3], dpi=50))
    assert img.size == (200, 150)


def test_different_data_gives_different_pixels_and_same_data_same_pixels(vcall):
    a = np.asarray(vcall.image(vcall("plot", type="bar", heights=[1, 2, 3])))
    b = np.asarray(vcall.image(vcall("plot", type="bar", heights=[3, 2, 1])))
    c = np.asarray(vcall.image(vcall("plot", type="bar", heights=[1, 2, 3])))
    assert (a != b).any() and (a == c).all()


def test_options_change_the_picture(vcall):
    base = np.asarray(vcall.image(_plot(vcall, "line")))
    for extra in ({"grid": True}, {"color": "red"}, {"xlim": [0, 10]}, {"ylim": [-5, 40]}, {"xlabel": "time"}):
        assert (np.asarray(vcall.image(_plot(vcall, "line", **extra))) != base).any(), extra
    red = np.asarray(vcall.image(vcall("plot", type="bar", heights=[5, 5], color="red")))
    assert (np.all(red == (255, 0, 0), axis=2)).mean() > 0.05


def test_plot_is_thread_safe(world):
    results, errors = {}, []

    def work(i):
        try:
            out = invoke(world, "plot", {"type": "bar", "heights": [i + 1, 2, 3], "title": f"t{i}"})
            assert out.ok, out.text
            results[i] = out.image_ids[0]
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and sorted(results.values()) == list(range(3, 9))
    store = world.services["images"]
    pixels = {store.get(i).tobytes() for i in results.values()}
    assert len(pixels) == 6


@pytest.mark.parametrize("args, needle", [
    ({"type": "radar", "y": [1]}, "parameter 'type' must be one of line, bar, scatter"),
    ({"type": "line"}, "plot type 'line' needs 'y'"),
    ({"type": "line", "x": [1, 2], "y": [1, 2, 3]}, "parameter 'y' has 3 values but 'x' has 2"),
    ({"type": "line", "y": [1, float("nan")]}, "parameter 'y'[1] must be a finite number"),
    ({"type": "line", "y": [1, "two"]}, "parameter 'y[1]' must be a number"),
    ({"type": "line", "y": [1, 2], "matrix": {"values": [[1]]}}, "does not use parameter(s) 'matrix'"),
    ({"type": "line", "y": [1, 2], "line_style": "wavy"}, "parameter 'line_style' must be one of"),
    ({"type": "line", "y": [1, 2], "marker": "banana"}, "parameter 'marker' is not a matplotlib marker"),
    ({"type": "line", "groups": {"a": [1, 2], "b": [1]}, "x": [1, 2]}, "'groups.b' has 1 values but 'x' has 2"),
    ({"type": "bar", "heights": [1, 2], "categories": ["a"]}, "parameter 'categories' has 1 names but there are 2 bars"),
    ({"type": "bar", "categories": ["a"]}, "plot type 'bar' needs 'heights'"),
    ({"type": "bar", "groups": {"a": [1, 2], "b": [1]}}, "must have the same length"),
    ({"type": "bar", "heights": [1], "color": "notacolour"}, "parameter 'color' is not a colour"),
    ({"type": "scatter", "x": [1, 2]}, "needs both 'x' and 'y'"),
    ({"type": "scatter", "x": [1, 2], "y": [1, 2], "sizes": [1]}, "parameter 'sizes' has 1 values but 'x' has 2"),
    ({"type": "scatter", "x": [1, 2], "y": [1, 2], "labels": ["a"]}, "parameter 'labels' has 1 values"),
    ({"type": "histogram", "data": [1, 2], "num_bins": 0}, "parameter 'num_bins' must be an integer 1-1000"),
    ({"type": "histogram"}, "needs 'data'"),
    ({"type": "boxplot"}, "needs 'data'"),
    ({"type": "pie", "sizes": [1, 2], "labels": ["a"]}, "parameter 'labels' has 1 values but 'sizes' has 2"),
    ({"type": "pie", "sizes": [0, 0]}, "must have a positive sum"),
    ({"type": "pie", "sizes": [1, -2]}, "must not be negative"),
    ({"type": "pie", "sizes": [1, 2], "explode": [0.1]}, "parameter 'explode' has 1 values"),
    ({"type": "heatmap"}, "needs 'matrix'"),
    ({"type": "heatmap", "matrix": {"values": [[1, 2], [3]]}}, "rows must all have the same length"),
    ({"type": "heatmap", "matrix": {"values": [[1]], "cols": []}}, "unknown key(s) 'cols'"),
    ({"type": "heatmap", "matrix": {"values": [[1, 2]], "col_labels": ["a"]}}, "'matrix.col_labels' must be a list of 2"),
    ({"type": "heatmap", "matrix": {"values": [[1]]}, "color_map": "rainbowish"}, "parameter 'color_map' is not a known"),
    ({"type": "bar", "heights": [1], "figsize": [100, 100]}, "parameter 'figsize' must be [width, height]"),
    ({"type": "bar", "heights": [1], "figsize": [40, 40], "dpi": 300}, "the limit is 4096 px per side"),
    ({"type": "bar", "heights": [1], "figsize": [5]}, "parameter 'figsize'"),
    ({"type": "bar", "heights": [1], "dpi": 5}, "parameter 'dpi' must be an integer 20-600"),
    ({"type": "bar", "heights": [1], "xlim": [3, 1]}, "parameter 'xlim' must be [min, max] with min < max"),
    ({"type": "bar", "heights": [1], "ylim": [0, float("inf")]}, "parameter 'ylim'[1] must be a finite number"),
    ({"type": "line", "y": [1, 2], "linewidth": 0}, "parameter 'linewidth' must be in (0, 50]"),
    ({"type": "scatter", "x": [1], "y": [1], "point_size": -4}, "parameter 'point_size'"),
])
def test_plot_errors_name_the_parameter(vcall, args, needle):
    text = vcall.fail("plot", **args)
    assert needle in text, text


def test_huge_values_and_texts_are_refused(vcall):
    assert "too large to plot" in vcall.fail("plot", type="line", y=[1e308, -1e308])
    assert "parameter 'title' is too long" in vcall.fail("plot", type="line", y=[1, 2], title="a" * 301)


def test_tiny_figure_still_renders(vcall):
    assert vcall.image(vcall("plot", type="bar", heights=[1, 2], figsize=[0.5, 0.5], dpi=20)).size == (10, 10)
