// The memory a continuum run will need, known before anything is built on the
// mesh (issue 24): the unknowns follow from the coarse mesh, the refinements
// and the degree; the matrices and the sparse direct factor from a model
// calibrated on measured runs (source/continuum/memory_estimate.cc).

#ifndef hamilton_continuum_memory_estimate_h
#define hamilton_continuum_memory_estimate_h

#include <deal.II/grid/tria.h>

#include <mpi.h>

#include <cstdint>
#include <string>

namespace hamilton::continuum
{
  /** The estimated peak memory of a modal/reduced-model run, per MPI rank. */
  struct MemoryEstimate
  {
    std::uint64_t unknowns = 0;   ///< (dim + 1) components of FE_Q(degree) on the refined mesh
    double        matrices = 0.;  ///< K, M, the open-circuit copy of K and the sparsity pattern (bytes)
    double        factor   = 0.;  ///< the direct factor of K - sigma M (bytes)
    double        total    = 0.;  ///< the process's peak: both, plus the libraries (bytes)
  };

  /**
   * The unknowns of FE_Q(`degree`)^(dim + 1) on `coarse` after `refinements`
   * uniform refinements (vertices, edges, faces and cells counted and
   * refined exactly), and the peak memory per rank of a run on `n_ranks`
   * ranks (model and calibration in memory_estimate.cc).
   */
  template <int dim>
  MemoryEstimate
  estimate_memory(const dealii::Triangulation<dim> &coarse, unsigned int refinements, unsigned int degree,
                  unsigned int n_ranks);

  /**
   * The memory this process may use (bytes): the smallest of the memory
   * the machine has available (MemAvailable of /proc/meminfo) divided by the
   * ranks that share the machine, the address-space and data limits
   * (ulimit -v, -d) and the control group's memory.max. Infinite if none can
   * be read.
   */
  double
  available_memory_here(int ranks_on_this_machine);

  /**
   * The same on every rank of `comm`: the smallest over the ranks, each
   * machine's available memory divided among the ranks it runs.
   */
  double
  available_memory(MPI_Comm comm);

  /**
   * Throw an InputError naming 'Continuum' and 'Global refinements' (the
   * value `refinements`) if even half of the estimate exceeds `available`
   * (the smallest of the ranks'; the estimate is an upper value): what the
   * run needs and why, and what to make smaller (one refinement or one
   * degree less, with their estimates), or more ranks. A warning (empty if
   * none) if the whole estimate exceeds it.
   */
  template <int dim>
  std::string
  check_memory(const dealii::Triangulation<dim> &coarse, unsigned int refinements, unsigned int degree,
               unsigned int n_ranks, double available);

  /** "4.25 GB". */
  std::string
  format_bytes(double bytes);
} // namespace hamilton::continuum

#endif
