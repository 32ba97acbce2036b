#ifndef hamilton_analyses_electrodes_h
#define hamilton_analyses_electrodes_h

#include <hamilton/discretization/discretization.h>

#include <memory>
#include <vector>

namespace hamilton
{
  /**
   * A stiffness matrix with open-circuit electrodes condensed exactly: with
   * zero net charge, V_e = -coupling_e . u / C_e, so the structure sees
   * K + sum_e coupling_e coupling_e^T / C_e. The sparsity pattern is widened
   * by the support of each coupling vector. Owns its pattern.
   */
  struct CondensedStiffness
  {
    dealii::SparsityPattern      sparsity;
    dealii::SparseMatrix<double> matrix;
  };

  /**
   * Condense the electrodes flagged in `open` (size ops.electrodes.size())
   * into `stiffness` (which has the pattern ops.sparsity).
   */
  std::unique_ptr<CondensedStiffness>
  condense_open_electrodes(const Operators                    &ops,
                           const dealii::SparseMatrix<double> &stiffness,
                           const std::vector<bool>            &open);
} // namespace hamilton

#endif
