// The piezoelectric continuum: mesh, degrees of freedom, electrodes,
// assembly of the electric-enthalpy operators, direct and eigen solves
// (PETSc with MUMPS or SuperLU_DIST, SLEPc), and the static, modal and
// reduced-model analyses.

#include "solver.h"

#include <hamilton/continuum/memory_estimate.h>
#include <hamilton/continuum/mesh_check.h>

#include <gmsh.h>
#include <deal.II/numerics/data_out.h>
#include <deal.II/numerics/data_postprocessor.h>
#include <deal.II/grid/grid_in.h>
#include <deal.II/base/bounding_box.h>
#include <deal.II/base/function_parser.h>
#include <hamilton/base/files.h>
#include <hamilton/base/output_file_name.h>
#include <hamilton/base/format.h>

#include <fstream>

#include <unistd.h>

namespace hamilton::continuum
{
  namespace
  {
    /**
     * The variables of the electric enthalpy at a point, (strain in Voigt
     * order with engineering shear, grad phi), from the gradients of the
     * dim + 1 solution components (u, phi).
     */
    template <int dim>
    Eigen::VectorXd
    enthalpy_variables(const std::vector<Tensor<1, dim>> &g, const std::optional<double> hoop = std::nullopt)
    {
      const unsigned int n_strain = dim == 3 ? 6 : hoop ? 4 : 3;
      Eigen::VectorXd    y(n_strain + dim);
      if (hoop)
        y[3] = *hoop;
      if (dim == 2)
        {
          y[0] = g[0][0];
          y[1] = g[1][1];
          y[2] = g[0][1] + g[1][0];
        }
      else
        for (unsigned int a = 0; a < dim; ++a)
          for (unsigned int b = a; b < dim; ++b)
            y[a == b ? a : 6 - a - b] = a == b ? g[a][a] : g[a][b] + g[b][a];
      for (unsigned int d = 0; d < dim; ++d)
        y[n_strain + d] = g[dim][d];
      return y;
    }

    /**
     * The hoop strain u_r/r of an axisymmetric body at r = p[0], from u_r and
     * its radial derivative (their ratio's limit on the axis, where u_r = 0).
     */
    template <int dim>
    double
    hoop_strain(const Point<dim> &p, const double u_r, const double du_r_dr)
    {
      return std::abs(p[0]) > 1e-12 * (std::abs(p[1]) + 1e-3) ? u_r / p[0] : du_r_dr;
    }

    /** Electric field, stress and electric displacement of a solution. */
    template <int dim>
    class FieldPostprocessor : public DataPostprocessor<dim>
    {
    public:
      /** `suffix` is appended to every name (a mode's "_per_sqrt_kg"). */
      FieldPostprocessor(const std::map<types::material_id, Eigen::MatrixXd> &enthalpy, const bool axisymmetric,
                         const std::string &suffix)
        : enthalpy(enthalpy)
        , axisymmetric(axisymmetric)
        , suffix(suffix)
      {}

      void
      evaluate_vector_field(const DataPostprocessorInputs::Vector<dim> &inputs,
                            std::vector<dealii::Vector<double>> &computed) const override
      {
        const auto              cell = inputs.template get_cell<dim>();
        const Eigen::MatrixXd  &H    = enthalpy.at(cell->material_id());
        const unsigned int      n_strain = n_stress();
        for (unsigned int q = 0; q < inputs.solution_gradients.size(); ++q)
          {
            const auto           &g = inputs.solution_gradients[q];
            const Eigen::VectorXd y =
              axisymmetric ? enthalpy_variables<dim>(
                               g, hoop_strain(inputs.evaluation_points[q], inputs.solution_values[q][0], g[0][0])) :
                             enthalpy_variables<dim>(g);
            // (sigma, -D) = H (eps, grad phi)
            const Eigen::VectorXd s = H.topLeftCorner(y.size(), y.size()) * y;
            unsigned int          k = 0;
            for (unsigned int d = 0; d < dim; ++d)
              computed[q][k++] = -g[dim][d];
            for (unsigned int i = 0; i < n_strain; ++i)
              computed[q][k++] = s[i];
            for (unsigned int d = 0; d < dim; ++d)
              computed[q][k++] = -s[n_strain + d];
          }
      }

      std::vector<std::string>
      get_names() const override
      {
        std::vector<std::string> names(dim, "electric_field_V_m");
        std::vector<std::string> stress =
          dim == 2 ? std::vector<std::string>{"stress_xx_Pa", "stress_yy_Pa", "stress_xy_Pa"} :
                     std::vector<std::string>{"stress_xx_Pa", "stress_yy_Pa", "stress_zz_Pa",
                                              "stress_yz_Pa", "stress_xz_Pa", "stress_xy_Pa"};
        if (axisymmetric)
          stress.push_back("stress_hoop_Pa");
        names.insert(names.end(), stress.begin(), stress.end());
        for (unsigned int d = 0; d < dim; ++d)
          names.push_back("electric_displacement_C_m2");
        for (auto &name : names)
          name += suffix;
        return names;
      }

      std::vector<DataComponentInterpretation::DataComponentInterpretation>
      get_data_component_interpretation() const override
      {
        std::vector<DataComponentInterpretation::DataComponentInterpretation> i(
          dim, DataComponentInterpretation::component_is_part_of_vector);
        for (unsigned int k = 0; k < n_stress(); ++k)
          i.push_back(DataComponentInterpretation::component_is_scalar);
        for (unsigned int d = 0; d < dim; ++d)
          i.push_back(DataComponentInterpretation::component_is_part_of_vector);
        return i;
      }

      UpdateFlags
      get_needed_update_flags() const override
      {
        return update_gradients | update_values | update_quadrature_points;
      }

    private:
      unsigned int
      n_stress() const
      {
        return dim == 3 ? 6 : axisymmetric ? 4 : 3;
      }

      const std::map<types::material_id, Eigen::MatrixXd> &enthalpy;
      const bool                                           axisymmetric;
      const std::string                                    suffix;
    };

    /**
     * Add Float64 arrays of one value each and a string array to the
     * FieldData of the VTU file `filename` (deal.II writes TIME and CYCLE
     * there, as Float32: 508.33999 for 508.340303 Hz).
     */
    void
    add_field_data(const std::string                                  &filename,
                   const std::vector<std::pair<std::string, double>> &values,
                   const std::string                                  &strings_name,
                   const std::vector<std::string>                     &strings)
    {
      std::ifstream     in(filename, std::ios::binary);
      std::stringstream buffer;
      buffer << in.rdbuf();
      std::string text = buffer.str();
      std::string arrays;
      for (const auto &[name, value] : values)
        {
          std::ostringstream v;
          v.precision(17);
          v << value;
          arrays += "<DataArray type=\"Float64\" Name=\"" + name + "\" NumberOfTuples=\"1\" format=\"ascii\">" +
                    v.str() + "</DataArray>\n";
        }
      // VTK's string array in ASCII: each string's bytes as numbers, each ended by 0
      arrays += "<Array type=\"String\" Name=\"" + strings_name + "\" NumberOfTuples=\"" +
                std::to_string(strings.size()) + "\" format=\"ascii\">";
      for (const auto &text : strings)
        {
          for (const unsigned char c : text)
            arrays += std::to_string(static_cast<unsigned int>(c)) + " ";
          arrays += "0 ";
        }
      arrays += "</Array>\n";
      const auto end = text.find("</FieldData>");
      if (end != std::string::npos)
        text.insert(end, arrays);
      else
        {
          const std::string grid = "<UnstructuredGrid>";
          const auto        at   = text.find(grid);
          AssertThrow(at != std::string::npos, ExcMessage("no UnstructuredGrid in " + filename));
          text.insert(at + grid.size(), "\n<FieldData>\n" + arrays + "</FieldData>");
        }
      write_file(filename, [&](std::ostream &out) { out << text; });
    }
  } // namespace

  namespace
  {
    /**
     * Seconds since this process started (Linux: /proc, 10 ms resolution;
     * 0 elsewhere): the start-up before the continuum (loading the shared
     * libraries, MPI, reading the file) for the phases in timings_s.
     */
    double
    process_age()
    {
      std::ifstream uptime("/proc/uptime"), stat("/proc/self/stat");
      double        now = 0;
      std::string   text;
      if (!(uptime >> now) || !std::getline(stat, text))
        return 0;
      // field 22 (start time in clock ticks since boot), after the command in parentheses
      std::istringstream fields(text.substr(text.rfind(')') + 2));
      std::string        field;
      for (int k = 3; k <= 22 && fields >> field; ++k)
        ;
      const double age = fields ? now - std::stod(field) / static_cast<double>(::sysconf(_SC_CLK_TCK)) : 0.;
      return std::round(age * 100) / 100;
    }
  } // namespace

  template <int dim>
  Solver<dim>::Solver(const ContinuumModel &model, const AnalysisOptions &options)
    : model(model)
    , options(options)
    , rank(Utilities::MPI::this_mpi_process(MPI_COMM_WORLD))
    , triangulation(MPI_COMM_WORLD)
    , fe(FE_Q<dim>(model.degree), dim, FE_Q<dim>(model.degree), 1)
    , dof_handler(triangulation)
  {
    scale            = dim == 2 ? model.thickness : 1.;
    axisymmetric     = model.formulation == Formulation::axisymmetric;
    start_up_seconds = process_age();
    const auto start = std::chrono::steady_clock::now();
    read_mesh();
    setup_dofs();
    setup_masses();
    check_loads();
    setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  namespace
  {
    /** The text after "Additional information:" of a deal.II exception. */
    std::string
    reason_of(const std::exception &e)
    {
      std::string text = e.what();
      const auto  at   = text.find("Additional information:");
      if (at != std::string::npos)
        text = text.substr(at + 23);
      const auto end = text.find("Stacktrace");
      if (end != std::string::npos)
        text = text.substr(0, end);
      std::string compact;
      for (const char c : text)
        if (!(std::isspace(static_cast<unsigned char>(c)) && (compact.empty() || compact.back() == ' ')))
          compact += std::isspace(static_cast<unsigned char>(c)) ? ' ' : c;
      while (!compact.empty() && compact.back() == ' ')
        compact.pop_back();
      return compact;
    }

    std::string
    join(const std::map<std::string, int> &groups)
    {
      std::string list;
      for (const auto &[name, tag] : groups)
        list += (list.empty() ? "'" : ", '") + name + "'";
      return list.empty() ? "none" : list;
    }

    /** "x, y[, z]" of a point, for messages. */
    std::string
    coordinates(const Point<3> &p, const unsigned int dim)
    {
      std::string text;
      for (unsigned int d = 0; d < dim; ++d)
        text += (d == 0 ? "" : ", ") + format_number(p[d]);
      return text;
    }

    [[noreturn]] void
    fail(const std::string &path, const std::string &entry, const std::string &value, const std::string &what)
    {
      input_error(path, entry, "'" + value + "'", what);
    }
  } // namespace

  template <int dim>
  void
  Solver<dim>::read_mesh()
  {
    const std::string mesh_path = "Continuum";
    // names of the physical groups, through the Gmsh library
    std::map<std::string, int> cell_groups, face_groups;
    int                        mesh_dimension = 0;
    std::vector<std::size_t>   node_tags;
    std::vector<double>        node_coordinates, node_parameters;
    {
      gmsh::initialize(0, nullptr, false);
      gmsh::option::setNumber("General.Terminal", 0);
      try
        {
          gmsh::open(model.mesh_file);
          mesh_dimension = gmsh::model::getDimension();
          gmsh::model::mesh::getNodes(node_tags, node_coordinates, node_parameters);
          gmsh::vectorpair groups;
          gmsh::model::getPhysicalGroups(groups);
          for (const auto &[d, tag] : groups)
            {
              std::string name;
              gmsh::model::getPhysicalName(d, tag, name);
              if (name.empty())
                name = std::to_string(tag);
              if (d == dim)
                cell_groups[name] = tag;
              else if (d == dim - 1)
                face_groups[name] = tag;
            }
        }
      catch (...)
        {
          gmsh::finalize();
          fail(mesh_path, "Mesh", model.mesh_file,
               "Gmsh cannot read this file as a mesh. Give a .msh file written by Gmsh (ASCII or binary, "
               "format 2 or 4), e.g. 'gmsh -" + std::to_string(dim) + " device.geo -o device.msh'.");
        }
      gmsh::finalize();
    }
    check_node_coordinates(node_tags, node_coordinates, model.mesh_file);
    if (mesh_dimension != dim)
      fail(mesh_path, "Mesh", model.mesh_file,
           "is a " + std::to_string(mesh_dimension) + "D mesh, but 'Formulation' asks for a " + std::to_string(dim) +
             "D body. Use 'Formulation = 3D' with a 3D mesh, 'plane stress', 'plane strain' or 'axisymmetric' with a 2D mesh in "
             "the x-y plane.");
    if (cell_groups.empty())
      fail(mesh_path, "Mesh", model.mesh_file,
           "has no physical group of " + std::to_string(dim) +
             "D cells: Hamilton takes regions (materials) from them. Add e.g. 'Physical " +
             (dim == 2 ? std::string("Surface") : std::string("Volume")) +
             "(\"pzt\") = {...};' to the .geo file (see meshes/README.md).");

    Triangulation<dim> coarse;
    {
      GridIn<dim> reader;
      reader.attach_triangulation(coarse);
      try
        {
          reader.read_msh(model.mesh_file);
        }
      catch (const std::exception &e)
        {
          fail(mesh_path, "Mesh", model.mesh_file,
               "cannot be read as a mesh of quadrilaterals/hexahedra: " + reason_of(e) +
                 " (An interior face cannot be in a physical group: name an electrode between two regions "
                 "with 'Interfaces = regionA/regionB' instead; an entity may belong to one physical group only.)");
        }
    }
    for (const auto &cell : coarse.active_cell_iterators())
      if (!cell->reference_cell().is_hyper_cube())
        fail(mesh_path, "Mesh", model.mesh_file,
             "holds triangles or tetrahedra; Hamilton's distributed meshes need quadrilaterals (2D) or hexahedra "
             "(3D). Mesh with 'Recombine' (and extrude layers with 'Layers{...}; Recombine;').");
    orient_cells(coarse, model.mesh_file);

    // regions: every cell in a named, declared region
    std::map<int, std::string> name_of_tag;
    for (const auto &[name, tag] : cell_groups)
      name_of_tag[tag] = name;
    for (unsigned int r = 0; r < model.regions.size(); ++r)
      {
        const auto &region = model.regions[r];
        const auto  found  = cell_groups.find(region.name);
        if (found == cell_groups.end())
          fail("Continuum/Regions", "Names", region.name,
               "is not a physical group of cells of '" + model.mesh_file + "'; its groups are " + join(cell_groups) +
                 ".");
        region_of[found->second] = r;
      }
    for (const auto &cell : coarse.active_cell_iterators())
      if (region_of.count(cell->material_id()) == 0)
        {
          const auto tag = name_of_tag.find(cell->material_id());
          fail("Continuum/Regions", "Names", "",
               tag == name_of_tag.end() ?
                 "the mesh has cells in no physical group (e.g. the cell at " + format(cell->center()[0]) + ", " +
                   format(cell->center()[1]) + "): put every cell into a named physical group." :
                 "the mesh's physical group '" + tag->second + "' is not a region: add it to 'Names' with a material.");
        }
    for (const auto &[id, r] : region_of)
      {
        const auto &region   = model.regions[r];
        const auto &material = model.material_of(region);
        const auto  rotated  = material.piezoelectric ? material.rotated(region.poling) : material;
        enthalpy[id]         = rotated.enthalpy_matrix(model.formulation);
        density[id]          = material.density;
        if (material.piezoelectric)
          piezo_ids.insert(id);
      }
    if (const std::string warning = size_warning(coarse, {piezo_ids.begin(), piezo_ids.end()}, model.mesh_file);
        !warning.empty())
      input_warnings.push_back(warning);

    // boundary groups named by electrodes, supports and loads
    for (const auto &[name, tag] : face_groups)
      boundary_ids[name] = tag;
    const auto check_surfaces = [&](const std::string &path, const std::string &entry,
                                    const std::vector<std::string> &surfaces) {
      for (const auto &surface : surfaces)
        if (boundary_ids.count(surface) == 0)
          fail(path, entry, surface,
               "is not a physical group of boundary faces (" + std::to_string(dim - 1) + "D) of '" + model.mesh_file +
                 "'; its groups are " + join(face_groups) + ".");
    };
    for (const auto &e : model.electrodes)
      check_surfaces("Continuum/Electrodes/" + e.name, "Surfaces", e.surfaces);
    for (const auto &s : model.supports)
      check_surfaces("Continuum/Supports/" + s.name, "Surfaces", s.surfaces);
    for (const auto &l : model.loads)
      check_surfaces("Continuum/Loads/" + l.name, "Surfaces", l.surfaces);

    // the memory the run will need, before any of it is spent: refused
    // (in --validate too) if it cannot fit
    const unsigned int n_ranks = Utilities::MPI::n_mpi_processes(comm);
    memory_estimate            = estimate_memory(coarse, model.refinements, model.degree, n_ranks);
    if (const std::string warning =
          check_memory(coarse, model.refinements, model.degree, n_ranks, available_memory(comm));
        !warning.empty())
      input_warnings.push_back(warning);
    triangulation.copy_triangulation(coarse);
    triangulation.refine_global(model.refinements);
    if (triangulation.n_global_active_cells() < n_ranks)
      fail(mesh_path, "Global refinements", std::to_string(model.refinements),
           "gives " + std::to_string(triangulation.n_global_active_cells()) + " cells for " +
             std::to_string(n_ranks) + " MPI ranks: run with fewer ranks or refine the mesh.");
  }

  template <int dim>
  void
  Solver<dim>::setup_dofs()
  {
    dof_handler.distribute_dofs(fe);
    owned = dof_handler.locally_owned_dofs();
    DoFTools::extract_locally_relevant_dofs(dof_handler, relevant);
    DoFTools::extract_locally_active_dofs(dof_handler, active);
    ComponentMask u_mask(dim + 1, true);
    u_mask.set(dim, false);
    owned_u = DoFTools::extract_dofs(dof_handler, u_mask);

    const unsigned int                   n = fe.n_dofs_per_cell();
    std::vector<types::global_dof_index> dofs(n), face_dofs(fe.n_dofs_per_face());
    std::set<types::global_dof_index>    active_potential, potential_on_owned;
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned() || cell->is_ghost())
        {
          cell->get_dof_indices(dofs);
          for (unsigned int i = 0; i < n; ++i)
            if (fe.system_to_component_index(i).first == dim)
              {
                if (piezo_ids.count(cell->material_id()) != 0)
                  active_potential.insert(dofs[i]);
                if (cell->is_locally_owned())
                  potential_on_owned.insert(dofs[i]);
              }
        }
    for (const auto d : potential_on_owned)
      if (active_potential.count(d) == 0)
        inactive_potential.push_back(d);

    // electrodes: potential dofs of their faces on piezoelectric cells
    const unsigned int                 n_regions = model.regions.size();
    std::vector<std::vector<double>>   touches(model.electrodes.size(), std::vector<double>(n_regions, 0.));
    std::vector<std::set<types::global_dof_index>> on_electrode(model.electrodes.size());
    std::vector<double>                adjacency(n_regions * n_regions, 0.);
    for (unsigned int k = 0; k < model.electrodes.size(); ++k)
      {
        const auto             &e = model.electrodes[k];
        std::set<types::boundary_id> ids;
        for (const auto &s : e.surfaces)
          ids.insert(boundary_ids.at(s));
        for (const auto &cell : dof_handler.active_cell_iterators())
          if ((cell->is_locally_owned() || cell->is_ghost()) && piezo_ids.count(cell->material_id()) != 0)
            for (const unsigned int f : cell->face_indices())
              {
                bool on = false;
                if (cell->face(f)->at_boundary())
                  on = ids.count(cell->face(f)->boundary_id()) != 0;
                else if (!cell->neighbor(f)->is_artificial())
                  {
                    const std::string &a = model.regions[region_of.at(cell->material_id())].name;
                    const std::string &b = model.regions[region_of.at(cell->neighbor(f)->material_id())].name;
                    for (const auto &[first, second] : e.interfaces)
                      on = on || (a == first && b == second) || (a == second && b == first);
                  }
                if (!on)
                  continue;
                touches[k][region_of.at(cell->material_id())] = 1;
                cell->face(f)->get_dof_indices(face_dofs);
                for (unsigned int i = 0; i < face_dofs.size(); ++i)
                  if (fe.face_system_to_component_index(i, f).first == dim)
                    on_electrode[k].insert(face_dofs[i]);
              }
        const types::global_dof_index none = dof_handler.n_dofs();
        const types::global_dof_index local_first =
          on_electrode[k].empty() ? none : *on_electrode[k].begin();
        electrode_dofs.push_back({{}, Utilities::MPI::min(local_first, comm)});
        if (electrode_dofs.back().master == none)
          {
            std::string listed;
            for (const auto &s : e.surfaces)
              listed += (listed.empty() ? "" : ", ") + s;
            for (const auto &[a, b] : e.interfaces)
              listed += (listed.empty() ? "" : ", ") + a + "/" + b;
          fail("Continuum/Electrodes/" + e.name, e.surfaces.empty() ? "Interfaces" : "Surfaces", listed,
               "no face of a piezoelectric region lies there (surfaces: a boundary group on a piezoelectric "
               "region; interfaces: two regions that touch, one of them piezoelectric).");
          }
        for (const auto d : on_electrode[k])
          if (active.is_element(d))
            electrode_dofs.back().dofs.push_back(d);
        {
          const auto local = touches[k];
          Utilities::MPI::max(local, comm, touches[k]);
        }
      }
    // two electrodes sharing a node would be shorted
    for (unsigned int a = 0; a < on_electrode.size(); ++a)
      for (unsigned int b = a + 1; b < on_electrode.size(); ++b)
        {
          unsigned int shared = 0;
          for (const auto d : on_electrode[a])
            shared += on_electrode[b].count(d);
          if (Utilities::MPI::sum(shared, comm) > 0)
            fail("Continuum/Electrodes/" + model.electrodes[b].name, "Surfaces", "",
                 "touches electrode '" + model.electrodes[a].name +
                   "' (they share nodes, so they would be one conductor). Separate them in the mesh, or make "
                   "them one electrode.");
        }
    for (unsigned int k = 0; k < model.electrodes.size(); ++k)
      if (model.electrodes[k].is_port())
        ports.push_back(k);

    // every piezoelectric region connected (through electrodes or common
    // faces) to a grounded electrode
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned() && piezo_ids.count(cell->material_id()) != 0)
        for (const unsigned int f : cell->face_indices())
          if (!cell->face(f)->at_boundary() && piezo_ids.count(cell->neighbor(f)->material_id()) != 0)
            adjacency[region_of.at(cell->material_id()) * n_regions +
                      region_of.at(cell->neighbor(f)->material_id())] = 1;
    {
      const auto local = adjacency;
      Utilities::MPI::max(local, comm, adjacency);
    }
    std::vector<unsigned int> root(n_regions);
    for (unsigned int r = 0; r < n_regions; ++r)
      root[r] = r;
    const std::function<unsigned int(unsigned int)> find = [&](unsigned int r) {
      return root[r] == r ? r : root[r] = find(root[r]);
    };
    for (unsigned int a = 0; a < n_regions; ++a)
      for (unsigned int b = 0; b < n_regions; ++b)
        if (adjacency[a * n_regions + b] != 0)
          root[find(a)] = find(b);
    for (unsigned int k = 0; k < model.electrodes.size(); ++k)
      {
        int first = -1;
        for (unsigned int r = 0; r < n_regions; ++r)
          if (touches[k][r] != 0)
            {
              if (first >= 0)
                root[find(r)] = find(first);
              else
                first = r;
            }
      }
    std::set<unsigned int> grounded;
    for (unsigned int k = 0; k < model.electrodes.size(); ++k)
      if (model.electrodes[k].circuit == Circuit::ground)
        for (unsigned int r = 0; r < n_regions; ++r)
          if (touches[k][r] != 0)
            grounded.insert(find(r));
    for (const auto &[id, r] : region_of)
      if (piezo_ids.count(id) != 0 && grounded.count(find(r)) == 0)
        fail("Continuum/Regions/" + model.regions[r].name, "Material", model.regions[r].material,
             "is piezoelectric, but no electrode with 'Circuit = ground' reaches this region (directly, through a "
             "shared electrode or a piezoelectric neighbour): its potential has no reference. Add an electrode on "
             "one of its faces with 'Circuit = ground' in 'Continuum/Electrodes'.");

    // point supports: the dofs of a mesh vertex within 1e-9 of the mesh size
    // (the diagonal of the vertices' bounding box: every rank holds the coarse
    // mesh's vertices; GridTools::diameter refuses a refined distributed mesh
    // in Debug builds)
    std::vector<Point<dim>> used;
    for (unsigned int v = 0; v < triangulation.n_vertices(); ++v)
      if (triangulation.get_used_vertices()[v])
        used.push_back(triangulation.get_vertices()[v]);
    const auto   corners   = BoundingBox<dim>(used).get_boundary_points();
    const double tolerance = 1e-9 * corners.first.distance(corners.second);

    // axisymmetric: r = x >= 0, and u_r = 0 on the axis
    if (axisymmetric)
      {
        double smallest = 0;
        for (const auto &cell : triangulation.active_cell_iterators())
          if (cell->is_locally_owned())
            for (const unsigned int v : cell->vertex_indices())
              smallest = std::min(smallest, cell->vertex(v)[0]);
        smallest = Utilities::MPI::min(smallest, comm);
        if (smallest < -tolerance)
          fail("Continuum", "Formulation", "axisymmetric",
               "needs the mesh in the half plane x >= 0 (x is the radius, y the axis), but it reaches x = " +
                 format(smallest) + " m. Mirror or move the mesh.");
        std::vector<types::global_dof_index> face_dofs(fe.n_dofs_per_face());
        for (const auto &cell : dof_handler.active_cell_iterators())
          if (cell->is_locally_owned() || cell->is_ghost())
            for (const unsigned int f : cell->face_indices())
              if (cell->face(f)->at_boundary() && std::abs(cell->face(f)->center()[0]) < tolerance)
                {
                  cell->face(f)->get_dof_indices(face_dofs);
                  for (unsigned int i = 0; i < face_dofs.size(); ++i)
                    if (fe.face_system_to_component_index(i, f).first == 0)
                      axis_dofs.push_back(face_dofs[i]);
                }
      }
    for (const auto &s : model.supports)
      {
        point_support_dofs.emplace_back();
        if (!s.at_point)
          continue;
        unsigned int found = 0;
        for (const auto &cell : dof_handler.active_cell_iterators())
          if (cell->is_locally_owned() || cell->is_ghost())
            for (const unsigned int v : cell->vertex_indices())
              {
                Point<3> p;
                for (unsigned int d = 0; d < dim; ++d)
                  p[d] = cell->vertex(v)[d];
                if (p.distance(s.point) < tolerance)
                  {
                    found += cell->is_locally_owned();
                    for (const auto k : s.components)
                      point_support_dofs.back().push_back(cell->vertex_dof_index(v, k));
                  }
              }
        if (Utilities::MPI::sum(found, comm) == 0)
          fail("Continuum/Supports/" + s.name, "Point", "",
               "is not a vertex of the (refined) mesh; give the coordinates of a mesh vertex (m).");
      }

    // every rank sees the electrodes' masters: their constraint lines,
    // ghosted values and matrix rows reach across the partition
    for (const auto &e : electrode_dofs)
      relevant.add_index(e.master);
    relevant.compress();
    const auto open = make_constraints(State::open_circuit);
    sparsity.reinit(dof_handler.n_dofs(), dof_handler.n_dofs(), relevant);
    DoFTools::make_sparsity_pattern(dof_handler, sparsity, open, false);
    SparsityTools::distribute_sparsity_pattern(sparsity, owned, comm, relevant);
    // the mass couples a displacement component only with itself: a quarter
    // of K's entries in 3D (K's pattern would make every product with M, 4-5
    // per Krylov-Schur step, four times dearer), every diagonal entry (the
    // constrained rows'); a subset of K's pattern, which K - sigma M needs
    dealii::Table<2, DoFTools::Coupling> same_component(dim + 1, dim + 1);
    same_component.fill(DoFTools::none);
    for (unsigned int c = 0; c < dim; ++c)
      same_component(c, c) = DoFTools::always;
    mass_sparsity.reinit(dof_handler.n_dofs(), dof_handler.n_dofs(), relevant);
    DoFTools::make_sparsity_pattern(dof_handler, same_component, mass_sparsity, open, false);
    for (const auto d : relevant)
      mass_sparsity.add(d, d);
    SparsityTools::distribute_sparsity_pattern(mass_sparsity, owned, comm, relevant);
  }

  template <int dim>
  void
  Solver<dim>::setup_masses()
  {
    const QGauss<dim> quadrature(fe.degree + 1);
    FEValues<dim>     fe_values(fe, quadrature, update_quadrature_points | update_JxW_values);
    for (const auto &m : model.masses)
      {
        if (m.at_point)
          {
            Point<dim> p;
            for (unsigned int d = 0; d < dim; ++d)
              p[d] = m.point[d];
            typename DoFHandler<dim>::active_cell_iterator cell;
            Point<dim>                                     unit;
            const bool                                     found = locate(p, cell, unit);
            const unsigned int count = Utilities::MPI::sum(found ? 1u : 0u, comm);
            if (count == 0)
              fail("Continuum/Masses/" + m.name, "Point", coordinates(m.point, dim),
                   "lies outside the mesh; give a point of the body (m).");
            if (found)
              point_masses[cell->active_cell_index()].emplace_back(unit, m.mass / count);
            continue;
          }
        std::set<types::material_id> ids;
        for (const auto &[id, r] : region_of)
          if (std::find(m.regions.begin(), m.regions.end(), model.regions[r].name) != m.regions.end())
            ids.insert(id);
        double volume = 0;
        for (const auto &cell : dof_handler.active_cell_iterators())
          if (cell->is_locally_owned() && ids.count(cell->material_id()) != 0)
            {
              fe_values.reinit(cell);
              for (const unsigned int q : fe_values.quadrature_point_indices())
                volume += fe_values.JxW(q) * measure(fe_values.quadrature_point(q));
            }
        volume = Utilities::MPI::sum(volume, comm);
        if (!(volume > 0))
          fail("Continuum/Masses/" + m.name, "Regions", "", "has no cells in the mesh.");
        for (const auto id : ids)
          added_density[id] += m.mass / volume;
      }
  }

  template <int dim>
  void
  Solver<dim>::add_point_load(const Point<3>                  &p3,
                              const Tensor<1, 3>              &force,
                              const AffineConstraints<double> &constraints,
                              PVector                         &rhs,
                              const std::string               &path) const
  {
    Point<dim> p;
    for (unsigned int d = 0; d < dim; ++d)
      p[d] = p3[d];
    typename DoFHandler<dim>::active_cell_iterator cell;
    Point<dim>                                     unit;
    const bool                                     found = locate(p, cell, unit);
    const unsigned int                             count = Utilities::MPI::sum(found ? 1u : 0u, comm);
    if (count == 0)
      fail(path, "Point", coordinates(p3, dim), "lies outside the mesh; give a point of the body (m).");
    if (!found)
      return;
    std::vector<types::global_dof_index> dofs(fe.n_dofs_per_cell());
    cell->get_dof_indices(dofs);
    dealii::Vector<double> f(dofs.size());
    for (unsigned int i = 0; i < dofs.size(); ++i)
      {
        const unsigned int c = fe.system_to_component_index(i).first;
        if (c < dim)
          f(i) = force[c] * fe.shape_value(i, unit) / count;
      }
    constraints.distribute_local_to_global(f, dofs, rhs);
  }

  template <int dim>
  AffineConstraints<double>
  Solver<dim>::make_constraints(const State                                state,
                                const unsigned int                         electrode,
                                const std::vector<SpectralModel::Circuit> *circuits) const
  {
    Assert(state != State::harmonic || (circuits != nullptr && circuits->size() == ports.size()),
           ExcMessage("the harmonic state needs one circuit per port"));
    AffineConstraints<double> c(relevant);
    DoFTools::make_hanging_node_constraints(dof_handler, c);
    for (unsigned int k = 0; k < model.supports.size(); ++k)
      {
        const auto &s = model.supports[k];
        ComponentMask mask(dim + 1, false);
        for (const auto component : s.components)
          mask.set(component, true);
        for (const auto &surface : s.surfaces)
          VectorTools::interpolate_boundary_values(dof_handler, boundary_ids.at(surface),
                                                   Functions::ZeroFunction<dim>(dim + 1), c, mask);
        for (const auto dof : point_support_dofs[k])
          if (!c.is_constrained(dof))
            c.add_line(dof);
      }
    for (const auto dof : axis_dofs)
      if (!c.is_constrained(dof))
        c.add_line(dof);
    if (state == State::clamped)
      {
        std::vector<types::global_dof_index> dofs(fe.n_dofs_per_cell());
        for (const auto &cell : dof_handler.active_cell_iterators())
          if (cell->is_locally_owned() || cell->is_ghost())
            {
              cell->get_dof_indices(dofs);
              for (unsigned int i = 0; i < dofs.size(); ++i)
                if (fe.system_to_component_index(i).first < dim && !c.is_constrained(dofs[i]))
                  c.add_line(dofs[i]);
            }
      }
    for (const auto d : inactive_potential)
      c.add_line(d);
    for (unsigned int k = 0; k < model.electrodes.size(); ++k)
      {
        const auto &e     = model.electrodes[k];
        bool        fixed = true;
        double      value = 0;
        switch (e.circuit)
          {
            case Circuit::ground:
              break;
            case Circuit::floating:
              fixed = false;
              break;
            default:
              if (state == State::open_circuit)
                fixed = false;
              else if (state == State::statics)
                {
                  fixed = e.circuit != Circuit::open_circuit;
                  value = e.circuit == Circuit::voltage ? e.voltage : 0.;
                }
              else if (state == State::clamped)
                value = k == electrode ? 1. : 0.;
              else if (state == State::harmonic)
                {
                  const auto &circuit = (*circuits)[std::find(ports.begin(), ports.end(), k) - ports.begin()];
                  fixed = circuit.kind != SpectralModel::Circuit::admittance;
                  value = circuit.kind == SpectralModel::Circuit::prescribed ? circuit.value.real() : 0.;
                }
          }
        for (const auto d : electrode_dofs[k].dofs)
          if (fixed)
            {
              c.add_line(d);
              if (value != 0)
                c.set_inhomogeneity(d, value);
            }
          else if (d != electrode_dofs[k].master)
            {
              c.add_line(d);
              c.add_entry(d, electrode_dofs[k].master, 1.);
            }
      }
    c.close();
    return c;
  }

  template <int dim>
  void
  Solver<dim>::local_matrices(const typename DoFHandler<dim>::active_cell_iterator &cell,
                              FEValues<dim>                                        &fe_values,
                              FullMatrix<double>                                   &K,
                              FullMatrix<double>                                   &M) const
  {
    if (local_matrices_cache.empty())
      local_matrices_cache.resize(triangulation.n_active_cells());
    AssertIndexRange(cell->active_cell_index(), local_matrices_cache.size());
    LocalMatrices     &cached = local_matrices_cache[cell->active_cell_index()];
    const unsigned int n      = fe.n_dofs_per_cell();
    if (cached.K_upper.empty())
      compute_local_matrices(cell, fe_values, cached);
    AssertDimension(cached.K_upper.size(), n * (n + 1) / 2);
    for (unsigned int i = 0, k = 0; i < n; ++i)
      {
        const auto [c, a] = fe.system_to_component_index(i);
        for (unsigned int j = i; j < n; ++j, ++k)
          {
            K(i, j) = K(j, i) = cached.K_upper[k];
            const auto [d, b] = fe.system_to_component_index(j);
            M(i, j)           = c == d && c < dim ? cached.M_scalar(a, b) : 0.;
            M(j, i)           = c == d && c < dim ? cached.M_scalar(b, a) : 0.;
          }
      }
    // point masses in this cell: m N_i(p) N_j(p) for equal displacement components
    const auto here = point_masses.find(cell->active_cell_index());
    if (here != point_masses.end())
      for (const auto &[unit, mass] : here->second)
        for (unsigned int i = 0; i < n; ++i)
          {
            const unsigned int c = fe.system_to_component_index(i).first;
            if (c == dim)
              continue;
            for (unsigned int j = 0; j < n; ++j)
              if (fe.system_to_component_index(j).first == c)
                M(i, j) += mass * fe.shape_value(i, unit) * fe.shape_value(j, unit);
          }
  }

  template <int dim>
  void
  Solver<dim>::strain_operator(const FEValues<dim> &fe_values,
                               const unsigned int   q,
                               const bool           piezo,
                               Eigen::MatrixXd     &B) const
  {
    const unsigned int n_strain = n_strains(model.formulation);
    B.setZero();
    for (unsigned int i = 0; i < fe.n_dofs_per_cell(); ++i)
      {
        const unsigned int   c = fe.system_to_component_index(i).first;
        const Tensor<1, dim> g = fe_values.shape_grad(i, q);
        if (c == dim)
          {
            if (piezo)
              for (unsigned int d = 0; d < dim; ++d)
                B(n_strain + d, i) = g[d];
            continue;
          }
        B(c, i) = g[c];
        if (dim == 2)
          {
            B(2, i) = g[1 - c];
            // the hoop strain u_r/r (r > 0 at every quadrature point)
            if (axisymmetric && c == 0)
              B(3, i) = fe_values.shape_value(i, q) / fe_values.quadrature_point(q)[0];
          }
        else
          // shear rows yz (3), xz (4), xy (5): row 6 - a - b for the pair (a, b)
          for (unsigned int other = 0; other < dim; ++other)
            if (other != c)
              B(6 - c - other, i) = g[other];
      }
  }

  template <int dim>
  Eigen::MatrixXd
  Solver<dim>::energy_products(const std::vector<PVector> &x) const
  {
    const unsigned int m = x.size();
    std::vector<PVector> xg;
    for (const auto &v : x)
      xg.push_back(ghosted(v));
    const QGauss<dim>  quadrature(fe.degree + 1);
    FEValues<dim>      fe_values(fe, quadrature, update_values | update_gradients | update_quadrature_points | update_JxW_values);
    const unsigned int n        = fe.n_dofs_per_cell();
    const unsigned int n_strain = n_strains(model.formulation);
    Eigen::MatrixXd    products = Eigen::MatrixXd::Zero(m, m);
    Eigen::MatrixXd    local(n, m);
    dealii::Vector<double> values(n);
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          fe_values.reinit(cell);
          const bool         piezo = piezo_ids.count(cell->material_id()) != 0;
          const unsigned int rows  = piezo ? n_strain + dim : n_strain;
          const Eigen::MatrixXd Hc = enthalpy.at(cell->material_id()).topLeftCorner(rows, rows);
          Eigen::MatrixXd       B(rows, n);
          for (unsigned int k = 0; k < m; ++k)
            {
              cell->get_dof_values(xg[k], values);
              for (unsigned int i = 0; i < n; ++i)
                local(i, k) = values[i];
            }
          Eigen::MatrixXd cell_products = Eigen::MatrixXd::Zero(m, m);
          for (const unsigned int q : fe_values.quadrature_point_indices())
            {
              strain_operator(fe_values, q, piezo, B);
              // strains and fields at q, each from the gradients of one vector
              const Eigen::MatrixXd S = B * local;
              cell_products.noalias() += (fe_values.JxW(q) * measure(fe_values.quadrature_point(q))) *
                                         (S.transpose() * Hc * S);
            }
          products += cell_products;
        }
    for (unsigned int i = 0; i < m; ++i)
      for (unsigned int j = 0; j < m; ++j)
        products(i, j) = Utilities::MPI::sum(products(i, j), comm);
    return (products + products.transpose()) / 2;
  }

  template <int dim>
  void
  Solver<dim>::compute_local_matrices(const typename DoFHandler<dim>::active_cell_iterator &cell,
                                      FEValues<dim>                                        &fe_values,
                                      LocalMatrices                                        &local) const
  {
    fe_values.reinit(cell);
    const Eigen::MatrixXd &H        = enthalpy.at(cell->material_id());
    const double           rho      = density.at(cell->material_id()) +
                           (added_density.count(cell->material_id()) ? added_density.at(cell->material_id()) : 0.);
    const unsigned int     n        = fe.n_dofs_per_cell();
    const unsigned int     n_strain = n_strains(model.formulation);
    const bool             piezo    = piezo_ids.count(cell->material_id()) != 0;
    const unsigned int     rows     = piezo ? n_strain + dim : n_strain;
    const Eigen::MatrixXd  Hc       = H.topLeftCorner(rows, rows);
    using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    // B has at most 3 nonzeros per column (a shape function's strains or
    // field): K_e = sum_q B^T (H B) JxW accumulates, for each column i of B,
    // its nonzeros times rows of H B (8 times fewer operations than the
    // dense product)
    Eigen::MatrixXd B(rows, n);
    RowMatrix       HB(rows, n), Ke = RowMatrix::Zero(n, n);
    std::vector<std::array<std::pair<unsigned int, double>, 3>> nonzeros(n);
    std::vector<unsigned int>                                   n_nonzeros(n);
    // the mass of the scalar shape functions, the same for every displacement component
    const unsigned int n_scalar = fe.base_element(0).n_dofs_per_cell();
    Eigen::MatrixXd    Ms       = Eigen::MatrixXd::Zero(n_scalar, n_scalar);
    Eigen::VectorXd    N(n_scalar);
    for (const unsigned int q : fe_values.quadrature_point_indices())
      {
        const double JxW = fe_values.JxW(q) * measure(fe_values.quadrature_point(q));
        strain_operator(fe_values, q, piezo, B);
        for (unsigned int i = 0; i < n; ++i)
          {
            unsigned int &count = n_nonzeros[i];
            count               = 0;
            for (unsigned int row = 0; row < rows; ++row)
              if (B(row, i) != 0.)
                nonzeros[i][count++] = {row, B(row, i) * JxW};
          }
        HB.noalias() = Hc * B;
        for (unsigned int i = 0; i < n; ++i)
          for (unsigned int k = 0; k < n_nonzeros[i]; ++k)
            Ke.row(i) += nonzeros[i][k].second * HB.row(nonzeros[i][k].first);
        for (unsigned int a = 0; a < n_scalar; ++a)
          N[a] = fe_values.shape_value(fe.component_to_system_index(0, a), q);
        Ms.noalias() += (rho * JxW) * N * N.transpose();
      }
    local.K_upper.resize(n * (n + 1) / 2);
    for (unsigned int i = 0, k = 0; i < n; ++i)
      for (unsigned int j = i; j < n; ++j, ++k)
        local.K_upper[k] = (Ke(i, j) + Ke(j, i)) / 2; // symmetric to the last bit
    local.M_scalar = std::move(Ms);
  }

  template <int dim>
  void
  Solver<dim>::assemble(const AffineConstraints<double> &constraints,
                        PMatrix                         &K,
                        PMatrix                         *M,
                        PVector                         &rhs,
                        const bool                       loads,
                        const PMatrix                   *like) const
  {
    // the structure of a matrix assembled before (a copy: the clamped
    // capacitance of the graded C4 3D mesh 3.3 -> 0.9 s, loaded machine) or
    // built from the sparsity pattern
    if (like != nullptr)
      K.reinit(*like);
    else
      K.reinit(owned, owned, sparsity, comm);
    if (M != nullptr)
      M->reinit(owned, owned, mass_sparsity, comm);
    rhs.reinit(owned, comm);
    const QGauss<dim>     quadrature(fe.degree + 1);
    const QGauss<dim - 1> face_quadrature(fe.degree + 1);
    FEValues<dim>         fe_values(fe, quadrature, update_values | update_gradients | update_quadrature_points | update_JxW_values);
    FEFaceValues<dim>     face_values(fe, face_quadrature, update_values | update_quadrature_points | update_JxW_values);
    const unsigned int    n = fe.n_dofs_per_cell();
    FullMatrix<double>    Kc(n, n), Mc(n, n);
    dealii::Vector<double> f(n);
    std::vector<types::global_dof_index> dofs(n);

    // tractions on boundary ids, body forces on material ids
    std::vector<std::pair<std::set<types::boundary_id>, std::unique_ptr<FunctionParser<dim>>>> tractions;
    std::vector<std::pair<std::set<types::material_id>, std::unique_ptr<FunctionParser<dim>>>> body_forces;
    const auto parsed = [&](const std::vector<std::string> &components, const ContinuumModel::Load &load,
                            const std::string &entry) { return load_function(components, load, entry); };
    if (loads)
      for (const auto &load : model.loads)
        {
          if (load.kind == ContinuumModel::Load::Kind::traction)
          {
            std::set<types::boundary_id> ids;
            for (const auto &s : load.surfaces)
              ids.insert(boundary_ids.at(s));
            tractions.emplace_back(ids, parsed(load.traction, load, "Traction"));
          }
        else if (load.kind == ContinuumModel::Load::Kind::body_force)
          {
            std::set<types::material_id> ids;
            for (const auto &[id, r] : region_of)
              if (std::find(load.regions.begin(), load.regions.end(), model.regions[r].name) != load.regions.end())
                ids.insert(id);
            body_forces.emplace_back(ids, parsed(load.body_force, load, "Body force"));
          }
        }

    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          local_matrices(cell, fe_values, Kc, Mc);
          f = 0;
          for (const auto &[ids, traction] : tractions)
            for (const unsigned int face : cell->face_indices())
              if (cell->face(face)->at_boundary() && ids.count(cell->face(face)->boundary_id()) != 0)
                {
                  face_values.reinit(cell, face);
                  for (const unsigned int q : face_values.quadrature_point_indices())
                    for (unsigned int i = 0; i < n; ++i)
                      {
                        const unsigned int c = fe.system_to_component_index(i).first;
                        if (c < dim)
                          f(i) += traction->value(face_values.quadrature_point(q), c) *
                                  face_values.shape_value(i, q) * face_values.JxW(q) *
                                  measure(face_values.quadrature_point(q));
                      }
                }
          for (const auto &[ids, body] : body_forces)
            if (ids.count(cell->material_id()) != 0)
              {
              fe_values.reinit(cell); // local_matrices may have come from the cache
              for (const unsigned int q : fe_values.quadrature_point_indices())
                for (unsigned int i = 0; i < n; ++i)
                  {
                    const unsigned int c = fe.system_to_component_index(i).first;
                    if (c < dim)
                      f(i) += body->value(fe_values.quadrature_point(q), c) * fe_values.shape_value(i, q) *
                              fe_values.JxW(q) * measure(fe_values.quadrature_point(q));
                  }
              }
          cell->get_dof_indices(dofs);
          constraints.distribute_local_to_global(Kc, f, dofs, K, rhs);
          if (M != nullptr)
            constraints.distribute_local_to_global(Mc, dofs, *M);
        }
    if (loads)
      for (const auto &load : model.loads)
        if (load.kind == ContinuumModel::Load::Kind::point_force)
          add_point_load(load.point, load.force, constraints, rhs, "Continuum/Loads/" + load.name);
    K.compress(VectorOperation::add);
    rhs.compress(VectorOperation::add);
    if (M != nullptr)
      {
        M->compress(VectorOperation::add);
        // constrained rows without mass: no spurious eigenvalues K_ii/M_ii
        std::vector<PetscInt> rows;
        for (const auto d : owned)
          if (constraints.is_constrained(d))
            rows.push_back(d);
        M->clear_rows(std::vector<types::global_dof_index>(rows.begin(), rows.end()), 0.);
      }
  }

  template <int dim>
  void
  Solver<dim>::apply(const bool                       stiffness,
                     const PVector                   &x,
                     PVector                         &out,
                     const AffineConstraints<double> *constraints) const
  {
    std::vector<PVector> result;
    apply(stiffness, std::vector<PVector>{x}, result, constraints);
    out = std::move(result.front());
  }

  template <int dim>
  void
  Solver<dim>::apply(const bool                       stiffness,
                     const std::vector<PVector>      &x,
                     std::vector<PVector>            &out,
                     const AffineConstraints<double> *constraints) const
  {
    std::vector<PVector> xg;
    for (const auto &v : x)
      xg.push_back(ghosted(v));
    const QGauss<dim>      quadrature(fe.degree + 1);
    FEValues<dim>          fe_values(fe, quadrature, update_values | update_gradients | update_quadrature_points | update_JxW_values);
    const unsigned int     n = fe.n_dofs_per_cell();
    FullMatrix<double>     Kc(n, n), Mc(n, n);
    dealii::Vector<double> local(n), y(n);
    std::vector<types::global_dof_index> dofs(n);
    out.assign(x.size(), PVector());
    for (auto &v : out)
      v.reinit(owned, comm);
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          local_matrices(cell, fe_values, Kc, Mc);
          cell->get_dof_indices(dofs);
          for (unsigned int k = 0; k < x.size(); ++k)
            {
              cell->get_dof_values(xg[k], local);
              (stiffness ? Kc : Mc).vmult(y, local);
              if (constraints != nullptr)
                constraints->distribute_local_to_global(y, dofs, out[k]);
              else
                out[k].add(dofs, y);
            }
        }
    for (auto &v : out)
      v.compress(VectorOperation::add);
  }

  template <int dim>
  PVector
  Solver<dim>::ghosted(const PVector &v) const
  {
    PVector g(owned, relevant, comm);
    g = v;
    return g;
  }

  template <int dim>
  PVector
  Solver<dim>::rigid_translation() const
  {
    PVector r(owned, comm);
    for (unsigned int c = 0; c < dim; ++c)
      {
        ComponentMask mask(dim + 1, false);
        mask.set(c, true);
        for (const auto d : DoFTools::extract_dofs(dof_handler, mask))
          r(d) = model.base_direction[c];
      }
    r.compress(VectorOperation::insert);
    return r;
  }

  template <int dim>
  PVector
  Solver<dim>::electrode_indicator(const unsigned int e) const
  {
    PVector g(owned, comm);
    for (const auto d : electrode_dofs[e].dofs)
      if (owned.is_element(d))
        g(d) = 1.;
    g.compress(VectorOperation::insert);
    return g;
  }

  template <int dim>
  const std::vector<PVector> &
  Solver<dim>::charge_functionals() const
  {
    if (charge_functionals_cache.empty())
      {
        std::vector<PVector> indicators;
        for (unsigned int k = 0; k < model.electrodes.size(); ++k)
          indicators.push_back(electrode_indicator(k));
        apply(true, indicators, charge_functionals_cache, nullptr);
      }
    return charge_functionals_cache;
  }

  template <int dim>
  double
  Solver<dim>::stiffness_scale(const PMatrix &K, const PMatrix &M) const
  {
    double largest = 0;
    for (const auto d : owned_u)
      {
        const double m = M.diag_element(d);
        if (m > 0)
          largest = std::max(largest, K.diag_element(d) / m);
      }
    return Utilities::MPI::max(largest, comm);
  }

  template <int dim>
  void
  Solver<dim>::apply_sign_convention(PVector &v) const
  {
    // the displacement component of largest magnitude is positive; within a
    // relative 1e-6 of it, the lowest global index decides
    double largest = 0;
    for (const auto d : owned_u)
      largest = std::max(largest, std::abs(v(d)));
    largest = Utilities::MPI::max(largest, comm);
    types::global_dof_index first = dof_handler.n_dofs();
    for (const auto d : owned_u)
      if (std::abs(v(d)) >= (1 - 1e-6) * largest)
        {
          first = d;
          break;
        }
    first             = Utilities::MPI::min(first, comm);
    const double sign = Utilities::MPI::sum(owned.is_element(first) ? (v(first) < 0 ? -1. : 1.) : 0., comm);
    if (sign < 0)
      v *= -1.;
  }

  namespace
  {
    /**
     * How the nonzero pattern of M relates to K's, for SLEPc's K - sigma M:
     * SAME_NONZERO_PATTERN when every row lists the same columns,
     * SUBSET_NONZERO_PATTERN when M's columns are among K's, else
     * DIFFERENT_NONZERO_PATTERN. Told nothing, SLEPc assumes different
     * patterns and PETSc builds a third matrix of their union (graded C4 3D,
     * 2.4e5 unknowns, loaded machine: 4.5 s per eigensolve). M's pattern
     * (mass_sparsity) is a subset of K's: PETSc adds M's entries into a copy
     * of K.
     */
    MatStructure
    pattern_of(const Mat M, const Mat K, const MPI_Comm comm)
    {
      PetscInt first, last;
      check_petsc(MatGetOwnershipRange(K, &first, &last), "MatGetOwnershipRange");
      int same = 1, subset = 1;
      for (PetscInt r = first; r < last && subset; ++r)
        {
          PetscInt        n_m, n_k;
          const PetscInt *c_m, *c_k;
          check_petsc(MatGetRow(M, r, &n_m, &c_m, nullptr), "MatGetRow");
          check_petsc(MatGetRow(K, r, &n_k, &c_k, nullptr), "MatGetRow");
          same = same && n_m == n_k && std::equal(c_m, c_m + n_m, c_k);
          subset = same || std::includes(c_k, c_k + n_k, c_m, c_m + n_m);
          check_petsc(MatRestoreRow(K, r, &n_k, &c_k, nullptr), "MatRestoreRow");
          check_petsc(MatRestoreRow(M, r, &n_m, &c_m, nullptr), "MatRestoreRow");
        }
      same   = Utilities::MPI::min(same, comm);
      subset = Utilities::MPI::min(subset, comm);
      return same ? SAME_NONZERO_PATTERN : subset ? SUBSET_NONZERO_PATTERN : DIFFERENT_NONZERO_PATTERN;
    }
  } // namespace

  template <int dim>
  std::vector<std::pair<double, PVector>>
  Solver<dim>::eigenpairs(const PMatrix                   &K,
                          const PMatrix                   &M,
                          const AffineConstraints<double> &constraints,
                          const unsigned int               n,
                          const double         sigma,
                          nlohmann::json      &timings,
                          EPS                 *keep,
                          const LowRankInverse *inverse) const
  {
    ensure_parallel_initialized();
    const auto begin = std::chrono::steady_clock::now();
    EPS        eps;
    check_petsc(EPSCreate(comm, &eps), "EPSCreate");
    check_petsc(EPSSetOperators(eps, K, M), "EPSSetOperators");
    check_petsc(EPSSetProblemType(eps, EPS_GHEP), "EPSSetProblemType");
    ST st;
    check_petsc(EPSGetST(eps, &st), "EPSGetST");
    check_petsc(STSetType(st, STSINVERT), "STSetType");
    // K - sigma M: a matrix to factor, or, when `inverse` applies it, an
    // implicit one (not formed: the shell preconditioner of a KSPPREONLY
    // never looks at it)
    if (inverse != nullptr)
      check_petsc(STSetMatMode(st, ST_MATMODE_SHELL), "STSetMatMode");
    else
      check_petsc(STSetMatStructure(st, pattern_of(M, K, comm)), "STSetMatStructure");
    KSP ksp;
    check_petsc(STGetKSP(st, &ksp), "STGetKSP");
    check_petsc(KSPSetType(ksp, KSPPREONLY), "KSPSetType");
    PC pc;
    check_petsc(KSPGetPC(ksp, &pc), "KSPGetPC");
    if (inverse != nullptr)
      inverse->install(pc);
    else
      {
        check_petsc(PCSetType(pc, PCLU), "PCSetType");
        check_petsc(PCFactorSetMatSolverType(pc, direct_solver_type(comm)), "PCFactorSetMatSolverType");
      }
    check_petsc(EPSSetTarget(eps, sigma), "EPSSetTarget");
    check_petsc(EPSSetWhichEigenpairs(eps, EPS_TARGET_MAGNITUDE), "EPSSetWhichEigenpairs");
    check_petsc(EPSSetDimensions(eps, n, PETSC_DEFAULT, PETSC_DEFAULT), "EPSSetDimensions");
    check_petsc(EPSSetTolerances(eps, 1e-12, 1000), "EPSSetTolerances");
    // PETSc/SLEPc options (PETSC_OPTIONS, e.g. '-st_mat_mumps_icntl_7 5')
    // may override these choices
    check_petsc(EPSSetFromOptions(eps), "EPSSetFromOptions");
    const auto start = std::chrono::steady_clock::now();
    check_petsc(EPSSetUp(eps), "EPSSetUp"); // the shift-and-invert factorization
    const auto factored = std::chrono::steady_clock::now();
    check_petsc(EPSSolve(eps), "EPSSolve");
    const auto solved        = std::chrono::steady_clock::now();
    timings["setup"]         = std::chrono::duration<double>(start - begin).count();
    timings["factorization"] = std::chrono::duration<double>(factored - start).count();
    timings["iterations"]    = std::chrono::duration<double>(solved - factored).count();
    PetscInt converged = 0;
    check_petsc(EPSGetConverged(eps, &converged), "EPSGetConverged");
    AssertThrow(converged >= static_cast<PetscInt>(n),
                ExcMessage("SLEPc converged " + std::to_string(converged) + " of " + std::to_string(n) +
                           " eigenpairs (Krylov-Schur, shift-and-invert)."));
    std::vector<std::pair<double, PVector>> pairs;
    PVector                                 Mx(owned, comm);
    for (unsigned int i = 0; i < n; ++i)
      {
        PetscScalar lambda, imaginary;
        PVector     x(owned, comm);
        check_petsc(EPSGetEigenpair(eps, i, &lambda, &imaginary, x, nullptr), "EPSGetEigenpair");
        M.vmult(Mx, x);
        x /= std::sqrt(Mx * x);
        apply_sign_convention(x);
        pairs.emplace_back(lambda, std::move(x));
      }
    // the Rayleigh quotients (M-normalized vectors): accurate to the square of
    // the vectors' error, evaluated from the strains and fields
    std::vector<PVector> full;
    for (const auto &[lambda, x] : pairs)
      {
        full.push_back(x);
        constraints.distribute(full.back());
      }
    const Eigen::MatrixXd energies = energy_products(full);
    for (unsigned int i = 0; i < n; ++i)
      pairs[i].first = energies(i, i);
    if (keep != nullptr)
      *keep = eps;
    else
      EPSDestroy(&eps);
    timings["eigenvectors"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - solved).count();
    std::stable_sort(pairs.begin(), pairs.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    return pairs;
  }

  template <int dim>
  bool
  Solver<dim>::locate(const Point<dim>                               &p,
                      typename DoFHandler<dim>::active_cell_iterator &cell_found,
                      Point<dim>                                     &unit) const
  {
    // a search over owned cells only: artificial cells of a distributed mesh
    // carry no values
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          const auto box  = cell->bounding_box();
          bool       near = true;
          for (unsigned int d = 0; d < dim; ++d)
            {
              const double slack = 1e-10 * (box.get_boundary_points().second[d] - box.get_boundary_points().first[d]);
              near = near && p[d] >= box.get_boundary_points().first[d] - slack &&
                     p[d] <= box.get_boundary_points().second[d] + slack;
            }
          if (!near)
            continue;
          try
            {
              unit = StaticMappingQ1<dim>::mapping.transform_real_to_unit_cell(cell, p);
            }
          catch (const std::exception &)
            {
              continue;
            }
          if (GeometryInfo<dim>::is_inside_unit_cell(unit, 1e-10))
            {
              cell_found = cell;
              return true;
            }
        }
    return false;
  }

  template <int dim>
  typename Solver<dim>::PointValues
  Solver<dim>::point_value(const PVector &x, const Point<3> &p3, const std::string &name) const
  {
    Point<dim> p;
    for (unsigned int d = 0; d < dim; ++d)
      p[d] = p3[d];
    const PVector      xg = ghosted(x);
    const unsigned int n_strain = n_strains(model.formulation);
    std::vector<double> values(dim + 1 + n_strain + dim + 1, 0.); // u, phi, stress, E, count
    typename DoFHandler<dim>::active_cell_iterator cell_found;
    Point<dim>                                     unit;
    const bool                                     found = locate(p, cell_found, unit);
    if (found)
      {
        const Quadrature<dim> quadrature(GeometryInfo<dim>::project_to_unit_cell(unit));
        FEValues<dim>         fe_values(fe, quadrature, update_values | update_gradients);
        fe_values.reinit(cell_found);
        std::vector<dealii::Vector<double>>              v(1, dealii::Vector<double>(dim + 1));
        std::vector<std::vector<Tensor<1, dim>>>         g(1, std::vector<Tensor<1, dim>>(dim + 1));
        fe_values.get_function_values(xg, v);
        fe_values.get_function_gradients(xg, g);
        for (unsigned int c = 0; c <= dim; ++c)
          values[c] = v[0][c];
        const Eigen::MatrixXd &H = enthalpy.at(cell_found->material_id());
        const Eigen::VectorXd  y = axisymmetric ?
                                    enthalpy_variables<dim>(g[0], hoop_strain(p, v[0][0], g[0][0][0])) :
                                    enthalpy_variables<dim>(g[0]);
        const Eigen::VectorXd s = H * y;
        for (unsigned int i = 0; i < n_strain; ++i)
          values[dim + 1 + i] = s[i];
        for (unsigned int d = 0; d < dim; ++d)
          values[dim + 1 + n_strain + d] = -g[0][dim][d];
        values.back() = 1;
      }
    {
      const auto local = values;
      Utilities::MPI::sum(local, comm, values);
    }
    if (values.back() == 0)
      fail("Continuum/Output points/" + name, "Point", coordinates(p3, dim), "lies outside the mesh; give a point of the body (m).");
    PointValues result;
    for (unsigned int c = 0; c < dim; ++c)
      result.u.push_back(values[c] / values.back());
    result.phi = values[dim] / values.back();
    for (unsigned int i = 0; i < n_strain; ++i)
      result.stress.push_back(values[dim + 1 + i] / values.back());
    for (unsigned int d = 0; d < dim; ++d)
      result.field.push_back(values[dim + 1 + n_strain + d] / values.back());
    return result;
  }

  template <int dim>
  void
  Solver<dim>::require_solved(const bool ok, const std::string &what) const
  {
    if (!ok)
      throw InputError("In subsection 'Continuum': the " + what +
                       " is singular: the supports leave rigid-body motion free (or a conductor floats without "
                       "reference). Add supports ('Continuum/Supports', e.g. symmetry planes or a point) or a "
                       "grounded electrode.");
  }

  template <int dim>
  std::string
  Solver<dim>::description() const
  {
    std::ostringstream s;
    s << triangulation.n_global_active_cells() << (dim == 2 ? " quadrilaterals" : " hexahedra")
      << (axisymmetric ? " (axisymmetric)" : "") << " of degree "
      << fe.degree << ", " << dof_handler.n_dofs() << " unknowns"
      << (Utilities::MPI::n_mpi_processes(comm) > 1 ?
            " on " + std::to_string(Utilities::MPI::n_mpi_processes(comm)) + " MPI ranks" :
            std::string())
      << " (estimated peak memory " << format_bytes(memory_estimate.total) << " per rank)";
    return s.str();
  }

  template <int dim>
  void
  Solver<dim>::solve(ContinuumResult &result)
  {
    ensure_parallel_initialized();
    result.description = description();
    result.mesh        = model.mesh_file;
    result.cells       = triangulation.n_global_active_cells();
    result.n_unknowns  = dof_handler.n_dofs();
    result.formulation = dim == 3                                       ? "3D" :
                         model.formulation == Formulation::plane_stress ? "plane stress" :
                         model.formulation == Formulation::axisymmetric ? "axisymmetric" :
                                                                          "plane strain";
    result.mpi_ranks   = Utilities::MPI::n_mpi_processes(comm);
    result.electrodes  = !ports.empty();
    result.timings_s   = {{"start_up", start_up_seconds}, {"mesh_and_dofs", setup_seconds}};
    result.warnings.insert(result.warnings.end(), input_warnings.begin(), input_warnings.end());
    if (options.statics)
      run_static(result);
    if (options.modal || options.rom_needed())
      run_modal_and_rom(result);
    run_structure_analyses(result);
    // since the process started (the rest of the wall time: output, exit)
    result.timings_s.emplace_back("elapsed_after_analyses", process_age());
  }

  template <int dim>
  void
  Solver<dim>::run_static(ContinuumResult &outcome)
  {
    const auto t0          = std::chrono::steady_clock::now();
    const auto constraints = make_constraints(State::statics);
    PMatrix    K;
    PVector    rhs, x(owned, comm);
    assemble(constraints, K, nullptr, rhs, true);
    DirectSolver solver(K, comm);
    require_solved(solver.solve(rhs, x), "static problem");
    constraints.distribute(x);

    ContinuumResult::Static result;
    const PVector           xg = ghosted(x);
    for (unsigned int k = 0; k < model.electrodes.size(); ++k)
      {
        const double charge  = -(charge_functionals()[k] * x);
        const auto   master  = electrode_dofs[k].master;
        const double voltage = Utilities::MPI::sum(owned.is_element(master) ? x(master) : 0., comm);
        result.electrodes.push_back({model.electrodes[k].name, voltage, charge});
      }
    for (const auto &p : model.output_points)
      {
        const auto v = point_value(x, p.point, p.name);
        double     along = 0;
        for (unsigned int d = 0; d < dim; ++d)
          along += v.u[d] * p.direction[d];
        result.points.push_back({p.name, v.u, along, v.phi, v.stress, v.field});
      }
    result.total_s  = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    outcome.statics = std::move(result);
    fields.push_back({"static", 0, 0, std::move(x), {}});
  }

  template <int dim>
  void
  Solver<dim>::run_modal_and_rom(ContinuumResult &outcome)
  {
    using clock          = std::chrono::steady_clock;
    const auto  t0       = clock::now();
    nlohmann::json timing;
    const auto  sc       = make_constraints(State::short_circuit);
    PMatrix     K, M;
    PVector     rhs;
    assemble(sc, K, &M, rhs, false);
    const auto t_assembled = clock::now();
    timing["assembly"]     = std::chrono::duration<double>(t_assembled - t0).count();

    const PVector r          = rigid_translation();
    PVector       M_r(owned, comm);
    M.vmult(M_r, r);
    const double rigid_mass = M_r * r;
    const std::vector<PVector> &charge = charge_functionals();

    const double       sigma   = -1e-8 * stiffness_scale(K, M);
    timing["rigid_mass_and_charges"] = std::chrono::duration<double>(clock::now() - t_assembled).count();
    const unsigned int n_modes =
      std::max(options.modal ? options.modal_modes : 0u, options.rom_needed() ? options.rom_modes : 0u);
    if (n_modes >= dof_handler.n_dofs() / 2)
      throw InputError("In subsection 'Analysis/Modal': 'Number of modes' = " + std::to_string(n_modes) +
                       ": the mesh has only " + std::to_string(dof_handler.n_dofs()) +
                       " unknowns; ask for fewer modes or refine the mesh.");
    const auto t1    = clock::now();
    // the short-circuit eigensolver, kept until its factorization has served
    // the open circuit
    struct KeptSolver
    {
      EPS eps = nullptr;
      void
      reset()
      {
        if (eps != nullptr)
          EPSDestroy(&eps);
      }
      ~KeptSolver()
      {
        reset();
      }
    } short_circuit;
    auto modes = eigenpairs(K, M, sc, n_modes, sigma, timing["eigensolve_short_circuit"], &short_circuit.eps);
    timing["eigensolve_short_circuit"]["total"] = std::chrono::duration<double>(clock::now() - t1).count();
    // the sparse direct solver that factored (direct_solver_type(), or as
    // PETSc's options chose)
    std::string direct_solver = "none";
    {
      ST            st;
      KSP           ksp;
      PC            pc;
      MatSolverType type = nullptr;
      check_petsc(EPSGetST(short_circuit.eps, &st), "EPSGetST");
      check_petsc(STGetKSP(st, &ksp), "STGetKSP");
      check_petsc(KSPGetPC(ksp, &pc), "KSPGetPC");
      check_petsc(PCFactorGetMatSolverType(pc, &type), "PCFactorGetMatSolverType");
      if (type != nullptr)
        direct_solver = std::string(type) == MATSOLVERMUMPS        ? "MUMPS" :
                        std::string(type) == MATSOLVERSUPERLU_DIST ? "SuperLU_DIST" :
                                                                     type;
    }
    const double largest = modes.back().first;

    // open circuit: every port floating
    std::vector<std::pair<double, PVector>> open_modes;
    if (!ports.empty())
      {
        const auto t2 = clock::now();
        const auto oc = make_constraints(State::open_circuit);
        PMatrix    K_oc;
        assemble(oc, K_oc, nullptr, rhs, false, &K);
        const auto t_oc = clock::now();
        // the open-circuit shift-and-invert operator from the short-circuit
        // factorization (Woodbury on the ports' masters), checked on one
        // vector; a second factorization only if that fails
        LowRankInverse inverse;
        ST             st;
        KSP            factored;
        check_petsc(EPSGetST(short_circuit.eps, &st), "EPSGetST");
        check_petsc(STGetKSP(st, &factored), "STGetKSP");
        bool reuse = inverse.setup(K_oc, K, factored, ports.size());
        if (reuse)
          {
            const double residual = inverse.check(K_oc, M, sigma);
            timing["eigensolve_open_circuit"]["woodbury_residual"] = residual;
            reuse                                                 = residual < 1e-8;
          }
        timing["eigensolve_open_circuit"]["woodbury_setup_and_check"] =
          std::chrono::duration<double>(clock::now() - t_oc).count();
        timing["eigensolve_open_circuit"]["reused_short_circuit_factorization"] = reuse;
        // one factorization alive at a time: its memory, and PETSc 3.18's
        // SuperLU_DIST interface crashes at exit (MPI_Comm_free in
        // Petsc_Superlu_dist_keyval_Delete_Fn) after two coexisted on 2 ranks
        if (!reuse)
          short_circuit.reset();
        open_modes = eigenpairs(K_oc, M, oc, n_modes, sigma, timing["eigensolve_open_circuit"], nullptr,
                                reuse ? &inverse : nullptr);
        timing["eigensolve_open_circuit"]["total"] = std::chrono::duration<double>(clock::now() - t_oc).count();
        for (auto &[lambda, x] : open_modes)
          oc.distribute(x);
        timing["open_circuit_with_assembly"] = std::chrono::duration<double>(clock::now() - t2).count();
      }
    short_circuit.reset();

    // clamped capacitance of every port and its potential field (u = 0)
    const auto t_clamped = clock::now();
    std::vector<double>  capacitance(model.electrodes.size(), 0.);
    std::vector<PVector> clamped_field(model.electrodes.size());
    for (const auto k : ports)
      {
        const auto cl = make_constraints(State::clamped, k);
        PMatrix    K_cl;
        PVector    f, psi(owned, comm);
        assemble(cl, K_cl, nullptr, f, false, &K);
        // the potential's free unknowns only (every u is constrained)
        IndexSet free(owned.size());
        for (const auto d : owned)
          if (!cl.is_constrained(d))
            free.add_index(d);
        DirectSolver solver(K_cl, comm, &free);
        require_solved(solver.solve(f, psi), "clamped electrostatic problem of electrode '" + model.electrodes[k].name + "'");
        cl.distribute(psi);
        capacitance[k]   = -(charge[k] * psi);
        clamped_field[k] = std::move(psi);
      }

    const auto t_modes            = clock::now();
    timing["clamped_capacitance"] = std::chrono::duration<double>(t_modes - t_clamped).count();

    // modal quantities; each short-circuit mode is paired with the
    // open-circuit mode it overlaps most (mass-weighted, one to one, greedy
    // by overlap; overlaps below 0.5 stay unpaired)
    ContinuumResult::Modal modal;
    modal.direct_solver = direct_solver;
    PVector             Mx(owned, comm);
    const double        rigid_tolerance = 1e-8 * largest;
    std::vector<double> overlap(modes.size() * open_modes.size());
    for (unsigned int i = 0; i < modes.size(); ++i)
      {
        M.vmult(Mx, modes[i].second);
        for (unsigned int j = 0; j < open_modes.size(); ++j)
          overlap[i * open_modes.size() + j] = std::abs(Mx * open_modes[j].second);
      }
    std::vector<int> partner(modes.size(), -1);
    {
      std::vector<unsigned int> order(overlap.size());
      for (unsigned int k = 0; k < order.size(); ++k)
        order[k] = k;
      std::stable_sort(order.begin(), order.end(), [&](unsigned int a, unsigned int b) { return overlap[a] > overlap[b]; });
      std::vector<bool> taken(open_modes.size(), false);
      for (const auto k : order)
        {
          const unsigned int i = k / open_modes.size(), j = k % open_modes.size();
          if (overlap[k] >= 0.5 && partner[i] < 0 && !taken[j] && std::abs(modes[i].first) >= rigid_tolerance)
            {
              partner[i] = j;
              taken[j]   = true;
            }
        }
    }
    for (unsigned int i = 0; i < modes.size(); ++i)
      {
        const auto &[lambda, condensed] = modes[i];
        M.vmult(Mx, condensed);
        PVector x = condensed; // with floating electrodes' nodes filled in
        sc.distribute(x);
        const double participation = Mx * r;
        const bool   rigid         = std::abs(lambda) < rigid_tolerance;
        const double f_sc          = rigid ? 0. : std::sqrt(std::max(lambda, 0.)) / (2 * M_PI);
        const double f_oc =
          partner[i] < 0 ? 0. : std::sqrt(std::max(open_modes[partner[i]].first, 0.)) / (2 * M_PI);
        // k_eff^2 below 1e-10 is the round-off of two equal frequencies: 0
        const double k2    = f_oc > 0 ? (f_oc * f_oc - f_sc * f_sc) / (f_oc * f_oc) : 0.;
        const double k_eff = k2 > 1e-10 ? std::sqrt(k2) : 0.;
        if (!open_modes.empty() && partner[i] < 0 && !rigid)
          outcome.warnings.push_back("continuum mode " + std::to_string(i + 1) +
                             ": no open-circuit mode overlaps it by 0.5 or more; its f_oc and k_eff are not "
                             "reported. Ask for more modes.");
        ContinuumResult::Modal::Mode mode;
        mode.index                          = i + 1;
        mode.frequency_hz                   = f_sc;
        mode.rigid_body                     = rigid;
        mode.participation_base_translation = participation;
        mode.paired                         = partner[i] >= 0;
        mode.frequency_open_circuit_hz      = f_oc;
        mode.coupling_k_eff                 = k_eff;
        mode.open_circuit_overlap           = partner[i] < 0 ? 0. : overlap[i * open_modes.size() + partner[i]];
        for (const auto k : ports)
          {
            const double chi    = -(charge[k] * x);
            const double omega2 = std::max(lambda, 0.);
            mode.electrodes.push_back(
              {model.electrodes[k].name, chi, omega2 > 0 ? chi * chi / (capacitance[k] * omega2) : 0.});
          }
        modal.modes.push_back(std::move(mode));
        fields.push_back({"mode_" + std::to_string(i + 1),
                          static_cast<double>(i + 1),
                          f_sc,
                          x,
                          {{"mode", i + 1.},
                           {"frequency_hz", f_sc},
                           {"frequency_open_circuit_hz", f_oc},
                           {"k_eff", k_eff}}});
      }
    for (const auto k : ports)
      modal.capacitances_F.emplace_back(model.electrodes[k].name, capacitance[k]);
    for (const auto &[mu, y] : open_modes)
      modal.open_circuit_frequencies_hz.push_back(std::sqrt(std::max(mu, 0.)) / (2 * M_PI));
    modal.rigid_mass_kg = rigid_mass;
    for (unsigned int i = 0; i < modes.size() && !first_mode_hz; ++i)
      if (std::abs(modes[i].first) >= rigid_tolerance && partner[i] >= 0)
        first_mode_hz = std::make_pair(std::sqrt(modes[i].first) / (2 * M_PI),
                                       std::sqrt(std::max(open_modes[partner[i]].first, 0.)) / (2 * M_PI));
    timing["modal_quantities"] = std::chrono::duration<double>(clock::now() - t_modes).count();
    if (!options.rom_needed())
      {
        timing["total"]   = std::chrono::duration<double>(clock::now() - t0).count();
        modal.timings_s   = timing;
        outcome.modal     = std::move(modal);
        return;
      }

    // reduced model: modes plus static corrections (base translation, each
    // port), re-orthogonalized by a Rayleigh-Ritz step on their span
    const auto           t3 = clock::now();
    // condensed vectors (slave entries zero) for K and M; full ones, with
    // the floating electrodes' nodes filled in, for charges and points
    std::vector<PVector> basis, full;
    for (unsigned int i = 0; i < options.rom_modes; ++i)
      basis.push_back(modes[i].second);
    if (options.correction_order > 0)
      {
        DirectSolver solver(K, comm);
        PVector      load, y(owned, comm);
        apply(false, r, load, &sc);
        require_solved(solver.solve(load, y), "static problem of the base-translation correction");
        basis.push_back(y);
        std::vector<PVector> fields, Kpsi;
        for (const auto k : ports)
          fields.push_back(clamped_field[k]);
        apply(true, fields, Kpsi, &sc);
        for (unsigned int p = 0; p < ports.size(); ++p)
          {
            PVector z(owned, comm);
            Kpsi[p] *= -1.;
            require_solved(solver.solve(Kpsi[p], z), "static problem of the correction of electrode '" +
                                                       model.electrodes[ports[p]].name + "'");
            basis.push_back(z);
          }
      }
    const unsigned int m = basis.size();
    for (auto &b : basis) // unit mass norm, so that dependence is judged by direction
      {
        PVector Mb(owned, comm);
        M.vmult(Mb, b);
        b /= std::sqrt(Mb * b);
      }
    for (const auto &b : basis)
      {
        full.push_back(b);
        sc.distribute(full.back());
      }
    // the projected stiffness from the strains and fields (energy_products:
    // the modes' own Rayleigh quotients are evaluated the same way, so the
    // ROM keeps their frequencies to round-off)
    const Eigen::MatrixXd Kr = energy_products(full);
    Eigen::MatrixXd       Mr(m, m);
    PVector               Mb(owned, comm);
    for (unsigned int j = 0; j < m; ++j)
      {
        M.vmult(Mb, basis[j]);
        for (unsigned int i = 0; i < m; ++i)
          Mr(i, j) = basis[i] * Mb;
      }
    Mr = (Mr + Mr.transpose()).eval() / 2;
    // M-orthonormal basis of the span (dropping dependent vectors), then the
    // eigenvectors of the projected stiffness
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> mass_eigen(Mr);
    const double                                   mass_floor = 1e-10 * mass_eigen.eigenvalues().maxCoeff();
    std::vector<int>                               kept;
    for (int i = 0; i < static_cast<int>(m); ++i)
      if (mass_eigen.eigenvalues()[i] > mass_floor)
        kept.push_back(i);
    Eigen::MatrixXd T(m, kept.size());
    for (unsigned int j = 0; j < kept.size(); ++j)
      T.col(j) = mass_eigen.eigenvectors().col(kept[j]) / std::sqrt(mass_eigen.eigenvalues()[kept[j]]);
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> stiffness_eigen(T.transpose() * Kr * T);
    Eigen::MatrixXd                                Z = T * stiffness_eigen.eigenvectors();
    for (int j = 0; j < Z.cols(); ++j)
      {
        Eigen::Index at;
        Z.col(j).cwiseAbs().maxCoeff(&at);
        if (Z(at, j) < 0)
          Z.col(j) *= -1;
      }

    rom                    = ReducedModel();
    const unsigned int n = Z.cols();
    rom.n_normal_modes     = std::min<unsigned int>(options.rom_modes, n);
    rom.n_correction_modes = n - rom.n_normal_modes;
    std::vector<double> omega_hz;
    for (unsigned int j = 0; j < n; ++j)
      {
        const double lambda = stiffness_eigen.eigenvalues()[j];
        rom.omega.push_back(std::sqrt(std::max(lambda, 0.)));
        rom.damping_ratios.push_back(
          model.damping_ratios[std::min<std::size_t>(j, model.damping_ratios.size() - 1)]);
        std::vector<double> unit(n, 0.), stiff(n, 0.);
        unit[j]  = 1;
        stiff[j] = std::max(lambda, 0.);
        rom.mass.push_back(unit);
        rom.stiffness.push_back(stiff);
      }
    Eigen::VectorXd basis_participation(m);
    for (unsigned int i = 0; i < m; ++i)
      basis_participation[i] = basis[i] * M_r;
    const Eigen::VectorXd p = Z.transpose() * basis_participation;
    rom.participation_translation.assign(p.data(), p.data() + n);
    rom.participation_rotation.assign(n, 0.);
    rom.base_rotation_available = false;
    rom.geometric_unit_axial.assign(n, std::vector<double>(n, 0.));
    rom.geometric_rotation.assign(n, std::vector<double>(n, 0.));
    rom.rigid_mass = rigid_mass;
    for (const auto k : ports)
      {
        Eigen::VectorXd chi(m);
        for (unsigned int i = 0; i < m; ++i)
          chi[i] = -(charge[k] * full[i]);
        const Eigen::VectorXd coupling = Z.transpose() * chi;
        rom.electrodes.push_back({model.electrodes[k].name, capacitance[k],
                                  std::vector<double>(coupling.data(), coupling.data() + n)});
      }
    for (const auto &point : model.output_points)
      {
        Eigen::VectorXd along(m);
        for (unsigned int i = 0; i < m; ++i)
          {
            const auto v = point_value(full[i], point.point, point.name);
            along[i]     = 0;
            for (unsigned int d = 0; d < dim; ++d)
              along[i] += v.u[d] * point.direction[d];
          }
        const Eigen::VectorXd w = Z.transpose() * along;
        ReducedModel::Output  o;
        o.name         = point.name;
        o.position     = point.point[0];
        o.displacement.assign(w.data(), w.data() + n);
        o.slope.assign(n, 0.);
        rom.outputs.push_back(o);
      }
    timing["reduced_model"]     = std::chrono::duration<double>(clock::now() - t3).count();
    timing["total"]             = std::chrono::duration<double>(clock::now() - t0).count();
    modal.timings_s             = timing;
    outcome.modal               = std::move(modal);
    if (!options.rom)
      return;
    rom_document                   = rom.to_json();
    rom_document["source"]         = {{"producer", "continuum"},
                                      {"mesh", model.mesh_file},
                                      {"base_direction", {model.base_direction[0], model.base_direction[1], model.base_direction[2]}},
                                      {"note", "no rotation data: base translation along base_direction only"}};
    ContinuumResult::ReducedModel reduced{options.rom_file, rom.n_normal_modes, rom.n_correction_modes, {}};
    for (const double w : rom.omega)
      reduced.frequencies_hz.push_back(w / (2 * M_PI));
    outcome.reduced_model = std::move(reduced);
  }

  template <int dim>
  void
  Solver<dim>::fill(ContinuumResult &result) const
  {
    result.rom_file     = options.rom_file;
    result.rom_document = rom_document;
    result.solution_fields.clear();
    for (const auto &field : fields)
      result.solution_fields.push_back({field.name, field.time, field.value});
    result.analyses.clear();
    for (const auto &outcome : outcomes)
      result.analyses.push_back(outcome.get());
  }

  template <int dim>
  void
  Solver<dim>::write_vtu(const std::size_t k, const std::string &filename) const
  {
    const Field &field = fields.at(k);
    // a mode is mass-normalized (x^T M x = 1, modal mass 1 kg):
    // its fields are per square root of a kilogram, and say so
    const std::string       suffix = field.metadata.empty() ? "" : "_per_sqrt_kg";
    FieldPostprocessor<dim> postprocessor(enthalpy, model.formulation == Formulation::axisymmetric, suffix);
    std::vector<std::string> names(dim, "displacement_m" + suffix);
    names.push_back("potential_V" + suffix);
    std::vector<DataComponentInterpretation::DataComponentInterpretation> interpretation(
      dim, DataComponentInterpretation::component_is_part_of_vector);
    interpretation.push_back(DataComponentInterpretation::component_is_scalar);
    const PVector xg = ghosted(field.values);
    DataOut<dim>  data_out;
    data_out.attach_dof_handler(dof_handler);
    data_out.add_data_vector(xg, names, DataOut<dim>::type_dof_data, interpretation);
    data_out.add_data_vector(xg, postprocessor);
    dealii::Vector<float> region(triangulation.n_active_cells());
    for (const auto &cell : triangulation.active_cell_iterators())
      if (cell->is_locally_owned())
        region(cell->active_cell_index()) = region_of.at(cell->material_id());
    data_out.add_data_vector(region, "region");
    data_out.build_patches(fe.degree);
    DataOutBase::VtkFlags flags(field.value, static_cast<unsigned int>(field.time));
    flags.print_date_and_time = false; // the same file gives the same bytes
    // zlib's fastest level: deal.II's default (best compression) spent 0.13 s of the
    // 2D C4 example's 1.3 s of CPU in deflate, for files within 1 % of the size
    flags.compression_level = DataOutBase::VtkFlags::best_speed;
    data_out.set_flags(flags);
    data_out.write_vtu_in_parallel(filename, comm);
    // the mode's frequencies in double precision, and the regions' names
    // (cell data 'region' is an index into them)
    std::vector<std::string> region_names;
    for (const auto &region : model.regions)
      region_names.push_back(region.name);
    MPI_Barrier(comm);
    if (rank == 0)
      add_field_data(filename, field.metadata, "region_names", region_names);
    MPI_Barrier(comm);
  }

  // ---------------------------------------------------------------------------

  ContinuumRun::ContinuumRun()  = default;
  ContinuumRun::~ContinuumRun() = default;

  void
  ContinuumRun::parse(Section &section, const std::string &directory)
  {
    model.parse_parameters(section, directory);
    AnalysisOptions options;
    {
      Section::Scope scope(section, "Analysis");
      for (const auto &name : section.get_names("Analyses"))
        if (name == "static")
          options.statics = true;
        else if (name == "modal")
          options.modal = true;
        else if (name == "reduced model")
          options.rom = true;
        else
          {
            std::shared_ptr<Analysis> analysis = AnalysisRegistry::instance().create(name);
            auto on_structure = std::dynamic_pointer_cast<StructureAnalysis>(analysis);
            if (!on_structure)
              section.fail("Analyses",
                           "'" + name + "' is not available for a continuum: its analyses are 'static', 'modal', "
                           "'reduced model', 'frequency response', 'harvester' and 'rl shunt'.");
            Section::Scope own(section, AnalysisRegistry::instance().subsection(name));
            on_structure->parse_parameters(section);
            options.structure_analyses.emplace_back(name, on_structure);
          }
      {
        Section::Scope modal(section, "Modal");
        options.modal_modes = section.get_unsigned("Number of modes");
        if (options.modal_modes == 0)
          section.fail("Number of modes", "must be at least 1.");
      }
      {
        Section::Scope rom(section, "Reduced model");
        options.rom_modes        = section.get_unsigned("Number of modes");
        options.correction_order = section.get_unsigned("Static correction order");
        if (options.correction_order > 1)
          section.fail("Static correction order",
                       "must be 0 or 1 for a continuum (modes, or modes plus static corrections).");
        options.rom_file = Utilities::trim(section.get("File"));
        check_output_file_name(section.path(), "File", options.rom_file);
      }
    }
    ensure_parallel_initialized();
    if (model.dimension() == 2)
      implementation = std::make_unique<Solver<2>>(model, options);
    else
      implementation = std::make_unique<Solver<3>>(model, options);
    implementation->check_structure_analyses();
  }

  std::string
  ContinuumRun::description() const
  {
    return implementation->description();
  }

  std::vector<std::string>
  ContinuumRun::warnings() const
  {
    return implementation->warnings();
  }

  const ContinuumResult &
  ContinuumRun::solve()
  {
    result = ContinuumResult();
    implementation->solve(result);
    result.run = this;
    implementation->fill(result);
    return result;
  }

  void
  ContinuumRun::write_vtu(const std::size_t k, const std::string &filename) const
  {
    implementation->write_vtu(k, filename);
  }

  void
  ContinuumResult::write_vtu(const std::size_t k, const std::string &filename) const
  {
    run->write_vtu(k, filename);
  }

  void
  ContinuumResult::print_summary(std::ostream &out) const
  {
    if (statics)
      {
        out << "Static analysis (" << description << ")\n";
        for (const auto &e : statics->electrodes)
          out << "  electrode " << std::setw(12) << std::left << e.name << std::right << " V = " << std::setw(13)
              << format(e.voltage_V, 8) << " V   Q = " << format(e.charge_C, 8) << " C\n";
        for (const auto &p : statics->points)
          {
            out << "  point " << std::setw(12) << std::left << p.name << std::right << " u = (";
            for (std::size_t d = 0; d < p.displacement_m.size(); ++d)
              out << (d ? ", " : "") << format(p.displacement_m[d], 8);
            out << ") m, phi = " << format(p.potential_V, 8) << " V\n";
          }
      }
    if (modal)
      {
        out << "Modal analysis, continuum (" << description << ", SLEPc shift-and-invert, " << modal->direct_solver
            << ")\n"
            << "  mode   short circuit (Hz)   open circuit (Hz)    k_eff      effective mass (%)"
            << (electrodes ? "   modal coupling of '" + modal->capacitances_F.front().first + "' (N/V)" : "") << "\n";
        for (const auto &m : modal->modes)
          {
            const double participation = m.participation_base_translation;
            out << "  " << std::setw(4) << m.index << "   " << std::setw(18) << format(m.frequency_hz, 10) << "   "
                << std::setw(17) << (m.paired ? format(m.frequency_open_circuit_hz, 10) : std::string("-")) << "    "
                << std::setw(8) << format(m.coupling_k_eff, 5) << "   " << std::setw(10)
                << format(100 * participation * participation / modal->rigid_mass_kg, 4);
            if (electrodes)
              out << "           " << std::setw(12) << format(m.electrodes.front().modal_coupling_N_per_V, 5);
            out << (m.rigid_body ? "   rigid-body mode" : "") << "\n";
          }
        for (const auto &[name, capacitance] : modal->capacitances_F)
          out << "  electrode " << name << ": clamped capacitance " << format(capacitance, 8) << " F\n";
      }
    if (reduced_model)
      out << "Reduced model: " << reduced_model->n_normal_modes << " modes + " << reduced_model->n_correction_modes
          << " static corrections -> " << reduced_model->file << "\n";
    for (const auto *analysis : analyses)
      analysis->print_summary(out);
  }

  void
  ContinuumResult::add_to_json(nlohmann::json &results) const
  {
    nlohmann::json j = {{"mesh", mesh},
                        {"cells", cells},
                        {"n_unknowns", n_unknowns},
                        {"formulation", formulation},
                        {"mpi_ranks", mpi_ranks},
                        {"timings_s", nlohmann::json::object()}};
    for (const auto &[name, seconds] : timings_s)
      j["timings_s"][name] = seconds;
    if (statics)
      {
        nlohmann::json electrodes_json = nlohmann::json::array(), points = nlohmann::json::array();
        for (const auto &e : statics->electrodes)
          electrodes_json.push_back({{"name", e.name}, {"voltage_V", e.voltage_V}, {"charge_C", e.charge_C}});
        for (const auto &p : statics->points)
          points.push_back({{"name", p.name},
                            {"displacement_m", p.displacement_m},
                            {"displacement_along_direction_m", p.displacement_along_direction_m},
                            {"potential_V", p.potential_V},
                            {"stress_Pa", p.stress_Pa},
                            {"electric_field_V_m", p.electric_field_V_m}});
        j["static"] = {{"electrodes", electrodes_json}, {"points", points}, {"timings_s", {{"total", statics->total_s}}}};
      }
    if (modal)
      {
        nlohmann::json list = nlohmann::json::array(), caps = nlohmann::json::array();
        for (const auto &m : modal->modes)
          {
            nlohmann::json mode = {{"index", m.index},
                                   {"frequency_hz", m.frequency_hz},
                                   {"angular_frequency_rad_s", 2 * M_PI * m.frequency_hz},
                                   {"rigid_body", m.rigid_body},
                                   {"participation_base_translation", m.participation_base_translation},
                                   {"effective_mass_kg", m.participation_base_translation * m.participation_base_translation},
                                   {"electrodes", nlohmann::json::array()}};
            if (electrodes)
              {
                mode["frequency_open_circuit_hz"] = m.frequency_open_circuit_hz;
                mode["coupling_k_eff"]            = m.coupling_k_eff;
                mode["open_circuit_overlap"]      = m.open_circuit_overlap;
              }
            for (const auto &e : m.electrodes)
              mode["electrodes"].push_back(
                {{"name", e.name}, {"modal_coupling_N_per_V", e.modal_coupling_N_per_V}, {"gamma", e.gamma}});
            list.push_back(mode);
          }
        for (const auto &[name, capacitance] : modal->capacitances_F)
          caps.push_back({{"name", name}, {"capacitance_F", capacitance}});
        j["modal"] = {{"modes", list},
                      {"electrodes", caps},
                      {"open_circuit_frequencies_hz", modal->open_circuit_frequencies_hz},
                      {"rigid_mass_kg", modal->rigid_mass_kg},
                      {"eigensolver", "SLEPc Krylov-Schur, shift-and-invert with " + modal->direct_solver},
                      {"timings_s", modal->timings_s}};
      }
    if (reduced_model)
      j["reduced_model"] = {{"file", reduced_model->file},
                            {"n_normal_modes", reduced_model->n_normal_modes},
                            {"n_correction_modes", reduced_model->n_correction_modes},
                            {"frequencies_hz", reduced_model->frequencies_hz}};
    results["continuum"] = j;
  }
  template class Solver<2>;
  template class Solver<3>;
} // namespace hamilton::continuum
