#include <hamilton/base/files.h>
#include <hamilton/continuum/continuum.h>

#include <filesystem>
#include <set>

namespace hamilton::continuum
{
  using namespace dealii;

  namespace
  {
    std::vector<std::string>
    names_from(const ParameterHandler *first_pass, const std::vector<std::string> &path)
    {
      if (first_pass == nullptr)
        return {};
      return split_list(first_pass->get(path, "Names"));
    }

    Point<3>
    parse_point(const Section &s, const std::string &entry, const unsigned int dim)
    {
      const auto items = split_list(s.get(entry));
      if (items.size() != dim)
        s.fail(entry, "must be " + std::to_string(dim) + " coordinates (m), e.g. '" +
                        (dim == 2 ? std::string("0.01, 0") : std::string("0.01, 0, 0")) + "'.");
      const auto values = parse_numbers(s, entry);
      Point<3>   p;
      for (unsigned int i = 0; i < dim; ++i)
        p[i] = values[i];
      return p;
    }

    std::vector<unsigned int>
    parse_components(const Section &s, const std::string &entry, const unsigned int dim)
    {
      const auto items = split_list(s.get(entry));
      if (items.size() == 1 && items[0] == "all")
        {
          std::vector<unsigned int> all(dim);
          for (unsigned int i = 0; i < dim; ++i)
            all[i] = i;
          return all;
        }
      std::vector<unsigned int> components;
      for (const auto &item : items)
        {
          if (item.size() != 1 || item[0] < 'x' || item[0] >= 'x' + static_cast<char>(dim))
            s.fail(entry, "'" + item + "' is not a displacement component: allowed are 'all' or a list of " +
                            (dim == 2 ? std::string("x, y") : std::string("x, y, z")) + ".");
          components.push_back(item[0] - 'x');
        }
      if (components.empty())
        s.fail(entry, "is empty: give 'all' or the fixed components, e.g. 'x' for a symmetry plane x = const.");
      return components;
    }
  } // namespace

  std::vector<std::vector<std::string>>
  ContinuumModel::named_lists()
  {
    return {{"Continuum", "Materials"},
            {"Continuum", "Regions"},
            {"Continuum", "Electrodes"},
            {"Continuum", "Supports"},
            {"Continuum", "Loads"},
            {"Continuum", "Masses"},
            {"Continuum", "Output points"}};
  }

  void
  ContinuumModel::declare_parameters(ParameterHandler &prm, const ParameterHandler *first_pass)
  {
    prm.enter_subsection("Continuum");
    prm.declare_entry("Mesh",
                      "",
                      Patterns::Anything(),
                      "Gmsh mesh file (.msh, quadrilaterals or hexahedra; see meshes/README.md), relative to "
                      "the parameter file. Empty: the file describes no continuum.");
    prm.declare_entry("Formulation",
                      "3D",
                      Patterns::Selection("3D|plane stress|plane strain|axisymmetric"),
                      "'3D' for a three-dimensional mesh; for a two-dimensional mesh in the x-y plane "
                      "'plane stress' (thin body, zero out-of-plane stresses), 'plane strain', or "
                      "'axisymmetric' (the mesh is the half plane r = x >= 0 of a body of revolution about "
                      "the y axis; results for the whole body, 360 degrees); E_z = 0 in 2D.");
    prm.declare_entry("Thickness", "1", Patterns::Double(),
                      "Out-of-plane thickness of a plane-stress or plane-strain body (m); not used otherwise.");
    prm.declare_entry("Element degree", "2", Patterns::Integer(1, 4), "Polynomial degree of u and phi (Lagrange, 1-4).");
    prm.declare_entry("Global refinements", "0", Patterns::Integer(0, 6), "Uniform refinements of the mesh read.");
    prm.declare_entry("Modal damping ratios",
                      "0",
                      Patterns::Anything(),
                      "Damping ratios of the short-circuit modes, the last one for all higher modes (ROM).");
    prm.declare_entry("Base direction",
                      "",
                      Patterns::Anything(),
                      "Direction of the base translation for participation factors and the ROM "
                      "('+x', '-y', ..., or 'a, b, c'); in 2D a direction in the x-y plane. Empty: +z in 3D, +y in 2D.");

    prm.enter_subsection("Materials");
    declare_named_list(prm,
                       "Names of the materials; each gets a subsection of that name.",
                       names_from(first_pass, {"Continuum", "Materials"}),
                       [](ParameterHandler &p) { Material::declare_parameters(p); });
    prm.leave_subsection();

    prm.enter_subsection("Regions");
    declare_named_list(prm,
                       "Names of the regions: physical groups of cells of the mesh (Gmsh 'Physical Surface' in "
                       "2D, 'Physical Volume' in 3D). Every cell must belong to one.",
                       names_from(first_pass, {"Continuum", "Regions"}),
                       [](ParameterHandler &p) {
                         p.declare_entry("Material", "", Patterns::Anything(), "Name of a material of 'Materials'.");
                         p.declare_entry("Poling",
                                         "+z",
                                         Patterns::Anything(),
                                         "Direction of material axis 3 (the poling axis) in the mesh's axes: "
                                         "+x, -x, +y, -y, +z, -z or 'a, b, c'.");
                       });
    prm.leave_subsection();

    prm.enter_subsection("Electrodes");
    declare_named_list(prm,
                       "Names of the electrodes; each is one voltage unknown (equipotential).",
                       names_from(first_pass, {"Continuum", "Electrodes"}),
                       [](ParameterHandler &p) {
                         p.declare_entry("Surfaces",
                                         "",
                                         Patterns::Anything(),
                                         "Physical groups of boundary faces that form the electrode.");
                         p.declare_entry("Interfaces",
                                         "",
                                         Patterns::Anything(),
                                         "Interfaces between two regions that belong to the electrode: "
                                         "'regionA/regionB, regionC/regionD' (e.g. the centre electrode "
                                         "of a bimorph, 'pzt_lower/shim, shim/pzt_upper').");
                         p.declare_entry("Circuit",
                                         "ground",
                                         Patterns::Selection("ground|floating|short circuit|open circuit|voltage|"
                                                             "resistor|series RL|parallel RL"),
                                         "'ground': the 0 V reference (every piezoelectric region needs a "
                                         "path to one); 'floating': free and unconnected; the others make "
                                         "the electrode a port (short circuit at 0 V in short-circuit modes, "
                                         "free in open-circuit modes).");
                         p.declare_entry("Voltage", "0", Patterns::Double(), "Prescribed voltage (V), 'Circuit = voltage'.");
                         p.declare_entry("Resistance", "0", Patterns::Double(), "Load resistance R (Ohm).");
                         p.declare_entry("Inductance", "0", Patterns::Double(), "Shunt inductance L (H).");
                       });
    prm.leave_subsection();

    prm.enter_subsection("Supports");
    declare_named_list(prm,
                       "Names of the mechanical supports.",
                       names_from(first_pass, {"Continuum", "Supports"}),
                       [](ParameterHandler &p) {
                         p.declare_entry("Surfaces", "", Patterns::Anything(), "Physical groups of boundary faces.");
                         p.declare_entry("Point",
                                         "",
                                         Patterns::Anything(),
                                         "Instead of surfaces: a mesh vertex (coordinates, m).");
                         p.declare_entry("Components",
                                         "all",
                                         Patterns::Anything(),
                                         "Fixed displacement components: 'all' (clamped) or e.g. 'x' "
                                         "(symmetry plane x = const, a roller).");
                       });
    prm.leave_subsection();

    prm.enter_subsection("Loads");
    declare_named_list(prm,
                       "Names of the static loads: each a traction on surfaces, a body force in regions, or a point "
                       "force.",
                       names_from(first_pass, {"Continuum", "Loads"}),
                       [](ParameterHandler &p) {
                         p.declare_entry("Surfaces", "", Patterns::Anything(), "Physical groups of boundary faces.");
                         p.declare_entry("Traction",
                                         "0, 0, 0",
                                         Patterns::Anything(),
                                         "Traction vector (N/m^2): one expression of x, y, z per component, "
                                         "separated by ';' (e.g. '-20e9*y; 0').");
                         p.declare_entry("Regions", "", Patterns::Anything(),
                                         "Instead of surfaces: regions ('Continuum/Regions') carrying 'Body force'.");
                         p.declare_entry("Body force",
                                         "",
                                         Patterns::Anything(),
                                         "Force per volume (N/m^3) in 'Regions': one expression of x, y, z per "
                                         "component, separated by ';' (gravity on steel: '0; 0; -7850*9.81').");
                         p.declare_entry("Point", "", Patterns::Anything(),
                                         "Instead of surfaces or regions: the point (coordinates, m) of 'Force'.");
                         p.declare_entry("Force",
                                         "",
                                         Patterns::Anything(),
                                         "Point force (N), components separated by ';': in 2D the force through the "
                                         "whole thickness, axisymmetric the total force on the ring.");
                       });
    prm.leave_subsection();

    prm.enter_subsection("Masses");
    declare_named_list(prm,
                       "Names of added masses (a proof mass, a coating, a sensor): each at a point or spread "
                       "uniformly over regions.",
                       names_from(first_pass, {"Continuum", "Masses"}),
                       [](ParameterHandler &p) {
                         p.declare_entry("Point", "", Patterns::Anything(),
                                         "A point mass here (coordinates, m; translational inertia only).");
                         p.declare_entry("Regions", "", Patterns::Anything(),
                                         "Instead of a point: regions over whose volume the mass is spread.");
                         p.declare_entry("Mass",
                                         "0",
                                         Patterns::Double(),
                                         "The mass (kg): in 2D through the whole thickness, axisymmetric the whole "
                                         "ring or region of revolution.");
                       });
    prm.leave_subsection();

    prm.enter_subsection("Output points");
    declare_named_list(prm,
                       "Names of points where displacements are reported and exported with the ROM.",
                       names_from(first_pass, {"Continuum", "Output points"}),
                       [](ParameterHandler &p) {
                         p.declare_entry("Point", "", Patterns::Anything(), "Coordinates (m).");
                         p.declare_entry("Direction", "+z", Patterns::Anything(), "Displacement direction reported.");
                       });
    prm.leave_subsection();
    prm.leave_subsection();
  }

  bool
  ContinuumModel::described_in(ParameterHandler &prm)
  {
    return !Utilities::trim(prm.get({"Continuum"}, "Mesh")).empty();
  }

  const Material &
  ContinuumModel::material_of(const Region &region) const
  {
    for (const auto &m : materials)
      if (m.name == region.material)
        return m;
    Assert(false, ExcInternalError());
    return materials.front();
  }

  void
  ContinuumModel::parse_parameters(Section &s, const std::string &directory)
  {
    Section::Scope scope(s, "Continuum");
    const std::string mesh = Utilities::trim(s.get("Mesh"));
    mesh_file = std::filesystem::path(mesh).is_absolute() || directory.empty() ?
                  mesh :
                  (std::filesystem::path(directory) / mesh).string();
    if (const std::string problem = not_a_regular_file(mesh_file); !problem.empty())
      s.fail("Mesh", "'" + mesh_file + "' " + problem +
                       " (a relative name is taken relative to the parameter file). Give a Gmsh .msh file, a "
                       "regular file; meshes/ holds the examples' meshes and their .geo sources.");
    const std::string f = s.get("Formulation");
    formulation = f == "plane stress" ? Formulation::plane_stress :
                  f == "plane strain" ? Formulation::plane_strain :
                  f == "axisymmetric" ? Formulation::axisymmetric :
                                        Formulation::three_dimensional;
    const unsigned int dim = dimension();
    thickness              = s.get_positive("Thickness", "m");
    degree                 = s.get_unsigned("Element degree");
    refinements            = s.get_unsigned("Global refinements");
    damping_ratios.clear();
    for (const double value : parse_numbers(s, "Modal damping ratios"))
      {
        if (!(value >= 0 && value < 1))
          s.fail("Modal damping ratios", "each ratio must lie in [0, 1).");
        damping_ratios.push_back(value);
      }
    if (damping_ratios.empty())
      damping_ratios.push_back(0.);
    if (Utilities::trim(s.get("Base direction")).empty())
      base_direction[dim == 3 ? 2 : 1] = 1;
    else
      base_direction = parse_direction(s, "Base direction");
    if (dim == 2 && base_direction[2] != 0)
      s.fail("Base direction", "must lie in the x-y plane of a 2D mesh (e.g. '+y').");
    if (formulation == Formulation::axisymmetric && base_direction[0] != 0)
      s.fail("Base direction",
             "must be the axis of an axisymmetric body, '+y' or '-y': a translation across the axis is not "
             "axisymmetric.");

    std::set<std::string> material_names, region_names;
    {
      Section::Scope list(s, "Materials");
      for (const auto &name : s.get_names("Names"))
        {
          Section::Scope one(s, name);
          materials.push_back(Material::parse(s, name));
          material_names.insert(name);
        }
      if (materials.empty())
        s.fail("Names", "no material: a continuum needs at least one.");
    }
    {
      Section::Scope list(s, "Regions");
      for (const auto &name : s.get_names("Names"))
        {
          Section::Scope one(s, name);
          Region         r;
          r.name     = name;
          r.material = Utilities::trim(s.get("Material"));
          if (material_names.count(r.material) == 0)
            s.fail("Material", "is not a material of 'Continuum/Materials' (Names).");
          r.poling = parse_direction(s, "Poling");
          if (dim == 2 && material_of(r).piezoelectric && r.poling[2] != 0)
            s.fail("Poling", "must lie in the x-y plane of a 2D mesh (e.g. '+y').");
          regions.push_back(r);
          region_names.insert(name);
        }
      if (regions.empty())
        s.fail("Names", "no region: name the physical groups of cells of the mesh and give each a material.");
    }
    {
      Section::Scope list(s, "Electrodes");
      for (const auto &name : s.get_names("Names"))
        {
          Section::Scope one(s, name);
          Electrode      e;
          e.name     = name;
          e.surfaces = split_list(s.get("Surfaces"));
          for (const auto &pair : split_list(s.get("Interfaces")))
            {
              const auto sides = Utilities::split_string_list(pair, '/');
              if (sides.size() != 2 || sides[0] == sides[1])
                s.fail("Interfaces", "'" + pair + "' is not 'regionA/regionB' with two different regions.");
              for (const auto &side : sides)
                if (region_names.count(side) == 0)
                  s.fail("Interfaces", "'" + side + "' is not a region of 'Continuum/Regions' (Names).");
              e.interfaces.emplace_back(sides[0], sides[1]);
            }
          if (e.surfaces.empty() && e.interfaces.empty())
            s.fail("Surfaces", "is empty and so is 'Interfaces': an electrode needs faces.");
          const std::string c = s.get("Circuit");
          e.circuit = c == "ground"        ? Circuit::ground :
                      c == "floating"      ? Circuit::floating :
                      c == "short circuit" ? Circuit::short_circuit :
                      c == "open circuit"  ? Circuit::open_circuit :
                      c == "voltage"       ? Circuit::voltage :
                      c == "resistor"      ? Circuit::resistor :
                      c == "series RL"     ? Circuit::series_rl :
                                             Circuit::parallel_rl;
          e.voltage = s.get_double("Voltage");
          if (e.circuit == Circuit::resistor || e.circuit == Circuit::series_rl || e.circuit == Circuit::parallel_rl)
            e.resistance = s.get_positive("Resistance", "Ohm");
          if (e.circuit == Circuit::series_rl || e.circuit == Circuit::parallel_rl)
            e.inductance = s.get_positive("Inductance", "H");
          electrodes.push_back(e);
        }
    }
    {
      Section::Scope list(s, "Supports");
      for (const auto &name : s.get_names("Names"))
        {
          Section::Scope one(s, name);
          Support        support;
          support.name     = name;
          support.surfaces = split_list(s.get("Surfaces"));
          support.at_point = !Utilities::trim(s.get("Point")).empty();
          if (support.at_point && !support.surfaces.empty())
            s.fail("Point", "is given together with 'Surfaces': a support is either surfaces or one point.");
          if (!support.at_point && support.surfaces.empty())
            s.fail("Surfaces", "is empty and no 'Point' is given: a support needs one of them.");
          if (support.at_point)
            support.point = parse_point(s, "Point", dim);
          support.components = parse_components(s, "Components", dim);
          supports.push_back(support);
        }
    }
    const auto check_regions = [&](const std::string &entry, const std::vector<std::string> &names) {
      for (const auto &r : names)
        if (region_names.count(r) == 0)
          s.fail(entry, "'" + r + "' is not a region of 'Continuum/Regions' (Names).");
    };
    const auto vector_of = [&](const std::string &entry, const std::string &unit) {
      const auto items = Utilities::split_string_list(s.get(entry), ';');
      if (items.size() != dim)
        s.fail(entry, "needs " + std::to_string(dim) + " components separated by ';' (" + unit + ").");
      Tensor<1, 3> v;
      for (unsigned int d = 0; d < dim; ++d)
        try
          {
            v[d] = parse_number(items[d]);
          }
        catch (const std::invalid_argument &error)
          {
            s.fail(entry, "'" + items[d] + "' is not a number: " + error.what());
          }
      return v;
    };
    {
      Section::Scope list(s, "Loads");
      for (const auto &name : s.get_names("Names"))
        {
          Section::Scope one(s, name);
          Load           load;
          load.name     = name;
          load.surfaces = split_list(s.get("Surfaces"));
          load.regions  = split_list(s.get("Regions"));
          const bool at_point = !Utilities::trim(s.get("Point")).empty();
          if (int(!load.surfaces.empty()) + int(!load.regions.empty()) + int(at_point) != 1)
            s.fail("Surfaces", "a load is one of: 'Surfaces' with 'Traction', 'Regions' with 'Body force', or "
                               "'Point' with 'Force'. Give exactly one of 'Surfaces', 'Regions' and 'Point'.");
          if (!load.surfaces.empty())
            {
              load.traction = Utilities::split_string_list(s.get("Traction"), ';');
              if (load.traction.size() != dim)
                s.fail("Traction", "needs " + std::to_string(dim) + " expressions separated by ';'.");
            }
          else if (!load.regions.empty())
            {
              load.kind = Load::Kind::body_force;
              check_regions("Regions", load.regions);
              load.body_force = Utilities::split_string_list(s.get("Body force"), ';');
              if (load.body_force.size() != dim)
                s.fail("Body force", "needs " + std::to_string(dim) + " expressions separated by ';' (N/m^3).");
            }
          else
            {
              load.kind  = Load::Kind::point_force;
              load.point = parse_point(s, "Point", dim);
              load.force = vector_of("Force", "N");
            }
          loads.push_back(load);
        }
    }
    {
      Section::Scope list(s, "Masses");
      for (const auto &name : s.get_names("Names"))
        {
          Section::Scope one(s, name);
          Mass           m;
          m.name     = name;
          m.at_point = !Utilities::trim(s.get("Point")).empty();
          m.regions  = split_list(s.get("Regions"));
          if (m.at_point == !m.regions.empty())
            s.fail("Point", "an added mass is either at a 'Point' or spread over 'Regions': give exactly one.");
          if (m.at_point)
            m.point = parse_point(s, "Point", dim);
          check_regions("Regions", m.regions);
          m.mass = s.get_positive("Mass", "kg");
          masses.push_back(m);
        }
    }
    {
      Section::Scope list(s, "Output points");
      for (const auto &name : s.get_names("Names"))
        {
          Section::Scope one(s, name);
          OutputPoint    p;
          p.name      = name;
          p.point     = parse_point(s, "Point", dim);
          p.direction = parse_direction(s, "Direction");
          if (dim == 2 && p.direction[2] != 0)
            s.fail("Direction", "must lie in the x-y plane of a 2D mesh.");
          output_points.push_back(p);
        }
    }
  }
} // namespace hamilton::continuum
