// C4 (doc/validation-data.md): the Erturk & Inman 2011 bimorph in 2D, the x-z plane
// of the device; y of this mesh is z of the device. x in [0, L] (clamped at x = 0), layers
// pzt_lower y in [-Z2, -Z1], shim [-Z1, Z1], pzt_upper [Z1, Z2], metres.
// 48 quadrilaterals along x; 2, 1, 2 through the layers.
// Regenerate: gmsh c4_bimorph_2d.geo -2 -o c4_bimorph_2d.msh
Mesh.MshFileVersion = 4.1;
Mesh.Binary = 0;
Mesh.SaveAll = 0;
Mesh.ElementOrder = 1;

DefineConstant[ nx = 48, ny_pzt = 2, ny_shim = 1 ];

L = 24.53e-3;
Z1 = 0.07e-3;
Z2 = 0.335e-3;

// Bottom line y = -Z2 with nx segments, extruded along +y in three steps. Each Extrude of a
// curve returns [top curve, surface, the two side curves].
Point(1) = {0, -Z2, 0};
Point(2) = {L, -Z2, 0};
Line(1) = {1, 2};
Transfinite Curve{1} = nx + 1;

lower[] = Extrude {0, Z2 - Z1, 0} { Curve{1}; Layers{ny_pzt}; Recombine; };
shim[] = Extrude {0, 2 * Z1, 0} { Curve{lower[0]}; Layers{ny_shim}; Recombine; };
upper[] = Extrude {0, Z2 - Z1, 0} { Curve{shim[0]}; Layers{ny_pzt}; Recombine; };

Physical Surface("pzt_lower", 1) = {lower[1]};
Physical Surface("shim", 2) = {shim[1]};
Physical Surface("pzt_upper", 3) = {upper[1]};
eps = 1e-3 * Z1;
root[] = Curve In BoundingBox{-eps, -Z2 - eps, -eps, eps, Z2 + eps, eps}; // the 3 curves at x = 0

Physical Curve("root", 11) = {root[]};
Physical Curve("bottom", 12) = {1};
Physical Curve("top", 13) = {upper[0]};
