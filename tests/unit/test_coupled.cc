// A reduced model of the beam solver inside a lumped system: the steady state
// under a prescribed sinusoidal base motion against the beam solver's
// frequency response (issue 6, verification of example 1).
#include "test_helpers.h"

#include <hamilton/analyses/spectral_model.h>
#include <hamilton/lumped/lumped_run.h>
#include <hamilton/rom/reduced_model.h>

#include <Eigen/Dense>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iostream>

using namespace hamilton;
using namespace hamilton::testing;

namespace
{
  /** Amplitude of a sampled sinusoid of angular frequency w (least squares on sin, cos, 1). */
  double
  amplitude(const std::vector<double> &t, const std::vector<double> &x, double w)
  {
    Eigen::MatrixXd A(t.size(), 3);
    Eigen::VectorXd b(t.size());
    for (unsigned int i = 0; i < t.size(); ++i)
      {
        A.row(i) << std::sin(w * t[i]), std::cos(w * t[i]), 1.;
        b(i) = x[i];
      }
    const Eigen::VectorXd c = A.colPivHouseholderQr().solve(b);
    return std::hypot(c(0), c(1));
  }
} // namespace

// Case 1b bimorph, 470 Ohm, 1 g at 480 Hz (below f_sc = 502.6 Hz): the lumped
// time integration of its ROM reaches the voltage and tip amplitudes of the
// ROM's frequency response (the ROM against the full model is verified in
// test_reduced_model.cc). Two modes, no corrections: the correction
// coordinates are stiff and lightly damped (tens of kHz), which makes this
// integration slow (README, "Modal beams").
TEST(Coupled, SteadyStateOfModalBeamEqualsFrequencyResponse)
{
  const auto   loaded = load("prm/piezo/bimorph_harvester.prm");
  const auto   rom    = reduce(loaded->problem(), 2, 0, {{"tip", 24.53e-3}});
  std::ofstream("coupled_rom.json") << rom.to_json().dump();
  const double f = 480, w = 2 * M_PI * f, a = 9.81, R = 470;

  std::ofstream("coupled_test.prm")
    << "subsection Lumped system\n"
       "  subsection Time functions\n    set Names = a\n    subsection a\n      set Type = sine\n"
       "      set Amplitude = " << a << "\n      set Frequency = " << f << "\n    end\n  end\n"
       "  subsection Components\n    set Names = beam, load\n"
       "    subsection beam\n      set Type = modal beam\n      set ROM file = coupled_rom.json\n"
       "      set Base acceleration = a\n    end\n"
       "    subsection load\n      set Type = resistor\n      set Charge = beam_harvester\n"
       "      set Resistance = " << R << "\n    end\n  end\n"
       "  subsection Simulation\n    set Final time = 0.6\n    set Output interval = " << 1 / (40 * f)
    << "\n    set Relative tolerance = 1e-12\n    set Absolute tolerance = 1e-20\n  end\nend\n";
  dealii::ParameterHandler prm;
  read_parameters(prm, "coupled_test.prm");
  Section           section(prm);
  lumped::LumpedRun run;
  run.parse_parameters(section, ".");
  const lumped::CompiledSystem compiled(*run.equations);
  const auto columns = lumped::output_columns(*run.equations);
  const auto column  = [&](const std::string &name) {
    return std::find(columns.begin(), columns.end(), name) - columns.begin();
  };
  const auto iv = column("beam_harvester_V"), iw = column("beam_tip_w"), ir = column("audit_residual_J"),
             is = column("supplied_work_J");
  std::vector<double> t, V, tip;
  double              audit = 0, supplied = 0;
  lumped::simulate(compiled, *run.equations, run.options,
                   [&](const std::vector<double> &row) {
                     audit    = std::max(audit, std::abs(row[ir]));
                     supplied = std::max(supplied, std::abs(row[is]));
                     if (row[0] >= 0.6 - 20 / f - 1e-12) // the last 20 periods
                       {
                         t.push_back(row[0]);
                         V.push_back(row[iv]);
                         tip.push_back(row[iw]);
                       }
                   },
                   nullptr);

  // the ROM's frequency response at the same frequency
  const SpectralModel       full(loaded->problem(), rom);
  SpectralModel::Excitation excitation;
  excitation.base_acceleration = a;
  auto circuits                = full.circuits_of_model(w);
  circuits[0]                  = {SpectralModel::Circuit::admittance, 1 / R};
  const auto   state           = full.solve(w, excitation, circuits);
  const double V_full          = std::abs(state.V[0]);
  const double w_full          = std::abs(SpectralModel::deflection(state, full.mode_values(24.53e-3)));
  // and the full model's, to show the truncation of two modes without corrections
  const SpectralModel converged(loaded->problem(), 0, true);
  const double        V_converged = std::abs(converged.solve(w, excitation, circuits).V[0]);
  const double V_rom = amplitude(t, V, w), w_rom = amplitude(t, tip, w);
  std::cout << "voltage amplitude: lumped " << V_rom << " V, ROM FRF " << V_full << " V (" << V_rom / V_full - 1
            << "); tip: " << w_rom << " m, " << w_full << " m (" << w_rom / w_full - 1 << "); audit " << audit / supplied
            << "; full model " << V_converged << " V (" << V_rom / V_converged - 1 << ")\n";
  EXPECT_NEAR(V_rom / V_full, 1., 1e-6);
  EXPECT_NEAR(w_rom / w_full, 1., 1e-6);
  EXPECT_LT(audit, 1e-8 * supplied);
  // two modes suffice below the first resonance: measured -4.2e-4 against
  // the full finite-element model
  EXPECT_NEAR(V_rom / V_converged, 1., 1e-3);
}
