#include <hamilton/lumped/ida_kernels.h>

#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace hamilton::lumped
{
  namespace
  {
    using Vector = Eigen::Map<Eigen::VectorXd>;

    Vector
    map(N_Vector v)
    {
      return Vector(NV_DATA_S(v), NV_LENGTH_S(v));
    }

    void
    linear_sum(realtype a, N_Vector x, realtype b, N_Vector y, N_Vector z)
    {
      map(z) = a * map(x) + b * map(y);
    }
    void
    constant(realtype c, N_Vector z)
    {
      map(z).setConstant(c);
    }
    void
    product(N_Vector x, N_Vector y, N_Vector z)
    {
      map(z) = map(x).cwiseProduct(map(y));
    }
    void
    quotient(N_Vector x, N_Vector y, N_Vector z)
    {
      map(z) = map(x).cwiseQuotient(map(y));
    }
    void
    scale(realtype c, N_Vector x, N_Vector z)
    {
      map(z) = c * map(x);
    }
    void
    absolute(N_Vector x, N_Vector z)
    {
      map(z) = map(x).cwiseAbs();
    }
    void
    inverse(N_Vector x, N_Vector z)
    {
      map(z) = map(x).cwiseInverse();
    }
    void
    add_constant(N_Vector x, realtype b, N_Vector z)
    {
      map(z) = map(x).array() + b;
    }
    realtype
    dot(N_Vector x, N_Vector y)
    {
      return map(x).dot(map(y));
    }
    realtype
    max_norm(N_Vector x)
    {
      return NV_LENGTH_S(x) ? map(x).cwiseAbs().maxCoeff() : 0.;
    }
    realtype
    weighted_square_sum(N_Vector x, N_Vector w)
    {
      return map(x).cwiseProduct(map(w)).squaredNorm();
    }
    realtype
    weighted_square_sum_mask(N_Vector x, N_Vector w, N_Vector id)
    {
      return (map(id).array() > 0).select(map(x).cwiseProduct(map(w)).array().square(), 0.).sum();
    }
    realtype
    wrms_norm(N_Vector x, N_Vector w)
    {
      return std::sqrt(weighted_square_sum(x, w) / NV_LENGTH_S(x));
    }
    realtype
    wrms_norm_mask(N_Vector x, N_Vector w, N_Vector id)
    {
      return std::sqrt(weighted_square_sum_mask(x, w, id) / NV_LENGTH_S(x));
    }
    int
    linear_combination(int n, realtype *c, N_Vector *X, N_Vector z)
    {
      // z may be X[0]
      Vector result = map(z);
      if (X[0] == z)
        result *= c[0];
      else
        result = c[0] * map(X[0]);
      for (int k = 1; k < n; ++k)
        result += c[k] * map(X[k]);
      return 0;
    }
    int
    scale_add_multi(int n, realtype *a, N_Vector x, N_Vector *Y, N_Vector *Z)
    {
      for (int k = 0; k < n; ++k)
        map(Z[k]) = a[k] * map(x) + map(Y[k]);
      return 0;
    }
  } // namespace

  void
  use_compiled_vector_kernels(N_Vector v)
  {
    auto *ops                = v->ops;
    ops->nvlinearsum         = linear_sum;
    ops->nvconst             = constant;
    ops->nvprod              = product;
    ops->nvdiv               = quotient;
    ops->nvscale             = scale;
    ops->nvabs               = absolute;
    ops->nvinv               = inverse;
    ops->nvaddconst          = add_constant;
    ops->nvdotprod           = dot;
    ops->nvmaxnorm           = max_norm;
    ops->nvwrmsnorm          = wrms_norm;
    ops->nvwrmsnormmask      = wrms_norm_mask;
    ops->nvwsqrsumlocal      = weighted_square_sum;
    ops->nvwsqrsummasklocal  = weighted_square_sum_mask;
    ops->nvdotprodlocal      = dot;
    ops->nvmaxnormlocal      = max_norm;
    ops->nvlinearcombination = linear_combination;
    ops->nvscaleaddmulti     = scale_add_multi;
  }

  namespace
  {
    struct EigenDense
    {
      Eigen::PartialPivLU<Eigen::MatrixXd> lu;
    };

    EigenDense &
    content(SUNLinearSolver S)
    {
      return *static_cast<EigenDense *>(S->content);
    }
  } // namespace

  SUNLinearSolver
  eigen_dense_linear_solver(SUNContext context)
  {
    SUNLinearSolver S = SUNLinSolNewEmpty(context);
    S->content        = new EigenDense;
    S->ops->gettype   = [](SUNLinearSolver) { return SUNLINEARSOLVER_DIRECT; };
    S->ops->setup     = [](SUNLinearSolver S, SUNMatrix A) {
      const sunindextype N  = SUNDenseMatrix_Rows(A);
      auto              &lu = content(S).lu;
      lu.compute(Eigen::Map<const Eigen::MatrixXd>(SUNDenseMatrix_Data(A), N, N)); // column-major
      // a zero pivot is recoverable: IDA retries with a smaller step
      return (lu.matrixLU().diagonal().array() == 0).any() ? int(SUNLS_LUFACT_FAIL) : int(SUNLS_SUCCESS);
    };
    S->ops->solve = [](SUNLinearSolver S, SUNMatrix, N_Vector x, N_Vector b, realtype) {
      map(x) = content(S).lu.solve(map(b));
      return int(SUNLS_SUCCESS);
    };
    S->ops->free = [](SUNLinearSolver S) {
      delete static_cast<EigenDense *>(S->content);
      S->content = nullptr;
      SUNLinSolFreeEmpty(S);
      return int(SUNLS_SUCCESS);
    };
    return S;
  }
} // namespace hamilton::lumped

namespace hamilton::lumped
{
  namespace
  {
    /** The state of the globalized Newton solver (see damped_newton_solver). */
    struct DampedNewton
    {
      SUNNonlinSolSysFn      sys        = nullptr;
      SUNNonlinSolLSetupFn   lsetup     = nullptr;
      SUNNonlinSolLSolveFn   lsolve     = nullptr;
      SUNNonlinSolConvTestFn ctest      = nullptr;
      void                  *ctest_data = nullptr;
      int                    maxiters   = 3;
      int                    curiter    = 0;
      long int               niters = 0, nconvfails = 0;
      booleantype            jcur = SUNFALSE;
      N_Vector               delta = nullptr, trial = nullptr, f_trial = nullptr, d_trial = nullptr;
      DampedNewtonStatistics statistics;
      KneeHooks              knees;
    };

    DampedNewton &
    newton(SUNNonlinearSolver S)
    {
      return *static_cast<DampedNewton *>(S->content);
    }

    /** The damped iterations a rescue may take, and the smallest damping factor. */
    constexpr int    rescue_iterations = 60;
    constexpr double smallest_damping  = 1. / 4096;
    /**
     * The Jacobian renewals per solve that the knee test may ask for: a
     * Newton iteration from the flat side of a diode's exponential multiplies
     * the current i by 1 + ln(i_s/i) per iterate (i_s the solution: about 6
     * iterates from 1e-13 to 5e-11 A); after them an iterate is accepted as
     * IDA's test accepts it.
     */
    constexpr int max_knee_refreshes = 20;

    /** Whether the knee test of `d` rejects the iterate `y`, reached by the correction `delta`. */
    bool
    knee_stale(const DampedNewton &d, N_Vector y, N_Vector delta)
    {
      return d.knees.stale && d.knees.stale(y, delta, d.knees.data);
    }

    /**
     * The rescue of a Newton iteration that failed with a fresh Jacobian:
     * Newton's method with a Jacobian at every iterate and damping by the
     * natural monotonicity test (Deuflhard, "Newton Methods for Nonlinear
     * Problems", 2004, NLEQ-ERR): a step lambda*delta is accepted if the
     * simplified correction there, J^-1 F(y + lambda delta), is at most
     * (1 - lambda/4) of delta in IDA's weighted norm; otherwise lambda is
     * halved. Converged when a full step leaves a correction below tol/20
     * (IDA's test right after a Jacobian update) that the knee test accepts.
     */
    int
    rescue(SUNNonlinearSolver S, N_Vector ycor, N_Vector w, realtype tol, void *mem)
    {
      DampedNewton &d = newton(S);
      ++d.statistics.rescues;
      N_VConst(0., ycor); // from the predictor
      int r = d.sys(ycor, d.delta, mem);
      if (r != SUN_NLS_SUCCESS)
        return r;
      for (int k = 0; k < rescue_iterations; ++k)
        {
          ++d.niters;
          r = d.lsetup(SUNTRUE, &d.jcur, mem); // at the current iterate (the last residual evaluated)
          if (r != SUN_NLS_SUCCESS)
            return r;
          if (d.knees.record)
            d.knees.record(ycor, d.knees.data);
          N_VScale(-1., d.delta, d.delta);
          if ((r = d.lsolve(d.delta, mem)) != SUN_NLS_SUCCESS)
            return r;
          const double norm = N_VWrmsNorm(d.delta, w);
          N_VLinearSum(1., ycor, 1., d.delta, d.trial);
          if (norm * 20 <= tol && !knee_stale(d, d.trial, d.delta))
            {
              N_VLinearSum(1., ycor, 1., d.delta, ycor);
              ++d.statistics.rescued;
              d.jcur = SUNFALSE;
              return SUN_NLS_SUCCESS;
            }
          bool accepted = false;
          for (double lambda = 1.; lambda >= smallest_damping && !accepted; lambda /= 2)
            {
              N_VLinearSum(1., ycor, lambda, d.delta, d.trial);
              r = d.sys(d.trial, d.f_trial, mem);
              if (r < 0)
                return r;
              if (r > 0) // the residual could not be evaluated there: shorter
                continue;
              N_VScale(-1., d.f_trial, d.d_trial);
              if ((r = d.lsolve(d.d_trial, mem)) != SUN_NLS_SUCCESS)
                return r;
              const double next = N_VWrmsNorm(d.d_trial, w);
              if (next <= (1 - lambda / 4) * norm)
                {
                  accepted = true;
                  if (lambda < 1)
                    ++d.statistics.damped_steps;
                  N_VScale(1., d.trial, ycor);
                  N_VScale(1., d.f_trial, d.delta); // the residual at the new iterate
                  N_VLinearSum(1., ycor, 1., d.d_trial, d.trial);
                  if (lambda == 1 && next * 20 <= tol && !knee_stale(d, d.trial, d.d_trial))
                    {
                      N_VLinearSum(1., ycor, 1., d.d_trial, ycor);
                      ++d.statistics.rescued;
                      d.jcur = SUNFALSE;
                      return SUN_NLS_SUCCESS;
                    }
                }
            }
          if (!accepted)
            return SUN_NLS_CONV_RECVR;
        }
      return SUN_NLS_CONV_RECVR;
    }

    /** SUNNonlinSolSolve_Newton of SUNDIALS 6.4.1, with the rescue where it gives up. */
    int
    solve(SUNNonlinearSolver S, N_Vector, N_Vector ycor, N_Vector w, realtype tol, booleantype call_lsetup, void *mem)
    {
      DampedNewton &d    = newton(S);
      booleantype   jbad = SUNFALSE;
      int           r, refreshes = 0;
      for (;;)
        {
          if ((r = d.sys(ycor, d.delta, mem)) != SUN_NLS_SUCCESS)
            break;
          if (call_lsetup)
            {
              if ((r = d.lsetup(jbad, &d.jcur, mem)) != SUN_NLS_SUCCESS)
                break;
              if (d.knees.record)
                d.knees.record(ycor, d.knees.data);
            }
          d.curiter = 0;
          for (;;)
            {
              ++d.niters;
              N_VScale(-1., d.delta, d.delta);
              if ((r = d.lsolve(d.delta, mem)) != SUN_NLS_SUCCESS)
                break;
              N_VLinearSum(1., ycor, 1., d.delta, ycor);
              r = d.ctest(S, ycor, d.delta, tol, w, d.ctest_data);
              // a correction may be small only because the Jacobian's
              // slopes are not those at the iterate (a knee between them):
              // then again, with a Jacobian at the iterate
              if (r == SUN_NLS_SUCCESS && refreshes < max_knee_refreshes && knee_stale(d, ycor, d.delta))
                {
                  ++refreshes;
                  ++d.statistics.knee_refreshes;
                  if ((r = d.sys(ycor, d.delta, mem)) != SUN_NLS_SUCCESS ||
                      (r = d.lsetup(SUNTRUE, &d.jcur, mem)) != SUN_NLS_SUCCESS)
                    break;
                  d.knees.record(ycor, d.knees.data);
                  d.curiter = 0;
                  continue;
                }
              if (r == SUN_NLS_SUCCESS)
                {
                  d.jcur = SUNFALSE;
                  return SUN_NLS_SUCCESS;
                }
              if (r != SUN_NLS_CONTINUE)
                break;
              if (++d.curiter >= d.maxiters)
                {
                  r = SUN_NLS_CONV_RECVR;
                  break;
                }
              if ((r = d.sys(ycor, d.delta, mem)) != SUN_NLS_SUCCESS)
                break;
            }
          if (r > 0 && !d.jcur && d.lsetup)
            {
              ++d.nconvfails;
              call_lsetup = SUNTRUE;
              jbad        = SUNTRUE;
              N_VConst(0., ycor);
              continue;
            }
          break;
        }
      // the plain iteration failed with a Jacobian of this step: rescue
      if (r > 0 && d.lsetup && (r = rescue(S, ycor, w, tol, mem)) == SUN_NLS_SUCCESS)
        return SUN_NLS_SUCCESS;
      ++d.nconvfails;
      return r;
    }
  } // namespace

  SUNNonlinearSolver
  damped_newton_solver(SUNContext context, N_Vector y)
  {
    SUNNonlinearSolver S = SUNNonlinSolNewEmpty(context);
    auto              *d = new DampedNewton;
    S->content           = d;
    for (N_Vector *v : {&d->delta, &d->trial, &d->f_trial, &d->d_trial})
      *v = N_VClone(y);
    S->ops->gettype    = [](SUNNonlinearSolver) { return SUNNONLINEARSOLVER_ROOTFIND; };
    S->ops->initialize = [](SUNNonlinearSolver S) {
      newton(S).niters = 0;
      return int(SUN_NLS_SUCCESS);
    };
    S->ops->solve    = solve;
    S->ops->setsysfn = [](SUNNonlinearSolver S, SUNNonlinSolSysFn f) {
      newton(S).sys = f;
      return int(SUN_NLS_SUCCESS);
    };
    S->ops->setlsetupfn = [](SUNNonlinearSolver S, SUNNonlinSolLSetupFn f) {
      newton(S).lsetup = f;
      return int(SUN_NLS_SUCCESS);
    };
    S->ops->setlsolvefn = [](SUNNonlinearSolver S, SUNNonlinSolLSolveFn f) {
      newton(S).lsolve = f;
      return int(SUN_NLS_SUCCESS);
    };
    S->ops->setctestfn = [](SUNNonlinearSolver S, SUNNonlinSolConvTestFn f, void *data) {
      newton(S).ctest      = f;
      newton(S).ctest_data = data;
      return int(SUN_NLS_SUCCESS);
    };
    S->ops->setmaxiters = [](SUNNonlinearSolver S, int n) {
      if (n < 1)
        return int(SUN_NLS_ILL_INPUT);
      newton(S).maxiters = n;
      return int(SUN_NLS_SUCCESS);
    };
    S->ops->getnumiters = [](SUNNonlinearSolver S, long int *n) {
      *n = newton(S).niters;
      return int(SUN_NLS_SUCCESS);
    };
    S->ops->getcuriter = [](SUNNonlinearSolver S, int *n) {
      *n = newton(S).curiter;
      return int(SUN_NLS_SUCCESS);
    };
    S->ops->getnumconvfails = [](SUNNonlinearSolver S, long int *n) {
      *n = newton(S).nconvfails;
      return int(SUN_NLS_SUCCESS);
    };
    S->ops->free = [](SUNNonlinearSolver S) {
      if (S->content)
        {
          auto *d = static_cast<DampedNewton *>(S->content);
          for (N_Vector v : {d->delta, d->trial, d->f_trial, d->d_trial})
            N_VDestroy(v);
          delete d;
          S->content = nullptr;
        }
      SUNNonlinSolFreeEmpty(S);
      return int(SUN_NLS_SUCCESS);
    };
    return S;
  }

  void
  set_knee_hooks(SUNNonlinearSolver S, const KneeHooks &hooks)
  {
    newton(S).knees = hooks;
  }

  DampedNewtonStatistics
  damped_newton_statistics(SUNNonlinearSolver S)
  {
    return newton(S).statistics;
  }
} // namespace hamilton::lumped
