// C5 (ANSYS VM237): quarter of a PZT-5A disk, radius R, thickness T, z in [0, T], metres.
// A transfinite quarter disk: a square-like core O-A-P-C plus a curved ring of two patches
// (A-B-Q-P and P-Q-D-C), quadrilaterals, extruded in 2 layers of hexahedra.
//
//   y
//   D .
//   |    ' Q            B, Q, D on the circle r = R (circular arcs about the z axis)
//   C---P  \            A = (Rc, 0), C = (0, Rc), P = (Rp, Rp)
//   |   |   |
//   O---A---B  x
//
// The arcs are stored as vertices on the circle joined by straight edges: the coarse
// quarter circle is a polygon of 2 n_arc segments, which global refinement does not bend
// back onto the circle. A solver that needs the exact area (C5 capacitance to 1e-4) attaches
// a cylindrical manifold about the z axis to the "edge" faces (and a transfinite
// interpolation to the cells) before refining.
// Regenerate: gmsh c5_disk_quarter.geo -3 -o c5_disk_quarter.msh
Mesh.MshFileVersion = 4.1;
Mesh.Binary = 0;
Mesh.SaveAll = 0;
Mesh.ElementOrder = 1;

// n_arc: elements along each side of the core and along each of the two arcs;
// n_ring: elements across the ring; nz: layers through the thickness.
DefineConstant[ n_arc = 4, n_ring = 3, nz = 2 ];

R = 1e-3;
T = 0.1e-3;
Rc = 0.5 * R;  // core corners on the axes
Rp = 0.42 * R; // core corner on the diagonal

Point(1) = {0, 0, 0};                       // O
Point(2) = {Rc, 0, 0};                      // A
Point(3) = {R, 0, 0};                       // B
Point(4) = {R / Sqrt(2), R / Sqrt(2), 0};   // Q
Point(5) = {0, R, 0};                       // D
Point(6) = {0, Rc, 0};                      // C
Point(7) = {Rp, Rp, 0};                     // P

Line(1) = {1, 2};      // O-A (y = 0)
Line(2) = {2, 3};      // A-B (y = 0)
Circle(3) = {3, 1, 4}; // B-Q
Circle(4) = {4, 1, 5}; // Q-D
Line(5) = {5, 6};      // D-C (x = 0)
Line(6) = {6, 1};      // C-O (x = 0)
Line(7) = {2, 7};      // A-P
Line(8) = {7, 6};      // P-C
Line(9) = {7, 4};      // P-Q

Curve Loop(1) = {1, 7, 8, 6};   // core
Plane Surface(1) = {1};
Curve Loop(2) = {2, 3, -9, -7}; // ring, x side
Plane Surface(2) = {2};
Curve Loop(3) = {9, 4, 5, -8};  // ring, y side
Plane Surface(3) = {3};

Transfinite Curve{1, 7, 8, 6, 3, 4} = n_arc + 1;
Transfinite Curve{2, 9, 5} = n_ring + 1;
Transfinite Surface{1, 2, 3};
Recombine Surface{1, 2, 3};

// For each surface the Extrude returns [top, volume, 4 sides in the order of its loop]:
// surface 2's second side comes from arc 3 and surface 3's second side from arc 4.
out[] = Extrude {0, 0, T} { Surface{1, 2, 3}; Layers{nz}; Recombine; };

eps = 1e-3 * T;
sym_x[] = Surface In BoundingBox{-eps, -eps, -eps, eps, R + eps, T + eps};
sym_y[] = Surface In BoundingBox{-eps, -eps, -eps, R + eps, eps, T + eps};

Physical Volume("pzt", 1) = {out[1], out[7], out[13]};
Physical Surface("bottom", 11) = {1, 2, 3};
Physical Surface("top", 12) = {out[0], out[6], out[12]};
Physical Surface("symmetry_x", 13) = {sym_x[]};
Physical Surface("symmetry_y", 14) = {sym_y[]};
Physical Surface("edge", 15) = {out[9], out[15]};
