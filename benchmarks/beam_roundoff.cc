// Round-off floor: mode-1 error of the clamped-free cantilever with Hermite
// cubics from 64 to 16384 elements (SLEPc shift-and-invert with a direct
// solve), next to the floor that Hamilton estimates and warns about.
#include <hamilton/analyses/modal.h>
#include <hamilton/discretization/finite_elements.h>

#include "unit_cantilever.h"

#include <deal.II/base/mpi.h>

#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>

using namespace hamilton;

int
main(int argc, char **argv)
{
  dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  const BeamModel model = hamilton::benchmarks::unit_cantilever();
  const double exact = std::pow(hamilton::benchmarks::cantilever_beta[0], 2) / (2 * M_PI);

  std::cout << "Mode-1 relative frequency error, clamped-free, Hermite cubics\n"
            << " elements  unknowns  solver   error      estimated floor  time (s)\n";
  for (unsigned int n = 64; n <= 16384; n *= 4)
    for (const auto backend : {EigensolverBackend::dense, EigensolverBackend::slepc})
      {
        if (backend == EigensolverBackend::dense && n > 1024)
          continue;
        FiniteElements fe;
        fe.set(n, 3);
        fe.setup(model);
        const auto start = std::chrono::steady_clock::now();
        const auto ops   = fe.assemble();
        ModalOptions options;
        options.n_modes             = 1;
        options.samples_per_element = 0;
        options.backend             = backend;
        const auto result = compute_modes({model, fe, *ops}, options);
        const double s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        // frequency error is half the eigenvalue error; the estimate is for
        // the eigenvalue
        std::cout << std::setw(9) << n << std::setw(10) << fe.n_dofs()
                  << std::setw(8) << result->backend << std::scientific
                  << std::setprecision(2) << std::setw(11)
                  << std::abs(result->modes[0].frequency_hz / exact - 1)
                  << std::setw(14) << result->modes[0].roundoff_estimate / 2
                  << std::fixed << std::setprecision(3) << std::setw(11) << s
                  << "\n";
      }
  return 0;
}
