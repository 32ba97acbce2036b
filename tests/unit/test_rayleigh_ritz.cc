// Rayleigh-Ritz (assumed modes) against finite elements and closed forms.
#include "test_helpers.h"

#include <hamilton/discretization/rayleigh_ritz.h>

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

using namespace hamilton;
using namespace hamilton::testing;
using SC = SupportCondition;

namespace
{
  std::unique_ptr<ModalResult>
  ritz_modes(const BeamModel &model, const std::string &family, unsigned int n, unsigned int n_modes)
  {
    RayleighRitz ritz;
    ritz.set(family, n);
    ritz.setup(model);
    const auto   ops = ritz.assemble();
    ModalOptions options;
    options.n_modes             = n_modes;
    options.samples_per_element = 0;
    return compute_modes({model, ritz, *ops}, options);
  }
} // namespace

// The exact eigenfunctions reproduce the FE frequencies of the uniform
// cantilever (and other supports) to 1e-8.
TEST(RayleighRitz, ExactEigenfunctionsMatchFiniteElements)
{
  for (const auto &[left, right] : {std::make_pair(SC::clamped, SC::free),
                                    std::make_pair(SC::pinned, SC::pinned),
                                    std::make_pair(SC::clamped, SC::guided),
                                    std::make_pair(SC::free, SC::free)})
    {
      const BeamModel model = uniform_beam(1., 1., 1., left, right);
      const auto      fe    = modes(model, 8, 9, 6);
      const auto      ritz  = ritz_modes(model, "beam eigenfunctions", 6, 6);
      for (unsigned int i = 0; i < 6; ++i)
        if (fe->modes[i].rigid_body)
          EXPECT_TRUE(ritz->modes[i].rigid_body);
        else
          EXPECT_NEAR(ritz->modes[i].frequency_hz / fe->modes[i].frequency_hz - 1, 0., 1e-8)
            << to_string(left) << "-" << to_string(right) << " mode " << i + 1;
    }
}

// Polynomial and sine-series Ritz approach the exact frequencies from above
// (upper bounds) as n grows, down to round-off.
TEST(RayleighRitz, ConvergesFromAbove)
{
  const double    beta[4] = {1.87510406871196, 4.69409113297417, 7.85475743823761, 10.9955407348755};
  const BeamModel model   = uniform_beam(1., 1., 1., SC::clamped, SC::free);
  for (const std::string family : {"polynomials", "sine series"})
    {
      double previous = 1e300;
      for (const unsigned int n : {5u, 6u, 8u, 10u})
        {
          const auto r = ritz_modes(model, family, n, 4);
          for (unsigned int i = 0; i < 4; ++i)
            EXPECT_GT(r->modes[i].frequency_hz / (beta[i] * beta[i] / (2 * M_PI)) - 1, -1e-10)
              << family << " n = " << n << " mode " << i + 1;
          const double error = r->modes[3].frequency_hz / (beta[3] * beta[3] / (2 * M_PI)) - 1;
          std::cout << "  " << family << ", n = " << n << ": mode-4 error " << error << "\n";
          EXPECT_LT(error, previous);
          previous = error;
        }
    }
}

// Ritz and FE give the same operators on a piezo device: the Case 1b
// bimorph's short- and open-circuit frequencies and the capacitance.
TEST(RayleighRitz, PiezoBimorphMatchesFiniteElements)
{
  const auto fe_loaded   = load("prm/piezo/bimorph_harvester.prm");
  const auto ritz_loaded = load("prm/piezo/bimorph_harvester.prm",
                                {{"Discretization/Method", "rayleigh-ritz"},
                                 {"Discretization/Rayleigh-Ritz/Trial functions", "beam eigenfunctions"},
                                 {"Discretization/Rayleigh-Ritz/Number of functions", "12"}});
  ModalOptions options;
  options.n_modes             = 3;
  options.samples_per_element = 0;
  const auto fe   = compute_modes(fe_loaded->problem(), options);
  const auto ritz = compute_modes(ritz_loaded->problem(), options);
  EXPECT_NEAR(ritz->capacitances[0].second / fe->capacitances[0].second - 1, 0., 1e-12);
  for (unsigned int i = 0; i < 3; ++i)
    {
      EXPECT_NEAR(ritz->modes[i].frequency_hz / fe->modes[i].frequency_hz - 1, 0., 1e-8);
      // the open circuit needs the electrode's end moment, which the
      // eigenfunctions (w'' = 0 at the free end) converge to slowly: an
      // upper bound within 0.1 %
      const double oc = ritz->modes[i].frequency_open_circuit_hz / fe->modes[i].frequency_open_circuit_hz - 1;
      EXPECT_GT(oc, -1e-10);
      EXPECT_LT(oc, 1e-3);
    }
  // rigid-body properties agree (independent integration)
  EXPECT_NEAR(ritz_loaded->operators->rigid_mass / fe_loaded->operators->rigid_mass - 1, 0., 1e-12);
  EXPECT_NEAR(ritz_loaded->operators->rigid_second_moment / fe_loaded->operators->rigid_second_moment - 1, 0., 1e-12);
}

TEST(RayleighRitz, EigenfunctionsRefuseInteriorSupports)
{
  BeamModel model = uniform_beam(1., 1., 1., SC::clamped, SC::free);
  model.supports.push_back({"prop", 0.5, SC::pinned, 0., 0.});
  RayleighRitz ritz;
  ritz.set("beam eigenfunctions", 6);
  try
    {
      ritz.setup(model);
      ADD_FAILURE() << "no error";
    }
  catch (const InputError &e)
    {
      EXPECT_NE(std::string(e.what()).find("'Discretization/Rayleigh-Ritz'"), std::string::npos);
      EXPECT_NE(std::string(e.what()).find("Use 'polynomials'"), std::string::npos);
    }
  ritz.set("polynomials", 10); // interior supports are fine for polynomials
  ritz.setup(model);
  EXPECT_EQ(ritz.n_dofs(), 10u);
}
