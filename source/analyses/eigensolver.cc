#include <hamilton/analyses/eigensolver.h>
#include <hamilton/base/process.h>

#include <deal.II/base/mpi.h>
#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/lapack_full_matrix.h>
#include <deal.II/lac/petsc_solver.h>
#include <deal.II/lac/petsc_sparse_matrix.h>
#include <deal.II/lac/petsc_vector.h>
#include <deal.II/lac/slepc_solver.h>
#include <deal.II/lac/slepc_spectral_transformation.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace hamilton
{
  using namespace dealii;

  EigensolverBackend
  eigensolver_backend_from_string(const std::string &name)
  {
    if (name == "dense")
      return EigensolverBackend::dense;
    if (name == "slepc")
      return EigensolverBackend::slepc;
    return EigensolverBackend::automatic;
  }

  namespace
  {
    bool
    use_dense(EigensolverBackend backend, unsigned int size)
    {
      return backend == EigensolverBackend::dense ||
             (backend == EigensolverBackend::automatic &&
              size <= dense_size_limit);
    }

    // All eigenpairs of A x = mu B x (B SPD), mu ascending, x^T B x = 1.
    // Throws std::runtime_error if B is not positive definite.
    EigenSolution
    dense_all(const FullMatrix<double> &A, const FullMatrix<double> &B)
    {
      const unsigned int       n = A.m();
      LAPACKFullMatrix<double> a(n), b(n);
      a = A;
      b = B;
      EigenSolution result;
      result.backend = "LAPACK";
      result.vectors.assign(n, Vector<double>(n));
      try
        {
          a.compute_generalized_eigenvalues_symmetric(b, result.vectors);
        }
      catch (const std::exception &)
        {
          throw std::runtime_error("not positive definite");
        }
      result.values.resize(n);
      for (unsigned int i = 0; i < n; ++i)
        result.values[i] = a.eigenvalue(i).real();
      return result;
    }

    void
    copy_to_petsc(const SparseMatrix<double> &from,
                  PETScWrappers::SparseMatrix &to)
    {
      to.reinit(from.get_sparsity_pattern());
      for (auto entry = from.begin(); entry != from.end(); ++entry)
        to.set(entry->row(), entry->column(), entry->value());
      to.compress(VectorOperation::insert);
    }

    // n eigenpairs of A x = lambda B x with SLEPc: shift-and-invert about
    // `target` (nearest eigenvalues), or else the largest eigenvalues of
    // B^-1 A.
    EigenSolution
    slepc_pairs(const SparseMatrix<double> &A,
                const SparseMatrix<double> &B,
                unsigned int                n,
                bool                        invert,
                double                      target)
    {
      ensure_parallel_initialized();
      PETScWrappers::SparseMatrix a, b;
      copy_to_petsc(A, a);
      copy_to_petsc(B, b);

      SolverControl control(10000, 1e-13);
      SLEPcWrappers::SolverKrylovSchur solver(control, MPI_COMM_SELF);
      solver.set_problem_type(EPS_GHEP);

      std::unique_ptr<SLEPcWrappers::TransformationBase> transformation;
      if (invert)
        {
          transformation =
            std::make_unique<SLEPcWrappers::TransformationShiftInvert>(
              MPI_COMM_SELF,
              SLEPcWrappers::TransformationShiftInvert::AdditionalData(target));
          solver.set_which_eigenpairs(EPS_TARGET_MAGNITUDE);
          solver.set_target_eigenvalue(target);
        }
      else
        {
          transformation = std::make_unique<SLEPcWrappers::TransformationShift>(
            MPI_COMM_SELF, SLEPcWrappers::TransformationShift::AdditionalData(0.));
          solver.set_which_eigenpairs(EPS_LARGEST_REAL);
        }
      // sequential: SLEPc's default inner solve is a direct LU factorization
      solver.set_transformation(*transformation);

      std::vector<PetscScalar>                 values(n);
      std::vector<PETScWrappers::MPI::Vector> vectors(
        n, PETScWrappers::MPI::Vector(MPI_COMM_SELF, A.m(), A.m()));
      solver.solve(a, b, values, vectors, n);

      EigenSolution result;
      result.backend = "SLEPc";
      for (unsigned int i = 0; i < n; ++i)
        {
          result.values.push_back(PetscRealPart(values[i]));
          Vector<double> v(A.m());
          for (unsigned int j = 0; j < A.m(); ++j)
            v[j] = vectors[i][j];
          result.vectors.push_back(v);
        }
      return result;
    }

    // Sort pairs by `key` and normalize vectors with B.
    void
    sort_and_normalize(EigenSolution                       &s,
                       const SparseMatrix<double>          &B,
                       const std::function<double(double)> &key)
    {
      std::vector<unsigned int> order(s.values.size());
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](auto i, auto j) {
        return key(s.values[i]) < key(s.values[j]);
      });
      EigenSolution sorted;
      sorted.backend = s.backend;
      for (const auto i : order)
        {
          Vector<double> &v = s.vectors[i];
          v /= std::sqrt(B.matrix_norm_square(v));
          apply_sign_convention(v);
          sorted.values.push_back(s.values[i]);
          sorted.vectors.push_back(v);
        }
      s = sorted;
    }
  } // namespace

  void
  apply_sign_convention(Vector<double> &v)
  {
    const double largest = v.linfty_norm();
    for (const double c : v)
      if (std::abs(c) >= (1 - 1e-6) * largest)
        {
          if (c < 0)
            v *= -1.;
          return;
        }
  }

  EigenSolution
  lowest_eigenpairs(const SparseMatrix<double> &K,
                    const SparseMatrix<double> &M,
                    unsigned int                n,
                    EigensolverBackend          backend,
                    double                      shift,
                    double                      shift_scale)
  {
    const unsigned int size = K.m();
    n                       = std::min(n, size);
    for (unsigned int attempt = 0; attempt < 30; ++attempt)
      {
        EigenSolution result;
        try
          {
            if (use_dense(backend, size))
              {
                FullMatrix<double> k, m;
                k.copy_from(K);
                m.copy_from(M);
                k.add(shift, m);
                result = dense_all(m, k);
                // mu = 1/(lambda + sigma): the largest mu are the lowest lambda
                std::reverse(result.values.begin(), result.values.end());
                std::reverse(result.vectors.begin(), result.vectors.end());
                result.values.resize(n);
                result.vectors.resize(n);
                for (double &mu : result.values)
                  {
                    if (!(mu > 0))
                      throw std::runtime_error("not positive definite");
                    mu = 1. / mu - shift;
                  }
              }
            else
              result = slepc_pairs(K, M, n, true, -shift);
          }
        catch (const std::runtime_error &)
          {
            shift = (shift == 0) ? shift_scale : 10 * shift;
            continue;
          }
        sort_and_normalize(result, M, [](double lambda) { return lambda; });
        return result;
      }
    throw std::runtime_error(
      "The stiffness matrix could not be made positive definite by a shift; "
      "the model is unstable far beyond buckling.");
  }

  EigenSolution
  largest_eigenpairs(const SparseMatrix<double> &A,
                     const SparseMatrix<double> &B,
                     unsigned int                n,
                     EigensolverBackend          backend)
  {
    const unsigned int size = A.m();
    n                       = std::min(n, size);
    EigenSolution result;
    if (use_dense(backend, size))
      {
        FullMatrix<double> a, b;
        a.copy_from(A);
        b.copy_from(B);
        result = dense_all(a, b);
        std::reverse(result.values.begin(), result.values.end());
        std::reverse(result.vectors.begin(), result.vectors.end());
        result.values.resize(n);
        result.vectors.resize(n);
      }
    else
      result = slepc_pairs(A, B, n, false, 0.);
    sort_and_normalize(result, B, [](double mu) { return -mu; });
    return result;
  }
} // namespace hamilton
