#ifndef hamilton_lumped_ida_kernels_h
#define hamilton_lumped_ida_kernels_h

#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_nonlinearsolver.h>
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

  /** What the rescue of damped_newton_solver did in a run. */
  struct DampedNewtonStatistics
  {
    long int rescues = 0, rescued = 0, damped_steps = 0, knee_refreshes = 0;
  };

  /**
   * IDA's Newton iteration (SUNNonlinSol_Newton of SUNDIALS 6.4.1, the same
   * operations in the same order), globalized where it gives up: when the
   * iteration fails to converge with a Jacobian evaluated for the step, it
   * restarts from the predictor with a Jacobian at every iterate and steps
   * damped by Deuflhard's natural monotonicity test, before IDA would cut
   * the step. This follows a diode's exponential law through its knee, where
   * the slope changes by the ratio of leakage to forward resistance (README,
   * "Rectifier circuits"). `y` is a template for the work vectors.
   */
  SUNNonlinearSolver
  damped_newton_solver(SUNContext context, N_Vector y);

  /**
   * Where the law of an element changes its slope by orders of magnitude (a
   * diode's knee), a Newton correction is small only because the Jacobian
   * is from the steep side: `record` notes the state at each Jacobian
   * evaluation (IDA's predictor plus the correction `ycor`), `stale` says
   * whether the last correction `correction`, which led to the iterate
   * `ycor`, erred beyond the tolerance because the Jacobian's slopes differ
   * from those at the iterate. A convergence with a stale Jacobian is not
   * accepted: the iteration goes on with a Jacobian at the iterate (at most
   * 20 times per solve); the rescue converges only where it is not stale.
   */
  struct KneeHooks
  {
    void (*record)(N_Vector ycor, void *data) = nullptr;
    bool (*stale)(N_Vector ycor, N_Vector correction, void *data) = nullptr;
    void *data                                = nullptr;
  };

  void
  set_knee_hooks(SUNNonlinearSolver S, const KneeHooks &hooks);

  /** The counts of the rescues (calls, successes, damped steps) of a solver of damped_newton_solver. */
  DampedNewtonStatistics
  damped_newton_statistics(SUNNonlinearSolver S);
} // namespace hamilton::lumped

#endif
