// A PZT patch bonded on an aluminium plate clamped on its four side faces: a device a beam
// cannot describe. Plate x in [0, LX], y in [0, LY], z in [0, TP]; patch x in [X1, X2],
// y in [Y1, Y2], z in [TP, TP + TA], metres. A 3 x 3 grid of blocks in x-y (quadrilaterals),
// extruded through the plate; the central block's top face extruded again for the patch,
// so the patch and the plate share their nodes (conforming hexahedra). The patch/plate
// interface carries no group: the solver finds it from the two regions.
// Regenerate: gmsh plate_with_patch.geo -3 -o plate_with_patch.msh
Mesh.MshFileVersion = 4.1;
Mesh.Binary = 0;
Mesh.SaveAll = 0;
Mesh.ElementOrder = 1;

// Elements in the x blocks (outer, patch), the y blocks (outer, patch), through the plate
// and through the patch: 10 x 8 x 2 for the plate and 4 x 4 x 2 for the patch by default.
DefineConstant[ nx_out = 3, nx_patch = 4, ny_out = 2, ny_patch = 4, nz_plate = 2,
                nz_patch = 2 ];

LX = 60e-3;
LY = 40e-3;
TP = 1e-3;
X1 = 20e-3;
X2 = 40e-3;
Y1 = 12.5e-3;
Y2 = 27.5e-3;
TA = 0.5e-3;

xs[] = {0, X1, X2, LX};
ys[] = {0, Y1, Y2, LY};
nxs[] = {nx_out, nx_patch, nx_out};
nys[] = {ny_out, ny_patch, ny_out};

// Grid points p(i, j) = 1 + i + 4 j, i, j = 0..3.
For j In {0 : 3}
  For i In {0 : 3}
    Point(1 + i + 4 * j) = {xs[i], ys[j], 0};
  EndFor
EndFor
// Lines along x: hx(i, j) = 101 + i + 3 j; along y: hy(i, j) = 201 + i + 4 j.
For j In {0 : 3}
  For i In {0 : 2}
    Line(101 + i + 3 * j) = {1 + i + 4 * j, 2 + i + 4 * j};
    Transfinite Curve{101 + i + 3 * j} = nxs[i] + 1;
  EndFor
EndFor
For j In {0 : 2}
  For i In {0 : 3}
    Line(201 + i + 4 * j) = {1 + i + 4 * j, 1 + i + 4 * (j + 1)};
    Transfinite Curve{201 + i + 4 * j} = nys[j] + 1;
  EndFor
EndFor
// Blocks b(i, j) = 1 + i + 3 j, counter-clockwise loops (normal +z).
For j In {0 : 2}
  For i In {0 : 2}
    Curve Loop(1 + i + 3 * j) = {101 + i + 3 * j, 202 + i + 4 * j, -(101 + i + 3 * (j + 1)),
                                 -(201 + i + 4 * j)};
    Plane Surface(1 + i + 3 * j) = {1 + i + 3 * j};
    Transfinite Surface{1 + i + 3 * j};
    Recombine Surface{1 + i + 3 * j};
  EndFor
EndFor

// Plate: every block extruded through the thickness. For each block the Extrude returns
// [top, volume, 4 sides], so the central block (5) has its top at plate[24].
plate[] = Extrude {0, 0, TP} { Surface{1 : 9}; Layers{nz_plate}; Recombine; };
patch[] = Extrude {0, 0, TA} { Surface{plate[24]}; Layers{nz_patch}; Recombine; };

plate_volumes[] = {};
For k In {0 : 8}
  plate_volumes[] += {plate[6 * k + 1]};
EndFor

eps = 1e-3 * TP;
clamped[] = Surface In BoundingBox{-eps, -eps, -eps, eps, LY + eps, TP + eps};
clamped[] += Surface In BoundingBox{LX - eps, -eps, -eps, LX + eps, LY + eps, TP + eps};
clamped[] += Surface In BoundingBox{-eps, -eps, -eps, LX + eps, eps, TP + eps};
clamped[] += Surface In BoundingBox{-eps, LY - eps, -eps, LX + eps, LY + eps, TP + eps};

Physical Volume("plate", 1) = {plate_volumes[]};
Physical Volume("patch", 2) = {patch[1]};
Physical Surface("clamped", 11) = {clamped[]};
Physical Surface("patch_top", 12) = {patch[0]};
