#ifndef hamilton_lumped_ida_kernels_h
#define hamilton_lumped_ida_kernels_h

#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_nvector.h>

namespace hamilton::lumped
{
  /**
   * Debian 12 ships SUNDIALS 6.4.1 compiled without optimization (-O0: every
   * variable goes through the stack), and for the small systems of the
   * lumped library IDA's own vector kernels and dense LU took most of the
   * integration time. These two functions swap in optimized equivalents,
   * compiled with this library:
   *
   * Replace the arithmetic operations of a serial N_Vector (and of every
   * vector IDA clones from it) by the same loops compiled here.
   */
  void
  use_compiled_vector_kernels(N_Vector v);

  /** A dense direct linear solver on Eigen's partial-pivoting LU (for a SUNDenseMatrix). */
  SUNLinearSolver
  eigen_dense_linear_solver(SUNContext context);
} // namespace hamilton::lumped

#endif
