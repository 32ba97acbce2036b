// Internal to the continuum: the open-circuit shift-and-invert operator from
// the short-circuit factorization (see low_rank_inverse.cc).

#ifndef hamilton_source_continuum_low_rank_inverse_h
#define hamilton_source_continuum_low_rank_inverse_h

#include <deal.II/lac/petsc_sparse_matrix.h>
#include <deal.II/lac/petsc_vector.h>

#include <Eigen/Dense>
#include <petscksp.h>

#include <vector>

namespace hamilton::continuum
{
  /**
   * The inverse of S + D, with S = K_ref - sigma M factored (the KSP of a
   * shift-and-invert eigensolver) and D = K - K_ref symmetric and nonzero only
   * in a few rows and columns J (an electrode's master unknown, floating in K
   * and fixed in K_ref), by the Woodbury identity: with E = [e_j], F = D E,
   * D = U C U^T for U = [E, F], C = [[-D_JJ, I], [I, 0]], and
   *   (S + D)^-1 = S^-1 - Z G^-1 U^T S^-1,  Z = S^-1 U,  G = C^-1 + U^T Z.
   * Costs 2|J| solves to set up and one solve per application, instead of a
   * second factorization. check() compares one application with K - sigma M.
   */
  class LowRankInverse
  {
  public:
    using PMatrix = dealii::PETScWrappers::MPI::SparseMatrix;
    using PVector = dealii::PETScWrappers::MPI::Vector;

    /**
     * K and K_ref of the same parallel layout and sparsity; `factored`
     * solves with K_ref - sigma M. Returns false (nothing set up) if D is
     * not confined to at most `max_rank` rows and columns.
     */
    bool
    setup(const PMatrix &K, const PMatrix &K_ref, KSP factored, unsigned int max_rank);

    /** y = (K - sigma M)^-1 x. */
    void
    apply(Vec x, Vec y) const;

    /** Make `pc` (of a KSPPREONLY) apply this inverse. */
    void
    install(PC pc) const;

    /**
     * The normwise backward error |(K - sigma M) y - x| / (|K - sigma M| |y|
     * + |x|) (infinity norms) of one application to a fixed vector. A
     * backward-stable direct solve gives a few units of round-off.
     */
    double
    check(Mat K, Mat M, double sigma) const;

    ~LowRankInverse();

  private:
    KSP                          factored = nullptr;
    std::vector<Vec>             U, Z;
    Eigen::PartialPivLU<Eigen::MatrixXd> G;
  };
} // namespace hamilton::continuum

#endif
