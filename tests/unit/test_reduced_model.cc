// Reduced modal models: ROM vs the full model (Case 1b of
// doc/validation-data.md), static corrections, the ROM file (round
// trip, validation of bad files) and the state space.
#include "test_helpers.h"

#include <hamilton/analyses/spectral_model.h>
#include <hamilton/rom/reduced_model.h>
#include <hamilton/rom/state_space.h>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>

using namespace hamilton;
using namespace hamilton::testing;
using complex = std::complex<double>;

namespace
{
  const std::string bimorph = "prm/piezo/bimorph_harvester.prm";
  const double      L       = 24.53e-3;

  double
  rel(complex a, complex b)
  {
    return std::abs(a - b) / std::abs(b);
  }

  /** Largest relative difference of tip displacement and voltage (1 g, 470 Ohm) up to f_max. */
  std::pair<double, double>
  frf_difference(const Problem &problem, const ReducedModel &rom, double f_max)
  {
    const SpectralModel       full(problem, 0, true), reduced(problem, rom);
    const auto                tip_full = full.mode_values(L), tip_rom = reduced.mode_values(L);
    SpectralModel::Excitation excitation;
    excitation.base_acceleration = 9.81;
    double dw = 0, dv = 0;
    for (double f = 20; f <= f_max; f *= 1.002)
      {
        const double w = 2 * M_PI * f;
        const auto   c = full.circuits_of_model(w);
        const auto   a = full.solve(w, excitation, c), b = reduced.solve(w, excitation, c);
        dw = std::max(dw, rel(SpectralModel::deflection(b, tip_rom), SpectralModel::deflection(a, tip_full)));
        dv = std::max(dv, rel(b.V[0], a.V[0]));
      }
    return {dw, dv};
  }
} // namespace

// Kept modes equal the full model's; FRFs agree within 1e-3 below 0.8 f_n.
TEST(ReducedModel, AgreesWithFullModelCase1b)
{
  const auto          loaded = load(bimorph);
  const auto          problem = loaded->problem();
  const SpectralModel full(problem, 0, true);
  double previous[2] = {0, 0};
  for (unsigned int order : {1u, 2u})
    {
      const ReducedModel rom = reduce(problem, 4, order, {{"tip", L}});
      ASSERT_EQ(rom.n_normal_modes, 4u);
      for (unsigned int r = 0; r < 4; ++r)
        EXPECT_NEAR(rom.omega[r] / full.omega[r], 1., 1e-12) << "mode " << r + 1;
      const auto [dw, dv] = frf_difference(problem, rom, 0.8 * rom.omega[3] / (2 * M_PI));
      std::cout << "correction order " << order << ": " << rom.n_correction_modes
                << " corrections, FRF difference tip " << dw << ", voltage " << dv << "\n";
      // measured: order 1 (3 corrections: base, electrode, tip load) 2.9e-4
      // and 6.9e-4; order 2: 1.5e-6 and 2.8e-7
      EXPECT_LT(dw, 1e-3);
      EXPECT_LT(dv, 1e-3);
      if (order == 2) // the second Krylov vectors capture the truncated modes' inertia
        {
          EXPECT_LT(dw, previous[0] / 10);
          EXPECT_LT(dv, previous[1] / 10);
        }
      previous[0] = dw;
      previous[1] = dv;
    }
}

// Static correction: the static response of a 1-mode ROM to 1 V (actuation)
// and to base acceleration becomes exact.
TEST(ReducedModel, StaticCorrectionMakesStaticResponseExact)
{
  const auto          loaded  = load(bimorph);
  const auto          problem = loaded->problem();
  const SpectralModel full(problem, 0, true);
  const auto          tip_full = full.mode_values(L);
  for (int driven : {-1, 0})
    {
      std::vector<SpectralModel::Circuit> circuits(1);
      SpectralModel::Excitation           excitation;
      if (driven < 0)
        excitation.base_acceleration = 1;
      else
        circuits[0] = {SpectralModel::Circuit::prescribed, 1.};
      const complex exact = SpectralModel::deflection(full.solve(0, excitation, circuits), tip_full);
      double        error[2];
      for (unsigned int order : {0u, 1u})
        {
          const SpectralModel rom(problem, reduce(problem, 1, order, {{"tip", L}}));
          error[order] = rel(SpectralModel::deflection(rom.solve(0, excitation, circuits), rom.mode_values(L)), exact);
        }
      std::cout << (driven < 0 ? "base acceleration" : "1 V") << ": static tip error modes only "
                << error[0] << ", with correction " << error[1] << "\n";
      // measured: 1 mode only 0.109 for 1 V (base 1.34e-2); corrected 1.7e-14 (2.7e-14)
      EXPECT_GT(error[0], 1e-2);
      EXPECT_LT(error[1], 2e-13);
    }
}

// The open-circuit frequency of the ROM with static correction equals the
// exact Euler-Bernoulli value 524.404119044882 Hz (a cantilever with the tip
// rotational spring Theta^2/C, tests/reference/piezo_beams.py); modes alone
// miss it.
TEST(ReducedModel, OpenCircuitFrequencyWithStaticCorrection)
{
  const auto   loaded  = load(bimorph);
  const auto   problem = loaded->problem();
  const double exact   = 524.404119044882; // tests/reference/piezo_beams.py (mpmath, characteristic equation)
  double       error[2];
  for (unsigned int order : {0u, 1u})
    {
      const SpectralModel rom(problem, reduce(problem, 4, order, {}));
      error[order] = std::abs(rom.open_circuit_omega({true})[0] / (2 * M_PI) / exact - 1);
    }
  std::cout << "open circuit mode 1: modes only " << error[0] << ", with correction " << error[1] << "\n";
  // measured: modes only 6.0e-4, with correction 1.1e-12
  EXPECT_GT(error[0], 1e-5);
  EXPECT_LT(error[1], 5e-12);
}

// Export -> read -> the same numbers, bit for bit.
TEST(ReducedModel, FileRoundTrip)
{
  const auto         loaded = load(bimorph);
  const ReducedModel rom    = reduce(loaded->problem(), 3, 1, {{"tip", L}, {"mid", L / 2}});
  const std::string  file   = write_file("roundtrip_rom.json", rom.to_json().dump(2));
  const ReducedModel back   = ReducedModel::read(file);
  EXPECT_EQ(back.to_json(), rom.to_json());
  EXPECT_EQ(back.omega, rom.omega);
  EXPECT_EQ(back.mass, rom.mass);
  EXPECT_EQ(back.electrodes[0].coupling, rom.electrodes[0].coupling);
  EXPECT_EQ(back.outputs[1].slope, rom.outputs[1].slope);
  EXPECT_EQ(back.geometric_rotation, rom.geometric_rotation);
  EXPECT_EQ(back.rigid_mass, rom.rigid_mass);
}

// Rotation about the root: the projected K_g of N0(x) = rhoA (L^2 - x^2)/2
// per (rad/s)^2 raises mode 1 of a uniform cantilever by the Southwell
// coefficient 1.1933 (omega^2 = omega_0^2 + 1.1932 Omega^2, Case 4 style check).
TEST(ReducedModel, CentrifugalStiffeningSouthwellCoefficient)
{
  const BeamModel model  = uniform_beam(1., 1., 1., SupportCondition::clamped, SupportCondition::free);
  const auto      solved = discretize(model, 8, 6);
  const auto      rom    = reduce(solved->problem(model), 1, 0, {});
  // Southwell coefficient of the first flapwise mode of a uniform blade without
  // hub offset: 1.1933 (Wright, Smith, Thresher, Wang, J. Appl. Mech. 1982)
  EXPECT_NEAR(rom.geometric_rotation[0][0], 1.1933, 1e-4);
}

namespace
{
  /** Write a corrupted copy of a valid ROM file and expect a RomError with `fragment`. */
  void
  expect_rom_error(const std::function<void(nlohmann::json &)> &corrupt, const std::string &fragment)
  {
    static const auto loaded = load(bimorph);
    nlohmann::json    j      = reduce(loaded->problem(), 2, 1, {{"tip", L}}).to_json();
    corrupt(j);
    const std::string file = write_file("bad_rom.json", j.dump());
    try
      {
        ReducedModel::read(file);
        ADD_FAILURE() << "no error for " << fragment;
      }
    catch (const RomError &e)
      {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
        std::cout << e.what() << "\n";
      }
  }
} // namespace

TEST(ReducedModel, BadFilesAreRejected)
{
  expect_rom_error([](auto &j) { j["version"] = 2; }, "'version' = 2: this Hamilton reads version 1");
  expect_rom_error([](auto &j) { j["format"] = "other"; }, "is not a Hamilton ROM file");
  expect_rom_error([](auto &j) { j["units"]["length"] = "mm"; }, "'units' = ");
  expect_rom_error([](auto &j) { j["units"]["length"] = "mm"; }, "this Hamilton reads SI");
  expect_rom_error([](auto &j) { j["mass_matrix"][0][1] = 0.5; }, "'mass_matrix' is not symmetric");
  expect_rom_error([](auto &j) { j["mass_matrix"][0][0] = -1.; }, "non-positive diagonal entry");
  expect_rom_error([](auto &j) { j["mass_matrix"][1][1] = 2.; }, "not mass-normalized");
  // 2 modes + 3 corrections (base, electrode, the tip load of the file)
  expect_rom_error([](auto &j) { j["damping_ratios"].erase(0); }, "'damping_ratios' has 4 entries, expected 5");
  expect_rom_error([](auto &j) { j["stiffness_matrix"].erase(0); }, "'stiffness_matrix' has 4 rows, expected 5");
  expect_rom_error([](auto &j) { j.erase("electrodes"); }, "'electrodes' is missing");
  // fields of the wrong JSON type name the field and the type expected
  expect_rom_error([](auto &j) { j["n_modes"] = "5"; }, "'n_modes' = \"5\" is a string; it must be a whole number");
  expect_rom_error([](auto &j) { j["format"] = 5; }, "'format' = 5, not \"hamilton-rom\"");
  expect_rom_error([](auto &j) { j = nlohmann::json::array({j}); }, "holds an array, not a JSON object");
  expect_rom_error([](auto &j) { j["damping_ratios"] = "0.01"; }, "'damping_ratios' = \"0.01\" is a string");
  expect_rom_error([](auto &j) { j["electrodes"][0]["name"] = 3; }, "'electrodes/name' = 3 is a number");
  // values no physical ROM has: unsigned wrap, negative omega and damping
  expect_rom_error([](auto &j) { j["n_normal_modes"] = -1; }, "'n_normal_modes' = -1 is a number");
  expect_rom_error([](auto &j) { j["angular_frequencies_rad_s"][0] = -1.; }, "entry 1 = -1 rad/s is negative");
  expect_rom_error([](auto &j) { j["damping_ratios"][1] = -0.5; }, "entry 2 = -0.5 is negative");
  std::filesystem::create_directories("rom_directory.json");
  EXPECT_THROW(ReducedModel::read("rom_directory.json"), RomError);
  expect_rom_error([](auto &j) { j["electrodes"][0]["capacitance_F"] = 0.; }, "of 'harvester' must be positive");

  // truncated and missing files
  const auto loaded = load(bimorph);
  const auto text   = reduce(loaded->problem(), 2, 1, {}).to_json().dump();
  const auto file   = write_file("truncated_rom.json", text.substr(0, text.size() / 2));
  EXPECT_THROW(
    {
      try
        {
          ReducedModel::read(file);
        }
      catch (const RomError &e)
        {
          EXPECT_NE(std::string(e.what()).find("may be truncated"), std::string::npos) << e.what();
          throw;
        }
    },
    RomError);
  EXPECT_THROW(ReducedModel::read("no_such_rom.json"), RomError);
}

// The state space reproduces the frequency-domain solution of the same ROM:
// resistor (Case 1b), series RL shunt, current input.
TEST(ReducedModel, StateSpaceTransferEqualsSpectralSolution)
{
  for (const auto &circuit : {std::string("resistor"), std::string("series RL"), std::string("parallel RL")})
    {
      const auto loaded = load(bimorph, {{"Beam/Electrodes/harvester/Circuit", circuit},
                                         {"Beam/Electrodes/harvester/Resistance", "2000"},
                                         {"Beam/Electrodes/harvester/Inductance", "10"}});
      const auto problem = loaded->problem();
      const auto rom     = reduce(problem, 3, 1, {{"tip", L}});
      const SpectralModel model(problem, rom);
      const StateSpace    ss = build_state_space(
        rom, loaded->model.electrodes,
        {{"base acceleration", ""}, {"current", "harvester"}},
        {{"displacement", "tip"}, {"velocity", "tip"}, {"voltage", "harvester"}, {"current", "harvester"},
         {"charge", "harvester"}},
        "test");
      double worst = 0;
      for (const double f : {100., 502., 524., 3000., 9000.})
        {
          const double w = 2 * M_PI * f;
          const auto   H = ss.transfer(w);
          SpectralModel::Excitation excitation;
          excitation.base_acceleration = 1;
          const auto    s = model.solve(w, excitation, model.circuits_of_model(w));
          const complex tip = SpectralModel::deflection(s, model.mode_values(L));
          complex       Q   = rom.electrodes[0].capacitance * s.V[0];
          for (unsigned int r = 0; r < rom.size(); ++r)
            Q += rom.electrodes[0].coupling[r] * s.q[r];
          worst = std::max({worst, rel(H(0, 0), tip), rel(H(1, 0), complex(0, w) * tip), rel(H(2, 0), s.V[0]),
                            rel(H(3, 0), s.I[0]), rel(H(4, 0), Q)});
          // a current i injected: the charge balance gives i = i w Q + i_load
          const complex i_in = complex(0, w) * H(4, 1) + H(3, 1);
          worst              = std::max(worst, std::abs(i_in - 1.));
        }
      std::cout << circuit << ": largest relative difference " << worst << "\n";
      // measured 2.8e-13 (resistor), 1.0e-11 (series RL), 1.1e-13 (parallel RL)
      EXPECT_LT(worst, 5e-11) << circuit;
    }
}

// Voltage-driven electrode: its voltage is an input; charge is an output,
// the current (improper) is refused; unknown names are named in the error.
TEST(ReducedModel, StateSpacePortErrors)
{
  const auto loaded = load(bimorph, {{"Beam/Electrodes/harvester/Circuit", "voltage"}});
  const auto rom    = reduce(loaded->problem(), 2, 1, {{"tip", L}});
  const auto build  = [&](std::vector<Port> in, std::vector<Port> out) {
    return build_state_space(rom, loaded->model.electrodes, in, out, "Analysis/Reduced model");
  };
  const StateSpace ss = build({{"voltage", "harvester"}}, {{"charge", "harvester"}, {"voltage", "harvester"}});
  EXPECT_DOUBLE_EQ(ss.D(0, 0), rom.electrodes[0].capacitance);
  EXPECT_DOUBLE_EQ(ss.D(1, 0), 1.);
  const auto message = [&](std::vector<Port> in, std::vector<Port> out) -> std::string {
    try
      {
        build(in, out);
      }
    catch (const InputError &e)
      {
        return e.what();
      }
    return "no error";
  };
  EXPECT_NE(message({{"voltage", "harvester"}}, {{"current", "harvester"}}).find("use 'charge: harvester'"),
            std::string::npos);
  EXPECT_NE(message({{"base acceleration", ""}}, {{"charge", "harvester"}}).find("add 'voltage: harvester'"),
            std::string::npos);
  EXPECT_NE(message({{"voltage", "harvester"}}, {{"displacement", "middle"}}).find("no output point 'middle'"),
            std::string::npos);
  EXPECT_NE(message({{"voltage", "sensor"}}, {}).find("no electrode 'sensor'; electrodes: 'harvester'"),
            std::string::npos);
  EXPECT_NE(message({{"current", "harvester"}, {"voltage", "harvester"}}, {}).find("cannot be injected"),
            std::string::npos);
}

// A Rayleigh-Ritz model reduces like a finite-element one: the kept modes are
// the Ritz model's, and the static correction makes its static response exact.
// The example's 12 polynomials make an ill-conditioned Gram matrix: two paths
// to the same eigenvalues agree to its round-off floor, about 1e-10 (measured
// 2.1e-11 for the frequencies and 4.2e-11 for the static tip deflection).
TEST(ReducedModel, FromRayleighRitzDiscretization)
{
  const auto          loaded  = load("prm/rom/ritz_vs_fe.prm");
  const auto          problem = loaded->problem();
  const double        length  = loaded->model.length();
  const SpectralModel full(problem, 0, true);
  const auto          rom = reduce(problem, 3, 1, {{"tip", length}});
  for (unsigned int r = 0; r < 3; ++r)
    EXPECT_NEAR(rom.omega[r] / full.omega[r], 1., 1e-9);
  const SpectralModel       reduced(problem, rom);
  SpectralModel::Excitation excitation;
  excitation.base_acceleration = 1;
  const complex exact = SpectralModel::deflection(full.solve(0, excitation, {}), full.mode_values(length));
  const complex approx = SpectralModel::deflection(reduced.solve(0, excitation, {}), reduced.mode_values(length));
  EXPECT_LT(rel(approx, exact), 1e-9);
}

// Mode signs follow one documented convention (apply_sign_convention: the
// largest component positive, near-ties to the first), also for the ROM's
// coordinates, which come out of a second eigensolution (of the projected
// pencil) whose signs are arbitrary: each kept coordinate is the modal
// analysis's mode with the same sign, so the participation factors and
// couplings agree in sign and value.
TEST(ReducedModel, ModeSignsFollowTheConvention)
{
  dealii::Vector<double> v(4);
  v[0] = 0.5, v[1] = -1., v[2] = 1. - 1e-9, v[3] = 0.2; // near-tie: the first decides
  auto flipped = v;
  flipped *= -1.;
  apply_sign_convention(v);
  apply_sign_convention(flipped);
  EXPECT_EQ(v[1], 1.);
  for (unsigned int i = 0; i < 4; ++i)
    EXPECT_EQ(v[i], flipped[i]);

  const auto   loaded = load(bimorph);
  ModalOptions options;
  options.n_modes             = 4;
  options.samples_per_element = 0;
  const auto modal            = compute_modes(loaded->problem(), options);
  for (unsigned int order : {0u, 1u, 2u})
    {
      const ReducedModel rom = reduce(loaded->problem(), 4, order, {{"tip", L}});
      for (unsigned int r = 0; r < 4; ++r)
        {
          const auto &m = modal->modes[r];
          EXPECT_NEAR(rom.participation_translation[r] / m.participation - 1, 0., 1e-8)
            << "order " << order << ", mode " << r + 1;
          EXPECT_NEAR(rom.electrodes[0].coupling[r] / m.electrodes[0].modal_coupling - 1, 0., 1e-8)
            << "order " << order << ", mode " << r + 1;
        }
    }
}
