// Mesh convergence of the C1 elements: eigenvalue error of mode 4 of the
// clamped-free beam ~ h^(2(p-1)) under h-refinement, exponential under
// p-refinement, down to the estimated round-off floor.
#include "test_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

using namespace hamilton;
using namespace hamilton::testing;

namespace
{
  const double lambda4 = std::pow(10.9955407348755, 4); // EI = rhoA = L = 1

  double
  error_mode4(unsigned int n_elements, unsigned int degree, double *roundoff = nullptr)
  {
    const BeamModel model  = uniform_beam(1., 1., 1., SupportCondition::clamped, SupportCondition::free);
    const auto      result = modes(model, n_elements, degree, 4);
    if (roundoff)
      *roundoff = result->modes[3].roundoff_estimate;
    return result->modes[3].eigenvalue / lambda4 - 1;
  }
} // namespace

TEST(Convergence, HRefinementRate)
{
  // ranges in the asymptotic regime and above the round-off floor
  const std::vector<std::pair<unsigned int, std::vector<unsigned int>>> runs = {
    {3, {16, 32, 64}}, {4, {8, 16, 32}}, {5, {8, 16}}};
  for (const auto &[p, meshes] : runs)
    {
      std::vector<double> errors;
      for (const unsigned int n : meshes)
        {
          double roundoff;
          errors.push_back(error_mode4(n, p, &roundoff));
          EXPECT_GT(errors.back(), 0.) << "Ritz bound: FE eigenvalues lie above";
          EXPECT_GT(errors.back(), 10 * roundoff) << "fit above the floor";
          std::cout << "  p = " << p << ", " << n << " elements: error " << errors.back() << "\n";
        }
      for (std::size_t i = 0; i + 1 < errors.size(); ++i)
        {
          const double rate = std::log2(errors[i] / errors[i + 1]);
          std::cout << "  p = " << p << ": measured rate " << rate << ", theory " << 2 * (p - 1) << "\n";
          EXPECT_NEAR(rate, 2. * (p - 1), 0.15) << "p = " << p << ", " << meshes[i] << " elements";
        }
    }
}

TEST(Convergence, PRefinementIsExponential)
{
  // two elements, rising degree: every two degrees the error drops by more
  // than a factor 100 until the round-off floor is reached
  std::vector<double> errors(15, 0.);
  for (unsigned int p = 4; p <= 14; ++p)
    {
      double roundoff;
      errors[p] = error_mode4(2, p, &roundoff);
      std::cout << "  2 elements, p = " << p << ": error " << errors[p]
                << " (estimated round-off " << roundoff << ")\n";
      if (p >= 13) // the floor of double precision is reached
        {
          EXPECT_LT(std::abs(errors[p]), 1e-13) << "p = " << p;
        }
    }
  for (unsigned int p = 4; p <= 10; p += 2)
    EXPECT_LT(errors[p + 2], 1e-2 * errors[p]) << "p = " << p;
  EXPECT_LT(errors[12], 1e-12);
}
