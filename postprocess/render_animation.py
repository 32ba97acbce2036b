#!/usr/bin/env python3
"""Draw frames of a lumped run's animation (animation.pvd) as figures with
axes in metres, equal scale and the time, headless.

usage: python3 postprocess/render_animation.py OUTPUT_DIR [TIME ...] [--format png|pdf|svg]

Reads OUTPUT_DIR/animation.pvd with VTK's XML reader (Debian's python3-vtk9,
or the VTK inside ParaView's pvpython), picks the frame nearest to each TIME
(s; default: the last frame), draws every part of the mechanism as a line
labelled with its name ('part_names' in the frame's FieldData), with the same
axis limits for every frame (the bounds of all frames, so the picture does not
jump) and equal scales on x and y, and writes OUTPUT_DIR/animation_<time>.png
(matplotlib, no display needed).
"""
import os
import sys
import xml.etree.ElementTree as ElementTree

import numpy as np
from vtkmodules.vtkCommonCore import vtkIdList
from vtkmodules.vtkIOXML import vtkXMLPolyDataReader

from hamilton_tables import open_results, parse_command_line, plt


def frames(directory):
    """(time, file) of every frame listed in animation.pvd."""
    root = ElementTree.parse(os.path.join(directory, "animation.pvd")).getroot()
    return [(float(d.get("timestep")), os.path.join(directory, d.get("file"))) for d in root.iter("DataSet")]


def polylines(path):
    """[(part index, part name, points (n, 2))] of one frame."""
    reader = vtkXMLPolyDataReader()
    reader.SetFileName(path)
    reader.Update()
    data = reader.GetOutput()
    names = data.GetFieldData().GetAbstractArray("part_names")
    part = data.GetCellData().GetArray("part")
    points = data.GetPoints()
    lines, ids = data.GetLines(), vtkIdList()
    result = []
    lines.InitTraversal()
    cell = 0
    while lines.GetNextCell(ids):
        xy = np.array([points.GetPoint(ids.GetId(k))[:2] for k in range(ids.GetNumberOfIds())])
        index = int(part.GetValue(cell)) if part is not None else cell
        name = names.GetValue(index) if names is not None and index < names.GetNumberOfValues() else f"part {index}"
        result.append((index, name, xy))
        cell += 1
    return result


def draw(series, time, limits):
    """The figure of the frame nearest to `time` and its time."""
    t, path = min(series, key=lambda frame: abs(frame[0] - time))
    fig, ax = plt.subplots(figsize=(7, 5.5))
    colours = plt.cm.tab10.colors
    for index, name, xy in polylines(path):
        ax.plot(xy[:, 0], xy[:, 1], color=colours[index % 10], lw=2.2, label=name)
    ax.set_xlim(*limits[0])
    ax.set_ylim(*limits[1])
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.set_title(f"t = {t:.4g} s")
    ax.legend(fontsize=8, loc="upper right")
    return fig, t


def main():
    directory, times, form = parse_command_line(__doc__, extra=True)
    open_results(directory)
    if not os.path.exists(os.path.join(directory, "animation.pvd")):
        sys.exit(f"render_animation.py: {directory} has no animation.pvd: the run wrote no animation "
                 "(set 'Lumped system/Animation/Frame interval').")
    series = frames(directory)
    if not series:
        sys.exit(f"render_animation.py: {directory}/animation.pvd lists no frames")
    times = [float(t) for t in times] or [series[-1][0]]
    # the bounds of all frames (every 100th is enough) with a margin
    lo, hi = np.full(2, np.inf), np.full(2, -np.inf)
    for _, path in series[::max(1, len(series) // 100)] + [series[-1]]:
        for _, _, xy in polylines(path):
            lo, hi = np.minimum(lo, xy.min(axis=0)), np.maximum(hi, xy.max(axis=0))
    size = max((hi - lo).max(), 1e-12)
    centre = (lo + hi) / 2
    limits = [(c - 0.6 * size, c + 0.6 * size) for c in centre]
    for time in times:
        fig, t = draw(series, time, limits)
        name = os.path.join(directory, f"animation_{t:.4g}.{form}")
        fig.savefig(name)
        plt.close(fig)
        print(f"wrote {name}")


if __name__ == "__main__":
    main()
