// A slender steel strip as a 3D body, the cantilever of prm/beam/tip_mass.prm: x in [0, L]
// (length), y in [0, W] (width), z in [0, T] (thickness), metres. 30 x 2 x 1 hexahedra
// (quadratic elements resolve the bending through one cell).
// Regenerate: gmsh steel_strip_3d.geo -3 -o steel_strip_3d.msh
Mesh.MshFileVersion = 4.1;
Mesh.Binary = 0;
Mesh.SaveAll = 0;
Mesh.ElementOrder = 1;

DefineConstant[ nx = 30, ny = 2, nz = 1 ];

L = 0.3;
W = 0.02;
T = 0.002;

Point(1) = {0, 0, 0};
Point(2) = {L, 0, 0};
Point(3) = {L, W, 0};
Point(4) = {0, W, 0};
Line(1) = {1, 2}; // y = 0
Line(2) = {2, 3}; // x = L
Line(3) = {3, 4}; // y = W
Line(4) = {4, 1}; // x = 0
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Transfinite Curve{1, 3} = nx + 1;
Transfinite Curve{2, 4} = ny + 1;
Transfinite Surface{1};
Recombine Surface{1};

// out[0]: top surface (z = T), out[1]: the volume, out[2..5]: the sides extruded from
// curves 1..4 (out[5]: x = 0, out[3]: x = L).
out[] = Extrude {0, 0, T} { Surface{1}; Layers{nz}; Recombine; };

Physical Volume("steel", 1) = {out[1]};
Physical Surface("root", 11) = {out[5]};
Physical Surface("tip", 12) = {out[3]};
