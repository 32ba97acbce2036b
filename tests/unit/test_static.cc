// Static deflections and reactions against closed forms.
#include "test_helpers.h"

#include <hamilton/analyses/frequency_response.h>
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

namespace
{
  // A steel strip of segments with the given lengths (m), a PZT layer on top
  // where `piezo` is true, and `extra` appended inside subsection Beam.
  std::string
  segmented_beam(const std::vector<std::pair<std::string, bool>> &lengths, const std::string &extra)
  {
    std::string names, segments;
    for (unsigned int i = 0; i < lengths.size(); ++i)
      {
        const std::string name = "s" + std::to_string(i + 1);
        names += (i == 0 ? "" : ", ") + name;
        segments += "    subsection " + name + "\n      set Length = " + lengths[i].first +
                    "\n      set Layers = strip" + (lengths[i].second ? ", pzt" : "") + "\n    end\n";
      }
    return "subsection Beam\n  subsection Materials\n    set Names = steel, pzt5h\n"
           "    subsection steel\n      set Young's modulus = 210e9\n      set Density = 7850\n    end\n"
           "    subsection pzt5h\n      set Young's modulus = 60.6e9\n      set Density = 7500\n"
           "      set Piezoelectric form = e-form\n      set e31 = -16.6\n      set eps33S = 25.55e-9\n    end\n"
           "  end\n  subsection Layers\n    set Names = strip, pzt\n"
           "    subsection strip\n      set Material = steel\n      set Thickness = 0.002\n      set Width = 0.02\n"
           "    end\n    subsection pzt\n      set Material = pzt5h\n      set Thickness = 0.0005\n"
           "      set Width = 0.02\n    end\n  end\n  subsection Segments\n    set Names = " +
           names + "\n" + segments + "  end\n" + extra + "end\n";
  }
} // namespace

// Positions at the end of the beam or at a joint, given as the decimal the
// user has in mind, differ from the sum of the segment lengths by round-off
// (50.8e-3 + 5e-3 = 0.055799999999999995, 0.01 + 0.09 = 0.09999999999999999,
// 8 x 0.00625 = 0.049999999999999996): they are the end or the joint, within
// 1e-12 of the length, and refused only beyond that.
TEST(Static, PositionsAtTheEndAreOnTheBeam)
{
  const auto mass = load_beam(write_file(
    "mass_at_end.prm",
    segmented_beam({{"50.8e-3", false}, {"5e-3", false}},
                   "  subsection Point masses\n    set Names = tip\n    subsection tip\n"
                   "      set Position = 55.8e-3\n      set Mass = 1e-3\n    end\n  end\n")));
  EXPECT_EQ(mass->model.point_masses[0].position, mass->model.length());

  const auto two = load_beam(write_file("two_segments.prm", segmented_beam({{"0.01", false}, {"0.09", false}}, "")));
  const auto points = points_on_beam({{"tip", 0.1}}, two->model, "Analysis/Frequency response", "Output points");
  EXPECT_EQ(points[0].second, two->model.length());
  EXPECT_THROW(points_on_beam({{"beyond", 0.1 + 1e-9}}, two->model, "Analysis/Frequency response", "Output points"),
               InputError);

  std::vector<std::pair<std::string, bool>> sixteen;
  for (unsigned int i = 0; i < 16; ++i)
    sixteen.emplace_back("0.00625", i < 8);
  const auto patch = load_beam(write_file(
    "electrode_at_joint.prm",
    segmented_beam(sixteen,
                   "  subsection Electrodes\n    set Names = e\n    subsection e\n      set Layers = pzt\n"
                   "      set Start = 0\n      set End = 0.05\n    end\n  end\n")));
  EXPECT_EQ(patch->model.electrodes[0].x_end, patch->model.segments[7].x_end);
  EXPECT_GT(patch->operators->electrodes[0].capacitance, 0.);

  // beyond the end by more than round-off: refused, both numbers in full
  try
    {
      load_beam(write_file(
        "mass_beyond_end.prm",
        segmented_beam({{"50.8e-3", false}, {"5e-3", false}},
                       "  subsection Point masses\n    set Names = tip\n    subsection tip\n"
                       "      set Position = 55.80001e-3\n      set Mass = 1e-3\n    end\n  end\n")));
      ADD_FAILURE() << "no error";
    }
  catch (const InputError &e)
    {
      EXPECT_NE(std::string(e.what()).find("0 <= x <= 0.055799999999999995 m"), std::string::npos) << e.what();
    }
}
