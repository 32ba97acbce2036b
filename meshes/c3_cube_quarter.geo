// C3 (ANSYS VM175): quarter of a 20 mm PZT-4 cube poled along z, symmetry planes x = 0 and
// y = 0. x, y in [0, A], z in [0, H], metres. 4 x 4 x 8 hexahedra.
// Regenerate: gmsh c3_cube_quarter.geo -3 -o c3_cube_quarter.msh
Mesh.MshFileVersion = 4.1;
Mesh.Binary = 0;
Mesh.SaveAll = 0;
Mesh.ElementOrder = 1;

DefineConstant[ nx = 4, nz = 8 ];

A = 10e-3;
H = 20e-3;

Point(1) = {0, 0, 0};
Point(2) = {A, 0, 0};
Point(3) = {A, A, 0};
Point(4) = {0, A, 0};
Line(1) = {1, 2}; // y = 0
Line(2) = {2, 3}; // x = A
Line(3) = {3, 4}; // y = A
Line(4) = {4, 1}; // x = 0
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Transfinite Curve{1, 2, 3, 4} = nx + 1;
Transfinite Surface{1};
Recombine Surface{1};

// out[2..5] are the side surfaces extruded from lines 1..4 in that order.
out[] = Extrude {0, 0, H} { Surface{1}; Layers{nz}; Recombine; };

Physical Volume("pzt", 1) = {out[1]};
Physical Surface("bottom", 11) = {1};
Physical Surface("top", 12) = {out[0]};
Physical Surface("symmetry_x", 13) = {out[5]};
Physical Surface("symmetry_y", 14) = {out[2]};
