// The open-circuit problem of a continuum differs from the short-circuit one
// only where a port's master unknown is free instead of fixed: K_oc - K_sc is
// confined to the masters' rows and columns. Its shift-and-invert operator is
// therefore the short-circuit factorization plus a rank-2p correction
// (Woodbury), which saves the second sparse factorization, the most expensive
// step of a large modal analysis.

#include "low_rank_inverse.h"

#include <deal.II/base/exceptions.h>
#include <deal.II/base/mpi.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

namespace hamilton::continuum
{
  namespace
  {
    void
    check_petsc(const PetscErrorCode code, const char *call)
    {
      AssertThrow(code == 0, dealii::ExcMessage(std::string("PETSc call failed: ") + call));
    }

    PetscErrorCode
    apply_shell(PC pc, Vec x, Vec y)
    {
      void *context = nullptr;
      PetscCall(PCShellGetContext(pc, &context));
      static_cast<const LowRankInverse *>(context)->apply(x, y);
      return 0;
    }
  } // namespace

  bool
  LowRankInverse::setup(const PMatrix &K, const PMatrix &K_ref, KSP factored_ksp, const unsigned int max_rank)
  {
    const MPI_Comm comm = K.get_mpi_communicator();
    // D = K - K_ref, row by row (the two matrices' patterns differ: PETSc
    // drops unused preallocated entries at assembly)
    PetscInt first, last;
    check_petsc(MatGetOwnershipRange(K, &first, &last), "MatGetOwnershipRange");
    // The scale of entry (r, c): sqrt(|K_ref,rr K_ref,cc|), every rank holding
    // the whole diagonal. On several MPI ranks a row summed from both ranks'
    // cells may differ between the two assemblies in its last bits (entries
    // that cancel to ~1e-16 of that scale come out of different sums); such a
    // difference is round-off, not a change of the operator, and must not
    // count: it made every 2-rank run factor the open circuit again (one
    // factorization more than on one rank). Below 1e-12 of the scale an
    // entry of D counts as round-off; one rank's two assemblies are the same
    // sums, their differences exact zeros or structural.
    std::vector<double> diagonal(K_ref.m());
    {
      Vec        d, all;
      VecScatter to_all;
      check_petsc(MatCreateVecs(K_ref, &d, nullptr), "MatCreateVecs");
      check_petsc(MatGetDiagonal(K_ref, d), "MatGetDiagonal");
      check_petsc(VecScatterCreateToAll(d, &to_all, &all), "VecScatterCreateToAll");
      check_petsc(VecScatterBegin(to_all, d, all, INSERT_VALUES, SCATTER_FORWARD), "VecScatterBegin");
      check_petsc(VecScatterEnd(to_all, d, all, INSERT_VALUES, SCATTER_FORWARD), "VecScatterEnd");
      const PetscScalar *values;
      check_petsc(VecGetArrayRead(all, &values), "VecGetArrayRead");
      for (std::size_t i = 0; i < diagonal.size(); ++i)
        diagonal[i] = std::abs(values[i]);
      check_petsc(VecRestoreArrayRead(all, &values), "VecRestoreArrayRead");
      VecScatterDestroy(&to_all);
      VecDestroy(&all);
      VecDestroy(&d);
    }
    const auto round_off = [&](const PetscInt r, const PetscInt c, const double value) {
      return std::abs(value) <= 1e-12 * std::sqrt(diagonal[r] * diagonal[c]);
    };
    // J: the rows with several nonzeros, or a nonzero diagonal (a master's
    // row); a row with one off-diagonal nonzero lies in a master's column
    std::set<PetscInt>                                 rows;
    std::vector<std::tuple<PetscInt, PetscInt, double>> entries;
    for (PetscInt r = first; r < last; ++r)
      {
        // merge the two rows (AIJ rows list their columns in ascending order)
        PetscInt           n, n_ref;
        const PetscInt    *columns, *columns_ref;
        const PetscScalar *values, *values_ref;
        check_petsc(MatGetRow(K, r, &n, &columns, &values), "MatGetRow");
        check_petsc(MatGetRow(K_ref, r, &n_ref, &columns_ref, &values_ref), "MatGetRow");
        unsigned int count       = 0;
        bool         on_diagonal = false;
        for (PetscInt i = 0, j = 0; i < n || j < n_ref;)
          {
            const PetscInt c     = j == n_ref || (i < n && columns[i] < columns_ref[j]) ? columns[i] : columns_ref[j];
            double         value = 0;
            if (i < n && columns[i] == c)
              value += values[i++];
            if (j < n_ref && columns_ref[j] == c)
              value -= values_ref[j++];
            if (value != 0.)
              {
                // every nonzero goes into F (D's columns J exactly); only
                // those above round-off decide J
                entries.emplace_back(r, c, value);
                if (!round_off(r, c, value))
                  {
                    ++count;
                    on_diagonal = on_diagonal || c == r;
                  }
              }
          }
        check_petsc(MatRestoreRow(K_ref, r, &n_ref, &columns_ref, &values_ref), "MatRestoreRow");
        check_petsc(MatRestoreRow(K, r, &n, &columns, &values), "MatRestoreRow");
        if (count > 1 || on_diagonal)
          rows.insert(r);
      }
    std::vector<PetscInt> local(rows.begin(), rows.end()), J;
    for (const auto &part : dealii::Utilities::MPI::all_gather(comm, local))
      J.insert(J.end(), part.begin(), part.end());
    std::sort(J.begin(), J.end());
    // D must vanish outside the rows and columns J
    unsigned int outside = 0;
    for (const auto &[r, c, value] : entries)
      outside += !std::binary_search(J.begin(), J.end(), r) && !std::binary_search(J.begin(), J.end(), c) &&
                 !round_off(r, c, value);
    outside = dealii::Utilities::MPI::sum(outside, comm);
    if (J.empty() || J.size() > max_rank || outside > 0)
      return false;
    const unsigned int p = J.size();
    factored             = factored_ksp;
    Vec e;
    check_petsc(MatCreateVecs(K, &e, nullptr), "MatCreateVecs");
    std::vector<Vec> E(p), F(p);
    for (unsigned int j = 0; j < p; ++j)
      {
        check_petsc(VecDuplicate(e, &E[j]), "VecDuplicate");
        check_petsc(VecDuplicate(e, &F[j]), "VecDuplicate");
        check_petsc(VecSet(E[j], 0.), "VecSet");
        check_petsc(VecSet(F[j], 0.), "VecSet");
        if (J[j] >= first && J[j] < last)
          check_petsc(VecSetValue(E[j], J[j], 1., INSERT_VALUES), "VecSetValue");
        // column J[j] of D: its owned rows' entries there
        for (const auto &[r, c, value] : entries)
          if (c == J[j])
            check_petsc(VecSetValue(F[j], r, value, INSERT_VALUES), "VecSetValue");
        for (const Vec v : {E[j], F[j]})
          {
            check_petsc(VecAssemblyBegin(v), "VecAssemblyBegin");
            check_petsc(VecAssemblyEnd(v), "VecAssemblyEnd");
          }
      }
    VecDestroy(&e);
    // C^-1 = [[0, I], [I, D_JJ]]
    Eigen::MatrixXd Cinv = Eigen::MatrixXd::Zero(2 * p, 2 * p);
    for (unsigned int i = 0; i < p; ++i)
      {
        Cinv(i, p + i) = Cinv(p + i, i) = 1.;
        for (unsigned int j = 0; j < p; ++j)
          {
            PetscScalar value = 0;
            if (J[i] >= first && J[i] < last)
              check_petsc(VecGetValues(F[j], 1, &J[i], &value), "VecGetValues");
            Cinv(p + i, p + j) = dealii::Utilities::MPI::sum(static_cast<double>(value), comm);
          }
      }
    U = E;
    U.insert(U.end(), F.begin(), F.end());
    Z.resize(U.size());
    for (unsigned int k = 0; k < U.size(); ++k)
      {
        check_petsc(VecDuplicate(U[k], &Z[k]), "VecDuplicate");
        check_petsc(KSPSolve(factored, U[k], Z[k]), "KSPSolve");
      }
    Eigen::MatrixXd G_matrix = Cinv;
    for (unsigned int a = 0; a < U.size(); ++a)
      for (unsigned int b = 0; b < U.size(); ++b)
        {
          PetscScalar dot;
          check_petsc(VecDot(Z[b], U[a], &dot), "VecDot");
          G_matrix(a, b) += dot;
        }
    G = G_matrix.partialPivLu();
    return true;
  }

  void
  LowRankInverse::apply(Vec x, Vec y) const
  {
    check_petsc(KSPSolve(factored, x, y), "KSPSolve");
    const unsigned int       m = U.size();
    std::vector<PetscScalar> t(m);
    check_petsc(VecMDot(y, m, const_cast<Vec *>(U.data()), t.data()), "VecMDot");
    Eigen::VectorXd rhs(m);
    for (unsigned int k = 0; k < m; ++k)
      rhs[k] = t[k];
    const Eigen::VectorXd    s = G.solve(rhs);
    std::vector<PetscScalar> minus_s(m);
    for (unsigned int k = 0; k < m; ++k)
      minus_s[k] = -s[k];
    check_petsc(VecMAXPY(y, m, minus_s.data(), const_cast<Vec *>(Z.data())), "VecMAXPY");
  }

  void
  LowRankInverse::install(PC pc) const
  {
    check_petsc(PCSetType(pc, PCSHELL), "PCSetType");
    check_petsc(PCShellSetContext(pc, const_cast<LowRankInverse *>(this)), "PCShellSetContext");
    check_petsc(PCShellSetApply(pc, apply_shell), "PCShellSetApply");
    check_petsc(PCShellSetName(pc, "open circuit by Woodbury on the short-circuit factorization"), "PCShellSetName");
  }

  double
  LowRankInverse::check(Mat K, Mat M, const double sigma) const
  {
    Vec x, y, r, My;
    check_petsc(MatCreateVecs(K, &x, &y), "MatCreateVecs");
    check_petsc(VecDuplicate(x, &My), "VecDuplicate");
    check_petsc(VecDuplicate(x, &r), "VecDuplicate");
    // a fixed, deterministic vector with every entry nonzero
    PetscInt first, last;
    check_petsc(VecGetOwnershipRange(x, &first, &last), "VecGetOwnershipRange");
    for (PetscInt i = first; i < last; ++i)
      check_petsc(VecSetValue(x, i, 1. + 0.5 * std::sin(1. + i), INSERT_VALUES), "VecSetValue");
    check_petsc(VecAssemblyBegin(x), "VecAssemblyBegin");
    check_petsc(VecAssemblyEnd(x), "VecAssemblyEnd");
    apply(x, y);
    check_petsc(MatMult(K, y, r), "MatMult");
    check_petsc(MatMult(M, y, My), "MatMult");
    check_petsc(VecAXPY(r, -sigma, My), "VecAXPY");
    check_petsc(VecAXPY(r, -1., x), "VecAXPY");
    // the normwise backward error |r| / (|A| |y| + |x|) (infinity norms): the
    // enthalpy operator's rows differ by many orders of magnitude (N/m and
    // C/V), so |r|/|x| alone would measure its scaling, not the solve
    // |K - sigma M| <= |K| + |sigma| |M|: an upper bound, close to the
    // norm since sigma M is small against K
    PetscReal residual, norm_x, norm_y, norm_K, norm_M;
    check_petsc(VecNorm(r, NORM_INFINITY, &residual), "VecNorm");
    check_petsc(VecNorm(x, NORM_INFINITY, &norm_x), "VecNorm");
    check_petsc(VecNorm(y, NORM_INFINITY, &norm_y), "VecNorm");
    check_petsc(MatNorm(K, NORM_INFINITY, &norm_K), "MatNorm");
    check_petsc(MatNorm(M, NORM_INFINITY, &norm_M), "MatNorm");
    for (Vec v : {x, y, r, My})
      VecDestroy(&v);
    return residual / ((norm_K + std::abs(sigma) * norm_M) * norm_y + norm_x);
  }

  LowRankInverse::~LowRankInverse()
  {
    for (auto &v : U)
      VecDestroy(&v);
    for (auto &v : Z)
      VecDestroy(&v);
  }
} // namespace hamilton::continuum
