// Static deflections and reactions against closed forms.
#include "test_helpers.h"

#include <hamilton/analyses/static.h>

#include <gtest/gtest.h>

#include <cmath>

using namespace hamilton;
using namespace hamilton::testing;
using SC = SupportCondition;

namespace
{
  const StaticResult &
  solve(const BeamModel &model, std::unique_ptr<AnalysisResult> &holder, unsigned int n = 6, unsigned int p = 5)
  {
    const auto     solved = discretize(model, n, p);
    StaticAnalysis analysis;
    analysis.check(solved->problem(model));
    holder = analysis.run(solved->problem(model));
    return dynamic_cast<const StaticResult &>(*holder);
  }

  double
  reaction(const StaticResult &r, const std::string &support, const std::string &component)
  {
    for (const auto &x : r.reactions)
      if (x.support == support && x.component == component)
        return x.value;
    ADD_FAILURE() << "no reaction " << component << " at " << support;
    return 0;
  }
} // namespace

TEST(Static, CantileverTipLoad)
{
  const double L = 0.5, EI = 2., P = 3.;
  BeamModel    model = uniform_beam(L, EI, 1., SC::clamped, SC::free);
  model.point_loads.push_back({"tip", L, P, 0.});
  std::unique_ptr<AnalysisResult> holder;
  const auto &r = solve(model, holder);
  for (std::size_t i = 0; i < r.x.size(); ++i)
    {
      const double x = r.x[i];
      EXPECT_NEAR(r.w[i], P * x * x * (3 * L - x) / (6 * EI), 1e-13);
      EXPECT_NEAR(r.moment[i], P * (L - x), 1e-11);
    }
  EXPECT_NEAR(r.slope.back(), P * L * L / (2 * EI), 1e-13);
  EXPECT_NEAR(reaction(r, "left end", "force"), -P, 1e-11);
  EXPECT_NEAR(reaction(r, "left end", "moment"), -P * L, 1e-11);
}

TEST(Static, CantileverUniformLoadAndTipMoment)
{
  const double L = 2., EI = 5., q = 1.5, M0 = 0.7;
  BeamModel    model = uniform_beam(L, EI, 1., SC::clamped, SC::free);
  model.distributed_load     = std::make_shared<dealii::Functions::ConstantFunction<1>>(q);
  model.has_distributed_load = true;
  model.point_loads.push_back({"tip", L, 0., M0});
  std::unique_ptr<AnalysisResult> holder;
  const auto &r = solve(model, holder);
  for (std::size_t i = 0; i < r.x.size(); ++i)
    {
      const double x = r.x[i];
      const double w = q * x * x * (6 * L * L - 4 * L * x + x * x) / (24 * EI) + M0 * x * x / (2 * EI);
      EXPECT_NEAR(r.w[i], w, 1e-12);
    }
  EXPECT_NEAR(r.w.back(), q * std::pow(L, 4) / (8 * EI) + M0 * L * L / (2 * EI), 1e-12);
  EXPECT_NEAR(reaction(r, "left end", "force"), -q * L, 1e-10);
  EXPECT_NEAR(reaction(r, "left end", "moment"), -q * L * L / 2 - M0, 1e-10);
}

TEST(Static, SimplySupportedMidspanLoadAndSpring)
{
  const double L = 1., EI = 1., P = 2.;
  BeamModel    model = uniform_beam(L, EI, 1., SC::pinned, SC::pinned);
  model.point_loads.push_back({"middle", L / 2, P, 0.});
  std::unique_ptr<AnalysisResult> holder;
  const auto &r = solve(model, holder);
  EXPECT_NEAR(r.w[r.w.size() / 2], P * L * L * L / (48 * EI), 1e-13);
  EXPECT_NEAR(reaction(r, "left end", "force"), -P / 2, 1e-12);
  EXPECT_NEAR(reaction(r, "right end", "force"), -P / 2, 1e-12);

  // a cantilever propped by a spring k at the tip: w_tip = P/(k + 3EI/L^3)
  const double k = 7.;
  BeamModel    propped = uniform_beam(L, EI, 1., SC::clamped, SC::free);
  propped.supports.push_back({"spring", L, SC::free, k, 0.});
  propped.point_loads.push_back({"tip", L, P, 0.});
  std::unique_ptr<AnalysisResult> holder2;
  const auto &r2 = solve(propped, holder2);
  EXPECT_NEAR(r2.w.back(), P / (k + 3 * EI / (L * L * L)), 1e-13);
}

// Pinned-pinned beam under tension N and uniform load q:
// w = q/(N k^2) [cosh(k(x - L/2))/cosh(kL/2) - 1] + q x (L - x)/(2N), k^2 = N/EI.
TEST(Static, TensionedBeamUniformLoad)
{
  const double L = 1., EI = 1., q = 1., N = 30.;
  BeamModel    model = uniform_beam(L, EI, 1., SC::pinned, SC::pinned);
  set_axial_force(model, N);
  model.distributed_load     = std::make_shared<dealii::Functions::ConstantFunction<1>>(q);
  model.has_distributed_load = true;
  std::unique_ptr<AnalysisResult> holder;
  const auto &r = solve(model, holder, 8, 9);
  const double k = std::sqrt(N / EI);
  for (std::size_t i = 0; i < r.x.size(); ++i)
    {
      const double x = r.x[i];
      const double w = q / (N * k * k) * (std::cosh(k * (x - L / 2)) / std::cosh(k * L / 2) - 1) +
                       q * x * (L - x) / (2 * N);
      EXPECT_NEAR(r.w[i], w, 1e-10 * q * std::pow(L, 4) / EI);
    }
}
