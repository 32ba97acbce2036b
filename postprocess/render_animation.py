#!/usr/bin/env python3
"""Render frames of a lumped run's animation (animation.pvd) to PNG, headless.

usage: xvfb-run -a python3 postprocess/render_animation.py OUTPUT_DIR [TIME ...]
       xvfb-run -a pvpython postprocess/render_animation.py OUTPUT_DIR [TIME ...]

Uses only the VTK modules (Debian's python3-vtk9, or the ones inside ParaView's
pvpython), so it runs with either. Reads OUTPUT_DIR/animation.pvd, picks the
frame nearest to each TIME (s; default: the last frame), draws every part of the
mechanism as a line coloured by its 'part' index, fits a parallel camera to the
bounds of all frames (so the picture does not jump between frames), and writes
OUTPUT_DIR/animation_<time>.png. Debian's VTK renders through X, hence xvfb-run
on a machine without a display.
"""
import os
import sys
import xml.etree.ElementTree as ElementTree

from vtkmodules.vtkCommonCore import vtkLookupTable
from vtkmodules.vtkIOImage import vtkPNGWriter
from vtkmodules.vtkIOXML import vtkXMLPolyDataReader
from vtkmodules.vtkRenderingCore import (vtkActor, vtkPolyDataMapper, vtkRenderer,
                                         vtkRenderWindow, vtkTextActor,
                                         vtkWindowToImageFilter)
import vtkmodules.vtkRenderingOpenGL2  # noqa: F401 (registers the OpenGL backend)
import vtkmodules.vtkRenderingFreeType  # noqa: F401 (text)


def frames(directory):
    """(time, file) of every frame listed in animation.pvd."""
    root = ElementTree.parse(os.path.join(directory, "animation.pvd")).getroot()
    return [(float(d.get("timestep")), os.path.join(directory, d.get("file")))
            for d in root.iter("DataSet")]


def read(path):
    reader = vtkXMLPolyDataReader()
    reader.SetFileName(path)
    reader.Update()
    return reader.GetOutput()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    directory = sys.argv[1]
    series = frames(directory)
    if not series:
        sys.exit(f"{directory}/animation.pvd lists no frames")
    times = [float(t) for t in sys.argv[2:]] or [series[-1][0]]

    # bounds over all frames (every 10th is enough to fit the camera)
    bounds = [float("inf"), -float("inf")] * 3
    n_parts = 1
    for _, path in series[::max(1, len(series) // 100)] + [series[-1]]:
        data = read(path)
        b = data.GetBounds()
        for k in range(3):
            bounds[2 * k] = min(bounds[2 * k], b[2 * k])
            bounds[2 * k + 1] = max(bounds[2 * k + 1], b[2 * k + 1])
        n_parts = max(n_parts, data.GetNumberOfCells())
    centre = [(bounds[0] + bounds[1]) / 2, (bounds[2] + bounds[3]) / 2, 0.0]
    size = max(bounds[1] - bounds[0], bounds[3] - bounds[2]) or 1.0

    table = vtkLookupTable()
    table.SetNumberOfTableValues(max(n_parts, 2))
    table.SetHueRange(0.0, 0.8)
    table.Build()

    for time in times:
        t, path = min(series, key=lambda frame: abs(frame[0] - time))
        mapper = vtkPolyDataMapper()
        mapper.SetInputData(read(path))
        mapper.SetScalarModeToUseCellFieldData()
        mapper.SelectColorArray("part")
        mapper.SetLookupTable(table)
        mapper.SetScalarRange(0, max(n_parts - 1, 1))
        mapper.ScalarVisibilityOn()
        actor = vtkActor()
        actor.SetMapper(mapper)
        actor.GetProperty().SetLineWidth(3)
        label = vtkTextActor()
        label.SetInput(f"t = {t:.4g} s")
        label.GetTextProperty().SetFontSize(24)
        label.GetTextProperty().SetColor(0, 0, 0)
        label.SetPosition(10, 10)

        renderer = vtkRenderer()
        renderer.SetBackground(1, 1, 1)
        renderer.AddActor(actor)
        renderer.AddActor2D(label)
        camera = renderer.GetActiveCamera()
        camera.ParallelProjectionOn()
        camera.SetFocalPoint(*centre)
        camera.SetPosition(centre[0], centre[1], size * 10)
        camera.SetViewUp(0, 1, 0)
        camera.SetParallelScale(0.6 * size)
        renderer.ResetCameraClippingRange()

        window = vtkRenderWindow()
        window.SetOffScreenRendering(1)
        window.SetSize(1000, 800)
        window.AddRenderer(renderer)
        window.Render()
        image = vtkWindowToImageFilter()
        image.SetInput(window)
        image.Update()
        name = os.path.join(directory, f"animation_{t:.4g}.png")
        writer = vtkPNGWriter()
        writer.SetFileName(name)
        writer.SetInputConnection(image.GetOutputPort())
        writer.Write()
        print(f"wrote {name}")


if __name__ == "__main__":
    main()
