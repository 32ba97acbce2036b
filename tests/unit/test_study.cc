// The study's building blocks: Monte Carlo sampling (bit-exact, from the
// mt19937_64 sequence the C++ standard fixes), statistics, units, default
// quantities and the replacement of entries in a parameter file's text.
#include <hamilton/base/input.h>
#include <hamilton/study.h>

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace hamilton;

namespace
{
  Study::Parameter
  parameter(const std::string &distribution, const double nominal, const double tolerance)
  {
    Study::Parameter p;
    p.name         = "p";
    p.distribution = distribution;
    p.nominal      = nominal;
    p.tolerance    = tolerance;
    return p;
  }
} // namespace

TEST(Study, UniformSampleIsBitExact)
{
  // the first output of std::mt19937_64 seeded with 5489 is
  // 14514284786278117030 (C++ standard, [rand.predef]); >> 11 = 7087053118299861,
  // u = that * 2^-53; 2 (1 + 0.1 (2u - 1)), computed in Python: 2.1147283819471205
  const auto samples = monte_carlo_samples({parameter("uniform", 2, 0.1)}, 1, 5489);
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0][0], 2.1147283819471205);
  // the standard's check value: the 10000th output with the default seed
  std::mt19937_64 generator;
  generator.discard(9999);
  EXPECT_EQ(generator(), 9981545732273789042ull);
}

TEST(Study, NormalSamplesHaveTheirMoments)
{
  // 20000 samples: the sample mean within 4 standard errors (0.05 / sqrt(20000)
  // relative) and the standard deviation within 4 of its standard errors
  // (1/sqrt(2 N) relative) of the distribution's
  const unsigned int n       = 20000;
  const auto         samples = monte_carlo_samples({parameter("normal", 3, 0.05)}, n, 7);
  std::vector<double> values;
  for (const auto &s : samples)
    values.push_back(s[0]);
  const auto stats = statistics(values);
  EXPECT_NEAR(stats["mean"].get<double>(), 3, 4 * 0.15 / std::sqrt(n));
  EXPECT_NEAR(stats["standard_deviation"].get<double>(), 0.15, 4 * 0.15 / std::sqrt(2. * n));
  // the same seed gives the same samples
  EXPECT_EQ(monte_carlo_samples({parameter("normal", 3, 0.05)}, n, 7), samples);
}

TEST(Study, Statistics)
{
  // 1 ... 5: mean 3, sample standard deviation sqrt(2.5); percentiles by linear
  // interpolation at p (n - 1) (numpy's default): 1.2, 3, 4.8; nan ignored
  const auto s = statistics({5, 3, 1, 4, 2, std::nan("")});
  EXPECT_EQ(s["count"].get<int>(), 5);
  EXPECT_DOUBLE_EQ(s["mean"].get<double>(), 3);
  EXPECT_DOUBLE_EQ(s["standard_deviation"].get<double>(), std::sqrt(2.5));
  EXPECT_DOUBLE_EQ(s["min"].get<double>(), 1);
  EXPECT_DOUBLE_EQ(s["max"].get<double>(), 5);
  EXPECT_DOUBLE_EQ(s["percentile_5"].get<double>(), 1.2);
  EXPECT_DOUBLE_EQ(s["percentile_50"].get<double>(), 3);
  EXPECT_DOUBLE_EQ(s["percentile_95"].get<double>(), 4.8);
}

TEST(Study, Units)
{
  EXPECT_EQ(quantity_unit("modes/0/frequency_hz"), "Hz");
  EXPECT_EQ(quantity_unit("harvester/optimal_loads/0/optimal_resistance_ohm"), "Ohm");
  EXPECT_EQ(quantity_unit("harvester/optimal_loads/0/max_power_W"), "W");
  EXPECT_EQ(quantity_unit("reduced_model/frequencies_hz/1"), "Hz");
  EXPECT_EQ(quantity_unit("lumped/linearization/eigenvalues/0/imag"), "1/s");
  EXPECT_EQ(quantity_unit("lumped/summary/columns/power_W/mean"), "W");
  EXPECT_EQ(quantity_unit("lumped/range/disk_speed_rpm/max"), "rpm");
  EXPECT_EQ(quantity_unit("modes/0/coupling_k_eff"), "");
}

TEST(Study, DefaultQuantities)
{
  const nlohmann::json results = {
    {"modes", {{{"frequency_hz", 1.}, {"frequency_open_circuit_hz", 2.}, {"coupling_k_eff", 0.1}}, {{"frequency_hz", 3.}}}},
    {"lumped",
     {{"coordinates", {{{"name", "x"}}}},
      {"final_state", {{"x", 0.}, {"x_dot", 1.}, {"power_W", 2.}}},
      {"range", {{"power_W", {{"min", 0.}, {"max", 3.}}}, {"x", {{"min", 0.}, {"max", 1.}}}}},
      {"energy_audit", {{"largest_relative_residual", 1e-9}}}}}};
  const std::vector<std::string> expected{"modes/0/frequency_hz",
                                          "modes/0/frequency_open_circuit_hz",
                                          "modes/0/coupling_k_eff",
                                          "modes/1/frequency_hz",
                                          "lumped/final_state/x",
                                          "lumped/final_state/x_dot",
                                          "lumped/range/power_W/max",
                                          "lumped/energy_audit/largest_relative_residual"};
  EXPECT_EQ(default_quantities(results), expected);
}

TEST(Study, ApplyChanges)
{
  const std::string text = "subsection A\n  set x = 1 # one\n  set list = a = 1; b = 2 \\\n   ; c = 3\nend\n";
  // in place (same line numbers), a list item, and an entry the file does not set (appended)
  const std::string changed = apply_changes(text, {{"A/x", "2"}, {"A/list/b", "5"}, {"B/C/y", "7"}});
  EXPECT_EQ(changed,
            "subsection A\nset x = 2\nset list = a = 1; b = 5; c = 3\n\nend\n"
            "subsection B\nsubsection C\nset y = 7\nend\nend\n");
  // two items of one list: both changed (the second change starts from the first's line)
  EXPECT_EQ(apply_changes(text, {{"A/list/a", "4"}, {"A/list/c", "6"}}),
            "subsection A\n  set x = 1 # one\nset list = a = 4; b = 2; c = 6\n\nend\n");
  EXPECT_EQ(list_item("m = 1; k = m*2", "k").value_or(""), "m*2");
  EXPECT_FALSE(list_item("m = 1; k = m*2", "c").has_value());
}
