// C4 (doc/validation-data.md): Erturk & Inman 2011 PZT-5H/brass bimorph in 3D.
// x in [0, L] (overhang, clamped at x = 0), y in [0, B] (width), z through the thickness:
// pzt_lower [-Z2, -Z1], shim [-Z1, Z1], pzt_upper [Z1, Z2], metres.
// 24 x 2 hexahedra in x-y, 1 layer of hexahedra per layer (extruded).
// The two shim/PZT interfaces are interior faces and carry no group: the solver finds
// them from the regions on either side.
// Regenerate: gmsh c4_bimorph_3d.geo -3 -o c4_bimorph_3d.msh
Mesh.MshFileVersion = 4.1;
Mesh.Binary = 0;
Mesh.SaveAll = 0;
Mesh.ElementOrder = 1;

// nz_pzt, nz_shim: element layers through each PZT layer and through the shim.
DefineConstant[ nx = 24, ny = 2, nz_pzt = 1, nz_shim = 1 ];

L = 24.53e-3;
B = 6.4e-3;
Z1 = 0.07e-3;  // half the shim thickness (0.14 mm)
Z2 = 0.335e-3; // Z1 + 0.265 mm of PZT

// Bottom face z = -Z2, quadrilaterals, extruded three times along +z.
Point(1) = {0, 0, -Z2};
Point(2) = {L, 0, -Z2};
Point(3) = {L, B, -Z2};
Point(4) = {0, B, -Z2};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1}; // x = 0
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Transfinite Curve{1, 3} = nx + 1;
Transfinite Curve{2, 4} = ny + 1;
Transfinite Surface{1};
Recombine Surface{1};

// Each Extrude returns [top surface, volume, side surfaces from lines 1, 2, 3, 4].
lower[] = Extrude {0, 0, Z2 - Z1} { Surface{1}; Layers{nz_pzt}; Recombine; };
shim[] = Extrude {0, 0, 2 * Z1} { Surface{lower[0]}; Layers{nz_shim}; Recombine; };
upper[] = Extrude {0, 0, Z2 - Z1} { Surface{shim[0]}; Layers{nz_pzt}; Recombine; };

Physical Volume("pzt_lower", 1) = {lower[1]};
Physical Volume("shim", 2) = {shim[1]};
Physical Volume("pzt_upper", 3) = {upper[1]};
Physical Surface("root", 11) = {lower[5], shim[5], upper[5]};
Physical Surface("bottom", 12) = {1};
Physical Surface("top", 13) = {upper[0]};
