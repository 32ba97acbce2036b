#ifndef hamilton_analyses_eigensolver_h
#define hamilton_analyses_eigensolver_h

#include <deal.II/lac/sparse_matrix.h>
#include <deal.II/lac/vector.h>

#include <string>
#include <vector>

namespace hamilton
{
  /** Which eigensolver to use. */
  enum class EigensolverBackend
  {
    automatic, ///< dense up to dense_size_limit unknowns, SLEPc above
    dense,     ///< LAPACK (xSYGV), all eigenpairs
    slepc      ///< SLEPc Krylov-Schur with a direct (LU) inner solve
  };

  EigensolverBackend
  eigensolver_backend_from_string(const std::string &name);

  /**
   * Problems with more unknowns than this go to SLEPc in automatic mode.
   * Measured on a Hermite-cubic cantilever (benchmark_beam_roundoff): the
   * dense inverted solve and SLEPc's shift-and-invert (sparse LU) agree to
   * 3e-11 in mode 1 at 128 unknowns, but at 512 unknowns the dense error is
   * 3e-8 against 7e-10 for SLEPc, which is also 100 times faster there.
   */
  constexpr unsigned int dense_size_limit = 200;

  /**
   * Give `vector` the documented sign of every mode Hamilton writes or
   * projects: the component of largest magnitude is positive, where
   * components within a relative 1e-6 of the largest count as equally large
   * and the first of them (lowest index) decides. A vector and its negative
   * thus always come out the same, whichever BLAS/LAPACK or eigensolver
   * produced it (two components equal up to round-off, as at mirror points
   * of a symmetric beam, cannot swap the decision).
   */
  void
  apply_sign_convention(dealii::Vector<double> &vector);

  /**
   * Eigenpairs, eigenvalues sorted as documented by the producing function;
   * every vector follows apply_sign_convention().
   */
  struct EigenSolution
  {
    std::vector<double>                 values;
    std::vector<dealii::Vector<double>> vectors;
    std::string                         backend; ///< "LAPACK" or "SLEPc"
  };

  /**
   * The n smallest eigenpairs of K x = lambda M x (K symmetric, M symmetric
   * positive definite), lambda ascending, x^T M x = 1.
   *
   * Solved in inverted form so that the low eigenvalues keep full relative
   * accuracy: densely as M x = mu (K + sigma M) x with lambda = 1/mu - sigma,
   * or with SLEPc by shift-and-invert about -sigma. `shift` (sigma >= 0, in
   * the units of lambda, 1/s^2) must make K + sigma M positive definite; use
   * 0 for a supported beam and a value of the order of the first elastic
   * eigenvalue if rigid-body motion is possible. If K + sigma M is not
   * positive definite (compressive prestress beyond buckling) sigma is
   * increased tenfold from `shift_scale` until it is.
   */
  EigenSolution
  lowest_eigenpairs(const dealii::SparseMatrix<double> &K,
                    const dealii::SparseMatrix<double> &M,
                    unsigned int                        n,
                    EigensolverBackend                  backend,
                    double                              shift,
                    double                              shift_scale);

  /**
   * The n largest eigenpairs mu of A x = mu B x with B symmetric positive
   * definite, mu descending, x^T B x = 1. Buckling uses A = -K_g, B = K:
   * the load factors are 1/mu for mu > 0.
   */
  EigenSolution
  largest_eigenpairs(const dealii::SparseMatrix<double> &A,
                     const dealii::SparseMatrix<double> &B,
                     unsigned int                        n,
                     EigensolverBackend                  backend);
} // namespace hamilton

#endif
