// Accuracy per unknown: the first six clamped-free frequencies under
// p-refinement (few elements, rising degree) and h-refinement (cubics),
// against the Case 4a constants. Prints a table; never part of the tests.
#include <hamilton/analyses/modal.h>
#include <hamilton/discretization/finite_elements.h>

#include "unit_cantilever.h"

#include <deal.II/base/mpi.h>

#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>

using namespace hamilton;

using namespace hamilton::benchmarks;

namespace
{
  void
  row(const BeamModel &model, unsigned int n_elements, unsigned int degree)
  {
    FiniteElements fe;
    fe.set(n_elements, degree);
    fe.setup(model);
    if (fe.n_dofs() < 6)
      return; // fewer unknowns than the six modes measured
    const auto   start = std::chrono::steady_clock::now();
    const auto   ops   = fe.assemble();
    ModalOptions options;
    options.samples_per_element = 0;
    const auto   result = compute_modes({model, fe, *ops}, options);
    const double ms =
      1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double worst = 0;
    for (unsigned int i = 0; i < 6; ++i)
      worst = std::max(worst,
                       std::abs(result->modes[i].frequency_hz /
                                  (cantilever_beta[i] * cantilever_beta[i] / (2 * M_PI)) - 1));
    std::cout << std::setw(9) << n_elements << std::setw(8) << degree
              << std::setw(10) << fe.n_dofs() << std::setw(16)
              << std::scientific << std::setprecision(2) << worst
              << std::setw(12) << std::fixed << std::setprecision(3) << ms
              << "\n";
  }
} // namespace

int
main(int argc, char **argv)
{
  dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  const BeamModel model = unit_cantilever();
  std::cout << "Worst relative error of the first 6 clamped-free frequencies\n"
            << " elements  degree  unknowns     worst error     time (ms)\n"
            << "p-refinement:\n";
  for (unsigned int n : {2u, 4u, 6u})
    for (unsigned int p = 3; p <= 12; ++p)
      row(model, n, p);
  std::cout << "h-refinement with cubics:\n";
  for (unsigned int n : {8u, 16u, 32u, 64u, 128u, 256u})
    row(model, n, 3);
  return 0;
}
