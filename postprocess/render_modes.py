"""Render mode shapes of a Hamilton run to PNG with ParaView, headless.

usage: xvfb-run -a pvbatch3.11 postprocess/render_modes.py OUTPUT_DIR [MODE ...]
       (Debian packages paraview, python3-paraview, xvfb; Debian's ParaView renders
       through X, hence xvfb-run on a machine without a display)

Opens OUTPUT_DIR/modes.pvd (the time index is the mode number), warps the 3D
laminate by its 'displacement' field, colours it by w, and writes
OUTPUT_DIR/mode_N.png for each requested mode (all modes if none given).
The warp is scaled so that the largest deflection is 15 % of the beam length.
"""
import os
import sys

from paraview.simple import (ColorBy, GetActiveViewOrCreate, GetAnimationScene,
                             OpenDataFile, Render, ResetCamera, SaveScreenshot,
                             Show, WarpByVector)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    directory = sys.argv[1]
    reader = OpenDataFile(os.path.join(directory, "modes.pvd"))
    times = list(reader.TimestepValues) if reader.TimestepValues else [1.0]
    modes = [int(m) for m in sys.argv[2:]] or [int(t) for t in times]

    scene = GetAnimationScene()
    scene.UpdateAnimationUsingDataTimeSteps()
    view = GetActiveViewOrCreate("RenderView")
    view.ViewSize = [1200, 500]
    warp = WarpByVector(Input=reader)
    warp.Vectors = ["POINTS", "displacement"]
    display = Show(warp, view)
    ColorBy(display, ("POINTS", "w"))
    for mode in modes:
        scene.AnimationTime = float(mode)
        reader.UpdatePipeline(float(mode))
        bounds = reader.GetDataInformation().GetBounds()
        length = bounds[1] - bounds[0]
        w_range = reader.PointData["w"].GetRange()
        largest = max(abs(w_range[0]), abs(w_range[1])) or 1.0
        warp.ScaleFactor = 0.15 * length / largest
        display.RescaleTransferFunctionToDataRange(True, False)
        view.CameraPosition = [bounds[0] + length / 2, -2.0 * length, 0.3 * length]
        view.CameraFocalPoint = [bounds[0] + length / 2, 0.0, 0.0]
        view.CameraViewUp = [0.0, 0.0, 1.0]
        ResetCamera(view)
        view.GetActiveCamera().Zoom(1.8)
        Render(view)
        name = os.path.join(directory, f"mode_{mode}.png")
        SaveScreenshot(name, view, ImageResolution=[1200, 500])
        print("wrote " + name)


if __name__ == "__main__":
    main()
