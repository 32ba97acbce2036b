// Benchmark: derivation, compilation and integration of the lumped examples
// at rtol 1e-10, atol 1e-12 (the tolerances of the SymPy + SciPy Radau
// reference of issue 5), with residual and Jacobian evaluation counts, and the
// speed-up against the reference times measured with SymPy/SciPy (the
// reference used its own parameter values; the systems and the time spans
// are the same). Also the alternative evaluation path without a C compiler:
// GiNaC evaluating the residual by substitution, its cost per residual and the
// lower bound it gives for the integration (residual evaluations only).
//
// usage: benchmark_lumped_systems [SOURCE_DIR]
#include <hamilton/lumped/lumped_run.h>
#include <hamilton/run.h>

#include <chrono>
#include <iomanip>
#include <iostream>

using namespace hamilton;

int
main(int argc, char **argv)
{
  const std::string source = argc > 1 ? argv[1] : HAMILTON_SOURCE_DIR;
  struct Case
  {
    const char *file;
    double      final_time, reference_integration, reference_derivation;
  };
  // reference: SymPy derivation + SciPy solve_ivp (Radau), issue 5; the
  // derivations took 0.1-0.9 s (0.5 s taken where not given per system)
  const Case cases[] = {{"scotch_yoke_dc_motor", 1, 10.4, 0.5},  {"crank_slider_pendulum", 2, 3.4, 0.5},
                        {"overhead_crane", 5, 0.60, 0.5},        {"slider_crank_dae", 2, 1.7, 0.5},
                        {"two_link_arm", 3, 0.57, 0.5},          {"movable_plate_capacitor", 1, 3.0, 0.5},
                        {"rrr_parallel_robot", 2, 0, 0}};
  std::cout << std::setw(26) << std::left << "system" << std::right << std::setw(8) << "T (s)" << std::setw(11)
            << "derive (s)" << std::setw(12) << "compile (s)" << std::setw(13) << "integrate (s)" << std::setw(10)
            << "residuals" << std::setw(10) << "Jacobians" << std::setw(11) << "total (s)" << std::setw(14)
            << "x integration" << std::setw(10) << "x total" << std::setw(18) << "GiNaC resid. (us)" << std::setw(22)
            << "GiNaC integration >= (s)" << "\n";
  for (const auto &c : cases)
    {
      const auto start = std::chrono::steady_clock::now();
      dealii::ParameterHandler prm;
      read_parameters(prm, source + "/prm/lumped/" + c.file + ".prm",
                      {{"Lumped system/Simulation/Relative tolerance", "1e-10"},
                       {"Lumped system/Simulation/Absolute tolerance", "1e-12"},
                       {"Lumped system/Simulation/Final time", std::to_string(c.final_time)}});
      Section           section(prm);
      lumped::LumpedRun run;
      run.parse_parameters(section, source + "/prm/lumped");
      const double derive = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const lumped::CompiledSystem compiled(*run.equations);
      const auto summary = lumped::simulate(compiled, *run.equations, run.options, [](const std::vector<double> &) {},
                                            nullptr);
      const double total = derive + compiled.compile_seconds + summary.integrate_seconds;
      // the alternative without a compiler: GiNaC evaluating the residual
      // (substitution and evalf) at the final state, 20 times
      GiNaC::exmap at = run.system.parameter_values();
      at[run.system.time] = c.final_time;
      for (const auto &f : run.system.time_functions)
        at[f.first] = f.second(c.final_time);
      for (unsigned int i = 0; i < run.equations->n; ++i)
        {
          const auto &q = run.system.coordinates[i];
          at[q.position]     = summary.final_y[i];
          at[q.velocity]     = summary.final_y[run.equations->n + i];
          at[q.acceleration] = summary.final_y_dot[run.equations->n + i];
        }
      for (unsigned int k = 0; k < run.equations->m; ++k)
        at[run.equations->multipliers[k]] = summary.final_y[2 * run.equations->n + k];
      const auto clock = std::chrono::steady_clock::now();
      for (int repeat = 0; repeat < 20; ++repeat)
        for (const auto &r : run.equations->residual)
          GiNaC::evalf(r.subs(at));
      const double interpreted =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - clock).count() / 20;
      std::cout << std::setw(26) << std::left << c.file << std::right << std::setw(8) << c.final_time
                << std::setw(11) << std::setprecision(3) << derive << std::setw(12) << compiled.compile_seconds
                << std::setw(13) << summary.integrate_seconds << std::setw(10) << summary.residual_calls
                << std::setw(10) << summary.jacobian_calls << std::setw(11) << total;
      if (c.reference_integration > 0)
        std::cout << std::setw(14) << std::setprecision(4) << c.reference_integration / summary.integrate_seconds
                  << std::setw(10) << (c.reference_integration + c.reference_derivation) / total;
      else
        std::cout << std::setw(24) << "(target: total < 1 s)";
      std::cout << std::setw(18) << std::setprecision(3) << interpreted * 1e6 << std::setw(22)
                << interpreted * summary.residual_calls << "\n";
    }
}
