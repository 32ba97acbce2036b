// Buckling loads (Case 4b) and frequencies under axial load (Case 4c) of
// doc/validation-data.md.
#include "test_helpers.h"

#include <hamilton/analyses/buckling.h>

#include <gtest/gtest.h>

#include <cmath>

using namespace hamilton;
using namespace hamilton::testing;
using SC = SupportCondition;

namespace
{
  struct Supports
  {
    const char *name;
    SC          left, right;
    double      critical; // P_cr L^2/EI, Case 4b
  };
  const std::vector<Supports> supports = {
    {"pinned-pinned", SC::pinned, SC::pinned, 9.86960440108936},
    {"clamped-free", SC::clamped, SC::free, 2.46740110027234},
    {"clamped-clamped", SC::clamped, SC::clamped, 39.4784176043574},
    {"clamped-pinned", SC::clamped, SC::pinned, 20.1907285564266},
    {"clamped-guided", SC::clamped, SC::guided, 9.86960440108936},
  };
} // namespace

TEST(Buckling, EulerConstants)
{
  for (const auto &s : supports)
    {
      BeamModel model = uniform_beam(1., 1., 1., s.left, s.right);
      set_axial_force(model, -1.); // unit compression
      const auto solved = discretize(model, 8, 9);
      BucklingAnalysis analysis;
      const auto result = analysis.run(solved->problem(model));
      const auto &buckling = dynamic_cast<const BucklingResult &>(*result);
      ASSERT_FALSE(buckling.modes.empty()) << s.name;
      EXPECT_NEAR(buckling.modes[0].load_factor / s.critical - 1, 0., 1e-8) << s.name;
    }
}

TEST(Buckling, SlepcPathForLargeModels)
{
  BeamModel model = uniform_beam(1., 1., 1., SC::clamped, SC::pinned);
  set_axial_force(model, -1.);
  const auto solved = discretize(model, 30, 8); // 240 unknowns: SLEPc
  BucklingAnalysis analysis;
  const auto result = analysis.run(solved->problem(model));
  const auto &buckling = dynamic_cast<const BucklingResult &>(*result);
  EXPECT_EQ(buckling.backend, "SLEPc");
  EXPECT_NEAR(buckling.modes[0].load_factor / 20.1907285564266 - 1, 0., 1e-8);
}

// Omega = omega sqrt(rhoA L^4/EI) at U = P/P_cr, tension N = -U P_cr.
TEST(Prestress, FrequencyTablesCase4c)
{
  const std::vector<double> U = {-2, -1, -0.5, 0, 0.25, 0.5, 0.75, 0.9};
  // rows: U; columns: pinned-pinned, clamped-free, clamped-clamped,
  // clamped-pinned, clamped-guided
  const double Omega1[8][5] = {
    {17.0946562733, 5.7464859331, 37.924376574, 26.288268528, 9.4810941436},
    {13.9577283993, 4.8147715702, 31.248581701, 21.605575879, 7.8121454251},
    {12.0877473729, 4.2334599489, 27.2165877, 18.788908756, 6.804146925},
    {9.86960440109, 3.51601526850, 22.3732854481, 15.4182057170, 5.59332136202},
    {8.5473281366, 3.0734991856, 19.451683393, 13.391771771, 4.8629208483},
    {6.9788641996, 2.5345602161, 15.951287605, 10.970422211, 3.9878219013},
    {4.9348022005, 1.8113034596, 11.334154615, 7.7863231887, 2.8335386538},
    {3.1210429512, 1.1532760802, 7.1913585476, 4.9368380367, 1.7978396369}};
  const double Omega2[8][5] = {
    {48.350989492, 25.365432741, 85.952483329, 64.984531144, 37.414045633},
    {44.138212704, 23.770134423, 74.882614695, 57.976666088, 34.017601967},
    {41.873185198, 22.921538668, 68.62088416, 54.122496578, 32.179427262},
    {39.478417604, 22.034491565, 61.672822868, 49.964862032, 30.225847932},
    {38.224813479, 21.575368167, 57.86223835, 47.748331009, 29.198790409},
    {36.928678212, 21.105172355, 53.762642907, 45.422902824, 28.133555835},
    {35.585364737, 20.623377714, 49.30007486, 42.971738114, 27.025860555},
    {34.754463437, 20.328510038, 46.40416553, 41.431969243, 26.338778213}};
  for (unsigned int s = 0; s < supports.size(); ++s)
    for (unsigned int u = 0; u < U.size(); ++u)
      {
        BeamModel model = uniform_beam(1., 1., 1., supports[s].left, supports[s].right);
        set_axial_force(model, -U[u] * supports[s].critical);
        const auto result = modes(model, 8, 9, 2);
        EXPECT_TRUE(result->with_prestress || U[u] == 0.);
        const double Omega_1 = std::sqrt(result->modes[0].eigenvalue);
        const double Omega_2 = std::sqrt(result->modes[1].eigenvalue);
        EXPECT_NEAR(Omega_1 / Omega1[u][s] - 1, 0., 1e-6) << supports[s].name << " U = " << U[u];
        EXPECT_NEAR(Omega_2 / Omega2[u][s] - 1, 0., 1e-6) << supports[s].name << " U = " << U[u];
      }
}

// Pinned-pinned: omega_n^2 = omega_n0^2 (1 - P/P_cr,n) exactly (Galef).
TEST(Prestress, PinnedPinnedGalefFormulaExact)
{
  for (const double N : {-5., 3., 40.})
    {
      BeamModel model = uniform_beam(1., 1., 1., SC::pinned, SC::pinned);
      set_axial_force(model, N);
      const auto result = modes(model, 8, 9, 3);
      for (unsigned int n = 1; n <= 3; ++n)
        {
          const double k2 = std::pow(n * M_PI, 2);
          EXPECT_NEAR(result->modes[n - 1].eigenvalue / (k2 * k2 * (1 + N / k2)) - 1, 0., 1e-10);
        }
    }
}
