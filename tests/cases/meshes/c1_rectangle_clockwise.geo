// C1 (meshes/c1_rectangle.geo) with its cells clockwise: the same rectangle,
// the same nodes, the Curve Loop reversed, so Gmsh writes every quadrilateral
// clockwise (as a mirrored .geo does). deal.II needs counter-clockwise cells;
// Hamilton turns such a mesh around when it reads it (tests/prm/claims/
// continuum_clockwise_mesh.json: the same answer as meshes/c1_rectangle.msh).
// Regenerate: gmsh c1_rectangle_clockwise.geo -2 -o c1_rectangle_clockwise.msh

// Output as Hamilton (deal.II GridIn::read_msh) reads it: ASCII MSH 4.1, first-order
// elements, and only the elements of physical groups.
Mesh.MshFileVersion = 4.1;
Mesh.Binary = 0;
Mesh.SaveAll = 0;
Mesh.ElementOrder = 1;

// Elements per side; override with e.g. "gmsh c1_rectangle.geo -2 -setnumber nx 8 ...".
DefineConstant[ nx = 4, ny = 2 ];

L = 1e-3;
H = 0.5e-3;

Point(1) = {0, 0, 0};
Point(2) = {L, 0, 0};
Point(3) = {L, H, 0};
Point(4) = {0, H, 0};

Line(1) = {1, 2}; // y = 0
Line(2) = {2, 3}; // x = L
Line(3) = {3, 4}; // y = H
Line(4) = {4, 1}; // x = 0

Curve Loop(1) = {-4, -3, -2, -1}; // clockwise: every cell clockwise
Plane Surface(1) = {1};

// A structured grid (Transfinite gives the number of nodes on a curve) of quadrilaterals
// (Recombine): deal.II's distributed triangulation does not accept triangles.
Transfinite Curve{1, 3} = nx + 1;
Transfinite Curve{2, 4} = ny + 1;
Transfinite Surface{1};
Recombine Surface{1};

// Region (material id 1) and boundary curves (boundary ids 11-14). Names are what the
// parameter file refers to; each entity is in at most one group; no physical points.
Physical Surface("pzt", 1) = {1};
Physical Curve("left", 11) = {4};
Physical Curve("bottom", 12) = {1};
Physical Curve("right", 13) = {2};
Physical Curve("top", 14) = {3};
