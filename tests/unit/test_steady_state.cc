// The automatic steady state's period detector (lumped/source/steady_state.cc)
// on synthetic signals whose period is known by construction.
#include <hamilton/lumped/steady_state.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>

using hamilton::lumped::detect_period;
using hamilton::lumped::DetectedPeriod;

namespace
{
  /** `signal` sampled at t = k h for t in [from, to] (the last half of a run from 0 to `to`). */
  DetectedPeriod
  sampled(const std::function<double(double)> &signal, double from, double to, double h)
  {
    std::vector<double> t, y;
    for (long k = std::lround(from / h); k * h <= to * (1 + 1e-12); ++k)
      {
        t.push_back(k * h);
        y.push_back(signal(k * h));
      }
    return detect_period(t, y);
  }
} // namespace

// offset + a sine with a second harmonic + a decaying transient at another
// frequency (2 e^{-10} = 9e-5 of the amplitude left when the window starts)
TEST(SteadyState, SineWithOffsetHarmonicAndTransient)
{
  const double f = 37.3;
  const auto   y = [f](double t) {
    return 0.3 + 1.7 * std::sin(2 * M_PI * f * t + 0.4) + 0.2 * std::sin(4 * M_PI * f * t) +
           2 * std::exp(-t / 0.1) * std::sin(2 * M_PI * 113 * t);
  };
  const auto p = sampled(y, 1, 2, 2.5e-4);
  ASSERT_TRUE(p.found) << p.reason;
  EXPECT_NEAR(p.frequency / f - 1, 0, 1e-8); // measured 3.5e-9: the transient left in the window
  EXPECT_GT(p.correlation, 0.99);
}

// exactly periodic, 8.25 rows per period (the coarsest sampling the harmonic
// analysis accepts), a window that is not a whole number of periods
TEST(SteadyState, CoarseSampling)
{
  const double f = 37.3, h = 1 / (8.25 * f);
  const auto   y = [f](double t) { return -2 + std::cos(2 * M_PI * f * t) + 0.5 * std::cos(6 * M_PI * f * t + 1); };
  const auto   p = sampled(y, 1, 2.013, h);
  ASSERT_TRUE(p.found) << p.reason;
  EXPECT_NEAR(p.frequency / f - 1, 0, 1e-12); // measured below 3e-16
}

// a strong second harmonic: the period is the fundamental's, not half of it
TEST(SteadyState, StrongSecondHarmonic)
{
  const double f = 5;
  const auto   y = [f](double t) { return std::sin(2 * M_PI * f * t) + 0.9 * std::sin(4 * M_PI * f * t + 0.3); };
  const auto   p = sampled(y, 5, 10, 1e-3);
  ASSERT_TRUE(p.found) << p.reason;
  EXPECT_NEAR(p.frequency / f - 1, 0, 1e-12); // measured below 3e-16
}

// a sine on a ramp (a drift): the linear trend is removed
TEST(SteadyState, SineOnARamp)
{
  const double f = 12;
  const auto   y = [f](double t) { return 40 * t + std::sin(2 * M_PI * f * t); };
  const auto   p = sampled(y, 2, 4, 1e-3);
  ASSERT_TRUE(p.found) << p.reason;
  EXPECT_NEAR(p.frequency / f - 1, 0, 1e-12); // measured below 3e-16
}

TEST(SteadyState, NoPeriod)
{
  // constant, straight line, monotone relaxation
  for (const auto &y : std::vector<std::function<double(double)>>{[](double) { return 3.; },
                                                                 [](double t) { return 1 + 2 * t; },
                                                                 [](double t) { return 1 - std::exp(-t); }})
    {
      const auto p = sampled(y, 1, 2, 1e-3);
      EXPECT_FALSE(p.found);
      EXPECT_FALSE(p.reason.empty());
    }
  EXPECT_NE(sampled([](double) { return 3.; }, 1, 2, 1e-3).reason.find("constant"), std::string::npos);

  // a run-up: the frequency rises from 20 to 80 Hz over the window
  auto p = sampled([](double t) { return std::sin(2 * M_PI * (20 * t + 15 * t * t)); }, 0, 2, 1e-4);
  EXPECT_FALSE(p.found);
  EXPECT_NE(p.reason.find("no dominant period"), std::string::npos) << p.reason;

  // white noise (a fixed linear congruential sequence)
  std::uint64_t state = 12345;
  p = sampled(
    [&state](double) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      return double(state >> 11) / double(1ULL << 53) - 0.5;
    },
    1, 2, 1e-3);
  EXPECT_FALSE(p.found);

  // the logistic map at r = 4 (chaotic), one value per row
  double x = 0.3;
  p        = sampled(
    [&x](double) {
      x = 4 * x * (1 - x);
      return x;
    },
    1, 2, 1e-3);
  EXPECT_FALSE(p.found) << p.frequency;

  // too few rows
  EXPECT_FALSE(sampled([](double t) { return std::sin(t); }, 0, 1, 0.1).found);
}

// more rows than the Gauss-Newton polish uses (4e5: it takes the last 2e5)
TEST(SteadyState, ManyRows)
{
  const double f = 50.3;
  const auto   y = [f](double t) { return 1 + std::sin(2 * M_PI * f * t + 1); };
  const auto   p = sampled(y, 4, 8, 1e-5);
  ASSERT_TRUE(p.found) << p.reason;
  EXPECT_NEAR(p.frequency / f - 1, 0, 1e-12); // measured below 3e-16
}
