#include <hamilton/analyses/electrodes.h>

#include <deal.II/lac/dynamic_sparsity_pattern.h>

namespace hamilton
{
  using namespace dealii;

  std::unique_ptr<CondensedStiffness>
  condense_open_electrodes(const Operators            &ops,
                           const SparseMatrix<double> &stiffness,
                           const std::vector<bool>    &open)
  {
    const unsigned int     n = stiffness.m();
    DynamicSparsityPattern dsp(n, n);
    for (auto entry = ops.sparsity.begin(); entry != ops.sparsity.end(); ++entry)
      dsp.add(entry->row(), entry->column());
    std::vector<std::vector<unsigned int>> support(ops.electrodes.size());
    for (unsigned int e = 0; e < ops.electrodes.size(); ++e)
      if (open[e])
        {
          for (unsigned int i = 0; i < n; ++i)
            if (ops.electrodes[e].coupling(i) != 0)
              support[e].push_back(i);
          for (const unsigned int i : support[e])
            for (const unsigned int j : support[e])
              dsp.add(i, j);
        }

    auto result = std::make_unique<CondensedStiffness>();
    result->sparsity.copy_from(dsp);
    result->matrix.reinit(result->sparsity);
    for (auto entry = stiffness.begin(); entry != stiffness.end(); ++entry)
      result->matrix.add(entry->row(), entry->column(), entry->value());
    for (unsigned int e = 0; e < ops.electrodes.size(); ++e)
      if (open[e])
        {
          const Vector<double> &theta = ops.electrodes[e].coupling;
          const double          C     = ops.electrodes[e].capacitance;
          for (const unsigned int i : support[e])
            for (const unsigned int j : support[e])
              result->matrix.add(i, j, theta(i) * theta(j) / C);
        }
    return result;
  }
} // namespace hamilton
