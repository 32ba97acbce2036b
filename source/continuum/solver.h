// Internal to the continuum: the solver's class, shared by solver.cc (mesh,
// assembly, static, modal and reduced-model analyses) and harmonic.cc (the
// continuum as a Structure: frequency response, harvester and RL shunt on its
// reduced model, checked by direct harmonic solves).

#ifndef hamilton_source_continuum_solver_h
#define hamilton_source_continuum_solver_h

#include <hamilton/base/petsc_error.h>
#include <hamilton/base/process.h>
#include <hamilton/base/rom_file.h>
#include <hamilton/analyses/structure.h>
#include <hamilton/continuum/continuum.h>
#include <hamilton/continuum/memory_estimate.h>
#include <hamilton/rom/reduced_model.h>

#include "low_rank_inverse.h"

#include <deal.II/base/function_parser.h>
#include <deal.II/base/index_set.h>
#include <deal.II/base/mpi.h>
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/distributed/tria.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q1.h>
#include <deal.II/grid/grid_tools.h>
#include <deal.II/grid/tria.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/petsc_sparse_matrix.h>
#include <deal.II/lac/petsc_vector.h>
#include <deal.II/lac/sparsity_tools.h>
#include <deal.II/numerics/vector_tools.h>

#include <Eigen/Eigenvalues>
#include <petscksp.h>
#include <slepceps.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

#include <optional>

namespace hamilton::continuum
{
  using namespace dealii;
  using PMatrix = PETScWrappers::MPI::SparseMatrix;
  using PVector = PETScWrappers::MPI::Vector;

  class ContinuumRun::Implementation
  {
  public:
    virtual ~Implementation() = default;
    virtual std::string
    description() const = 0;
    /** Warnings about the input found while setting up. */
    virtual std::vector<std::string>
    warnings() const = 0;
    /** Solve; what the continuum computed (its summaries, warnings) goes into `result`. */
    virtual void
    solve(ContinuumResult &result) = 0;
    /** What solve() computed, for the writers (the analyses' results stay here). */
    virtual void
    fill(ContinuumResult &result) const = 0;
    /** Write solution field `k` as VTU (all ranks call). */
    virtual void
    write_vtu(std::size_t k, const std::string &filename) const = 0;
    /** Check the analyses that run on the continuum as a Structure. */
    virtual void
    check_structure_analyses() const = 0;
  };

    /** What the analyses of a continuum run are asked for. */
    struct AnalysisOptions
    {
      bool         statics = false, modal = false, rom = false;
      unsigned int modal_modes = 6, rom_modes = 4, correction_order = 1;
      std::string  rom_file = "rom.json";
      /** Frequency response, harvester, RL shunt: on the reduced model. */
      std::vector<std::pair<std::string, std::shared_ptr<StructureAnalysis>>> structure_analyses;

      /** Whether the reduced model is computed (written only if 'rom'). */
      bool
      rom_needed() const
      {
        return rom || !structure_analyses.empty();
      }
    };

    inline std::string
    format(const double value, const int digits = 6)
    {
      std::ostringstream s;
      s << std::setprecision(digits) << value;
      return s.str();
    }

    /**
     * The sparse direct solver of every factorization: MUMPS on one MPI rank,
     * SuperLU_DIST on several. MUMPS assigns work to processes dynamically
     * (which process takes which part of a front depends on their load when
     * it is reached) and assembles contributions in the order they arrive, so
     * the rounding of a factorization on 2 ranks changes from run to run
     * (prm/continuum/c4_bimorph_3d.prm, five 2-rank runs: f1 spread 3.4e-9
     * relative, every mode file different); SuperLU_DIST's distribution is
     * static: five 2-rank runs wrote the same bytes. One rank keeps MUMPS
     * (bit-identical to itself; less memory). PETSc options override it
     * (-st_pc_factor_mat_solver_type for the eigensolver,
     * -pc_factor_mat_solver_type for the others).
     */
    inline MatSolverType
    direct_solver_type(const MPI_Comm comm)
    {
      return Utilities::MPI::n_mpi_processes(comm) > 1 ? MATSOLVERSUPERLU_DIST : MATSOLVERMUMPS;
    }

    /**
     * A sparse direct solver (direct_solver_type()) that factors a matrix once
     * and solves for many right-hand sides. Given the unknowns to keep, it
     * factors only their rows and columns: a matrix assembled with most
     * unknowns constrained (the clamped electrostatic problem, u = 0) keeps
     * the explicit zeros of the full sparsity pattern, which MUMPS would fill
     * in as if they were entries.
     */
    class DirectSolver
    {
    public:
      DirectSolver(const PMatrix &matrix, const MPI_Comm comm, const IndexSet *kept = nullptr)
      {
        Mat operator_matrix = matrix;
        if (kept != nullptr)
          {
            std::vector<PetscInt> rows(kept->begin(), kept->end());
            check_petsc(ISCreateGeneral(comm, rows.size(), rows.data(), PETSC_COPY_VALUES, &subset), "ISCreateGeneral");
            check_petsc(MatCreateSubMatrix(matrix, subset, subset, MAT_INITIAL_MATRIX, &submatrix),
                        "MatCreateSubMatrix");
            operator_matrix = submatrix;
          }
        check_petsc(KSPCreate(comm, &ksp), "KSPCreate");
        check_petsc(KSPSetOperators(ksp, operator_matrix, operator_matrix), "KSPSetOperators");
        check_petsc(KSPSetType(ksp, KSPPREONLY), "KSPSetType");
        PC pc;
        check_petsc(KSPGetPC(ksp, &pc), "KSPGetPC");
        check_petsc(PCSetType(pc, PCLU), "PCSetType");
        check_petsc(PCFactorSetMatSolverType(pc, direct_solver_type(comm)), "PCFactorSetMatSolverType");
        check_petsc(KSPSetFromOptions(ksp), "KSPSetFromOptions");
      }
      ~DirectSolver()
      {
        KSPDestroy(&ksp);
        if (submatrix != nullptr)
          MatDestroy(&submatrix);
        if (subset != nullptr)
          ISDestroy(&subset);
      }
      DirectSolver(const DirectSolver &) = delete;
      DirectSolver &
      operator=(const DirectSolver &) = delete;

      /**
       * x = A^-1 b (on the kept unknowns only; x's other entries are left
       * as they are); false if the factorization failed (a singular matrix).
       */
      bool
      solve(const PVector &b, PVector &x)
      {
        if (subset == nullptr)
          check_petsc(KSPSolve(ksp, b, x), "KSPSolve");
        else
          {
            Vec b_kept, x_kept;
            check_petsc(VecGetSubVector(b, subset, &b_kept), "VecGetSubVector");
            check_petsc(VecGetSubVector(x, subset, &x_kept), "VecGetSubVector");
            check_petsc(KSPSolve(ksp, b_kept, x_kept), "KSPSolve");
            check_petsc(VecRestoreSubVector(x, subset, &x_kept), "VecRestoreSubVector");
            check_petsc(VecRestoreSubVector(b, subset, &b_kept), "VecRestoreSubVector");
          }
        KSPConvergedReason reason;
        check_petsc(KSPGetConvergedReason(ksp, &reason), "KSPGetConvergedReason");
        return reason >= 0;
      }

    private:
      KSP ksp       = nullptr;
      Mat submatrix = nullptr;
      IS  subset    = nullptr;
    };


  template <int dim>
  class Solver : public ContinuumRun::Implementation
  {
  public:
    Solver(const ContinuumModel &model, const AnalysisOptions &options);

    std::string
    description() const override;
    std::vector<std::string>
    warnings() const override
    {
      return input_warnings;
    }
    void
    solve(ContinuumResult &result) override;
    void
    fill(ContinuumResult &result) const override;
    void
    write_vtu(std::size_t k, const std::string &filename) const override;
    void
    check_structure_analyses() const override;

  private:
    class AsStructure; // harmonic.cc
    /** Which electrical (and mechanical) state constraints describe. */
    enum class State
    {
      short_circuit, ///< ports at 0 V
      open_circuit,  ///< ports floating
      statics,       ///< ports by their circuit at DC
      clamped,       ///< u = 0, port `electrode` at 1 V, other ports at 0 V
      harmonic       ///< ports by `circuits`: short and prescribed fixed, loaded ones floating
    };

    struct ElectrodeDofs
    {
      std::vector<types::global_dof_index> dofs; ///< potential dofs, locally active
      types::global_dof_index              master = 0;
    };

    struct Field
    {
      std::string name;
      double      time  = 0; ///< position in the PVD series
      double      value = 0; ///< frequency (Hz) of a mode, 0 otherwise
      PVector     values;    ///< with constraints distributed
      /**
       * A mode's index, short- and open-circuit frequency (Hz) and k_eff,
       * written as the VTU file's field data; empty for a static field
       * (whose values are in m and V, not per square root of a kilogram).
       */
      std::vector<std::pair<std::string, double>> metadata;
    };

    const ContinuumModel &model;
    const AnalysisOptions options;
    const MPI_Comm        comm = MPI_COMM_WORLD;
    const unsigned int    rank;

    parallel::distributed::Triangulation<dim> triangulation;
    FESystem<dim>                             fe;
    /** The memory estimated before the mesh was refined (read_mesh). */
    MemoryEstimate                            memory_estimate;
    DoFHandler<dim>                           dof_handler;
    IndexSet                                  owned, relevant, active;
    IndexSet                                  owned_u; ///< owned displacement dofs

    std::map<std::string, types::boundary_id> boundary_ids;
    std::map<types::material_id, unsigned int> region_of; ///< index into model.regions
    std::map<types::material_id, Eigen::MatrixXd> enthalpy;
    std::map<types::material_id, double>          density;
    std::set<types::material_id>                  piezo_ids;
    std::vector<ElectrodeDofs>                    electrode_dofs;
    std::vector<types::global_dof_index>          inactive_potential;
    std::vector<unsigned int>                     ports; ///< indices of port electrodes
    /** Per support: its fixed dofs at a point support (owned or ghost cells), else empty. */
    std::vector<std::vector<types::global_dof_index>> point_support_dofs;
    /** Added density (kg/m^3) of the region masses, per material id. */
    std::map<types::material_id, double> added_density;
    /** Point masses in locally owned cells: cell index -> (point in the unit cell, mass share in kg). */
    std::map<unsigned int, std::vector<std::pair<Point<dim>, double>>> point_masses;
    /** Axisymmetric: the radial dofs on the axis x = 0 (u_r = 0 there), owned or ghost cells. */
    std::vector<types::global_dof_index> axis_dofs;
    double                                        scale = 1; ///< thickness in 2D, else 1
    bool axisymmetric = false; ///< a 2D mesh of a body of revolution about y
    /** The measure of a volume integral per unit mesh area/volume at p: the thickness in plane stress/strain, 2 pi r axisymmetric, 1 in 3D. */
    double
    measure(const Point<dim> &p) const
    {
      return axisymmetric ? 2 * M_PI * p[0] : scale;
    }
    double setup_seconds = 0; ///< reading the mesh, refining, distributing dofs, sparsity
    double start_up_seconds = 0; ///< from the start of the process to the continuum's mesh

    DynamicSparsityPattern sparsity;
    /** M's: each displacement component with itself, and the diagonal (a subset of `sparsity`). */
    DynamicSparsityPattern mass_sparsity;

    // results
    std::vector<Field>           fields;
    nlohmann::json               rom_document;
    ReducedModel                 rom;
    /** f_sc and f_oc (Hz) of the first elastic mode, if computed. */
    std::optional<std::pair<double, double>> first_mode_hz;
    /** Results of the analyses on the continuum as a Structure. */
    std::vector<std::unique_ptr<AnalysisResult>> outcomes;

    /**
     * Read the mesh: its node coordinates must be finite, its cells oriented
     * one way (a mirrored mesh is turned around; see mesh_check.h).
     */
    void
    read_mesh();
    void
    setup_dofs();
    /** Region masses as added densities, point masses located in their cells. */
    void
    setup_masses();
    /** Warnings about the input found while setting up (a mesh that looks drawn in mm). */
    std::vector<std::string> input_warnings;
    /**
     * The function of x, y(, z) given by `components` (one expression per
     * displacement component) of entry `entry` of `load`; an InputError
     * naming them if it does not parse (loads.cc).
     */
    std::unique_ptr<FunctionParser<dim>>
    load_function(const std::vector<std::string> &components, const ContinuumModel::Load &load,
                  const std::string &entry) const;
    /**
     * Evaluate every traction and body force at the quadrature points where
     * it is integrated; an InputError (on every rank) naming the load, the
     * component, the value and the point if one is not a finite number
     * (loads.cc).
     */
    void
    check_loads() const;
    /**
     * Add the point load `force` at p to rhs (shares on every rank that holds
     * p), condensed by `constraints`; an InputError naming `path` if p lies
     * outside the mesh.
     */
    void
    add_point_load(const Point<3> &p, const Tensor<1, 3> &force, const AffineConstraints<double> &constraints,
                   PVector &rhs, const std::string &path) const;
    /**
     * The constraints of `state`; `electrode` is the port at 1 V of the
     * clamped state, `circuits` (one per port) those of the harmonic state.
     */
    AffineConstraints<double>
    make_constraints(State state, unsigned int electrode = 0,
                     const std::vector<SpectralModel::Circuit> *circuits = nullptr) const;
    /**
     * The element stiffness K and mass M of `cell`. They are computed (with
     * `fe_values` reinitialized on the cell) the first time a cell asks and
     * kept (K's upper triangle, the scalar mass block): the modal analysis
     * assembles K for the short circuit, the open circuit and each clamped
     * port and applies it to the electrode indicators, and each of these
     * passes reuses them. `fe_values` is not reinitialized when they come
     * from the cache.
     */
    void
    local_matrices(const typename DoFHandler<dim>::active_cell_iterator &cell,
                   FEValues<dim>                                        &fe_values,
                   FullMatrix<double>                                   &K,
                   FullMatrix<double>                                   &M) const;
    struct LocalMatrices;
    /**
     * B at quadrature point q of the cell `fe_values` is on (rows: the
     * strains, then, if `piezo`, the gradient of the potential; columns: the
     * cell's shape functions): the strains and field of a cell vector x are
     * B x.
     */
    void
    strain_operator(const FEValues<dim> &fe_values, unsigned int q, bool piezo, Eigen::MatrixXd &B) const;
    /**
     * a(x_i, x_j) = sum over cells and quadrature points of (B x_i)^T H (B x_j)
     * for full vectors x (every constrained entry filled in): the stiffness
     * form x_i^T K x_j evaluated from the strains and fields. Its round-off
     * is eps times |B| |x| / |B x| (the gradients of a vector that moves a
     * thin cell almost rigidly), against eps times (|B| |x| / |B x|)^2 for
     * x^T (K x), which adds the large entries of K before they cancel: on
     * thin laminates that is the difference between 1e-12 and 1e-9 in a
     * frequency. Summed over ranks.
     */
    Eigen::MatrixXd
    energy_products(const std::vector<PVector> &x) const;
    void
    compute_local_matrices(const typename DoFHandler<dim>::active_cell_iterator &cell,
                           FEValues<dim>                                        &fe_values,
                           LocalMatrices                                        &local) const;
    struct LocalMatrices
    {
      std::vector<double> K_upper; ///< K(i, j) for j >= i, row by row
      Eigen::MatrixXd     M_scalar; ///< the mass of the scalar shape functions
    };
    /** By active cell index; empty entries are not computed yet. */
    mutable std::vector<LocalMatrices> local_matrices_cache;
    /** K (and M) under `constraints`; K with the structure of `like` if given (assembled on `sparsity`). */
    void
    assemble(const AffineConstraints<double> &constraints, PMatrix &K, PMatrix *M, PVector &rhs, bool loads,
             const PMatrix *like = nullptr) const;
    /** out = A x cell by cell (A = K or M, without constraints), condensed by `constraints` if given. */
    void
    apply(bool stiffness, const PVector &x, PVector &out, const AffineConstraints<double> *constraints) const;
    /** The same for several vectors, the local matrices computed once. */
    void
    apply(bool                              stiffness,
          const std::vector<PVector>       &x,
          std::vector<PVector>             &out,
          const AffineConstraints<double> *constraints) const;
    PVector
    ghosted(const PVector &v) const;
    PVector
    rigid_translation() const;
    PVector
    electrode_indicator(unsigned int e) const;
    /**
     * c_e = K g_e (without constraints) for every electrode e, g_e its
     * indicator: the charge on e of a full solution x is -c_e . x. Computed
     * once, on first use.
     */
    const std::vector<PVector> &
    charge_functionals() const;
    mutable std::vector<PVector> charge_functionals_cache;
    double
    stiffness_scale(const PMatrix &K, const PMatrix &M) const;
    /**
     * The n eigenpairs nearest sigma of K x = lambda M x, K and M condensed by
     * `constraints`; each eigenvalue is the Rayleigh quotient of its
     * M-normalized vector with the stiffness from energy_products(), accurate
     * to about 1e-12 relative where x^T K x was not. `timings` gets the factorization and
     * iteration times (s). With `keep` the eigensolver (and its factorization
     * of K - sigma M) is handed back instead of destroyed; with `inverse` the
     * shift-and-invert solves use it instead of a factorization.
     */
    std::vector<std::pair<double, PVector>>
    eigenpairs(const PMatrix &K, const PMatrix &M, const AffineConstraints<double> &constraints, unsigned int n,
               double sigma, nlohmann::json &timings, EPS *keep = nullptr,
               const LowRankInverse *inverse = nullptr) const;
    void
    apply_sign_convention(PVector &v) const;
    /** Displacement, potential, stress and electric field at a point. */
    struct PointValues
    {
      std::vector<double> u, stress, field;
      double              phi = 0;
    };
    PointValues
    point_value(const PVector &x, const Point<3> &p, const std::string &name) const;
    /** The first locally owned cell that holds p and p in its unit cell; false if none here. */
    bool
    locate(const Point<dim> &p, typename DoFHandler<dim>::active_cell_iterator &cell, Point<dim> &unit) const;
    /**
     * g with g . x = the displacement of x at output point `point` along its
     * direction; condensed by `constraints` if given (then g is the load
     * vector of a unit force there).
     */
    PVector
    point_functional(const ContinuumModel::OutputPoint &point,
                     const AffineConstraints<double>   *constraints = nullptr) const;
    /** The full model's undamped harmonic response (Structure::direct_response). */
    Structure::DirectResponse
    harmonic_response(double                                     omega,
                      const SpectralModel::Excitation           &excitation,
                      const std::vector<SpectralModel::Circuit> &circuits,
                      const std::vector<OutputPoint>            &points) const;
    void
    run_structure_analyses(ContinuumResult &result);
    void
    require_solved(bool ok, const std::string &what) const;

    void
    run_static(ContinuumResult &result);
    void
    run_modal_and_rom(ContinuumResult &result);
  };

} // namespace hamilton::continuum

#endif
