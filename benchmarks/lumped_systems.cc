// Benchmark: the lumped examples measured side by side with a SymPy + SciPy
// peer (benchmarks/peers/lumped_peer.py: the same systems with the same
// parameters, derived with SymPy and integrated with scipy's solve_ivp at the
// same rtol/atol, LSODA by default), in one invocation. For each example, with the tolerances
// and final time of its .prm file:
//  * Hamilton in this process: derivation, compilation, integration (s),
//    residual and Jacobian evaluations, the final state; and the cost of one
//    residual evaluated by GiNaC (the path without a C compiler) and the
//    lower bound it gives for an interpreted integration (">=": that cost
//    times the residual evaluations);
//  * `hamilton FILE.prm` as a process: end-to-end wall time (start-up,
//    derivation, compilation, integration, CSV, energy audit, animation);
//  * the peer as a python3 process: import, derivation (SymPy and lambdify),
//    integration, evaluation counts, end-to-end wall time, final state;
//  * the final states compared: largest difference over every coordinate and
//    velocity, relative to the largest magnitude of that column over the run
//    (must be below 1e-6), and the speed-ups integration-only and end-to-end.
// Last, the start-up time of `hamilton --help` and `hamilton --validate`
// (best and median of 5).
//
// With --reference, the peer's equations are also integrated by an explicit
// 8th-order method (DOP853) at rtol 1e-13, and Hamilton's at rtol 1e-13 (in
// this process); each one's largest difference from that reference is
// printed: which program is off when they disagree, and whether by its
// integration error (Hamilton at rtol 1e-13 close to the reference) or by its
// equations.
//
// With --work-precision FIGURE.png, instead: the work-precision benchmark
// (benchmarks/peers/work_precision.py): every example at six tolerances in
// Hamilton and in the peer with LSODA, Radau and BDF, each run's error against
// the DOP853 reference (checked against Hamilton at rtol 1e-13) and its cost
// (integration time, residual or right-hand-side evaluations); a table, the
// figure, and the measurements as JSON beside it (doc/benchmarks.md).
//
// usage: benchmark_lumped_systems [--method LSODA|Radau|BDF] [--reference] [EXAMPLE ...]
//        benchmark_lumped_systems --work-precision FIGURE.png [EXAMPLE ...]
//        (EXAMPLE: a name of prm/lumped without .prm; default: all seven)
#include <hamilton/lumped/lumped_run.h>
#include <hamilton/run.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <thread>

extern char **environ;

using namespace hamilton;

namespace
{
  double
  seconds_since(std::chrono::steady_clock::time_point start)
  {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  /**
   * Run `arguments` (no shell) with stdout and stderr written to the given
   * files; return the wall time (s). Throws when the process fails.
   */
  double
  run_process(const std::vector<std::string> &arguments, const std::string &out, const std::string &err)
  {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<char *> argv;
    for (const auto &a : arguments)
      argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    const auto start = std::chrono::steady_clock::now();
    pid_t      pid   = 0;
    const int  error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (error != 0)
      throw std::runtime_error("cannot start " + arguments[0] + ": " + std::strerror(error));
    int status = 0;
    waitpid(pid, &status, 0);
    const double wall = seconds_since(start);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
      {
        std::ifstream     log(err);
        std::stringstream text;
        text << log.rdbuf();
        throw std::runtime_error(arguments[0] + " " + arguments[1] + " failed (status " + std::to_string(status) +
                                 "):\n" + text.str());
      }
    return wall;
  }

  /** Best and median wall time of `repeats` runs. */
  std::pair<double, double>
  startup(const std::vector<std::string> &arguments, const std::string &directory, unsigned int repeats = 5)
  {
    std::vector<double> t;
    for (unsigned int k = 0; k < repeats; ++k)
      t.push_back(run_process(arguments, directory + "/startup.out", directory + "/startup.err"));
    std::sort(t.begin(), t.end());
    return {t.front(), t[t.size() / 2]};
  }

  /** What one example measured. */
  struct Measured
  {
    std::string name;
    double      final_time, rtol, atol;
    double      derive, compile, integrate, process;
    unsigned long residuals, jacobians;
    double        ginac_residual;
    double        peer_import, peer_derive, peer_integrate, peer_process;
    unsigned long peer_rhs, peer_jacobians;
    double        peer_constraint;
    std::string   worst;
    double        worst_hamilton = 0, worst_peer = 0, difference = 0;
    // with --reference: each program's largest difference from the reference
    std::string reference_worst_hamilton, reference_worst_peer, reference_worst_tight;
    double      reference_hamilton = -1, reference_peer = -1, reference_tight = -1;
  };

  /** A final state by column name (coordinates and their _dot). */
  using State = std::map<std::string, double>;

  /**
   * The largest |a - b| over the columns of `scale`, relative to the column's
   * largest magnitude over the run; the column's name.
   */
  std::pair<double, std::string>
  largest_difference(const State &a, const State &b, const State &scale)
  {
    std::pair<double, std::string> worst{-1, ""};
    for (const auto &[label, s] : scale)
      {
        if (a.count(label) == 0 || b.count(label) == 0)
          throw std::runtime_error("no final value of " + label);
        const double d = std::abs(a.at(label) - b.at(label)) / std::max(s, std::numeric_limits<double>::min());
        if (d > worst.first)
          worst = {d, label};
      }
    return worst;
  }

  std::string
  number(double x)
  {
    std::ostringstream s;
    s << std::setprecision(17) << x;
    return s.str();
  }

  /** A relative difference with 3 digits, or "-" where none was measured (negative). */
  std::string
  difference_text(double x)
  {
    if (x < 0)
      return "-";
    std::ostringstream s;
    s << std::scientific << std::setprecision(2) << x;
    return s.str();
  }

  /** Run the peer; its JSON output. */
  nlohmann::json
  run_peer(const std::string &source, const std::string &name, const std::string &method, double rtol, double atol,
           double final_time, double interval, const std::string &out, double &wall)
  {
    wall = run_process({PEER_PYTHON, source + "/benchmarks/peers/lumped_peer.py", name, "--rtol", number(rtol), "--atol",
                        number(atol), "--final-time", number(final_time), "--output-interval", number(interval),
                        "--csv", out + ".csv", "--method", method},
                       out + ".json", out + ".err");
    std::ifstream in(out + ".json");
    return nlohmann::json::parse(in);
  }

  State
  final_state(const nlohmann::json &peer)
  {
    State s;
    for (const auto &[label, value] : peer.at("final").items())
      s[label] = value;
    return s;
  }

  Measured
  measure(const std::string &name,
          const std::string &source,
          const std::string &directory,
          const std::string &method,
          bool               reference)
  {
    Measured    r;
    const auto  file = source + "/prm/lumped/" + name + ".prm";
    r.name           = name;
    // Hamilton in this process: the phases and the final state
    const auto start = std::chrono::steady_clock::now();
    dealii::ParameterHandler prm;
    read_parameters(prm, file, {});
    Section           section(prm);
    lumped::LumpedRun run;
    run.parse_parameters(section, source + "/prm/lumped");
    r.derive = seconds_since(start);
    const lumped::CompiledSystem compiled(*run.equations, run.options.evaluation);
    const unsigned int           n = run.equations->n;
    std::vector<double>          scale(2 * n, 0.); // largest |q|, |v| over the rows
    const auto summary = lumped::simulate(
      compiled, *run.equations, run.options,
      [&](const std::vector<double> &row) {
        for (unsigned int k = 0; k < 2 * n; ++k)
          scale[k] = std::max(scale[k], std::abs(row[1 + k]));
      },
      nullptr);
    r.compile    = compiled.compile_seconds;
    r.integrate  = summary.integrate_seconds;
    r.residuals  = summary.residual_calls;
    r.jacobians  = summary.jacobian_calls;
    r.final_time = run.options.final_time;
    r.rtol       = run.options.relative_tolerance;
    r.atol       = run.options.absolute_tolerance;

    // one residual by GiNaC substitution at the final state (20 repeats)
    GiNaC::exmap at = run.system.parameter_values();
    at[run.system.time] = r.final_time;
    for (const auto &f : run.system.time_functions)
      at[f.first] = f.second(r.final_time);
    for (unsigned int i = 0; i < n; ++i)
      {
        const auto &q      = run.system.coordinates[i];
        at[q.position]     = summary.final_y[i];
        at[q.velocity]     = summary.final_y[n + i];
        at[q.acceleration] = summary.final_y_dot[n + i];
      }
    for (unsigned int k = 0; k < run.equations->m; ++k)
      at[run.equations->multipliers[k]] = summary.final_y[2 * n + k];
    const auto clock = std::chrono::steady_clock::now();
    for (int repeat = 0; repeat < 20; ++repeat)
      for (const auto &e : run.equations->residual)
        GiNaC::evalf(e.subs(at));
    r.ginac_residual = seconds_since(clock) / 20;

    // Hamilton as a process, end to end
    const std::string out = directory + "/" + name;
    r.process = run_process({HAMILTON_EXECUTABLE, file, "--output-dir", out + "_hamilton"}, out + "_hamilton.log",
                            out + "_hamilton.err");

    // the peer as a process, end to end
    const auto peer = run_peer(source, name, method, r.rtol, r.atol, r.final_time, run.options.output_interval,
                               out + "_peer", r.peer_process);
    r.peer_import     = peer.at("import_seconds");
    r.peer_derive     = peer.at("derive_seconds");
    r.peer_integrate  = peer.at("integrate_seconds");
    r.peer_rhs        = peer.at("rhs_evaluations");
    r.peer_jacobians  = peer.at("jacobians");
    r.peer_constraint = peer.at("constraint_residual");

    // final states: every coordinate and velocity, relative to its column's scale
    State hamilton, scales;
    for (unsigned int i = 0; i < 2 * n; ++i)
      {
        const auto &c     = run.system.coordinates[i % n];
        const auto  label = i < n ? c.name : c.name + "_dot";
        hamilton[label]   = summary.final_y[i];
        scales[label]     = scale[i];
      }
    const State peer_state           = final_state(peer);
    std::tie(r.difference, r.worst) = largest_difference(hamilton, peer_state, scales);
    r.worst_hamilton                 = hamilton.at(r.worst);
    r.worst_peer                     = peer_state.at(r.worst);
    if (reference)
      {
        // the peer's equations integrated by an explicit 8th-order method at rtol 1e-13
        double     wall = 0;
        const auto tight =
          final_state(run_peer(source, name, "DOP853", 1e-13, std::min(r.atol, 1e-15), r.final_time,
                               run.options.output_interval, out + "_reference", wall));
        std::tie(r.reference_hamilton, r.reference_worst_hamilton) = largest_difference(hamilton, tight, scales);
        std::tie(r.reference_peer, r.reference_worst_peer)         = largest_difference(peer_state, tight, scales);
        // Hamilton at rtol 1e-13: whether its difference is integration error
        try
          {
            dealii::ParameterHandler tight_prm;
            read_parameters(tight_prm, file,
                            {{"Lumped system/Simulation/Relative tolerance", "1e-13"},
                             {"Lumped system/Simulation/Absolute tolerance", number(std::min(r.atol, 1e-14))}});
            Section           tight_section(tight_prm);
            lumped::LumpedRun tight_run;
            tight_run.parse_parameters(tight_section, source + "/prm/lumped");
            const lumped::CompiledSystem tight_compiled(*tight_run.equations, tight_run.options.evaluation);
            const auto                   tight_summary = lumped::simulate(
              tight_compiled, *tight_run.equations, tight_run.options, [](const std::vector<double> &) {}, nullptr);
            State tight_hamilton;
            for (unsigned int i = 0; i < 2 * n; ++i)
              {
                const auto &c = tight_run.system.coordinates[i % n];
                tight_hamilton[i < n ? c.name : c.name + "_dot"] = tight_summary.final_y[i];
              }
            std::tie(r.reference_tight, r.reference_worst_tight) = largest_difference(tight_hamilton, tight, scales);
          }
        catch (const lumped::SimulationError &)
          {
            r.reference_worst_tight = "(IDA failed)";
          }
      }
    return r;
  }
} // namespace

int
main(int argc, char **argv)
{
  const std::string        source    = HAMILTON_SOURCE_DIR;
  std::string              method    = "LSODA";
  bool                     reference = false;
  std::string              work_precision; // the figure's file
  std::vector<std::string> names;
  for (int k = 1; k < argc; ++k)
    if (std::string(argv[k]) == "--method" && k + 1 < argc)
      method = argv[++k];
    else if (std::string(argv[k]) == "--reference")
      reference = true;
    else if (std::string(argv[k]) == "--work-precision" && k + 1 < argc)
      work_precision = argv[++k];
    else
      names.emplace_back(argv[k]);
  if (!work_precision.empty())
    {
      // the table on this process's stdout, the JSON beside the figure
      std::vector<std::string> arguments{PEER_PYTHON, source + "/benchmarks/peers/work_precision.py", HAMILTON_EXECUTABLE,
                                         source, "--figure", work_precision, "--json",
                                         std::filesystem::path(work_precision).replace_extension(".json").string()};
      arguments.insert(arguments.end(), names.begin(), names.end());
      std::vector<char *> argv_peer;
      for (auto &a : arguments)
        argv_peer.push_back(a.data());
      argv_peer.push_back(nullptr);
      pid_t pid = 0;
      if (posix_spawn(&pid, argv_peer[0], nullptr, nullptr, argv_peer.data(), environ) != 0)
        {
          std::cerr << "cannot start " << PEER_PYTHON << "\n";
          return 1;
        }
      int status = 0;
      waitpid(pid, &status, 0);
      return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    }
  if (names.empty())
    names = {"scotch_yoke_dc_motor", "crank_slider_pendulum", "overhead_crane",    "slider_crank_dae",
             "two_link_arm",         "movable_plate_capacitor", "rrr_parallel_robot"};
  std::string pattern = (std::filesystem::temp_directory_path() / "hamilton-peers-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr)
    {
      std::cerr << "cannot create a temporary directory from " << pattern << "\n";
      return 1;
    }
  const std::string directory = pattern;

  double load[3] = {0, 0, 0};
  getloadavg(load, 3);
  std::cout << "Load average at start " << load[0] << " (" << std::thread::hardware_concurrency() << " cores)\n";
  std::cout << "Hamilton (IDA, compiled residual) and the SymPy + SciPy peer (solve_ivp " << method
            << ", analytic Jacobian), each example at its own tolerances; times in s\n\n";
  std::cout << std::left << std::setw(24) << "system" << std::right << std::setw(6) << "T" << std::setw(7) << "rtol"
            << std::setw(7) << "atol" << " |" << std::setw(8) << "derive" << std::setw(8) << "compile"
            << std::setw(10) << "integrate" << std::setw(9) << "resid." << std::setw(7) << "Jac." << std::setw(8)
            << "process" << std::setw(11) << "GiNaC (us)" << std::setw(10) << ">= (s)" << " |" << std::setw(7)
            << "import" << std::setw(8) << "derive" << std::setw(10) << "integrate" << std::setw(9) << "rhs"
            << std::setw(6) << "Jac."
            << std::setw(8) << "process" << " |" << std::setw(10) << "x integr." << std::setw(8) << "x total"
            << "\n"
            << std::string(46, ' ') << std::left << std::setw(73) << "| Hamilton" << std::setw(50) << "| peer"
            << "| speed-up (peer time / Hamilton time)\n"
            << std::right;
  std::vector<Measured> results;
  try
    {
      for (const auto &name : names)
        {
          const auto r = measure(name, source, directory, method, reference);
          results.push_back(r);
          std::cout << std::left << std::setw(24) << r.name << std::right << std::setprecision(3) << std::setw(6)
                    << r.final_time << std::setw(7) << std::setprecision(0) << std::scientific << r.rtol << std::setw(7)
                    << r.atol << std::defaultfloat << std::setprecision(3) << " |" << std::setw(8) << r.derive
                    << std::setw(8) << r.compile << std::setw(10) << r.integrate << std::setw(9) << r.residuals
                    << std::setw(7) << r.jacobians << std::setw(8) << r.process << std::setw(11)
                    << r.ginac_residual * 1e6 << std::setw(10) << r.ginac_residual * r.residuals << " |"
                    << std::setw(7) << r.peer_import << std::setw(8) << r.peer_derive << std::setw(10)
                    << r.peer_integrate << std::setw(9) << r.peer_rhs << std::setw(6)
                    << r.peer_jacobians << std::setw(8) << r.peer_process << " |" << std::setw(10)
                    << r.peer_integrate / r.integrate << std::setw(8) << r.peer_process / r.process << "\n";
        }
      std::cout << "\nFinal states: largest difference over the coordinates and velocities, relative to the\n"
                   "largest magnitude of that column over the run (agreement required: 1e-6)\n\n"
                << std::left << std::setw(24) << "system" << std::setw(14) << "worst column" << std::right
                << std::setw(24) << "Hamilton" << std::setw(24) << "peer" << std::setw(12) << "difference"
                << std::setw(16) << "peer |Phi|" << std::setw(8) << "agree" << "\n";
      bool all = true;
      for (const auto &r : results)
        {
          const bool agree = r.difference < 1e-6;
          all              = all && agree;
          std::cout << std::left << std::setw(24) << r.name << std::setw(14) << r.worst << std::right
                    << std::setprecision(15) << std::setw(24) << r.worst_hamilton << std::setw(24) << r.worst_peer
                    << std::setprecision(2) << std::scientific << std::setw(12) << r.difference << std::setw(16)
                    << r.peer_constraint << std::defaultfloat << std::setw(8) << (agree ? "yes" : "NO") << "\n";
        }
      if (reference)
        {
          std::cout << "\nDifference from the reference (the peer's equations, DOP853 at rtol 1e-13), relative as "
                       "above\n\n"
                    << std::left << std::setw(24) << "system" << std::setw(14) << "Hamilton" << std::right
                    << std::setw(12) << "difference" << "  " << std::left << std::setw(14) << "peer" << std::right
                    << std::setw(12) << "difference" << "  " << std::left << std::setw(22) << "Hamilton at rtol 1e-13"
                    << std::right << std::setw(12) << "difference" << "\n";
          for (const auto &r : results)
            std::cout << std::left << std::setw(24) << r.name << std::setw(14) << r.reference_worst_hamilton
                      << std::right << std::scientific << std::setprecision(2) << std::setw(12)
                      << r.reference_hamilton << "  " << std::left << std::setw(14) << r.reference_worst_peer
                      << std::right << std::setw(12) << r.reference_peer << "  " << std::left << std::setw(22)
                      << r.reference_worst_tight << std::right << std::setw(12)
                      << difference_text(r.reference_tight)
                      << std::defaultfloat << "\n";
        }
      else if (!all)
        std::cout << "(run with --reference to see which of the two is off)\n";

      const std::string example = source + "/prm/lumped/scotch_yoke_dc_motor.prm";
      const auto        help    = startup({HAMILTON_EXECUTABLE, "--help"}, directory);
      const auto        check   = startup({HAMILTON_EXECUTABLE, "--validate", example}, directory);
      std::cout << "\nStart-up (wall time of 5 runs, best / median): hamilton --help " << std::setprecision(3)
                << help.first << " / " << help.second << " s; hamilton --validate scotch_yoke_dc_motor.prm "
                << check.first << " / " << check.second << " s\n";
      getloadavg(load, 3);
      std::cout << "Load average at the end " << load[0] << "\n";
      std::filesystem::remove_all(directory);
      return all ? 0 : 1;
    }
  catch (const std::exception &e)
    {
      std::cerr << "\n" << e.what() << "\n(outputs kept in " << directory << ")\n";
      return 1;
    }
}
