#ifndef hamilton_discretization_discretization_h
#define hamilton_discretization_discretization_h

#include <hamilton/base/input.h>
#include <hamilton/base/registry.h>
#include <hamilton/beam/beam_model.h>

#include <deal.II/lac/sparse_matrix.h>
#include <deal.II/lac/sparsity_pattern.h>
#include <deal.II/lac/vector.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace hamilton
{
  /**
   * The discrete operators of a beam model in the space of free unknowns
   * (geometric conditions already imposed), all of size n x n or n:
   * everything an analysis needs, whatever the discretization.
   */
  struct Operators
  {
    dealii::SparsityPattern      sparsity;
    dealii::SparseMatrix<double> mass;      ///< M (kg)
    dealii::SparseMatrix<double> stiffness; ///< K, bending plus springs (N/m)
    /** K_g for the model's axial force N0(x), zero if there is none (N/m). */
    dealii::SparseMatrix<double> geometric_stiffness;
    /** Static load vector from the distributed and point loads (N). */
    dealii::Vector<double> load;
    /**
     * M r for a rigid unit base translation r (supports move with the base):
     * the inertia load per base acceleration (kg).
     */
    dealii::Vector<double> base_translation_load;
    /** r^T M r: the mass that moves with a rigid base translation (kg). */
    double rigid_mass = 0;
    /**
     * M r_theta for a rigid unit rotation about the root x = 0
     * (w = x, w' = 1): the inertia load per base angular acceleration
     * (kg m), and the first and second moments of mass about the root,
     * r^T M r_theta (kg m) and r_theta^T M r_theta (kg m^2, with rotary
     * inertias).
     */
    dealii::Vector<double> base_rotation_load;
    double                 rigid_first_moment  = 0;
    double                 rigid_second_moment = 0;

    /**
     * A support reaction, computed from the static solution u as
     * row_stiffness . u + row_geometric . u - load (N or N m).
     */
    struct Reaction
    {
      std::string            support;
      std::string            component; ///< "force" or "moment"
      double                 position = 0;
      dealii::Vector<double> row_stiffness;
      dealii::Vector<double> row_geometric;
      double                 load = 0;
      /** Coupling of each electrode at the fixed unknown: the reaction
          loses coupling * V_e (size electrodes.size()). */
      std::vector<double> electrode_coupling;
    };
    std::vector<Reaction> reactions;

    /**
     * Electromechanical operators of one electrode: the charge on it is
     * Q = coupling . u + capacitance V (C), and the force on the structure is
     * coupling V (N), with coupling = sum_k a_k p_k e31_k b_k zbar_k int N'' dx
     * over the electrode (N/V, or C/m, per unknown) and capacitance
     * = sum_k a_k^2 eps33_k b_k l / h_k (F).
     */
    struct Electrode
    {
      std::string            name;
      dealii::Vector<double> coupling;
      double                 capacitance = 0;
    };
    std::vector<Electrode> electrodes;

    /**
     * max over elements of EI / (rhoA h^4), with h the length over which the
     * element's highest trial function varies (1/s^2); used to estimate the
     * round-off floor of eigenvalues: relative error ~ eps * this / lambda.
     */
    double stiffness_scale = 0;
    /** The stiffness scale of a part [x_start, x_end] of the beam (1/s^2). */
    struct ScaleInterval
    {
      double x_start = 0; ///< m
      double x_end   = 0; ///< m
      double scale   = 0; ///< EI / (rhoA h^4) there
    };
    /**
     * The stiffness scale per element (finite elements) or segment
     * (assumed modes), so that round-off estimates can weight it by where a
     * mode stores its strain energy: a stiff, light segment that barely
     * bends does not limit the accuracy of the modes of the rest.
     */
    std::vector<ScaleInterval> stiffness_scales;
  };

  /**
   * A discretization of a BeamModel: builds Operators and evaluates a
   * solution vector along x. Implementations register themselves by name
   * (subsection "Discretization", entry "Method").
   */
  class Discretization
  {
  public:
    virtual ~Discretization() = default;

    /** Declare subsection "Discretization" with every registered method. */
    static void
    declare_parameters_of_all(dealii::ParameterHandler &prm);

    /** Read subsection "Discretization" and create the chosen method. */
    static std::unique_ptr<Discretization>
    create(Section &section);

    /** Read the method's own entries (inside subsection "Discretization"). */
    virtual void
    parse_parameters(Section &section) = 0;

    /** Build the discrete space for `model`; checks that it is admissible. */
    virtual void
    setup(const BeamModel &model) = 0;

    /** Number of free unknowns. */
    virtual unsigned int
    n_dofs() const = 0;

    /** Assemble all operators. setup() must have been called. */
    virtual std::unique_ptr<Operators>
    assemble() const = 0;

    /** w (m), w' and w'' (1/m) of the solution u at x. */
    virtual void
    evaluate(const dealii::Vector<double> &u,
             double                        x,
             double                       &w,
             double                       &slope,
             double                       &curvature) const = 0;

    /**
     * Points along x for tables and plots, `per_element` per element or
     * interval, sorted, including both ends.
     */
    virtual std::vector<double>
    sample_points(unsigned int per_element) const = 0;

    /**
     * The geometric stiffness for another axial force N0(x) (N), e.g. a unit
     * load or centrifugal stiffening; same pattern as Operators::sparsity.
     */
    virtual void
    assemble_geometric_stiffness(const std::function<double(double)> &axial_force,
                                 dealii::SparseMatrix<double>        &matrix) const = 0;

    /** A one-line description ("40 cubic elements, 80 unknowns"). */
    virtual std::string
    description() const = 0;
  };

  using DiscretizationRegistry = Registry<Discretization>;

  /**
   * The most memory (bytes) a run may plan to allocate for one array or
   * table: 4 GiB. Sizes are estimated before allocating, so that a huge
   * count is refused with a message instead of ending in std::bad_alloc.
   */
  constexpr double memory_limit_bytes = 4. * 1024. * 1024. * 1024.;

  /**
   * Throw an InputError naming `path` and `entry` (whose value is `value`)
   * if `bytes`, the estimated size of `what`, exceeds memory_limit_bytes.
   */
  void
  require_memory(double             bytes,
                 const std::string &path,
                 const std::string &entry,
                 const std::string &value,
                 const std::string &what);

} // namespace hamilton

#endif
