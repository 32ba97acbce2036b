// The automatic steady state's period detector (lumped/source/steady_state.cc)
// on synthetic signals whose period is known by construction.
#include <hamilton/lumped/lumped_run.h>
#include <hamilton/lumped/steady_state.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <sstream>

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

// Issue 24: the steady state only for a signal that is periodic over the
// fitted periods. check_periodicity() on signals whose answer is known in
// closed form.
namespace
{
  /** `signal` sampled at t = k h for t in [from, to]. */
  std::pair<std::vector<double>, std::vector<double>>
  samples(const std::function<double(double)> &signal, double from, double to, double h)
  {
    std::vector<double> t, y;
    for (long k = std::lround(from / h); k * h <= to * (1 + 1e-12); ++k)
      {
        t.push_back(k * h);
        y.push_back(signal(k * h));
      }
    return {t, y};
  }
} // namespace

// exactly periodic (offset, fundamental and a second harmonic), 10 periods
// at 37.3 Hz sampled at 2.5e-4 s: accepted, the halves agree to round-off
TEST(SteadyState, PeriodicSignalIsAccepted)
{
  const double f = 37.3;
  const auto [t, y] = samples(
    [f](double t) { return 0.3 + 1.7 * std::sin(2 * M_PI * f * t + 0.4) + 0.2 * std::sin(4 * M_PI * f * t); }, 2,
    2 + 10 / f, 2.5e-4);
  const auto p = hamilton::lumped::check_periodicity(t, y, f);
  EXPECT_TRUE(p.periodic) << p.reason;
  EXPECT_LT(p.frequency_change, 1e-10); // measured at round-off
  EXPECT_LT(p.amplitude_change, 1e-10);
  EXPECT_LT(p.mean_change, 1e-10);
  EXPECT_LT(p.residual, 1e-10);
}

// a chirp, the run-up of issue 24 (prm/lumped/scotch_yoke_dc_motor.prm:
// 55.8 Hz over the detection window, 65.5 Hz over the fit): y = sin(2 pi
// (f0 t + r t^2/2)) has the instantaneous frequency f0 + r t; over 10
// periods near 58 Hz with r = 30 Hz/s the halves' frequencies (those at
// their middles) differ by r * (10/58 s)/2 = 2.6 Hz, 4.4e-2 of f: refused
// as a frequency change
TEST(SteadyState, ChirpIsRefused)
{
  const double f0 = 58, r = 30, h = 1e-4;
  const auto [t, y] = samples([=](double t) { return std::sin(2 * M_PI * (f0 * t + 0.5 * r * t * t)); }, 0,
                              10 / f0, h);
  const auto p = hamilton::lumped::check_periodicity(t, y, f0 + r * 5 / f0);
  EXPECT_FALSE(p.periodic);
  EXPECT_NE(p.reason.find("the frequency changes from"), std::string::npos) << p.reason;
  EXPECT_NEAR(p.frequency_change, r * (5 / f0) / (f0 + r * 5 / f0), 0.2 * r * (5 / f0) / f0) << p.reason;
}

// a decaying oscillation, e^{-t/tau} sin(2 pi f t) with tau = 10 periods:
// the amplitude of the second half of 10 periods is e^{-1/2} = 0.61 of the
// first's (closed form; each half's fitted amplitude is its mean envelope,
// so the ratio is the same): a change of 0.39, refused
TEST(SteadyState, DecayIsRefused)
{
  const double f = 20, tau = 10 / f;
  const auto [t, y] = samples([=](double t) { return std::exp(-t / tau) * std::sin(2 * M_PI * f * t); }, 0, 10 / f,
                              1e-4);
  const auto p = hamilton::lumped::check_periodicity(t, y, f);
  EXPECT_FALSE(p.periodic);
  EXPECT_NE(p.reason.find("the amplitude changes by"), std::string::npos) << p.reason;
  EXPECT_NEAR(p.amplitude_change, 1 - std::exp(-0.5), 0.02) << p.reason;
}

// The harmonic table fits each column at its own fundamental: p = sin^2(w t)
// = 1/2 - cos(2 w t)/2 = 1/2 + (1/2) sin(2 w t - 90 deg) has no component at
// f; its row is the harmonic 2 f with amplitude 1/2, phase -90 deg, mean 1/2
// and a residual at round-off (before: the amplitude at f, about 1e-17, and
// residual/amplitude far above 1). The current i = sin(w t + 30 deg) stays
// at f.
TEST(SteadyState, PowerRowIsFittedAtTwiceTheFrequency)
{
  const double                     f = 50, w = 2 * M_PI * f, h = 1e-4;
  std::vector<std::vector<double>> rows;
  for (long k = 0; k * h <= 10 / f * (1 + 1e-12); ++k)
    {
      const double t = 1 + k * h;
      rows.push_back({t, std::sin(w * t + M_PI / 6), std::pow(std::sin(w * t), 2)});
    }
  hamilton::lumped::LumpedRun run;
  run.harmonic_periods = 10;
  const auto fit        = run.harmonic_fit({"t_s", "i", "p"}, rows, f);
  ASSERT_EQ(fit.columns.size(), 2u);
  const auto &i = fit.columns[0], &p = fit.columns[1];
  EXPECT_EQ(i.harmonic, 1u);
  EXPECT_NEAR(i.amplitude, 1, 1e-12);
  EXPECT_NEAR(i.phase_deg, 30, 1e-9);
  EXPECT_EQ(p.harmonic, 2u);
  EXPECT_NEAR(p.amplitude, 0.5, 1e-12);
  EXPECT_NEAR(p.phase_deg, -90, 1e-9);
  EXPECT_NEAR(p.mean, 0.5, 1e-12);
  EXPECT_LT(p.largest_fit_residual / p.amplitude, 1e-10);
}

// The automatic steady state of a run still running up (a slow chirp over
// the last half of a 4 s run, 58 -> 62 Hz): the autocorrelation finds a
// period, but the signal is not periodic over the fitted periods, so there
// is no steady state, no fit, and the reason says why
TEST(SteadyState, RunUpHasNoSteadyState)
{
  const double                     h = 1e-4;
  std::vector<std::vector<double>> rows;
  for (long k = std::lround(2 / h); k * h <= 4 * (1 + 1e-12); ++k)
    {
      const double t = k * h;
      rows.push_back({t, std::sin(2 * M_PI * (54 * t + t * t))}); // f(t) = 54 + 2 t Hz
    }
  hamilton::lumped::LumpedRun run;
  run.harmonic_periods        = 10;
  run.options.output_interval = h;
  run.options.final_time      = 4;
  run.steady_state_signal     = "y";
  const auto steady           = run.detected_steady_state({"t_s", "y"}, rows);
  EXPECT_FALSE(steady.found);
  EXPECT_TRUE(steady.fit.columns.empty());
  EXPECT_GT(steady.detected_frequency, 0) << steady.reason; // a period was detected, then refused
  EXPECT_NE(steady.reason.find("changes"), std::string::npos) << steady.reason;
  std::ostringstream out;
  steady.print(out);
  EXPECT_NE(out.str().find("steady state: none in y"), std::string::npos) << out.str();
}
