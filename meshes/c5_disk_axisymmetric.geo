// C5 (ANSYS VM237): PZT-5A disk, radius R, thickness T, as the r-z half plane of an
// axisymmetric body: x = r in [0, R], y = the axis in [0, T], metres. 8 x 2 quadrilaterals.
// The disk's area is exact (no polygonal edge, unlike c5_disk_quarter in 3D).
// Regenerate: gmsh c5_disk_axisymmetric.geo -2 -o c5_disk_axisymmetric.msh   (or ./generate.sh)
Mesh.MshFileVersion = 4.1;
Mesh.Binary = 0;
Mesh.SaveAll = 0;
Mesh.ElementOrder = 1;

// Elements along the radius and through the thickness.
DefineConstant[ nr = 8, nz = 2 ];

R = 1e-3;
T = 0.1e-3;

Point(1) = {0, 0, 0};
Point(2) = {R, 0, 0};
Point(3) = {R, T, 0};
Point(4) = {0, T, 0};

Line(1) = {1, 2}; // y = 0: bottom face
Line(2) = {2, 3}; // x = R: rim
Line(3) = {3, 4}; // y = T: top face
Line(4) = {4, 1}; // x = 0: the axis

Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Transfinite Curve{1, 3} = nr + 1;
Transfinite Curve{2, 4} = nz + 1;
Transfinite Surface{1};
Recombine Surface{1};

Physical Surface("pzt", 1) = {1};
Physical Curve("bottom", 11) = {1};
Physical Curve("rim", 12) = {2};
Physical Curve("top", 13) = {3};
Physical Curve("axis", 14) = {4};
