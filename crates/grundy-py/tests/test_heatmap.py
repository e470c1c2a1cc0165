"""grundy.heatmap: the picture the command draws (the same PNG, byte for
byte), shown by Jupyter, written as the command writes files."""

import struct
import zlib

import numpy as np
import pytest

import grundy


def pixels(png):
    """The RGB pixels of a PNG of 8-bit RGB without interlacing, decoded
    here (filters included) as an independent check of the encoder."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, width, height, data = 8, None, None, b""
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, body = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert (depth, colour) == (8, 2)
        elif kind == b"IDAT":
            data += body
        at += 12 + length
    raw = zlib.decompress(data)
    stride = 3 * width
    rows, previous = [], bytearray(stride)
    for y in range(height):
        line = raw[y * (stride + 1) : (y + 1) * (stride + 1)]
        kind, row = line[0], bytearray(line[1:])
        for i in range(stride):
            left = row[i - 3] if i >= 3 else 0
            up = previous[i]
            corner = previous[i - 3] if i >= 3 else 0
            if kind == 1:
                row[i] = (row[i] + left) & 255
            elif kind == 2:
                row[i] = (row[i] + up) & 255
            elif kind == 3:
                row[i] = (row[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                row[i] = (row[i] + pred) & 255
        rows.append([tuple(row[3 * x : 3 * x + 3]) for x in range(width)])
        previous = row
    return rows


def test_the_knight_heatmap_is_the_commands(command, tmp_path):
    path = tmp_path / "knight.png"
    command.run("knight", "--grid", "0..64", "0..64", "--png", path, "--scale", "4")
    picture = grundy.heatmap(grundy.knight_grid(range(64), range(64)), scale=4)
    assert picture.png == path.read_bytes()
    assert picture._repr_png_() == picture.png
    saved = tmp_path / "mine.png"
    picture.save(saved)
    assert saved.read_bytes() == path.read_bytes()


def test_the_row_heatmap_is_the_commands(command, tmp_path):
    path = tmp_path / "rows.png"
    command.run("row", "--width", "10", "--grid", "--png", path, "--scale", "3")
    assert grundy.heatmap(grundy.row_grid(10), scale=3).png == path.read_bytes()


def test_losing_positions_are_crimson_and_the_scale_is_monotone():
    values = np.array([[0, 1, 2], [3, 0, 4]])
    rows = pixels(grundy.heatmap(values, scale=1).png)
    assert rows[0][0] == rows[1][1] == (220, 20, 60)
    others = [rows[0][1], rows[0][2], rows[1][0], rows[1][2]]
    assert (220, 20, 60) not in others and len(set(others)) == 4


def test_sequences_cut_into_lines():
    h = grundy.heatmap(list(range(10)), width=4, scale=2)
    assert h.shape == (2, 4) and h.size == (8, 4)
    assert h.values.tolist() == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert grundy.heatmap(np.arange(5)).shape == (1, 5)
    assert grundy.heatmap(np.array([[True, False]])).values.tolist() == [[1, 0]]


def test_default_scale_keeps_pictures_small():
    assert grundy.heatmap(np.zeros((3, 5), dtype=int)).scale == 8
    assert grundy.heatmap(np.zeros((4096, 2), dtype=np.uint8)).scale == 1
    with pytest.raises(ValueError, match="4096"):
        grundy.heatmap(np.zeros((4097, 2), dtype=int))


def test_plot_draws_axes_and_a_colour_bar_in_the_pictures_colours():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    values = grundy.knight_grid(range(12), range(10))
    h = grundy.heatmap(values)
    ax = h.plot()
    assert ax.get_xlabel() == "column" and ax.get_ylabel() == "row"
    (image,) = ax.get_images()
    assert image.get_array().shape == (10, 12)
    bar = image.colorbar
    assert bar is not None and bar.ax.get_ylabel().startswith("Grundy value")
    # Each value in the colour of the PNG's squares.
    png = pixels(grundy.heatmap(values, scale=1).png)
    for y, x in [(0, 0), (3, 7), (9, 11)]:
        rgba = image.cmap(image.norm(values[y][x]))
        assert tuple(round(c * 255) for c in rgba[:3]) == png[y][x]
    # On axes given; many values: samples of the scale, 0 alone crimson
    # (the colour of a lost position), every other value in a colour of
    # the scale near its own.
    import matplotlib.pyplot as plt

    _, given = plt.subplots()
    many = np.array([[0, 1, 2, 3, 1024, 5000, 2**32 - 1]], dtype=np.uint32)
    assert grundy.heatmap(many).plot(ax=given) is given
    (image,) = given.get_images()
    colours = [tuple(round(c * 255) for c in image.cmap(image.norm(v))[:3]) for v in many[0]]
    crimson = (220, 20, 60)  # the pictures' colour of a lost position
    assert colours[0] == crimson
    assert all(c != crimson for c in colours[1:]), colours
    with pytest.raises(TypeError, match="ax must be matplotlib axes"):
        h.plot(ax=1)
    plt.close("all")


def test_plot_without_matplotlib_says_what_to_install(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match="pip install matplotlib"):
        grundy.heatmap([[0, 1], [2, 3]]).plot()
