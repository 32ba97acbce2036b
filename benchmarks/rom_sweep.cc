// Benchmark: a 10^5-point frequency sweep (voltage and power FRF with a load
// resistor) of the Case 1b bimorph on a ROM of 10 modes plus static
// corrections, against the same sweep on the full finite-element model (in its
// complete modal basis, the frequency-response path of Hamilton). Prints the
// times, the speed-up and the largest difference below 0.8 f_10.
//
// usage: benchmark_rom_sweep [SOURCE_DIR]
#include <hamilton/analyses/spectral_model.h>
#include <hamilton/rom/reduced_model.h>
#include <hamilton/run.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>

using namespace hamilton;

namespace
{
  double
  seconds_since(std::chrono::steady_clock::time_point start)
  {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  struct Sweep
  {
    std::vector<std::complex<double>> voltage;
    std::vector<double>               power;
    double                            seconds = 0;
  };

  Sweep
  sweep(const SpectralModel &model, const std::vector<double> &f, double R)
  {
    Sweep                             s;
    SpectralModel::Excitation         excitation;
    excitation.base_acceleration = g_acceleration;
    std::vector<SpectralModel::Circuit> circuits{{SpectralModel::Circuit::admittance, 1. / R}};
    const auto                        start = std::chrono::steady_clock::now();
    for (const double fk : f)
      {
        const auto state = model.solve(2 * M_PI * fk, excitation, circuits);
        s.voltage.push_back(state.V[0]);
        s.power.push_back(std::norm(state.V[0]) / R);
      }
    s.seconds = seconds_since(start);
    return s;
  }
} // namespace

int
main(int argc, char **argv)
{
  const std::string source = argc > 1 ? argv[1] : HAMILTON_SOURCE_DIR;
  // the Case 1b device at a resolution that converges 10 modes (16 elements, p = 8)
  const auto loaded = load_beam(source + "/prm/piezo/bimorph_harvester.prm",
                                {{"Discretization/Finite elements/Number of elements", "16"},
                                 {"Discretization/Finite elements/Polynomial degree", "8"}});
  const auto   problem = loaded->problem();
  const double R       = 7.7e3;

  auto                start = std::chrono::steady_clock::now();
  const SpectralModel full(problem, 0, true);
  const double        t_full_modes = seconds_since(start);

  const unsigned int  n_points = 100000;
  const double        f_top    = 0.8 * full.omega[9] / (2 * M_PI);
  std::vector<double> f(n_points);
  for (unsigned int k = 0; k < n_points; ++k)
    f[k] = 10 * std::pow(f_top / 10, double(k) / (n_points - 1));
  const Sweep b = sweep(full, f, R);
  std::cout << "ROM frequency sweep, Case 1b bimorph, R = " << R << " Ohm, 1 g, " << n_points
            << " log-spaced points 10 Hz ... " << f_top << " Hz (0.8 f_10)\n"
            << "  full model: " << loaded->discretization->description() << ", " << full.n_modes()
            << " modes (eigen-decomposition " << t_full_modes << " s)\n"
            << "  sweep on full model: " << b.seconds << " s (" << 1e6 * b.seconds / n_points << " us/point)\n";

  for (const unsigned int order : {1u, 2u})
    {
      start                        = std::chrono::steady_clock::now();
      const ReducedModel  rom      = reduce(problem, 10, order, {});
      const SpectralModel reduced(problem, rom);
      const double        t_reduce = seconds_since(start);
      const Sweep         a        = sweep(reduced, f, R);
      double              dv = 0, dp = 0;
      for (unsigned int k = 0; k < n_points; ++k)
        {
          dv = std::max(dv, std::abs(a.voltage[k] - b.voltage[k]) / std::abs(b.voltage[k]));
          dp = std::max(dp, std::abs(a.power[k] - b.power[k]) / b.power[k]);
        }
      std::cout << "  ROM, correction order " << order << ": " << rom.n_normal_modes << " modes + "
                << rom.n_correction_modes << " corrections (reduction " << t_reduce << " s)\n"
                << "    sweep " << a.seconds << " s (" << 1e6 * a.seconds / n_points
                << " us/point; target < 0.1 s), speed-up " << b.seconds / a.seconds << "\n"
                << "    largest relative difference to the full model: voltage " << dv << ", power " << dp
                << "\n";
    }
}
