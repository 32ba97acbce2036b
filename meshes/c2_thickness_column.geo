// C2 thickness mode as a plane-strain column (doc/validation-data.md):
// x in [0, W] (width), y in [0, T] (thickness, poling +y), metres. 1 x 20 quadrilaterals.
// The side curves carry rollers (u_x = 0) in the deck, so the column is the 1D thickness mode.
// Regenerate: gmsh c2_thickness_column.geo -2 -o c2_thickness_column.msh
Mesh.MshFileVersion = 4.1;
Mesh.Binary = 0;
Mesh.SaveAll = 0;
Mesh.ElementOrder = 1;

DefineConstant[ nx = 1, ny = 20 ];

W = 0.1e-3;
T = 1e-3;

Point(1) = {0, 0, 0};
Point(2) = {W, 0, 0};
Point(3) = {W, T, 0};
Point(4) = {0, T, 0};

Line(1) = {1, 2}; // y = 0
Line(2) = {2, 3}; // x = W
Line(3) = {3, 4}; // y = T
Line(4) = {4, 1}; // x = 0

Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};

Transfinite Curve{1, 3} = nx + 1;
Transfinite Curve{2, 4} = ny + 1;
Transfinite Surface{1};
Recombine Surface{1};

Physical Surface("pzt", 1) = {1};
Physical Curve("bottom", 11) = {1};
Physical Curve("top", 12) = {3};
Physical Curve("sides", 13) = {2, 4};
