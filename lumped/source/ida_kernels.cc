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
