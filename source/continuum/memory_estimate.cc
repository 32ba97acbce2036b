#include <hamilton/base/input.h>
#include <hamilton/continuum/memory_estimate.h>

#include <deal.II/base/mpi.h>

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

namespace hamilton::continuum
{
  using namespace dealii;

  namespace
  {
    /** Vertices, edges, faces and cells of a mesh of quadrilaterals (dim 2: faces unused) or hexahedra. */
    struct Entities
    {
      double vertices = 0, edges = 0, faces = 0, cells = 0;
    };

    template <int dim>
    Entities
    entities_of(const Triangulation<dim> &coarse)
    {
      Entities e;
      e.vertices = coarse.n_used_vertices();
      e.edges    = coarse.n_lines();
      if (dim == 3)
        {
          e.faces = coarse.n_quads();
          e.cells = coarse.n_hexs();
        }
      else
        e.cells = coarse.n_quads();
      return e;
    }

    /** One uniform refinement: every edge, face and cell is split. */
    Entities
    refined(const Entities &e, const int dim)
    {
      if (dim == 2)
        return {e.vertices + e.edges + e.cells, 2 * e.edges + 4 * e.cells, 0, 4 * e.cells};
      return {e.vertices + e.edges + e.faces + e.cells, 2 * e.edges + 4 * e.faces + 6 * e.cells,
              4 * e.faces + 12 * e.cells, 8 * e.cells};
    }
  } // namespace

  // The model. Unknowns n: exact (FE_Q(p) has 1, p - 1, (p - 1)^2, (p - 1)^3
  // unknowns per vertex, edge, face, cell and component; dim + 1 components).
  // Nonzeros of K: each scalar unknown couples with those of the cells around
  // its entity, (2p + 1)^dim for a vertex down to (p + 1)^dim inside a cell
  // (interior entities of a structured mesh: an upper bound), times (dim + 1)^2.
  // Memory: 150 MB for the libraries, `per_nonzero` bytes per nonzero of K
  // (PETSc's K, its open-circuit copy and M, deal.II's sparsity patterns) and
  // the factor's fill, c n^(4/3) in 3D (nested dissection), c n log2 n in 2D,
  // at 8 bytes an entry and shared among the ranks.
  //
  // Calibration: peak resident memory of prm/continuum/c4_bimorph_3d.prm
  // (6 + 6 modes, ROM), one rank, MUMPS, 2026-11-28, /usr/bin/time -v; the
  // estimate with per_nonzero = 60 B and fill_3d = 29 entries:
  //
  //   mesh                        unknowns   nonzeros   measured   estimated
  //   Global refinements = 0          6860    1.92e6     0.30 GB    0.26 GB
  //   Global refinements = 1         45396    1.22e7     1.07 GB    1.25 GB
  //   graded (256 x 8 x 3 cells)    244188    6.57e7     4.46 GB    7.6 GB
  //   Global refinements = 2        328100    8.63e7    10.4 GB    10.5 GB
  //
  // The fill of a direct factor depends on the mesh's shape as much as on its
  // size: the graded mesh, one cell through each layer, is nearly 2D and
  // fills less than n^(4/3) says. The estimate is therefore an upper value:
  // check_memory() refuses a run only when half of it does not fit (the
  // measured runs used 0.6 to 1.2 times the estimate). fill_2d: nested
  // dissection of 2D meshes, about 30 n log2 n entries for quadratic elements.
  template <int dim>
  MemoryEstimate
  estimate_memory(const Triangulation<dim> &coarse, const unsigned int refinements, const unsigned int degree,
                  const unsigned int n_ranks)
  {
    Entities e = entities_of(coarse);
    for (unsigned int r = 0; r < refinements; ++r)
      e = refined(e, dim);
    const double p = degree, q = degree - 1.;
    const double components = dim + 1;
    double       scalar = 0, couplings = 0;
    if (dim == 2)
      {
        scalar    = e.vertices + q * e.edges + q * q * e.cells;
        couplings = e.vertices * std::pow(2 * p + 1, 2) + q * e.edges * (2 * p + 1) * (p + 1) +
                    q * q * e.cells * std::pow(p + 1, 2);
      }
    else
      {
        scalar    = e.vertices + q * e.edges + q * q * e.faces + q * q * q * e.cells;
        couplings = e.vertices * std::pow(2 * p + 1, 3) + q * e.edges * std::pow(2 * p + 1, 2) * (p + 1) +
                    q * q * e.faces * (2 * p + 1) * std::pow(p + 1, 2) + q * q * q * e.cells * std::pow(p + 1, 3);
      }
    const double n        = scalar * components;
    const double nonzeros = couplings * components * components;
    constexpr double base = 150e6, per_nonzero = 60., fill_3d = 29., fill_2d = 30.;
    const double fill     = dim == 3 ? fill_3d * std::pow(n, 4. / 3.) : fill_2d * n * std::log2(std::max(n, 2.));
    MemoryEstimate estimate;
    estimate.unknowns = static_cast<std::uint64_t>(n);
    estimate.matrices = per_nonzero * nonzeros / n_ranks;
    estimate.factor   = 8. * fill / n_ranks;
    estimate.total    = base + estimate.matrices + estimate.factor;
    return estimate;
  }

  double
  available_memory(const MPI_Comm comm)
  {
    // the ranks that share this machine share its available memory
    MPI_Comm machine;
    int      ranks_on_this_machine = 1;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &machine);
    MPI_Comm_size(machine, &ranks_on_this_machine);
    MPI_Comm_free(&machine);
    return Utilities::MPI::min(available_memory_here(ranks_on_this_machine), comm);
  }

  double
  available_memory_here(const int ranks_on_this_machine)
  {
    double available = std::numeric_limits<double>::infinity();
    {
      std::ifstream meminfo("/proc/meminfo");
      std::string   key;
      double        kB;
      std::string   unit;
      while (meminfo >> key >> kB >> unit)
        if (key == "MemAvailable:")
          available = std::min(available, kB * 1024. / std::max(1, ranks_on_this_machine));
    }
    for (const int resource : {RLIMIT_AS, RLIMIT_DATA})
      {
        struct rlimit limit;
        if (getrlimit(resource, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
          available = std::min(available, static_cast<double>(limit.rlim_cur));
      }
    {
      // cgroup v2 (containers, batch systems): the group's limit for all its processes
      std::ifstream max("/sys/fs/cgroup/memory.max");
      std::string   text;
      if (max >> text && text != "max")
        available = std::min(available, std::stod(text) / std::max(1, ranks_on_this_machine));
    }
    return available;
  }

  template <int dim>
  std::string
  check_memory(const Triangulation<dim> &coarse, const unsigned int refinements, const unsigned int degree,
               const unsigned int n_ranks, const double available)
  {
    const MemoryEstimate estimate = estimate_memory(coarse, refinements, degree, n_ranks);
    if (estimate.total <= available)
      return "";
    if (estimate.total / 2 <= available)
      return "the continuum may need up to " + format_bytes(estimate.total) + " per MPI rank (" +
             std::to_string(estimate.unknowns) + " unknowns), more than the " + format_bytes(available) +
             " this process may use; the estimate is an upper value (thin, layered meshes need about half), but "
             "if the run stops for lack of memory, use fewer 'Global refinements' or more MPI ranks.";
    const auto describe = [](const MemoryEstimate &e) {
      return std::to_string(e.unknowns) + " unknowns, " + format_bytes(e.total) + " per rank";
    };
    std::string smaller;
    if (refinements > 0)
      smaller += "'Global refinements' = " + std::to_string(refinements - 1) + " (" +
                 describe(estimate_memory(coarse, refinements - 1, degree, n_ranks)) + ")";
    if (degree > 1)
      smaller += std::string(smaller.empty() ? "" : " or ") + "'Element degree' = " + std::to_string(degree - 1) +
                 " (" + describe(estimate_memory(coarse, refinements, degree - 1, n_ranks)) + ")";
    input_error("Continuum", "Global refinements", std::to_string(refinements),
                "the run would need " + format_bytes(estimate.total / 2) + " to " + format_bytes(estimate.total) +
                  " per MPI rank (" +
                  std::to_string(estimate.unknowns) + " unknowns: matrices " + format_bytes(estimate.matrices) +
                  ", sparse direct factor " + format_bytes(estimate.factor) + ", on " + std::to_string(n_ranks) +
                  (n_ranks == 1 ? " rank" : " ranks") + "), but this process may use only " + format_bytes(available) +
                  " (the machine's available memory shared by its ranks, ulimit -v/-d, the control group's "
                  "memory.max). Make the model smaller" +
                  (smaller.empty() ? std::string(" (a coarser mesh)") : ": " + smaller) +
                  ", or run on more MPI ranks spread over machines with more memory.");
  }

  template std::string
  check_memory<2>(const Triangulation<2> &, unsigned int, unsigned int, unsigned int, double);
  template std::string
  check_memory<3>(const Triangulation<3> &, unsigned int, unsigned int, unsigned int, double);

  std::string
  format_bytes(const double bytes)
  {
    std::ostringstream out;
    out.precision(3);
    if (bytes >= 1e9)
      out << bytes / 1e9 << " GB";
    else
      out << bytes / 1e6 << " MB";
    return out.str();
  }

  template MemoryEstimate
  estimate_memory<2>(const Triangulation<2> &, unsigned int, unsigned int, unsigned int);
  template MemoryEstimate
  estimate_memory<3>(const Triangulation<3> &, unsigned int, unsigned int, unsigned int);
} // namespace hamilton::continuum
