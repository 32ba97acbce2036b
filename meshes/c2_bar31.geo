// C2 length-extensional 31 bar (doc/validation-data.md): x in [0, L] (length),
// y in [0, W] (width), z in [0, T] (thickness, poling +z), metres. 20 x 2 x 1 hexahedra.
// Free bar: only the electrode faces are tagged.
// Regenerate: gmsh c2_bar31.geo -3 -o c2_bar31.msh
Mesh.MshFileVersion = 4.1;
Mesh.Binary = 0;
Mesh.SaveAll = 0;
Mesh.ElementOrder = 1;

DefineConstant[ nx = 20, ny = 2, nz = 1 ];

L = 20e-3;
W = 2e-3;
T = 1e-3;

// Base rectangle at z = 0, meshed with quadrilaterals, then extruded along +z in nz layers
// of hexahedra (Layers + Recombine).
Point(1) = {0, 0, 0};
Point(2) = {L, 0, 0};
Point(3) = {L, W, 0};
Point(4) = {0, W, 0};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Transfinite Curve{1, 3} = nx + 1;
Transfinite Curve{2, 4} = ny + 1;
Transfinite Surface{1};
Recombine Surface{1};

// out[0]: top surface (z = T), out[1]: the volume, out[2..5]: side surfaces.
out[] = Extrude {0, 0, T} { Surface{1}; Layers{nz}; Recombine; };

Physical Volume("pzt", 1) = {out[1]};
Physical Surface("bottom", 11) = {1};
Physical Surface("top", 12) = {out[0]};
