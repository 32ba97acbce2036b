// C2 length-extensional 33 bar (doc/validation-data.md): x in [0, L] (length,
// poling +x), y, z in [0, A], metres. 20 x 1 x 1 hexahedra; electrodes on the end faces.
// Regenerate: gmsh c2_bar33.geo -3 -o c2_bar33.msh
Mesh.MshFileVersion = 4.1;
Mesh.Binary = 0;
Mesh.SaveAll = 0;
Mesh.ElementOrder = 1;

DefineConstant[ nx = 20, ny = 1, nz = 1 ];

L = 20e-3;
A = 1e-3;

// End face x = 0 in the y-z plane (loop y then z: normal +x), extruded along +x.
Point(1) = {0, 0, 0};
Point(2) = {0, A, 0};
Point(3) = {0, A, A};
Point(4) = {0, 0, A};
Line(1) = {1, 2}; // along y
Line(2) = {2, 3}; // along z
Line(3) = {3, 4}; // along y
Line(4) = {4, 1}; // along z
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Transfinite Curve{1, 3} = ny + 1;
Transfinite Curve{2, 4} = nz + 1;
Transfinite Surface{1};
Recombine Surface{1};

out[] = Extrude {L, 0, 0} { Surface{1}; Layers{nx}; Recombine; };

Physical Volume("pzt", 1) = {out[1]};
Physical Surface("left", 11) = {1};
Physical Surface("right", 12) = {out[0]};
