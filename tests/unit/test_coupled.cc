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
#include <memory>
#include <sstream>

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

  /** Write a parameter file and read its lumped system (ROM files relative to the working directory). */
  std::unique_ptr<lumped::LumpedRun>
  lumped_from(const std::string &file, const std::string &text)
  {
    std::ofstream(file) << text;
    dealii::ParameterHandler prm;
    read_parameters(prm, file);
    Section section(prm);
    auto    run = std::make_unique<lumped::LumpedRun>();
    run->parse_parameters(section, ".");
    return run;
  }
} // namespace

// Case 1b bimorph, 470 Ohm, 1 g at 480 Hz (below f_sc = 502.6 Hz): the lumped
// time integration of its ROM reaches the voltage and tip amplitudes of the
// ROM's frequency response (the ROM against the full model is verified in
// test_reduced_model.cc). Two modes, no corrections: the difference to the
// full model is then the modal truncation.
TEST(Coupled, SteadyStateOfModalBeamEqualsFrequencyResponse)
{
  const auto   loaded = load("prm/piezo/bimorph_harvester.prm");
  const auto   rom    = reduce(loaded->problem(), 2, 0, {{"tip", 24.53e-3}});
  std::ofstream("coupled_rom.json") << rom.to_json().dump();
  const double f = 480, w = 2 * M_PI * f, a = 9.81, R = 470;

  std::ostringstream text;
  text << "subsection Lumped system\n"
       "  subsection Time functions\n    set Names = a\n    subsection a\n      set Type = sine\n"
       "      set Amplitude = " << a << "\n      set Frequency = " << f << "\n    end\n  end\n"
       "  subsection Components\n    set Names = beam, load\n"
       "    subsection beam\n      set Type = modal beam\n      set ROM file = coupled_rom.json\n"
       "      set Base acceleration = a\n    end\n"
       "    subsection load\n      set Type = resistor\n      set Charge = beam_harvester\n"
       "      set Resistance = " << R << "\n    end\n  end\n"
       "  subsection Simulation\n    set Final time = 0.6\n    set Output interval = " << 1 / (40 * f)
       << "\n    set Relative tolerance = 1e-12\n    set Absolute tolerance = 1e-18\n  end\nend\n";
  const auto                  lumped_run = lumped_from("coupled_test.prm", text.str());
  const lumped::LumpedRun    &run        = *lumped_run;
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
  // measured -5.3e-9 and -4.8e-9
  EXPECT_NEAR(V_rom / V_full, 1., 3e-8);
  EXPECT_NEAR(w_rom / w_full, 1., 3e-8);
  EXPECT_LT(audit, 1e-8 * supplied);
  // two modes suffice below the first resonance: measured -4.2e-4 against
  // the full finite-element model
  EXPECT_NEAR(V_rom / V_converged, 1., 1e-3);
}

// A modal beam on a hub spinning at Omega: the stiffness of its modal
// equations is K + Omega^2 (G - M) (centrifugal stiffening minus the in-plane
// softening). Against the beam solver with the centrifugal axial force
// N0(x) = rhoA Omega^2 (L^2 - x^2)/2: omega^2 = omega_FE(N0)^2 - Omega^2.
TEST(Coupled, RotatingModalBeamAgainstPrestressedBeam)
{
  const auto   loaded = load("prm/beam/cantilever_modes.prm");
  const auto   rom    = reduce(loaded->problem(), 4, 0, {});
  std::ofstream("rotating_rom.json") << rom.to_json().dump();
  const auto lumped_run = lumped_from(
    "rotating_test.prm",
    "subsection Lumped system\n  set Coordinates = theta\n  set Kinetic coenergy = 0.5*1*theta_dot^2\n"
       "  subsection Components\n    set Names = beam\n    subsection beam\n      set Type = modal beam\n"
    "      set ROM file = rotating_rom.json\n      set Root angle = theta\n    end\n  end\nend\n");
  const lumped::LumpedRun &run = *lumped_run;
  const auto &sys = run.system;
  const auto &eq  = *run.equations;
  const double L = 0.3, rhoA = 7850 * 0.002 * 0.02;
  for (const double Omega : {50., 200.})
    {
      // stiffness of the modal equations at theta' = Omega, at rest in the rotating frame
      GiNaC::exmap at;
      for (const auto &c : sys.coordinates)
        {
          at[c.position] = 0;
          at[c.velocity] = c.name == "theta" ? Omega : 0.;
          at[c.acceleration] = 0;
        }
      const unsigned int n = rom.size();
      Eigen::MatrixXd    K(n, n);
      for (unsigned int i = 0; i < n; ++i)
        for (unsigned int j = 0; j < n; ++j)
          K(i, j) = GiNaC::ex_to<GiNaC::numeric>(
                      GiNaC::evalf(eq.residual[1 + i].diff(GiNaC::ex_to<GiNaC::symbol>(sys.coordinates[1 + j].position))
                                     .subs(at)))
                      .to_double();
      const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(K);
      // the beam solver with the centrifugal axial force
      const auto spun = load("prm/beam/cantilever_modes.prm",
                             {{"Beam/Prestress/Axial force", std::to_string(rhoA * Omega * Omega / 2) + "*(" +
                                                               std::to_string(L * L) + " - x^2)"}});
      const SpectralModel fe(spun->problem(), 4, true);
      for (unsigned int r = 0; r < 2; ++r)
        {
          const double lumped = std::sqrt(eig.eigenvalues()(r));
          const double beam   = std::sqrt(fe.omega[r] * fe.omega[r] - Omega * Omega);
          std::cout << "Omega " << Omega << " rad/s, mode " << r + 1 << ": lumped " << lumped << ", beam solver "
                    << beam << " rad/s (" << lumped / beam - 1 << "; non-rotating " << rom.omega[r] << ")\n";
          // the ROM's 4 non-rotating modes span the rotating ones well at low
          // speed (measured 1.6e-6 and 8.5e-7 at 50 rad/s); at 200 rad/s, above
          // the first frequency, the ROM is a Rayleigh-Ritz upper bound
          // (measured 4.2e-4 and 1.5e-4)
          if (Omega < 100)
            EXPECT_NEAR(lumped / beam, 1., 8e-6);
          else
            {
              EXPECT_GE(lumped, beam * (1 - 1e-12));
              EXPECT_LT(lumped / beam - 1, 1e-3);
            }
        }
    }
}

// A root that translates (a cart on a spring) and rotates (a free hub) at
// once: the rigid-body part of T* is that of a body of mass m, first moment
// S1 and second moment J about the root, 1/2 m X'^2 + X' theta' S1 cos(theta)
// + 1/2 J theta'^2, and without damping or sources the stored energy stays
// constant through the exchange between cart, hub and beam.
TEST(Coupled, TranslatingAndRotatingRoot)
{
  const auto loaded = load("prm/beam/cantilever_modes.prm");
  const auto rom    = reduce(loaded->problem(), 3, 0, {{"tip", 0.3}});
  std::ofstream("moving_root_rom.json") << rom.to_json().dump();
  const auto lumped_run = lumped_from(
    "moving_root_test.prm",
    "subsection Lumped system\n  set Coordinates = x, theta\n"
       "  set Kinetic coenergy = 0.5*2*x_dot^2 + 0.5*1e-3*theta_dot^2\n  set Potential energy = 0.5*500*x^2\n"
       "  set Initial velocities = x: 0.5; theta: 3\n"
       "  subsection Components\n    set Names = beam\n    subsection beam\n      set Type = modal beam\n"
       "      set ROM file = moving_root_rom.json\n      set Root angle = theta\n      set Base position = x\n"
       "    end\n  end\n  subsection Simulation\n    set Final time = 0.5\n    set Output interval = 0.01\n"
       "    set Relative tolerance = 1e-11\n    set Absolute tolerance = 1e-13\n  end\nend\n");
  const lumped::LumpedRun &run = *lumped_run;
  const auto &sys = run.system;

  GiNaC::exmap rigid; // the beam undeformed
  GiNaC::ex    x_dot, theta, theta_dot;
  for (const auto &c : sys.coordinates)
    {
      if (c.name.rfind("beam_eta", 0) == 0)
        rigid[c.position] = rigid[c.velocity] = 0;
      if (c.name == "x")
        x_dot = c.velocity;
      if (c.name == "theta")
        theta = c.position, theta_dot = c.velocity;
    }
  const GiNaC::ex expected = 0.5 * (2 + rom.rigid_mass) * GiNaC::pow(x_dot, 2) +
                             0.5 * (1e-3 + rom.second_moment) * GiNaC::pow(theta_dot, 2) +
                             rom.first_moment * x_dot * theta_dot * GiNaC::cos(theta);
  const GiNaC::ex difference = (sys.kinetic.subs(rigid) - expected).expand();
  for (const double a : {0., 0.7, 2.}) // at some angles and rates: equal to rounding
    {
      const GiNaC::ex value = GiNaC::evalf(difference.subs(GiNaC::exmap{{theta, a}, {x_dot, 0.3}, {theta_dot, 1.7}}));
      EXPECT_LT(std::abs(GiNaC::ex_to<GiNaC::numeric>(value).to_double()), 1e-15) << difference;
    }

  const lumped::CompiledSystem compiled(*run.equations);
  double                       largest_tip = 0, e0 = 0;
  const auto columns = lumped::output_columns(*run.equations);
  const auto tip     = std::find(columns.begin(), columns.end(), "beam_tip_w") - columns.begin();
  std::vector<double> last;
  const auto summary = lumped::simulate(compiled, *run.equations, run.options,
                                        [&](const std::vector<double> &row) {
                                          largest_tip = std::max(largest_tip, std::abs(row[tip]));
                                          last        = row;
                                        },
                                        nullptr);
  // the energy T* + V at the end, evaluated from the derived energies at the
  // last row (T* is quadratic in the velocities: no prescribed motion), not
  // from the audit
  GiNaC::exmap at_end;
  for (const auto &c : sys.coordinates)
    {
      const auto column = [&](const std::string &name) {
        return last[std::find(columns.begin(), columns.end(), name) - columns.begin()];
      };
      at_end[c.position] = column(c.name);
      at_end[c.velocity] = column(c.name + "_dot");
    }
  const double e_end =
    GiNaC::ex_to<GiNaC::numeric>(GiNaC::evalf((sys.kinetic + sys.potential).subs(at_end))).to_double();
  e0 = 0.5 * (2 + rom.rigid_mass) * 0.25 + 0.5 * (1e-3 + rom.second_moment) * 9 +
       rom.first_moment * 0.5 * 3; // at t = 0, theta = 0, beam at rest
  std::cout << "moving root: largest tip deflection " << largest_tip << " m, stored energy change "
            << summary.stored_energy_change << " J of " << e0 << " J; T* + V at the end " << e_end << " J ("
            << e_end / e0 - 1 << ")\n";
  EXPECT_GT(largest_tip, 1e-5); // the beam is excited by the coupled motion
  // measured 4e-13 ... 9e-12 for both (three runs: the term order still varies)
  EXPECT_LT(std::abs(summary.stored_energy_change), 5e-11 * e0);
  EXPECT_NEAR(e_end / e0, 1., 5e-11);
}
