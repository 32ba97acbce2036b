// Natural frequencies of uniform, tip-mass and stepped beams against
// closed-form characteristic equations (doc/validation-data.md,
// Case 4a) and independent transfer-matrix solutions.
#include "test_helpers.h"

#include <Eigen/Dense>
#include <gtest/gtest.h>

#include <cmath>

using namespace hamilton;
using namespace hamilton::testing;
using SC = SupportCondition;

namespace
{
  struct Case
  {
    const char      *name;
    SC               left, right;
    unsigned int     n_rigid;
    std::vector<double> beta_L; // Case 4a, 15 significant digits
  };

  const std::vector<Case> cases = {
    {"clamped-free", SC::clamped, SC::free, 0,
     {1.87510406871196, 4.69409113297417, 7.85475743823761, 10.9955407348755, 14.1371683910465, 17.2787595320882}},
    {"clamped-clamped", SC::clamped, SC::clamped, 0,
     {4.73004074486270, 7.85320462409584, 10.9956078380017, 14.1371654912575, 17.2787596573995, 20.4203522456261}},
    {"pinned-pinned", SC::pinned, SC::pinned, 0,
     {3.14159265358979, 6.28318530717959, 9.42477796076938, 12.5663706143592, 15.7079632679490, 18.8495559215388}},
    {"clamped-pinned", SC::clamped, SC::pinned, 0,
     {3.92660231204792, 7.06858274562873, 10.2101761228130, 13.3517687777541, 16.4933614313464, 19.6349540849362}},
    {"clamped-guided", SC::clamped, SC::guided, 0,
     {2.36502037243135, 5.49780391900084, 8.63937982869974, 11.7809724510202, 14.9225651045516, 18.0641577581413}},
    {"free-free", SC::free, SC::free, 2,
     {4.73004074486270, 7.85320462409584, 10.9956078380017, 14.1371654912575, 17.2787596573995, 20.4203522456261}},
    {"pinned-free", SC::pinned, SC::free, 1,
     {3.92660231204792, 7.06858274562873, 10.2101761228130, 13.3517687777541, 16.4933614313464, 19.6349540849362}},
  };
} // namespace

// EI = rhoA = L = 1, so omega = (beta L)^2. The table has 15 significant
// digits; the requirement of the issue is 1e-8 relative in frequency.
TEST(Frequencies, EulerBernoulliConstantsAllSupports)
{
  for (const auto &c : cases)
    {
      const BeamModel model = uniform_beam(1., 1., 1., c.left, c.right);
      const auto      result = modes(model, 8, 9, c.n_rigid + 6);
      ASSERT_EQ(result->modes.size(), c.n_rigid + 6) << c.name;
      for (unsigned int r = 0; r < c.n_rigid; ++r)
        {
          EXPECT_TRUE(result->modes[r].rigid_body) << c.name;
          EXPECT_LT(std::abs(result->modes[r].eigenvalue), 1e-9) << c.name;
        }
      for (unsigned int i = 0; i < 6; ++i)
        {
          const auto  &mode     = result->modes[c.n_rigid + i];
          const double expected = c.beta_L[i] * c.beta_L[i] / (2 * M_PI);
          EXPECT_FALSE(mode.rigid_body) << c.name;
          EXPECT_NEAR(mode.frequency_hz / expected - 1, 0., 1e-8)
            << c.name << " mode " << i + 1;
        }
    }
}

// Units: a steel cantilever 0.3 m x 0.02 m x 0.002 m, frequency in Hz.
TEST(Frequencies, PhysicalUnitsCantilever)
{
  const double E = 210e9, rho = 7850, b = 0.02, h = 0.002, L = 0.3;
  const double EI = E * b * h * h * h / 12, rhoA = rho * b * h;
  const auto   result = modes(uniform_beam(L, EI, rhoA, SC::clamped, SC::free), 6, 8, 2);
  const double f1 = std::pow(1.87510406871196, 2) / (2 * M_PI) *
                    std::sqrt(EI / (rhoA * std::pow(L, 4)));
  EXPECT_NEAR(result->modes[0].frequency_hz / f1 - 1, 0., 1e-9);
  // mass-normalized: the effective masses of all modes sum to the beam mass;
  // the first cantilever mode carries (int phi)^2/(L int phi^2) = 61.3076 %
  // of it (tests/reference/beams.py; measured 1e-13)
  EXPECT_NEAR(result->modes[0].effective_mass / (rhoA * L), 0.613076090026017, 1e-9);
}

// Tip mass M and rotary inertia J on a cantilever: the characteristic equation
// 1 + c C + a l (c S - s C) - j l^3 (C s + S c) + a j l^4 (1 - c C) = 0
// with a = M/(rhoA L), j = J/(rhoA L^3), c = cos l, C = cosh l, ...
TEST(Frequencies, TipMassCharacteristicEquation)
{
  const double a = 0.7, j = 0.05;
  BeamModel    model = uniform_beam(1., 1., 1., SC::clamped, SC::free);
  model.point_masses.push_back({"tip", 1., a, j});
  const auto result = modes(model, 8, 9, 4);

  const auto f = [&](double l) {
    const double c = std::cos(l), s = std::sin(l), C = std::cosh(l), S = std::sinh(l);
    return (1 + c * C + a * l * (c * S - s * C) - j * l * l * l * (C * s + S * c) +
            a * j * std::pow(l, 4) * (1 - c * C)) /
           C;
  };
  const auto beta = roots(f, 0.1, 12., 4000);
  ASSERT_GE(beta.size(), 4u);
  for (unsigned int i = 0; i < 4; ++i)
    EXPECT_NEAR(result->modes[i].frequency_hz / (beta[i] * beta[i] / (2 * M_PI)) - 1, 0., 1e-9)
      << "mode " << i + 1;
}

// Two uniform segments (a stepped cantilever of two materials): exact
// transfer solution, determinant of the 8x8 boundary/continuity system.
TEST(Frequencies, SteppedTwoMaterialCantilever)
{
  // segment 1: steel 0.06 m x 0.02 m x 2 mm; segment 2: aluminium 1 mm thick
  auto layer = [](double E, double rho, double h) {
    Layer l;
    l.name = "l";
    l.material = {"m", E, rho};
    l.thickness = h;
    l.width     = 0.02;
    return l;
  };
  BeamModel model = uniform_beam(0.1, 1., 1., SC::clamped, SC::free);
  model.segments.clear();
  model.segments.push_back({"root", 0., 0.06, CrossSection({layer(210e9, 7850, 2e-3)})});
  model.segments.push_back({"tip", 0.06, 0.1, CrossSection({layer(70e9, 2700, 1e-3)})});
  const auto result = modes(model, 16, 8, 3);

  const double EI1 = model.segments[0].section.bending_stiffness,
               m1  = model.segments[0].section.mass_per_length,
               EI2 = model.segments[1].section.bending_stiffness,
               m2  = model.segments[1].section.mass_per_length;
  const double L1 = 0.06, L2 = 0.04;
  // w_i(s) = A cos(b s) + B sin(b s) + C cosh(b s) + D sinh(b s), local s;
  // rows: derivatives 0..3 of the basis at s.
  const auto basis = [](double b, double s) {
    Eigen::Matrix4d d;
    const double c = std::cos(b * s), sn = std::sin(b * s), C = std::cosh(b * s), S = std::sinh(b * s);
    d << c, sn, C, S,                                   //
      -b * sn, b * c, b * S, b * C,                     //
      -b * b * c, -b * b * sn, b * b * C, b * b * S,    //
      b * b * b * sn, -b * b * b * c, b * b * b * S, b * b * b * C;
    return d;
  };
  const auto det = [&](double omega) {
    const double    b1 = std::pow(omega * omega * m1 / EI1, 0.25);
    const double    b2 = std::pow(omega * omega * m2 / EI2, 0.25);
    Eigen::Matrix<double, 8, 8> A = Eigen::Matrix<double, 8, 8>::Zero();
    const auto root = basis(b1, 0.), joint1 = basis(b1, L1), joint2 = basis(b2, 0.), tip = basis(b2, L2);
    A.block<2, 4>(0, 0) = root.topRows<2>();                 // w = w' = 0
    A.block<2, 4>(2, 0) = joint1.topRows<2>();               // w, w' continuous
    A.block<2, 4>(2, 4) = -joint2.topRows<2>();
    A.block<2, 4>(4, 0) = EI1 * joint1.bottomRows<2>();      // moment, shear
    A.block<2, 4>(4, 4) = -EI2 * joint2.bottomRows<2>();
    A.block<2, 4>(6, 4) = tip.bottomRows<2>();               // free end
    // scale columns of the growing cosh/sinh terms to keep the sign meaningful
    return A.determinant() / std::cosh(b1 * L1) / std::cosh(b2 * L2);
  };
  const double f3 = result->modes[2].frequency_hz;
  const auto   omega = roots(det, 1., 2 * M_PI * f3 * 1.2, 20000);
  ASSERT_GE(omega.size(), 3u);
  for (unsigned int i = 0; i < 3; ++i)
    EXPECT_NEAR(result->modes[i].frequency_hz / (omega[i] / (2 * M_PI)) - 1, 0., 1e-9)
      << "mode " << i + 1;
}

// Two independent eigensolvers on the same operators agree within the
// round-off they are estimated to have; SLEPc also finds rigid-body modes
// through its shifted path.
TEST(Frequencies, SlepcAgreesWithLapack)
{
  const BeamModel model = uniform_beam(1., 1., 1., SC::clamped, SC::free);
  const auto      dense = modes(model, 10, 6, 6, EigensolverBackend::dense);
  const auto      slepc = modes(model, 10, 6, 6, EigensolverBackend::slepc);
  EXPECT_EQ(dense->backend, "LAPACK");
  EXPECT_EQ(slepc->backend, "SLEPc");
  for (unsigned int i = 0; i < 6; ++i)
    {
      // estimated round-off of both, plus SLEPc's convergence tolerance
      // (1e-13 on the relative residual, eigensolver.cc)
      const double tolerance = dense->modes[i].roundoff_estimate +
                               slepc->modes[i].roundoff_estimate + 1e-12;
      EXPECT_LT(tolerance, 1e-9);
      EXPECT_NEAR(slepc->modes[i].eigenvalue / dense->modes[i].eigenvalue - 1, 0., tolerance)
        << "mode " << i + 1;
    }
  const BeamModel free_free = uniform_beam(1., 1., 1., SC::free, SC::free);
  const auto      ff        = modes(free_free, 300, 3, 3, EigensolverBackend::slepc);
  EXPECT_TRUE(ff->modes[0].rigid_body);
  EXPECT_TRUE(ff->modes[1].rigid_body);
  EXPECT_FALSE(ff->modes[2].rigid_body);
  EXPECT_NEAR(ff->modes[2].frequency_hz / (std::pow(4.73004074486270, 2) / (2 * M_PI)) - 1, 0., 1e-8);
}

// A mesh finer than double precision supports for the fourth-order operator
// is not silent: the estimated round-off exceeds the warning threshold and
// a warning names the remedy; a p-refined mesh of the same accuracy is quiet.
TEST(Frequencies, RoundoffWarningPastTheFloor)
{
  const BeamModel model = uniform_beam(1., 1., 1., SC::clamped, SC::free);
  const auto      fine  = modes(model, 4096, 3, 1, EigensolverBackend::automatic);
  ASSERT_FALSE(fine->warnings.empty());
  EXPECT_NE(fine->warnings[0].find("round-off"), std::string::npos);
  EXPECT_NE(fine->warnings[0].find("Polynomial degree"), std::string::npos);
  EXPECT_GT(fine->modes[0].roundoff_estimate, 1e-6);
  // the estimate bounds the actual error (measured 8.5e-5 in frequency)
  const double exact = std::pow(1.87510406871196, 2) / (2 * M_PI);
  EXPECT_LT(std::abs(fine->modes[0].frequency_hz / exact - 1), fine->modes[0].roundoff_estimate);

  const auto coarse = modes(model, 4, 10, 1);
  EXPECT_TRUE(coarse->warnings.empty());
  EXPECT_LT(coarse->modes[0].roundoff_estimate, 1e-10);
}

namespace
{
  // Transfer matrix of a uniform Euler-Bernoulli segment (bending stiffness
  // EI, mass per length m, length l) at angular frequency omega, for the
  // state (w, w', M = EI w'', Q = EI w'''). Built from the Krylov-Duncan
  // functions S, T, U, V (sum_k x^(4k+j)/(4k+j)!, j = 0..3, x = beta l) as
  // power series, whose terms are all positive: no cancellation even when
  // beta l is tiny, as in a very stiff, light segment.
  Eigen::Matrix4d
  segment_transfer(double EI, double m, double l, double omega)
  {
    const double b = std::pow(omega * omega * m / EI, 0.25), x = b * l;
    double       K[4];
    for (int j = 0; j < 4; ++j)
      {
        // K[j] / b^j = l^j sum_k x^(4k) / (4k+j)!, summed without dividing by b
        double term = std::pow(l, j) / std::tgamma(j + 1.), sum = 0;
        for (int k = 0; k < 80 && term > 1e-300; ++k)
          {
            sum += term;
            term *= std::pow(x, 4) / ((4. * k + j + 1) * (4. * k + j + 2) * (4. * k + j + 3) * (4. * k + j + 4));
          }
        K[j] = sum; // = (Krylov-Duncan function j) / b^j
      }
    const double b4 = std::pow(b, 4);
    Eigen::Matrix4d T;
    T << K[0], K[1], K[2] / EI, K[3] / EI,            //
      b4 * K[3], K[0], K[1] / EI, K[2] / EI,          //
      EI * b4 * K[2], EI * b4 * K[3], K[0], K[1],     //
      EI * b4 * K[1], EI * b4 * K[2], b4 * K[3], K[0];
    return T;
  }
} // namespace

// A stiff, light extension (E = 1e14 and 1e16 Pa, rho = 1e-3 kg/m^3, as a
// rigid arm carrying a tip mass) on a steel cantilever. Before the rigid-mode
// test and the round-off estimate were scaled to the model, every elastic
// mode was flagged rigid (E = 1e16) and the estimate warned of 0.025
// relative error (E = 1e14). Now: no rigid modes (the beam is clamped), no
// warning, an estimate below 1e-8, and frequencies equal to the exact
// transfer-matrix solution of the two segments with the tip mass.
TEST(Frequencies, StiffLightExtensionWithTipMass)
{
  for (const double E : {1e14, 1e16})
    {
      auto layer = [](double modulus, double rho, double h) {
        Layer l;
        l.name      = "l";
        l.material  = {"m", modulus, rho};
        l.thickness = h;
        l.width     = 0.02;
        return l;
      };
      BeamModel model = uniform_beam(0.1, 1., 1., SC::clamped, SC::free);
      model.segments.clear();
      model.segments.push_back({"steel", 0., 0.06, CrossSection({layer(210e9, 7850, 2e-3)})});
      model.segments.push_back({"arm", 0.06, 0.1, CrossSection({layer(E, 1e-3, 1e-3)})});
      const double M = 0.01;
      model.point_masses.push_back({"tip", 0.1, M, 0.});
      const auto result = modes(model, 8, 8, 3);
      EXPECT_TRUE(result->warnings.empty()) << "E = " << E << ": " << result->warnings[0];

      const auto &s1 = model.segments[0].section, &s2 = model.segments[1].section;
      // clamped root: w = w' = 0, unknown (M0, Q0); tip: M = 0 and
      // Q + M_tip omega^2 w = 0 (the mass's inertia force on the free end)
      const auto det = [&](double omega) {
        const Eigen::Matrix4d P = segment_transfer(s2.bending_stiffness, s2.mass_per_length, 0.04, omega) *
                                  segment_transfer(s1.bending_stiffness, s1.mass_per_length, 0.06, omega);
        Eigen::Matrix2d A;
        A << P(2, 2), P(2, 3), P(3, 2) + M * omega * omega * P(0, 2), P(3, 3) + M * omega * omega * P(0, 3);
        return A.determinant() / std::cosh(std::pow(omega * omega * s1.mass_per_length / s1.bending_stiffness,
                                                    0.25) * 0.06);
      };
      const auto omega = roots(det, 1., 2 * M_PI * result->modes[2].frequency_hz * 1.2, 20000);
      ASSERT_GE(omega.size(), 3u);
      for (unsigned int i = 0; i < 3; ++i)
        {
          EXPECT_FALSE(result->modes[i].rigid_body) << "E = " << E << ", mode " << i + 1;
          EXPECT_LT(result->modes[i].roundoff_estimate, 1e-8) << "E = " << E << ", mode " << i + 1;
          EXPECT_NEAR(result->modes[i].frequency_hz / (omega[i] / (2 * M_PI)) - 1, 0., 1e-8)
            << "E = " << E << ", mode " << i + 1;
        }
    }
}
