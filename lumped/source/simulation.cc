#include <hamilton/lumped/ida_kernels.h>
#include <hamilton/lumped/simulation.h>

#include <hamilton/lumped/canonical.h>
#include <hamilton/base/files.h>
#include <hamilton/base/process.h>

#include <deal.II/base/utilities.h>

#include <idas/idas.h>
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <Eigen/Dense>

#include <cerrno>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <atomic>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <cstdlib>
#include <iostream>
#include <cmath>
#include <iomanip>
#include <cstdint>
#include <limits>
#include <mutex>
#include <sstream>

namespace hamilton::lumped
{
  using GiNaC::ex;

  namespace
  {
    double
    seconds_since(std::chrono::steady_clock::time_point start)
    {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }

  } // namespace

  namespace
  {
    /**
     * Run the C compiler on `c_file` into `so_file`, without a shell (no
     * quoting of paths, nothing a file name can inject); its messages go to
     * `log_file`. Returns the exit status (127: the compiler could not be
     * started; -signal if it was killed).
     */
    /** The compiler and its flags, before the files. */
    std::vector<std::string>
    compiler_arguments()
    {
      std::vector<std::string> arguments{"cc", "-O1", "-fno-math-errno", "-fPIC", "-shared"};
#ifdef HAMILTON_GENERATED_CFLAGS
      for (const auto &flag : dealii::Utilities::split_string_list(HAMILTON_GENERATED_CFLAGS, ' '))
        if (!flag.empty())
          arguments.push_back(flag);
#endif
      for (const char *a : {"-x", "c"})
        arguments.emplace_back(a);
      return arguments;
    }

    int
    run_compiler(const std::string &c_file, const std::string &so_file, const std::string &log_file)
    {
      std::vector<std::string> arguments = compiler_arguments();
      arguments.insert(arguments.end(), {c_file, "-o", so_file, "-lm"});
      std::vector<char *> argv;
      for (auto &a : arguments)
        argv.push_back(a.data());
      argv.push_back(nullptr);

      posix_spawn_file_actions_t actions;
      posix_spawn_file_actions_init(&actions);
      posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
      pid_t     pid;
      const int spawned = posix_spawnp(&pid, "cc", &actions, nullptr, argv.data(), environ);
      posix_spawn_file_actions_destroy(&actions);
      if (spawned != 0)
        return 127;
      int status = 0;
      while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
          return 127;
      if (WIFSIGNALED(status))
        return -WTERMSIG(status);
      return WIFEXITED(status) ? WEXITSTATUS(status) : 127;
    }

    std::vector<CompiledFunction>
    compile_and_load(const std::string &source, unsigned int n_functions, bool &compiled);

    /**
     * The directory of compiled equations kept across runs:
     * $XDG_CACHE_HOME/hamilton, else ~/.cache/hamilton; none (empty) with
     * HAMILTON_NO_CACHE set (`hamilton --no-cache`) or without either
     * variable.
     */
    std::filesystem::path
    cache_directory()
    {
      if (std::getenv("HAMILTON_NO_CACHE"))
        return {};
      const char *xdg = std::getenv("XDG_CACHE_HOME");
      if (xdg && xdg[0] == '/')
        return std::filesystem::path(xdg) / "hamilton";
      const char *home = std::getenv("HOME");
      if (home && home[0] == '/')
        return std::filesystem::path(home) / ".cache" / "hamilton";
      return {};
    }

    /**
     * The cache's name of a source: 64-bit FNV-1a of the source, the
     * compiler's flags and the compiler itself (the file 'cc' resolves to on
     * PATH, its size and modification time: an upgraded compiler gives other
     * names), in hexadecimal. A hit is checked against the source kept
     * beside the library, so a collision cannot load the wrong code.
     */
    std::string
    cache_key(const std::string &source)
    {
      std::string text = source;
      for (const auto &a : compiler_arguments())
        text += '\0' + a;
      if (const char *path = std::getenv("PATH"))
        for (const auto &directory : dealii::Utilities::split_string_list(path, ':'))
          {
            std::error_code       error;
            const auto            cc = std::filesystem::path(directory.empty() ? "." : directory) / "cc";
            const auto            resolved = std::filesystem::canonical(cc, error);
            if (error || !std::filesystem::is_regular_file(resolved, error))
              continue;
            const auto time = std::filesystem::last_write_time(resolved, error).time_since_epoch().count();
            text += '\0' + resolved.string() + '\0' + std::to_string(std::filesystem::file_size(resolved, error)) +
                    '\0' + std::to_string(time);
            break;
          }
      std::uint64_t hash = 14695981039346656037ull;
      for (const unsigned char c : text)
        hash = (hash ^ c) * 1099511628211ull;
      std::ostringstream s;
      s << std::hex << std::setw(16) << std::setfill('0') << hash;
      return s.str();
    }

    /** The library of `source` in the cache, loaded; nullptr if it is not there. */
    void *
    load_cached(const std::filesystem::path &directory, const std::string &key, const std::string &source)
    {
      if (directory.empty())
        return nullptr;
      std::ifstream kept(directory / (key + ".c"), std::ios::binary);
      if (!kept)
        return nullptr;
      std::string text;
      std::getline(kept, text, '\0');
      if (text != source) // a collision, or a partly written file of another version
        return nullptr;
      // the library is renamed into place before its source: it is complete
      return dlopen((directory / (key + ".so")).c_str(), RTLD_NOW | RTLD_LOCAL);
    }

    /**
     * Keep a compiled library and its source in the cache: each copied to a
     * private temporary name in the cache directory, then renamed into place
     * (atomic: a concurrent run sees the old file, or none, or the new one),
     * the library first. Failures (a read-only home, a full disk) only mean
     * no cache.
     */
    void
    store_cached(const std::filesystem::path &directory, const std::string &key, const std::string &source,
                 const std::string &so_file)
    {
      if (directory.empty())
        return;
      std::error_code error;
      std::filesystem::create_directories(directory, error);
      const std::string unique = ".tmp-" + std::to_string(getpid()) + "-" + key;
      const auto        so_tmp = directory / (unique + ".so"), c_tmp = directory / (unique + ".c");
      std::filesystem::copy_file(so_file, so_tmp, std::filesystem::copy_options::overwrite_existing, error);
      if (!error)
        {
          std::ofstream c(c_tmp, std::ios::binary);
          c << source;
          c.close();
          if (c)
            {
              std::filesystem::rename(so_tmp, directory / (key + ".so"), error);
              if (!error)
                std::filesystem::rename(c_tmp, directory / (key + ".c"), error);
            }
        }
      std::filesystem::remove(so_tmp, error);
      std::filesystem::remove(c_tmp, error);
    }

    std::atomic<bool>          runtime_parameter_symbols{false};
    std::atomic<unsigned long> n_compilations{0};

    /**
     * The compiled functions of `source`. The last few sources compiled in
     * this process are remembered with their functions: a study repeats a
     * run whose equations did not change (only inputs such as time
     * functions, a ROM file of the same numbers, or, with
     * set_runtime_parameters(), the values of parameters differ between its
     * points), and the library loaded for its first point serves the others;
     * a coupled run derives its system twice (against the provisional ROM,
     * then the real one), hence more than one. Libraries stay loaded until
     * the process ends.
     */
    std::vector<CompiledFunction>
    load(const std::string &source, unsigned int n_functions)
    {
      static std::mutex                                                     mutex;
      static std::vector<std::pair<std::string, std::vector<CompiledFunction>>> recent; // newest last
      const std::lock_guard<std::mutex>                                     lock(mutex);
      for (auto entry = recent.begin(); entry != recent.end(); ++entry)
        if (entry->first == source && entry->second.size() == n_functions)
          {
            std::rotate(entry, entry + 1, recent.end());
            return recent.back().second;
          }
      bool compiled  = false; // else loaded from the disk cache
      auto functions = compile_and_load(source, n_functions, compiled);
      ++n_compilations;
      if (recent.size() == 4)
        recent.erase(recent.begin());
      recent.emplace_back(source, functions);
      return functions;
    }

    /**
     * One run of the C compiler on `source` (-O1: common subexpressions,
     * pow(x, 2) as x*x; -fno-math-errno: sin, cos, sqrt without side
     * effects, so they are shared too), in a fresh private temporary
     * directory (mkdtemp); the library is loaded with dlopen.
     */
    std::vector<CompiledFunction>
    compile_and_load(const std::string &source, unsigned int n_functions, bool &compiled)
    {
      const auto        cache = cache_directory();
      const std::string key   = cache.empty() ? "" : cache_key(source);
      const auto        symbols = [n_functions](void *library) {
        std::vector<CompiledFunction> result;
        for (unsigned int f = 0; f < n_functions; ++f)
          result.push_back(
            reinterpret_cast<CompiledFunction>(dlsym(library, ("hamilton_f" + std::to_string(f)).c_str())));
        return result;
      };
      if (void *library = load_cached(cache, key, source))
        {
          compiled = false;
          return symbols(library);
        }
      compiled = true;
      std::string pattern = (temporary_directory() / "hamilton-XXXXXX").string();
      if (!mkdtemp(pattern.data()))
        throw InputError("Cannot create a temporary directory for the derived equations in '" +
                         temporary_directory().string() + "' (" + std::strerror(errno) +
                         "). Make TMPDIR a writable directory, or set 'Simulation/Evaluation = interpreted'.");
      const std::filesystem::path directory(pattern);
      const std::string c_file = (directory / "equations.c").string(), so_file = (directory / "equations.so").string(),
                        log_file = (directory / "compiler.log").string();
      {
        std::ofstream file(c_file);
        file << source;
        file.close();
        if (!file)
          {
            std::filesystem::remove_all(directory);
            throw InputError("Cannot write the derived equations to '" + c_file +
                             "' (disk full?). Free space in TMPDIR or set 'Simulation/Evaluation = interpreted'.");
          }
      }
      const int status  = run_compiler(c_file, so_file, log_file);
      void     *library = status == 0 ? dlopen(so_file.c_str(), RTLD_NOW | RTLD_LOCAL) : nullptr;
      std::string log;
      {
        std::ifstream in(log_file);
        std::getline(in, log, '\0');
      }
      // a full disk, seen before the compiler's files are removed
      const bool full = !library && (log.find("No space left on device") != std::string::npos ||
                                     log.find("Disk quota exceeded") != std::string::npos ||
                                     file_system_full(directory.string()));
      if (library)
        store_cached(cache, key, source, so_file);
      if (!std::getenv("HAMILTON_KEEP_SOURCE"))
        std::filesystem::remove_all(directory); // the loaded library stays mapped
      // Ctrl-C reaches the compiler too (the terminal's process group): an
      // interrupt, not a compiler failure
      check_interrupt();
      if (!library && full)
        throw InputError("The disk of the temporary directory '" + directory.parent_path().string() +
                         "' (TMPDIR) is full: the C compiler could not write the compiled derived equations. "
                         "Free space there, set TMPDIR to a directory on a disk with room (a few MB), or set "
                         "'Simulation/Evaluation = interpreted'.");
      if (!library)
        {
          if (status < 0)
            throw InputError("The C compiler that compiles the derived equations was stopped by signal " +
                             std::to_string(-status) + " (" + strsignal(-status) + ").");
          if (status == 127)
            throw InputError("Cannot start the C compiler 'cc' to compile the derived equations. Install "
                             "Debian's gcc (build-essential), or set 'Simulation/Evaluation = interpreted'.");
          throw InputError("The C compiler failed on the derived equations (" +
                           (status != 0 ? "exit status " + std::to_string(status) + ": " + log.substr(0, 500) :
                                          std::string(dlerror())) +
                           "). Set HAMILTON_KEEP_SOURCE=1 to keep the C source, or set "
                           "'Simulation/Evaluation = interpreted'.");
        }
      return symbols(library);
    }
  } // namespace

  void
  set_runtime_parameters(const bool runtime)
  {
    runtime_parameter_symbols = runtime;
  }

  bool
  runtime_parameters()
  {
    return runtime_parameter_symbols;
  }

  unsigned long
  compilations()
  {
    return n_compilations;
  }

  namespace
  {

    std::string
    configuration(const Equations &eq, const double *y)
    {
      std::ostringstream s;
      s << std::setprecision(6);
      for (unsigned int i = 0; i < eq.n; ++i)
        s << (i ? ", " : "") << eq.system.coordinates[i].name << " = " << y[i];
      return s.str();
    }
  } // namespace

  struct CompiledSystem::Functions
  {
    enum List
    {
      residual,
      jacobian,
      outputs,
      linear,
      powers
    };
    std::vector<std::pair<unsigned, unsigned>> dy, dy_dot; ///< nonzero entries of the Jacobian, in order
    // the five lists (parameters substituted) in canonical form
    // (interpreted), their arguments, their C source and, once compiled, the
    // functions
    GiNaC::lst                      symbols;
    std::unique_ptr<CanonicalLists> canonical;
    std::string                     source;
    std::vector<CompiledFunction> compiled;
  };

  CompiledSystem::CompiledSystem(const Equations &eq, Evaluation evaluation)
    : n(eq.n)
    , m(eq.m)
    , n_inputs(eq.system.time_functions.size())
    , n_outputs(eq.system.outputs.size())
    , n_parts(eq.element_powers.size())
    , n_domains(eq.domain_energies.size())
    , evaluation(evaluation)
    , functions(std::make_unique<Functions>())
    , equations(eq)
  {
    const auto   start  = std::chrono::steady_clock::now();
    const auto  &s      = eq.system;
    auto         values = s.parameter_values();
    // the symbols, in the order of the input array
    GiNaC::lst                 x{s.time};
    std::vector<GiNaC::symbol> q, v, mu, qd, a, wd;
    for (const auto &f : s.time_functions)
      x.append(f.first);
    for (const auto &f : s.time_functions)
      x.append(f.second.rate_symbol).append(f.second.second_rate_symbol).append(f.second.integral_symbol);
    for (const auto &c : s.coordinates)
      q.push_back(c.position), v.push_back(c.velocity), a.push_back(c.acceleration);
    for (unsigned int i = 0; i < n; ++i)
      qd.emplace_back("qd_" + std::to_string(i));
    for (unsigned int k = 0; k < m; ++k)
      mu.emplace_back("mu_" + std::to_string(k));
    for (unsigned int k = 0; k < 3; ++k)
      wd.emplace_back("wd_" + std::to_string(k));
    for (const auto *group : {&q, &v})
      for (const auto &sym : *group)
        x.append(sym);
    for (const auto &l : eq.multipliers)
      x.append(l);
    for (const auto *group : {&mu, &qd, &a, &wd})
      for (const auto &sym : *group)
        x.append(sym);
    // the parameters passed at run time (all but the neglected ones, which
    // are zero in the simplified model), after the state
    if (runtime_parameters())
      for (const auto &[symbol, value] : s.parameters)
        if (std::find(s.neglected.begin(), s.neglected.end(), symbol.get_name()) == s.neglected.end())
          {
            values.erase(symbol);
            x.append(symbol);
            parameter_arguments.push_back(value);
          }

    // F(t, y, y'), y = (q, v, lambda, mu, W)
    std::vector<ex> F;
    for (unsigned int i = 0; i < n; ++i)
      {
        ex r = qd[i] - v[i];
        for (unsigned int k = 0; k < m; ++k)
          r -= eq.constraint_jacobian(k, i) * mu[k];
        F.push_back(r);
      }
    for (unsigned int i = 0; i < n; ++i)
      F.push_back(eq.residual[i]);
    std::vector<ex> velocity_constraints; // Phi_q v + Phi_t
    for (unsigned int k = 0; k < m; ++k)
      {
        ex r = eq.constraint_rates[k];
        for (unsigned int j = 0; j < n; ++j)
          r += eq.constraint_jacobian(k, j) * v[j];
        velocity_constraints.push_back(r);
        F.push_back(r);
      }
    for (unsigned int k = 0; k < m; ++k) // a velocity constraint has no position level: its mu stays 0
      F.push_back(eq.on_velocities[k] ? ex(mu[k]) : eq.constraints[k]);
    F.push_back(wd[0] - eq.supplied_power);
    F.push_back(wd[1] - eq.source_power);
    F.push_back(wd[2] - eq.dissipated_power);
    for (auto &f : F)
      f = f.subs(values);

    std::vector<GiNaC::symbol> y_symbols, y_dot_symbols;
    for (const auto *group : {&q, &v})
      y_symbols.insert(y_symbols.end(), group->begin(), group->end());
    y_symbols.insert(y_symbols.end(), eq.multipliers.begin(), eq.multipliers.end());
    y_symbols.insert(y_symbols.end(), mu.begin(), mu.end());
    y_dot_symbols.insert(y_dot_symbols.end(), qd.begin(), qd.end());
    y_dot_symbols.insert(y_dot_symbols.end(), a.begin(), a.end());
    std::vector<ex> J;
    for (unsigned int i = 0; i < F.size(); ++i)
      {
        for (unsigned int j = 0; j < y_symbols.size(); ++j)
          {
            const ex d = F[i].diff(y_symbols[j]);
            if (!d.is_zero())
              {
                functions->dy.emplace_back(i, j);
                J.push_back(d);
              }
          }
        for (unsigned int j = 0; j < y_dot_symbols.size(); ++j)
          {
            const ex d = F[i].diff(y_dot_symbols[j]);
            if (!d.is_zero())
              {
                functions->dy_dot.emplace_back(i, j < n ? j : j); // q' then v'
                J.push_back(d);
              }
          }
      }
    // (W' rows: dF/dW' = 1, added in jacobian())

    std::vector<ex> out;
    for (const auto &o : s.outputs)
      out.push_back(exact(o.second).subs(values));
    out.push_back(eq.energy.subs(values));
    for (unsigned int k = 0; k < m; ++k) // Gamma = d/dt (Phi_q v + Phi_t) - Phi_q a
      out.push_back((s.time_derivative(velocity_constraints[k]) + s.partial_time_derivative(velocity_constraints[k]))
                      .subs(values));
    for (unsigned int k = 0; k < m; ++k)
      out.push_back(eq.constraints[k].subs(values));
    for (const auto &part : eq.domain_energies)
      out.push_back(part.second.subs(values));

    // for the linearization: dF/du (N x n_u), d(outputs)/d(q, v, lambda)
    // and d(outputs)/du, dense, row-major
    std::vector<ex> L;
    for (const auto &f : F)
      for (const auto &u : s.time_functions)
        L.push_back(f.diff(u.first));
    for (unsigned int o = 0; o < n_outputs; ++o)
      {
        for (unsigned int j = 0; j < 2 * n + m; ++j)
          L.push_back(out[o].diff(y_symbols[j]));
        for (const auto &u : s.time_functions)
          L.push_back(out[o].diff(u.first));
      }

    // the powers of the audit per element (IDAS quadratures)
    std::vector<ex> P;
    for (const auto &part : eq.element_powers)
      P.push_back(part.second.subs(values));

    if (J.empty())
      J.push_back(0);
    if (L.empty())
      L.push_back(0);
    if (P.empty())
      P.push_back(0);
    const std::vector<std::vector<ex>> lists{F, J, out, L, P};
    functions->symbols = x;
    functions->canonical = std::make_unique<CanonicalLists>(lists, x);
    functions->source    = functions->canonical->c_source();
    // the compiler's cost, measured on the examples: 35 ms + 5 us per byte
    compile_estimate   = 0.035 + 5e-6 * functions->source.size();
    source_seconds     = seconds_since(start);
    if (evaluation == Evaluation::compiled)
      compile();
  }

  void
  CompiledSystem::compile() const
  {
    const auto start    = std::chrono::steady_clock::now();
    functions->compiled = load(functions->source, functions->canonical->n_lists());
    compile_seconds     = seconds_since(start);
  }

  bool
  CompiledSystem::is_compiled() const
  {
    return !functions->compiled.empty();
  }

  void
  CompiledSystem::evaluate(unsigned int list, const std::vector<double> &x, double *result) const
  {
    auto &f = *functions;
    AssertIndexRange(list, f.canonical->n_lists());
    AssertDimension(x.size(), f.symbols.nops());
    Assert(result != nullptr, dealii::ExcMessage("no result array"));
    // automatic: interpret until that has cost as much as compiling would
    // (the ski-rental rule: never more than twice the better choice)
    if (f.compiled.empty() && evaluation == Evaluation::automatic && interpreted_seconds >= compile_estimate)
      compile();
    if (!f.compiled.empty())
      {
        int n_x = x.size(), n_f = f.canonical->size(list);
        f.compiled[list](&n_x, x.data(), &n_f, result);
        return;
      }
    const auto start = std::chrono::steady_clock::now();
    f.canonical->evaluate(list, x.data(), result);
    ++interpreted_calls;
    interpreted_seconds += seconds_since(start);
  }

  CompiledSystem::~CompiledSystem() = default;

  std::vector<double>
  CompiledSystem::inputs(double t) const
  {
    std::vector<double> u;
    for (const auto &f : equations.system.time_functions)
      u.push_back(f.second(t));
    return u;
  }

  const std::vector<double> &
  CompiledSystem::arguments(double t, const double *y, const double *y_dot) const
  {
    // [t, u, (u', u'', integral of u) per u, q, v, lambda, mu, q', v', W',
    // parameters passed at run time] in a buffer reused by every call
    auto              &x = buffer;
    const unsigned int u = n_inputs, head = 1 + 4 * u + 2 * n + 2 * m;
    x.resize(head + 2 * n + 3 + parameter_arguments.size());
    x[0] = t;
    for (unsigned int k = 0; k < u; ++k)
      {
        const auto &f        = equations.system.time_functions[k].second;
        x[1 + k]             = f(t);
        x[1 + u + 3 * k]     = f.rate(t);
        x[1 + u + 3 * k + 1] = f.second_rate(t);
        x[1 + u + 3 * k + 2] = f.integral(t);
      }
    std::copy(y, y + 2 * n + 2 * m, x.begin() + 1 + 4 * u);
    if (y_dot)
      {
        std::copy(y_dot, y_dot + 2 * n, x.begin() + head);
        std::copy(y_dot + 2 * n + 2 * m, y_dot + 2 * n + 2 * m + 3, x.begin() + head + 2 * n);
      }
    else
      std::fill(x.begin() + head, x.begin() + head + 2 * n + 3, 0.);
    std::copy(parameter_arguments.begin(), parameter_arguments.end(), x.begin() + head + 2 * n + 3);
    return x;
  }

  void
  CompiledSystem::residual(double t, const double *y, const double *y_dot, double *result) const
  {
    Assert(y != nullptr && y_dot != nullptr, dealii::ExcMessage("the residual needs y and y'"));
    ++residual_calls;
    evaluate(Functions::residual, arguments(t, y, y_dot), result);
  }

  void
  CompiledSystem::jacobian(double t, const double *y, const double *y_dot, double *dy, double *dy_dot) const
  {
    ++jacobian_calls;
    jacobian_values.resize(functions->canonical->size(Functions::jacobian)); // at least 1: see the constructor
    auto &values = jacobian_values;
    evaluate(Functions::jacobian, arguments(t, y, y_dot), values.data());
    const unsigned int N = size();
    std::fill(dy, dy + N * N, 0.);
    std::fill(dy_dot, dy_dot + N * N, 0.);
    unsigned int k = 0;
    // entries were compiled row by row: for each row its dy, then its dy' entries
    auto         a = functions->dy.begin();
    auto         b = functions->dy_dot.begin();
    for (unsigned int row = 0; row < N; ++row)
      {
        for (; a != functions->dy.end() && a->first == row; ++a)
          dy[row * N + a->second] = values[k++];
        for (; b != functions->dy_dot.end() && b->first == row; ++b)
          dy_dot[row * N + b->second] = values[k++];
      }
    for (unsigned int w = 0; w < 3; ++w) // W' - P
      dy_dot[(N - 3 + w) * N + N - 3 + w] = 1;
  }

  void
  CompiledSystem::audit_powers(double t, const double *y, const double *y_dot, double *result) const
  {
    if (n_parts > 0)
      evaluate(Functions::powers, arguments(t, y, y_dot), result);
  }

  void
  CompiledSystem::outputs(double t, const double *y, double *result) const
  {
    evaluate(Functions::outputs, arguments(t, y, nullptr), result);
  }

  Linearization
  CompiledSystem::linearize(double t, const double *y, const double *y_dot) const
  {
    const unsigned int N = size(), M = N - 3, u = n_inputs, p = n_outputs; // without the work integrals
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> Fy(N, N), Fyd(N, N);
    jacobian(t, y, y_dot, Fy.data(), Fyd.data());
    std::vector<double> l(functions->canonical->size(Functions::linear));
    evaluate(Functions::linear, arguments(t, y, y_dot), l.data());
    Linearization lin;
    lin.E = Fyd.topLeftCorner(M, M);
    lin.A = -Fy.topLeftCorner(M, M);
    lin.B = Eigen::MatrixXd::Zero(M, u);
    lin.C = Eigen::MatrixXd::Zero(p, M);
    lin.D = Eigen::MatrixXd::Zero(p, u);
    unsigned int k = 0;
    for (unsigned int i = 0; i < N; ++i)
      for (unsigned int j = 0; j < u; ++j, ++k)
        if (i < M)
          lin.B(i, j) = -l[k];
    const unsigned int n_state_columns = 2 * n + m;
    for (unsigned int o = 0; o < p; ++o)
      {
        for (unsigned int j = 0; j < n_state_columns; ++j)
          lin.C(o, j) = l[k++];
        for (unsigned int j = 0; j < u; ++j)
          lin.D(o, j) = l[k++];
      }
    // finite generalized eigenvalues of (A, E)
    Eigen::GeneralizedEigenSolver<Eigen::MatrixXd> solver(lin.A, lin.E, false);
    const auto alphas = solver.alphas();
    const auto betas  = solver.betas();
    for (Eigen::Index i = 0; i < alphas.size(); ++i)
      if (std::abs(betas(i)) > 1e-10 * std::abs(alphas(i)) && std::abs(betas(i)) > 0)
        lin.eigenvalues.push_back(alphas(i) / betas(i));
    std::sort(lin.eigenvalues.begin(), lin.eigenvalues.end(),
              [](const auto &a, const auto &b) { return std::abs(a) < std::abs(b); });
    return lin;
  }

  namespace
  {
    using Matrix = Eigen::MatrixXd;
    using VectorE = Eigen::VectorXd;

    /** dF/dy and dF/dy' at (t, y, y') as Eigen matrices. */
    std::pair<Matrix, Matrix>
    jacobians(const CompiledSystem &c, double t, const VectorE &y, const VectorE &y_dot)
    {
      const unsigned int N = c.size();
      Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> A(N, N), B(N, N);
      c.jacobian(t, y.data(), y_dot.data(), A.data(), B.data());
      return {A, B};
    }

    /** The text of constraint k (numbered from 1 in messages), as derived. */
    std::string
    constraint_text(const Equations &eq, unsigned int k)
    {
      std::ostringstream s;
      s << (eq.on_velocities[k] ? "velocity constraint " : "constraint ") << k + 1 << " '" << eq.constraints[k]
        << " = 0'";
      return s.str();
    }

    /**
     * What row i of the residual F (or component i of the state y) belongs
     * to, for messages: y = (q, v, lambda, mu, W).
     */
    std::string
    row_name(const Equations &eq, unsigned int i, bool state)
    {
      const unsigned int n = eq.n, m = eq.m;
      const auto        &coords = eq.system.coordinates;
      if (i < n)
        return state ? "coordinate " + coords[i].name :
                       "the kinematic equation " + coords[i].name + "' = " + coords[i].name + "_dot (+ Phi_q^T mu)";
      if (i < 2 * n)
        return state ? "velocity " + coords[i - n].name + "_dot" :
                       "the equation of motion of coordinate " + coords[i - n].name;
      if (i < 2 * n + m)
        return state ? "multiplier lambda_" + std::to_string(i - 2 * n + 1) :
                       "the velocity form Phi_q v + Phi_t of " + constraint_text(eq, i - 2 * n);
      if (i < 2 * n + 2 * m)
        return state ? "stabilizing multiplier mu_" + std::to_string(i - 2 * n - m + 1) :
                       constraint_text(eq, i - 2 * n - m);
      const char *work[] = {"supplied", "source", "dissipated"};
      return std::string(state ? "the integral of the " : "the ") + work[i - 2 * n - 2 * m] + " power";
    }

    /**
     * The non-finite entries of `values` (a residual or a state), named; empty
     * if all are finite.
     */
    std::string
    non_finite(const Equations &eq, const double *values, unsigned int size, bool state)
    {
      std::ostringstream s;
      unsigned int       count = 0;
      for (unsigned int i = 0; i < size; ++i)
        if (!std::isfinite(values[i]))
          {
            if (count < 4)
              s << (count ? "; " : "") << row_name(eq, i, state) << " = " << values[i];
            ++count;
          }
      if (count > 4)
        s << "; and " << count - 4 << " more";
      return s.str();
    }

    /**
     * The matrix of the equations of motion and the constraints (velocity
     * level where `velocity_level`, else acceleration level) in the unknowns
     * a_i (v_i for an algebraic velocity) and lambda, from dF/dy and dF/dy'.
     */
    Matrix
    acceleration_matrix(const Equations         &eq,
                        const Matrix            &Jy,
                        const Matrix            &Jyd,
                        const std::vector<bool> &velocity_level)
    {
      const unsigned int n = eq.n, m = eq.m;
      Matrix             A = Matrix::Zero(n + m, n + m);
      for (unsigned int i = 0; i < n; ++i)
        {
          A.block(0, i, n, 1) = eq.algebraic[i] ? Jy.block(n, n + i, n, 1) : Jyd.block(n, n + i, n, 1);
          for (unsigned int k = 0; k < m; ++k) // Phi_q (A of a velocity constraint) at either level
            if (eq.algebraic[i] == velocity_level[k])
              A(n + k, i) = Jy(2 * n + k, n + i);
        }
      A.block(0, n, n, m) = Jy.block(n, 2 * n, n, m);
      return A;
    }

    /** Per constraint: whether it involves an algebraic velocity (imposed at velocity level). */
    std::vector<bool>
    velocity_level_constraints(const Equations &eq, const Matrix &Jy)
    {
      const unsigned int n = eq.n, m = eq.m;
      std::vector<bool>  velocity_level(m, false);
      for (unsigned int k = 0; k < m; ++k)
        for (unsigned int i = 0; i < n; ++i)
          if (eq.algebraic[i] && Jy(2 * n + k, n + i) != 0)
            velocity_level[k] = true;
      return velocity_level;
    }
  } // namespace

  void
  consistent_initial_state(const CompiledSystem &c, const Equations &eq, Eigen::VectorXd &y, Eigen::VectorXd &y_dot)
  {
    const unsigned int n = eq.n, m = eq.m, N = c.size();
    const auto        &coords = eq.system.coordinates;
    y.setZero(N);
    y_dot.setZero(N);
    for (unsigned int i = 0; i < n; ++i)
      {
        y[i]     = coords[i].initial_position.value_or(0.);
        y[n + i] = coords[i].initial_velocity.value_or(0.);
      }
    VectorE    F(N);
    const auto evaluate_at_zero = [&](const VectorE &state) {
      c.residual(0., state.data(), y_dot.data(), F.data());
      const std::string bad = non_finite(eq, F.data(), N, false);
      if (!bad.empty())
        throw SimulationError("The equations are not finite at t = 0 (" + configuration(eq, state.data()) +
                              "): " + bad +
                              ". Check the parameters and initial conditions of these terms (a division by zero, "
                              "a singular function such as tan or log at its pole, or a value beyond 1e308).");
    };
    // the system's own constraints, then those of the index-2 directions of
    // a singular mass matrix (Equations::index2_directions)
    const unsigned int own = m - eq.n_floating_constraints;
    if (m > 0)
      {
        const auto free_columns = [&](bool velocity) {
          std::vector<unsigned int> free;
          for (unsigned int i = 0; i < n; ++i)
            if (!(velocity ? coords[i].initial_velocity : coords[i].initial_position))
              free.push_back(i);
          if (free.size() < (velocity ? own : m)) // too few free coordinates: move them all
            {
              free.clear();
              for (unsigned int i = 0; i < n; ++i)
                free.push_back(i);
            }
          return free;
        };
        // positions: Gauss-Newton with minimum-norm steps on the free
        // coordinates and a backtracking line search on |Phi|, so that it
        // converges to a zero of Phi or stops at a least-squares minimum
        // that is not one (constraints that no position satisfies)
        const auto free = free_columns(false);
        evaluate_at_zero(y);
        VectorE phi = F.segment(2 * n + m, m);
        for (int iteration = 0;; ++iteration)
          {
            if (phi.norm() <= 1e-13 * (1 + y.head(n).norm()))
              break;
            const Matrix Jy = jacobians(c, 0., y, y_dot).first;
            Matrix       A(m, free.size());
            for (unsigned int j = 0; j < free.size(); ++j)
              A.col(j) = Jy.block(2 * n + m, free[j], m, 1);
            const VectorE step = A.completeOrthogonalDecomposition().solve(phi);
            bool          decreased = false;
            VectorE       trial     = y;
            double        alpha     = 1;
            for (int halving = 0; halving < 40 && step.allFinite() && step.norm() > 0; ++halving, alpha /= 2)
              {
                trial = y;
                for (unsigned int j = 0; j < free.size(); ++j)
                  trial[free[j]] -= alpha * step[j];
                c.residual(0., trial.data(), y_dot.data(), F.data());
                const VectorE trial_phi = F.segment(2 * n + m, m);
                if (trial_phi.allFinite() && trial_phi.norm() < (1 - 1e-4 * alpha) * phi.norm())
                  {
                    decreased = true;
                    phi       = trial_phi;
                    y         = trial;
                    break;
                  }
              }
            if (decreased && iteration < 100)
              continue;
            std::ostringstream s;
            s << std::setprecision(6);
            if (!decreased)
              {
                // a least-squares minimum of |Phi| that is not zero
                std::string names;
                for (unsigned int k = 0; k < m; ++k)
                  if (std::abs(phi[k]) > 1e-13 * (1 + y.head(n).norm()))
                    {
                      std::ostringstream term;
                      term << std::setprecision(6) << constraint_text(eq, k) << " is " << phi[k];
                      names += (names.empty() ? "" : ", ") + term.str();
                    }
                s << "the constraints have no solution near the initial positions: the least-squares projection "
                  << "onto Phi = 0 stops at a minimum of |Phi| that is not zero, |Phi| = " << phi.norm() << " at ("
                  << configuration(eq, y.data()) << "), where " << names << ". "
                  << (m > 1 ? "Check that no constraint contradicts another and that each has a real solution "
                              "(such as x^2 + 1 = 0, which has none); " :
                              "Check that the constraint has a real solution (x^2 + 1 = 0 has none); ")
                  << "if it has one far from the given positions, give initial positions near it.";
              }
            else
              s << "the initial positions (" << configuration(eq, y.data()) << ") cannot be projected onto "
                << "the constraints: |Phi| = " << phi.norm() << " after 100 Gauss-Newton steps. Give "
                << "initial positions closer to an assembled configuration.";
            std::string all;
            for (unsigned int k = 0; k < m; ++k)
              all += (k ? "; " : "") + constraint_text(eq, k);
            input_error("Lumped system", "Constraints", all, s.str());
          }
        // velocities: minimum-norm correction of the free ones, the
        // algebraic velocities first (they have no inertia, so they take
        // the value the constraints give, as the current of a resistor in
        // series with a current source does at t = 0); only what they
        // cannot satisfy moves the free velocities with inertia (an
        // inductor's current, which cannot jump unless the constraints
        // force it)
        if (own > 0)
          {
            const auto   vfree = free_columns(true);
            const Matrix Jy    = jacobians(c, 0., y, y_dot).first;
            c.residual(0., y.data(), y_dot.data(), F.data());
            VectorE r = F.segment(2 * n, own); // Phi_q v + Phi_t
            for (const bool algebraic_only : {true, false})
              {
                std::vector<unsigned int> columns;
                for (const unsigned int i : vfree)
                  if (!algebraic_only || eq.algebraic[i])
                    columns.push_back(i);
                if (columns.empty())
                  continue;
                Matrix A(own, columns.size());
                for (unsigned int j = 0; j < columns.size(); ++j)
                  A.col(j) = Jy.block(2 * n, n + columns[j], own, 1); // Phi_q, or A of a velocity constraint
                const VectorE step = A.completeOrthogonalDecomposition().solve(r);
                for (unsigned int j = 0; j < columns.size(); ++j)
                  y[n + columns[j]] -= step[j];
                r -= A * step;
                if (r.norm() <= 1e-14 * (1 + y.segment(n, n).norm()))
                  break;
              }
          }
        // g_q v + g_t = 0 of the index-2 directions u, by a correction along
        // them alone: it keeps the velocities across the group's branches
        // (its capacitors' voltages, the differential state; the system's
        // own constraints do not change along u) and moves the group's
        // common velocity
        if (const unsigned int f = eq.n_floating_constraints; f > 0)
          {
            Matrix U2(n, f);
            for (unsigned int d = 0; d < f; ++d)
              for (unsigned int i = 0; i < n; ++i)
                U2(i, d) = eq.index2_directions[d][i];
            const Matrix Jy = jacobians(c, 0., y, y_dot).first;
            c.residual(0., y.data(), y_dot.data(), F.data());
            const Matrix B = Jy.block(2 * n + own, n, f, n) * U2; // g_q U / s, regular (Equations)
            y.segment(n, n) -= U2 * B.fullPivLu().solve(VectorE(F.segment(2 * n + own, f)));
          }
      }

    // accelerations (differential velocities), algebraic velocities and
    // multipliers: Newton on the equations of motion and, per constraint,
    // the velocity form Phi_q v + Phi_t = 0 if it involves an algebraic
    // velocity (a current source on a loop with a resistor: that velocity
    // is determined by it, with the differential velocities kept), else the
    // acceleration form Phi_q a + Gamma = 0
    y_dot.head(n)                      = y.segment(n, n);
    const std::vector<bool> velocity_level = velocity_level_constraints(eq, jacobians(c, 0., y, y_dot).first);
    // directions u of a singular mass matrix (a floating node group): the
    // velocity along them is algebraic, fixed by u^T R = 0 (unknowns s,
    // v += U s); R does not fix the acceleration along them, its time
    // derivative does: U^T (R_q v + R_v a + R_t) = 0 (u^T R holds neither a
    // nor the multipliers), R_t by a forward difference (a step input at
    // t = 0 has none)
    const unsigned int r = eq.floating_directions.size();
    Matrix             U(n, r);
    for (unsigned int d = 0; d < r; ++d)
      for (unsigned int i = 0; i < n; ++i)
        U(i, d) = eq.floating_directions[d][i];
    const auto floating_rate = [&](const Matrix &Jy) {
      const double h = 1e-8;
      VectorE      later(N);
      c.residual(h, y.data(), y_dot.data(), later.data());
      c.residual(0., y.data(), y_dot.data(), F.data());
      return VectorE(U.transpose() * (Jy.block(n, 0, n, n) * y.segment(n, n) + Jy.block(n, n, n, n) * y_dot.segment(n, n) +
                                      (later.segment(n, n) - F.segment(n, n)) / h));
    };
    std::vector<double> out(c.output_size());
    double              previous = std::numeric_limits<double>::infinity();
    for (int iteration = 0;; ++iteration)
      {
        evaluate_at_zero(y);
        c.outputs(0., y.data(), out.data());
        VectorE residual(n + m + r);
        residual.head(n)     = F.segment(n, n);
        const auto [Jy, Jyd] = jacobians(c, 0., y, y_dot);
        for (unsigned int k = 0; k < m; ++k)
          residual[n + k] = velocity_level[k] ?
                              F[2 * n + k] :
                              Jy.row(2 * n + k).segment(n, n).dot(y_dot.segment(n, n)) + out[c.n_outputs + 1 + k];
        if (r > 0)
          residual.tail(r) = floating_rate(Jy);
        if (iteration > 0 &&
            (residual.norm() <= 1e-12 * (1 + y.norm()) || iteration == 30 || residual.norm() >= previous))
          break;
        previous = residual.norm();
        Matrix A = Matrix::Zero(n + m + r, n + m + r);
        A.topLeftCorner(n + m, n + m) = acceleration_matrix(eq, Jy, Jyd, velocity_level);
        A.block(0, n + m, n, r)       = Jy.block(n, n, n, n) * U;
        for (unsigned int i = 0; i < n; ++i) // U^T R_v for an acceleration, U^T R_q for an algebraic velocity
          A.block(n + m, i, r, 1) = U.transpose() * Jy.block(n, eq.algebraic[i] ? i : n + i, n, 1);
        A.block(n + m, n + m, r, r) = U.transpose() * Jy.block(n, 0, n, n) * U;
        Eigen::FullPivLU<Matrix> lu(A);
        if (!lu.isInvertible())
          {
            const Eigen::JacobiSVD<Matrix> svd(A, Eigen::ComputeFullV);
            const auto                     sv = svd.singularValues();
            Eigen::Index                   j  = 0;
            svd.matrixV().col(n + m + r - 1).head(n + m).cwiseAbs().maxCoeff(&j);
            std::ostringstream s;
            s << std::setprecision(3) << "the accelerations and multipliers cannot be determined at t = 0 ("
              << configuration(eq, y.data())
              << "): the mass matrix with the constraint Jacobian is singular (smallest/largest singular value "
              << sv[n + m + r - 1] / sv[0] << "); it does not determine "
              << (j < n ? (eq.algebraic[j] ? "the velocity of " : "the acceleration of ") + coords[j].name :
                          "the multiplier of " + constraint_text(eq, j - n))
              << ". Check that every coordinate has inertia or is algebraic, that the constraints are "
                 "independent, and that the inertias are of comparable scale (the largest and smallest "
                 "nonzero entries of the matrix are "
              << A.cwiseAbs().maxCoeff() << " and "
              << (A.array() != 0).select(A.cwiseAbs().array(), std::numeric_limits<double>::infinity()).minCoeff()
              << ").";
            input_error("Lumped system", "Coordinates", "(the whole system)", s.str());
          }
        const VectorE step = lu.solve(residual);
        for (unsigned int i = 0; i < n; ++i)
          (eq.algebraic[i] ? y[n + i] : y_dot[n + i]) -= step[i];
        for (unsigned int k = 0; k < m; ++k)
          y[2 * n + k] -= step[n + k];
        y.segment(n, n) -= U * step.tail(r);
        y_dot.head(n) = y.segment(n, n);
      }
    for (unsigned int i = 0; i < n; ++i)
      if (eq.algebraic[i])
        y_dot[n + i] = 0;
    evaluate_at_zero(y);
    for (unsigned int w = 0; w < 3; ++w)
      y_dot[N - 3 + w] = -F[N - 3 + w];
    std::string bad = non_finite(eq, y.data(), N, true);
    if (bad.empty())
      bad = non_finite(eq, y_dot.data(), N, true);
    if (!bad.empty())
      throw SimulationError("The consistent initial state at t = 0 is not finite (" + configuration(eq, y.data()) +
                            "): " + bad + ". Check the parameters and initial conditions (a value beyond 1e308, "
                            "or a coordinate whose inertia is zero or infinite).");
  }

  std::vector<std::string>
  output_columns(const Equations &eq)
  {
    std::vector<std::string> columns{"t_s"};
    for (const auto &q : eq.system.coordinates)
      columns.push_back(q.name);
    for (const auto &q : eq.system.coordinates)
      columns.push_back(q.name + "_dot");
    for (unsigned int k = 0; k < eq.m; ++k)
      columns.push_back("lambda_" + std::to_string(k + 1));
    for (const auto &o : eq.system.outputs)
      columns.push_back(o.first);
    for (unsigned int k = 0; k < eq.m; ++k)
      columns.push_back("constraint_" + std::to_string(k + 1));
    for (const char *name : {"stored_energy_change_J", "supplied_work_J", "source_work_J", "dissipated_energy_J",
                             "audit_residual_J"})
      columns.push_back(name);
    for (const auto &part : eq.domain_energies)
      columns.push_back(part.first);
    for (const auto &part : eq.element_powers)
      columns.push_back(part.first);
    return columns;
  }

  namespace
  {
    /** Steps of IDA between two checks of the step size, the step count and the state. */
    constexpr long int steps_per_check = 2000;
    /** The steps a run may take (README, "Lumped systems"). */
    constexpr long int max_steps = 5000000;
    /** The smallest step, relative to the time, that counts as progress. */
    constexpr double step_floor = 1e-14;
    /** The largest magnitude of an unknown (SI) that counts as finite. */
    constexpr double state_limit = 1e100;
    /**
     * The energy audit's residual beyond which a run has not followed its
     * equations (a failed run), relative to the largest energy term so far
     * (doc/lumped.md: the audit closes to about the integration's tolerance,
     * 1e-13 ... 6e-5 of the supplied work in the examples) ...
     */
    constexpr double audit_failure = 1e-2;
    /**
     * ... or, for loose tolerances, 1e3 times the relative tolerance (at
     * most 0.5): a run at rtol 1e-3 whose audit is off by 1 % (the scotch
     * yoke, whose global error is some 1e4 rtol) is inaccurate, as asked,
     * not broken.
     */
    constexpr double audit_failure_per_rtol = 1e3, audit_failure_largest = 0.5;
    /**
     * ... and in units of the absolute tolerance (in J for the work
     * integrals): a residual below it is within what the error control
     * allows on energies that are still near zero.
     */
    constexpr double audit_failure_floor = 1e3;

    /** What the IDAS callbacks need. */
    struct Context
    {
      const CompiledSystem *compiled;
      const Equations      *equations;
      std::string           failure;
      unsigned int          N;
      /** The first residual evaluation with non-finite entries: where and which. */
      std::string non_finite;
      /**
       * What IDAS reported through its error handler (ida_error_handler()):
       * kept, not printed, and added to the message only if the run fails.
       * The first message and the last, and how many there were.
       */
      std::string   first_ida_message, last_ida_message;
      unsigned long n_ida_messages = 0;

      /** A sentence with IDAS's own messages for a failed run ("" if none). */
      std::string
      ida_report() const
      {
        if (n_ida_messages == 0)
          return "";
        std::string s = " IDAS reported " + std::to_string(n_ida_messages) +
                        (n_ida_messages == 1 ? " message: '" : " messages; the first: '") + first_ida_message + "'";
        if (n_ida_messages > 1)
          s += ", the last: '" + last_ida_message + "'";
        return s + ".";
      }
    };

    /**
     * IDAS's error handler: keeps the messages in the Context instead of
     * printing them on stderr, so that a run that succeeds prints none and a
     * run that fails reports them in its message. The step limit is not an
     * error here: simulate() sets IDA's step limit to `steps_per_check` so that
     * IDASolve returns for its own checks of the step size, the step count and
     * the state, and continues.
     */
    void
    ida_error_handler(int error_code, const char *module, const char *function, char *message, void *data)
    {
      // (SUNDIALS 6.4 reports the step limit with the code IDA_ILL_INPUT, not
      // IDA_TOO_MUCH_WORK, which IDASolve returns: recognized by its text)
      if (error_code == IDA_TOO_MUCH_WORK ||
          (message && std::strstr(message, "mxstep steps taken before reaching tout") != nullptr))
        return;
      auto             *c = static_cast<Context *>(data);
      const std::string text =
        std::string(module ? module : "IDAS") + " " + (function ? function : "") + ": " + (message ? message : "");
      if (c->n_ida_messages++ == 0)
        c->first_ida_message = text;
      c->last_ida_message = text;
    }

    int
    residual_callback(double t, N_Vector y, N_Vector y_dot, N_Vector r, void *data)
    {
      auto *c = static_cast<Context *>(data);
      c->compiled->residual(t, N_VGetArrayPointer(y), N_VGetArrayPointer(y_dot), N_VGetArrayPointer(r));
      const double *res = N_VGetArrayPointer(r);
      for (unsigned int i = 0; i < c->N; ++i)
        if (!std::isfinite(res[i]))
          {
            if (c->non_finite.empty())
              {
                std::ostringstream s;
                s << std::setprecision(6) << "at t = " << t << " s ("
                  << configuration(*c->equations, N_VGetArrayPointer(y)) << "): ";
                const std::string state = non_finite(*c->equations, N_VGetArrayPointer(y), c->N, true);
                s << (state.empty() ? non_finite(*c->equations, res, c->N, false) : "the trial state has " + state);
                c->non_finite = s.str();
              }
            return 1; // recoverable: IDAS reduces the step
          }
      return 0;
    }

    /** The powers of the audit per element, integrated by IDAS as quadratures. */
    int
    quadrature_callback(double t, N_Vector y, N_Vector y_dot, N_Vector result, void *data)
    {
      auto *c = static_cast<Context *>(data);
      c->compiled->audit_powers(t, N_VGetArrayPointer(y), N_VGetArrayPointer(y_dot), N_VGetArrayPointer(result));
      return 0;
    }

    int
    jacobian_callback(double t, double alpha, N_Vector y, N_Vector y_dot, N_Vector, SUNMatrix J, void *data, N_Vector,
                      N_Vector, N_Vector)
    {
      auto              *c = static_cast<Context *>(data);
      const unsigned int N = c->N, n = c->equations->n, m = c->equations->m;
      Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> A(N, N), B(N, N);
      c->compiled->jacobian(t, N_VGetArrayPointer(y), N_VGetArrayPointer(y_dot), A.data(), B.data());
      if (m > 0)
        {
          const Eigen::JacobiSVD<Matrix> svd(Matrix(A.block(2 * n, n, m, n))); // Phi_q and the A of velocity constraints
          const auto                     sv = svd.singularValues();
          // near a change point the solution is not unique and IDA may
          // step across it or stall: stop, deterministically, on approach
          if (sv[m - 1] <= 1e-3 * sv[0])
            {
              std::ostringstream s;
              s << "the constraint Jacobian is nearly singular at t = " << t << " s ("
                << configuration(*c->equations, N_VGetArrayPointer(y)) << "; smallest/largest singular value "
                << sv[m - 1] / sv[0] << " < 1e-3): the mechanism is at a lock-up or change point, where the "
                << "constraints no longer determine the motion. Check the geometry and the initial conditions.";
              c->failure = s.str();
              return -1;
            }
        }
      for (unsigned int j = 0; j < N; ++j)
        {
          double *column = SUNDenseMatrix_Column(J, j);
          for (unsigned int i = 0; i < N; ++i)
            column[i] = A(i, j) + alpha * B(i, j);
        }
      return 0;
    }

    /** sigma_min/sigma_max of Phi_q at y (1 without constraints). */
    double
    constraint_condition(const CompiledSystem &c, const Equations &eq, const double *y, const double *y_dot)
    {
      if (eq.m == 0)
        return 1;
      const unsigned int N = c.size(), n = eq.n, m = eq.m;
      Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> A(N, N), B(N, N);
      c.jacobian(0., y, y_dot, A.data(), B.data());
      const Eigen::JacobiSVD<Matrix> svd(Matrix(A.block(2 * n, n, m, n)));
      return svd.singularValues()[m - 1] / svd.singularValues()[0];
    }

    /**
     * If the matrix of the equations of motion and the constraints in the
     * accelerations (algebraic velocities) and multipliers is singular at y,
     * a sentence naming the unknown it leaves undetermined; else empty.
     */
    std::string
    singular_mass_matrix(const CompiledSystem &c, const Equations &eq, double t, const double *y, const double *y_dot)
    {
      const unsigned int N = c.size(), n = eq.n;
      Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> A(N, N), B(N, N);
      c.jacobian(t, y, y_dot, A.data(), B.data());
      const Matrix Jy = A, Jyd = B;
      if (!Jy.allFinite() || !Jyd.allFinite())
        return " The Jacobian is not finite there.";
      const Eigen::JacobiSVD<Matrix> svd(acceleration_matrix(eq, Jy, Jyd, velocity_level_constraints(eq, Jy)),
                                         Eigen::ComputeFullV);
      const auto sv = svd.singularValues();
      if (sv.size() == 0 || sv[sv.size() - 1] > 1e-12 * sv[0])
        return "";
      Eigen::Index i = 0;
      svd.matrixV().col(sv.size() - 1).cwiseAbs().maxCoeff(&i);
      std::ostringstream s;
      s << std::setprecision(3) << " The mass matrix with the constraint Jacobian is singular there (smallest/largest "
        << "singular value " << sv[sv.size() - 1] / sv[0] << "): it does not determine "
        << (i < n ? (eq.algebraic[i] ? "the velocity " : "the acceleration ") + eq.system.coordinates[i].name :
                    "the multiplier of " + constraint_text(eq, i - n))
        << "; check that coordinate's inertia (or inductance) and the constraints' independence.";
      return s.str();
    }

    /** The knee test of the Newton iteration for diodes (ida_kernels.h): their x = i/I_s from the velocities. */
    struct Knees
    {
      void  *ida = nullptr;
      Matrix x_of_v; ///< diodes x velocities: d x/d v (constant: the currents are linear in the velocities)
      unsigned int n = 0;

      Knees(const Equations &eq)
        : x_of_v(Matrix::Zero(eq.system.diode_currents.size(), eq.n))
        , n(eq.n)
      {
        const GiNaC::exmap values = eq.system.parameter_values();
        for (unsigned int d = 0; d < x_of_v.rows(); ++d)
          for (unsigned int j = 0; j < n; ++j)
            {
              const ex c = GiNaC::evalf(eq.system.diode_currents[d].diff(eq.system.coordinates[j].velocity).subs(values));
              if (GiNaC::is_a<GiNaC::numeric>(c))
                x_of_v(d, j) = GiNaC::ex_to<GiNaC::numeric>(c).to_double();
            }
      }

      /** The velocities at IDA's predictor plus ycor. */
      VectorE
      velocities(N_Vector ycor) const
      {
        double   t = 0, cj = 0;
        N_Vector predicted = nullptr, yp = nullptr, yn = nullptr, ypn = nullptr, res = nullptr;
        void    *user      = nullptr;
        IDAGetNonlinearSystemData(ida, &t, &predicted, &yp, &yn, &ypn, &res, &cj, &user);
        const Eigen::Map<const VectorE> v0(N_VGetArrayPointer(predicted) + n, n), dv(N_VGetArrayPointer(ycor) + n, n);
        return v0 + dv;
      }

      /** The diode law's slope dv/di in units of n V_T/I_s (diode.cc: with u = asinh(x)). */
      static double
      slope(double x)
      {
        const double u = std::asinh(x);
        return (std::exp(u) / (2 + std::exp(u)) + 2 * std::log(1.5) * std::exp(-u)) / std::sqrt(1 + x * x);
      }

      static void
      record(N_Vector ycor, void *data)
      {
        auto &k      = *static_cast<Knees *>(data);
        k.x_jacobian = k.x_of_v * k.velocities(ycor);
      }

      /**
       * Whether the last Newton correction crossed a knee: the correction
       * dx of a diode's x was computed with the slope s_J of the Jacobian's
       * x, and at the iterate the slope is s; the linear model then errs by
       * about |dx| (rho - 1), rho = max(s_J/s, s/s_J) (1 where the slopes
       * agree; 1 + ln(x_s/x), x_s the solution, for an iterate x on the
       * flat side of the exponential, whose correction the weighted norm of
       * IDA's test sees as small while the current is below the absolute
       * tolerance). Stale if that exceeds IDA's Newton tolerance (0.33)
       * times the tolerance that the velocities' tolerances induce on x.
       */
      static bool
      stale(N_Vector ycor, N_Vector correction, void *data)
      {
        const auto   &k = *static_cast<const Knees *>(data);
        const VectorE v = k.velocities(ycor);
        const VectorE x = k.x_of_v * v;
        if (k.x_jacobian.size() != x.size())
          return true;
        const VectorE dx = k.x_of_v * Eigen::Map<const VectorE>(N_VGetArrayPointer(correction) + k.n, k.n);
        const VectorE tolerance =
          k.x_of_v.cwiseAbs() * (k.relative_tolerance * v.cwiseAbs().array() + k.absolute_tolerance).matrix();
        for (Eigen::Index d = 0; d < x.size(); ++d)
          {
            const double a = slope(k.x_jacobian[d]), b = slope(x[d]);
            if (std::abs(dx[d]) * (std::max(a / b, b / a) - 1) > 0.33 * tolerance[d])
              return true;
          }
        return false;
      }

      double relative_tolerance = 0, absolute_tolerance = 0;
      VectorE x_jacobian; ///< x at the last Jacobian evaluation
    };

    void
    check(int flag, const char *call)
    {
      if (flag < 0)
        throw std::runtime_error(std::string(call) + " failed: " + IDAGetReturnFlagName(flag));
    }
  } // namespace

  namespace
  {
    /** Global error control (SimulationOptions::global_error_control): the error aimed at, in relative tolerances. */
    constexpr double global_error_goal = 10;
    /**
     * How IDA's global error E scales with its tolerance tol: E ~ tol^(p/(p+1))
     * for a BDF method of order p (the steps' local errors, each ~tol, add up
     * over a number of steps ~tol^(-1/(p+1))); p = 5, IDA's usual order on
     * smooth motion (measured on scotch_yoke_dc_motor.prm from 1e-10 to
     * 1e-15: E ~ tol^0.85).
     */
    constexpr double global_error_exponent = 5. / 6.;
    /** The tightest relative tolerance global error control asks of IDA (about 5 roundings of a double). */
    constexpr double tightest_relative_tolerance = 1e-15;
    /** At most this many rows of each quiet run are compared (evenly spread, the last always). */
    constexpr std::size_t compared_rows = 10000;
    /** The numbers of the rows of the quiet run at the given tolerances kept to be delivered (80 MB). */
    constexpr std::size_t kept_values = 10000000;

    /**
     * The columns of a row (output_columns()) whose global error is
     * controlled: coordinates, velocities, named outputs, and the supplied,
     * source and dissipated work; not the multipliers (index 2, determined
     * to O(h) only), the constraint values and the audit's residual (both
     * zero up to the error itself), nor the stored energy change (a function
     * of the coordinates and velocities, near zero in a conservative run,
     * where its error relative to its own magnitude says nothing).
     */
    std::vector<unsigned int>
    controlled_columns(const Equations &eq, const CompiledSystem &c)
    {
      const unsigned int        n = eq.n, m = eq.m;
      std::vector<unsigned int> columns;
      for (unsigned int k = 1; k < 1 + 2 * n; ++k)
        columns.push_back(k);
      for (unsigned int k = 0; k < c.n_outputs; ++k)
        columns.push_back(1 + 2 * n + m + k);
      for (unsigned int k = 1; k < 4; ++k)
        columns.push_back(1 + 2 * n + m + c.n_outputs + m + k);
      return columns;
    }
  } // namespace

  SimulationSummary
  simulate(const CompiledSystem                                   &c,
           const Equations                                        &eq,
           const SimulationOptions                                &options,
           const std::function<void(const std::vector<double> &)> &on_row,
           std::ostream                                           *progress)
  {
    // not with diodes: a switching circuit's error is its switching times',
    // which the model E ~ tol^(5/6) of smooth motion does not describe (the
    // near-ideal bridge's estimate was 8e6 tolerances, and IDA failed at the
    // tolerances it asked for)
    const bool switching = std::any_of(eq.system.resistive_forces.begin(), eq.system.resistive_forces.end(),
                                       [](const ex &f) { return !f.is_zero(); });
    if (options.global_error_control && !switching)
      {
        // two quiet runs, at ten times the tolerances and at the tolerances;
        // their rows' difference estimates the global error of the second
        // (E(10 tol) - E(tol) ~ (10^beta - 1) E(tol))
        const auto  start   = std::chrono::steady_clock::now();
        const auto  columns = controlled_columns(eq, c);
        const auto  stride  = std::max<std::size_t>(
          1, static_cast<std::size_t>(options.final_time / options.output_interval) / compared_rows + 1);
        SimulationOptions local       = options;
        local.global_error_control    = false;
        std::vector<std::vector<double>> loose;                          // the loose run's compared rows
        std::vector<double>              difference(columns.size(), 0.), magnitude(columns.size(), 0.);
        unsigned long                    steps = 0;
        // the rows of the run at the given tolerances, kept (up to
        // `kept_values` numbers) to be delivered if they need no tightening
        std::vector<std::vector<double>> kept;
        std::size_t                      kept_size = 0;
        bool                             keep      = true;
        SimulationSummary                at_given;
        try
          {
            for (const double factor : {10., 1.})
              {
                local.relative_tolerance = factor * options.relative_tolerance;
                local.absolute_tolerance = factor * options.absolute_tolerance;
                std::size_t row          = 0;
                std::vector<double> last;
                const auto compare = [&](const std::vector<double> &values) {
                  if (factor > 1)
                    loose.push_back(values);
                  else if (row < loose.size())
                    for (unsigned int k = 0; k < columns.size(); ++k)
                      {
                        difference[k] = std::max(difference[k], std::abs(values[k] - loose[row][k]));
                        magnitude[k]  = std::max(magnitude[k], std::abs(values[k]));
                      }
                  ++row;
                };
                std::size_t index = 0;
                const auto  quiet = simulate(
                  c, eq, local,
                  [&](const std::vector<double> &r) {
                    if (factor == 1 && keep)
                      {
                        kept_size += r.size();
                        keep = kept_size <= kept_values;
                        if (keep)
                          kept.push_back(r);
                        else
                          kept.clear();
                      }
                    last.clear();
                    for (const unsigned int k : columns)
                      last.push_back(r[k]);
                    if (index++ % stride == 0)
                      compare(last);
                  },
                  nullptr);
                if ((index - 1) % stride != 0) // the last row
                  compare(last);
                steps += quiet.steps;
                if (factor == 1)
                  at_given = quiet;
              }
          }
        catch (const SimulationError &)
          {
            // a quiet run failed: the run at the given tolerances reports
            // the failure with its rows up to it
            local.relative_tolerance = options.relative_tolerance;
            local.absolute_tolerance = options.absolute_tolerance;
            return simulate(c, eq, local, on_row, progress);
          }
        // the estimated global error in units of each column's tolerance,
        // rtol |largest value| + atol (as IDA weighs a step's error)
        double error = 0;
        for (unsigned int k = 0; k < columns.size(); ++k)
          error = std::max(error, difference[k] / (options.relative_tolerance * magnitude[k] + options.absolute_tolerance));
        error /= std::pow(10., global_error_exponent) - 1;
        double factor = 1;
        if (error > global_error_goal)
          factor = std::max(std::pow(global_error_goal / error, 1 / global_error_exponent),
                            std::min(1., tightest_relative_tolerance / options.relative_tolerance));
        if (factor == 1 && keep)
          {
            // the run at the given tolerances meets them: its rows
            for (const auto &row : kept)
              on_row(row);
            at_given.estimated_global_error = error;
            at_given.calibration_runs       = 1;
            at_given.steps                  = steps;
            at_given.integrate_seconds      = seconds_since(start);
            at_given.residual_calls         = c.residual_calls;
            at_given.jacobian_calls         = c.jacobian_calls;
            return at_given;
          }
        local.relative_tolerance = factor * options.relative_tolerance;
        local.absolute_tolerance = factor * options.absolute_tolerance;
        const double      calibration = seconds_since(start);
        std::size_t       delivered   = 0;
        SimulationSummary summary;
        try
          {
            summary = simulate(
              c, eq, local,
              [&](const std::vector<double> &row) {
                ++delivered;
                on_row(row);
              },
              progress);
          }
        catch (const SimulationError &)
          {
            if (factor == 1)
              throw;
            // IDA failed at the tighter tolerance where it succeeded at the
            // given one: the rows after those delivered come from the run
            // at the given tolerance
            local.relative_tolerance = options.relative_tolerance;
            local.absolute_tolerance = options.absolute_tolerance;
            std::size_t index        = 0;
            summary                  = simulate(
              c, eq, local,
              [&](const std::vector<double> &row) {
                if (index++ >= delivered)
                  on_row(row);
              },
              progress);
          }
        summary.estimated_global_error = error;
        summary.calibration_runs       = 2;
        summary.steps += steps;
        summary.integrate_seconds += calibration;
        return summary;
      }

    const unsigned int n = eq.n, m = eq.m, N = c.size();
    SimulationSummary  summary;
    summary.columns = output_columns(eq);
    summary.relative_tolerance_used = options.relative_tolerance;
    summary.absolute_tolerance_used = options.absolute_tolerance;

    VectorE y0, y_dot0;
    consistent_initial_state(c, eq, y0, y_dot0);
    std::vector<double> out(c.output_size());
    c.outputs(0., y0.data(), out.data());
    const double E0 = out[c.n_outputs];
    // the stored energy by domain (none for a system given by its Hamiltonian)
    const std::size_t         n_domains = c.n_domains;
    const std::vector<double> domain0(out.end() - n_domains, out.end());
    summary.initial_y.assign(y0.data(), y0.data() + N);
    summary.initial_y_dot.assign(y_dot0.data(), y_dot0.data() + N);

    std::vector<double> parts_work(c.n_parts, 0.); // the works per element (IDAS quadratures)
    double largest_energy = 0; // J: the largest |E| and |stored energy of a domain| over the rows
    const auto row_at = [&](double t, const double *y) {
      c.outputs(t, y, out.data());
      std::vector<double> row{t};
      row.insert(row.end(), y, y + 2 * n + m);
      row.insert(row.end(), out.begin(), out.begin() + c.n_outputs);
      row.insert(row.end(), out.begin() + c.n_outputs + 1 + m, out.end() - n_domains); // Phi
      const double *W      = y + 2 * n + 2 * m; // the totals
      const double  stored = out[c.n_outputs] - E0, supplied = W[0], source = W[1], dissipated = W[2];
      const double  audit  = stored - (supplied + source - dissipated);
      row.insert(row.end(), {stored, supplied, source, dissipated, audit});
      // the parts: stored energy by domain, works per element, and how far
      // each total is from the sum of its parts
      double parts[4] = {0, 0, 0, 0}; // stored, supplied, source, dissipated
      summary.audit_parts.clear();
      for (unsigned int d = 0; d < n_domains; ++d)
        {
          const double change = out[out.size() - n_domains + d] - domain0[d];
          row.push_back(change);
          parts[0] += change;
          summary.audit_parts.emplace_back(eq.domain_energies[d].first, change);
        }
      for (unsigned int k = 0; k < c.n_parts; ++k)
        {
          const std::string &name = eq.element_powers[k].first;
          row.push_back(parts_work[k]);
          summary.audit_parts.emplace_back(name, parts_work[k]);
          for (unsigned int kind = 1; kind < 4; ++kind)
            if (name.rfind(kind == 1 ? "supplied_work_" : kind == 2 ? "source_work_" : "dissipated_energy_", 0) == 0)
              parts[kind] += parts_work[k];
        }
      for (unsigned int kind = 0; kind < (n_domains > 0 ? 4 : 0); ++kind)
        summary.largest_parts_residual =
          std::max(summary.largest_parts_residual, std::abs((kind == 0 ? stored : W[kind - 1]) - parts[kind]));
      // a non-finite number is never written as a result
      std::string bad;
      for (unsigned int k = 0; k < row.size(); ++k)
        if (!std::isfinite(row[k]))
          bad += (bad.empty() ? "" : ", ") + summary.columns[k] + " = " + std::to_string(row[k]);
      if (!bad.empty())
        {
          std::ostringstream s;
          s << std::setprecision(6) << "the row at t = " << t << " s (" << configuration(eq, y)
            << ") is not finite: " << bad
            << ". Check the outputs' expressions and the parameters for a division by zero or a singular "
               "function at this state.";
          throw SimulationError(s.str());
        }
      summary.stored_energy_change   = stored;
      summary.supplied_work          = supplied;
      summary.source_work            = source;
      summary.dissipated_energy      = dissipated;
      summary.largest_audit_residual = std::max(summary.largest_audit_residual, std::abs(audit));
      // the largest energy term, named: the totals and the stored energy by
      // domain (in a conservative run the total stored change is the
      // residual itself, the energy exchanged between domains is the scale)
      const auto consider = [&](const std::string &name, double value) {
        if (std::abs(value) > summary.largest_energy_term)
          {
            summary.largest_energy_term      = std::abs(value);
            summary.largest_energy_term_name = name;
          }
      };
      consider("stored_energy_change_J", stored);
      consider("supplied_work_J", supplied);
      consider("source_work_J", source);
      consider("dissipated_energy_J", dissipated);
      for (unsigned int d = 0; d < n_domains; ++d)
        consider(eq.domain_energies[d].first, summary.audit_parts[d].second);
      // a run whose energy balance fails by far more than its tolerance
      // allows has not followed its equations (it stepped across a
      // singularity, such as a pole of tan, that the error control did not
      // see): a failed run, stopped at the first such row
      largest_energy = std::max(largest_energy, std::abs(out[c.n_outputs]));
      for (unsigned int d = 0; d < n_domains; ++d)
        largest_energy = std::max(largest_energy, std::abs(out[out.size() - n_domains + d]));
      const double scale = std::max(summary.largest_energy_term, largest_energy);
      const double limit =
        std::clamp(audit_failure_per_rtol * options.relative_tolerance, audit_failure, audit_failure_largest);
      if (std::abs(audit) > limit * scale && std::abs(audit) > audit_failure_floor * options.absolute_tolerance)
        {
          std::ostringstream s;
          s << std::setprecision(6) << "the energy audit does not balance at t = " << t << " s ("
            << configuration(eq, y) << "): the stored energy changed by " << stored
            << " J since t = 0, while the supplied, source and dissipated work account for "
            << supplied + source - dissipated << " J; the residual " << audit << " J is "
            << std::abs(audit) / scale << " of the largest energy term so far (" << scale
            << " J), more than " << limit << " (integrated at rtol " << options.relative_tolerance << ", atol "
            << options.absolute_tolerance << ")"
            << ". The integration did not follow the equations: the solution crossed a singularity that the "
               "error control stepped over (a pole such as tan at pi/2, a division by a coordinate that "
               "reaches zero), or the tolerances are far too loose for the motion. Check the model's terms at "
               "this state; if they are regular there, tighten 'Simulation/Relative tolerance' and 'Absolute "
               "tolerance', or end the run before it ('Simulation/Final time').";
          throw SimulationError("The integration stopped: " + s.str());
        }
      ++summary.rows;
      on_row(row);
    };

    const auto start = std::chrono::steady_clock::now();
    Context    context{&c, &eq, "", N, ""};
    SUNContext sun;
    check(SUNContext_Create(nullptr, &sun), "SUNContext_Create");
    N_Vector y = N_VNew_Serial(N, sun), y_dot = N_VNew_Serial(N, sun), id = N_VNew_Serial(N, sun),
             atol = N_VNew_Serial(N, sun), work = N_VNew_Serial(N, sun);
    for (N_Vector v : {y, y_dot, id, atol, work}) // IDA clones its work vectors from these
      use_compiled_vector_kernels(v);
    std::copy(y0.data(), y0.data() + N, N_VGetArrayPointer(y));
    std::copy(y_dot0.data(), y_dot0.data() + N, N_VGetArrayPointer(y_dot));
    for (unsigned int i = 0; i < N; ++i)
      {
        // differential: q, the inertial velocities, the work integrals; the
        // index-2 multipliers (lambda, mu) are excluded from the error test
        // and get a loose weight in the corrector's convergence test (they
        // are determined to O(h) only)
        const bool multiplier = i >= 2 * n && i < 2 * n + 2 * m;
        // the algebraic velocities of coordinates that carry a resistive
        // force (a diode's current) are in the error test: their steep
        // switching then controls the step, which the Newton iteration
        // cannot follow otherwise
        const bool switching = i >= n && i < 2 * n && !eq.system.resistive_forces[i - n].is_zero();
        const bool algebraic  = multiplier || (i >= n && i < 2 * n && eq.algebraic[i - n] && !switching);
        N_VGetArrayPointer(id)[i]   = algebraic ? 0. : 1.;
        N_VGetArrayPointer(atol)[i] = multiplier ? 1e3 : options.absolute_tolerance;
      }
    // the works per element: quadratures without error control, so that
    // they never change the steps of the state
    N_Vector        quadrature = c.n_parts > 0 ? N_VNew_Serial(c.n_parts, sun) : nullptr;
    void           *ida    = IDACreate(sun);
    SUNMatrix       matrix = SUNDenseMatrix(N, N, sun);
    SUNLinearSolver solver = eigen_dense_linear_solver(sun);
    // diodes: a Newton iteration that follows their knees (ida_kernels.h)
    const bool         diodes = std::any_of(eq.system.resistive_forces.begin(), eq.system.resistive_forces.end(),
                                            [](const ex &f) { return !f.is_zero(); });
    SUNNonlinearSolver newton = diodes ? damped_newton_solver(sun, y) : nullptr;
    Knees              knees(eq);
    const auto         release = [&]() {
      IDAFree(&ida);
      if (newton)
        SUNNonlinSolFree(newton);
      SUNLinSolFree(solver);
      SUNMatDestroy(matrix);
      for (N_Vector v : {y, y_dot, id, atol, work})
        N_VDestroy(v);
      if (quadrature)
        N_VDestroy(quadrature);
      SUNContext_Free(&sun);
    };

    // where IDA is: time, configuration, step
    const auto where = [&](double t) {
      double h = 0;
      IDAGetLastStep(ida, &h);
      std::ostringstream s;
      s << std::setprecision(6) << "t = " << t << " s (" << configuration(eq, N_VGetArrayPointer(y))
        << "; last step " << h << " s)";
      return s.str();
    };
    // the unknown whose estimated local error limits the step most
    const auto limiting_unknown = [&]() {
      if (IDAGetErrWeights(ida, work) != IDA_SUCCESS)
        return std::string();
      const VectorE weights = Eigen::Map<VectorE>(N_VGetArrayPointer(work), N);
      if (IDAGetEstLocalErrors(ida, work) != IDA_SUCCESS)
        return std::string();
      const VectorE errors = Eigen::Map<VectorE>(N_VGetArrayPointer(work), N).cwiseProduct(weights).cwiseAbs();
      Eigen::Index  i      = 0;
      if (!errors.allFinite() || errors.maxCoeff(&i) <= 0)
        return std::string();
      return " The step size is limited by " + row_name(eq, i, true) + ".";
    };
    // a state that left every sensible range: stop, naming the unknowns
    const auto check_state = [&](double t) {
      const double *v = N_VGetArrayPointer(y);
      std::string   bad;
      for (unsigned int i = 0; i < N; ++i)
        if (!std::isfinite(v[i]) || std::abs(v[i]) > state_limit)
          {
            std::ostringstream s;
            s << std::setprecision(6) << row_name(eq, i, true) << " = " << v[i];
            bad += (bad.empty() ? "" : ", ") + s.str();
          }
      if (!bad.empty())
        throw SimulationError("The solution leaves the range of finite values |y| <= 1e100 at " + where(t) + ": " + bad +
                              (context.non_finite.empty() ? "" : "; the residual was first not finite " +
                                                                   context.non_finite) +
                              ". The equations blow up in finite time (a singular function such as tan at its pole, "
                              "a division by a coordinate that reaches zero, or a parameter out of scale): check "
                              "these terms, the parameters and the initial conditions, or end the run earlier "
                              "('Simulation/Final time').");
    };

    double t = 0;
    try
      {
        check(IDASetErrHandlerFn(ida, ida_error_handler, &context), "IDASetErrHandlerFn");
        check(IDAInit(ida, residual_callback, 0., y, y_dot), "IDAInit");
        check(IDASVtolerances(ida, options.relative_tolerance, atol), "IDASVtolerances");
        check(IDASetUserData(ida, &context), "IDASetUserData");
        check(IDASetLinearSolver(ida, solver, matrix), "IDASetLinearSolver");
        check(IDASetJacFn(ida, jacobian_callback), "IDASetJacFn");
        if (quadrature)
          {
            N_VConst(0., quadrature);
            check(IDAQuadInit(ida, quadrature_callback, quadrature), "IDAQuadInit");
          }
        check(IDASetId(ida, id), "IDASetId");
        check(IDASetSuppressAlg(ida, SUNTRUE), "IDASetSuppressAlg");
        if (diodes)
          {
            check(IDASetNonlinearSolver(ida, newton), "IDASetNonlinearSolver");
            knees.ida                = ida;
            knees.relative_tolerance = options.relative_tolerance;
            knees.absolute_tolerance = options.absolute_tolerance;
            set_knee_hooks(newton, KneeHooks{Knees::record, Knees::stale, &knees});
            check(IDASetMaxNonlinIters(ida, 20), "IDASetMaxNonlinIters"); // a diode's exponential law
            // a knee crossed by a long step: more cuts of the step than IDA's 10
            check(IDASetMaxErrTestFails(ida, 40), "IDASetMaxErrTestFails");
          }
        // IDASolve returns every `steps_per_check` steps for the checks below
        check(IDASetMaxNumSteps(ida, steps_per_check), "IDASetMaxNumSteps");
        check(IDASetStopTime(ida, options.final_time), "IDASetStopTime");
        row_at(0., N_VGetArrayPointer(y));
        double next_report = 0.1;
        for (unsigned long k = 1; t < options.final_time * (1 - 1e-12); ++k)
          {
            const double tout = std::min(k * options.output_interval, options.final_time);
            int          flag;
            while ((flag = IDASolve(ida, tout, &t, y, y_dot, IDA_NORMAL)) == IDA_TOO_MUCH_WORK)
              {
                check_state(t);
                long int steps = 0;
                double   h     = 0;
                IDAGetNumSteps(ida, &steps);
                IDAGetLastStep(ida, &h);
                std::ostringstream s;
                s << std::setprecision(6);
                if (h < step_floor * std::abs(t))
                  s << "the time step fell below " << step_floor << " of the time at " << where(t)
                    << " and stayed there for " << steps_per_check
                    << " steps: the solution varies faster than the time can resolve, as at a "
                       "singularity or a finite-time blow-up."
                    << limiting_unknown()
                    << " Check the equations of that unknown for a singular term (a division by a coordinate "
                       "that reaches zero, tan at its pole), or end the run before it ('Simulation/Final time').";
                else if (steps >= max_steps)
                  s << "the integration took " << steps << " steps (the limit) to reach " << where(t) << " of "
                    << options.final_time
                    << " s: the solution varies much faster than the run is long (a time constant far below "
                       "'Simulation/Final time', or chattering)."
                    << limiting_unknown()
                    << " Check the parameters of that unknown's terms for an absurd magnitude (a stiffness "
                       "or a mass out of scale), or shorten 'Simulation/Final time'.";
                else
                  continue;
                throw SimulationError("The integration stopped: " + s.str());
              }
            if (flag < 0)
              {
                if (context.failure.empty())
                  {
                    std::ostringstream s;
                    s << std::setprecision(6) << "IDA could not continue after " << where(t) << ": "
                      << IDAGetReturnFlagName(flag) << " (";
                    switch (flag)
                      {
                        case IDA_ERR_FAIL:
                          s << "the local error test failed repeatedly";
                          break;
                        case IDA_CONV_FAIL:
                        case IDA_NLS_FAIL:
                          s << "the Newton iteration failed to converge repeatedly";
                          break;
                        case IDA_LSETUP_FAIL:
                        case IDA_LSOLVE_FAIL:
                          s << "the iteration matrix is singular";
                          break;
                        case IDA_REP_RES_ERR:
                        case IDA_RES_FAIL:
                          s << "the residual could not be evaluated";
                          break;
                        default:
                          s << "see the SUNDIALS IDA documentation";
                      }
                    s << ").";
                    if (!context.non_finite.empty())
                      s << " The residual was not finite " << context.non_finite
                        << ": check the terms of these equations for a division by zero or a singular "
                           "function.";
                    const double ratio = constraint_condition(c, eq, N_VGetArrayPointer(y), N_VGetArrayPointer(y_dot));
                    if (ratio < 1e-3)
                      s << " The constraint Jacobian is nearly singular there (smallest/largest singular value "
                        << ratio << "): the mechanism is at a lock-up or change point, where the constraints no "
                        << "longer determine the motion. Check the geometry and the initial conditions.";
                    s << singular_mass_matrix(c, eq, t, N_VGetArrayPointer(y), N_VGetArrayPointer(y_dot))
                      << limiting_unknown();
                    context.failure = s.str();
                  }
                throw SimulationError(context.failure);
              }
            check_state(t);
            if (quadrature)
              {
                double t_quadrature = t;
                check(IDAGetQuad(ida, &t_quadrature, quadrature), "IDAGetQuad");
                std::copy(N_VGetArrayPointer(quadrature), N_VGetArrayPointer(quadrature) + c.n_parts,
                          parts_work.begin());
              }
            row_at(t, N_VGetArrayPointer(y));
            if (progress && t >= next_report * options.final_time)
              {
                // the fraction first: 100 * t overflows for t near 1e308
                *progress << "\r  t = " << std::setw(10) << t << " s (" << std::setw(3)
                          << std::lround(std::clamp(100 * (t / options.final_time), 0., 100.)) << " %)" << std::flush;
                next_report += 0.1;
              }
          }
        summary.final_y.assign(N_VGetArrayPointer(y), N_VGetArrayPointer(y) + N);
        summary.final_y_dot.assign(N_VGetArrayPointer(y_dot), N_VGetArrayPointer(y_dot) + N);
        long int steps = 0;
        IDAGetNumSteps(ida, &steps);
        summary.steps = steps;
        if (newton)
          {
            const DampedNewtonStatistics statistics = damped_newton_statistics(newton);
            summary.newton_rescues                 = statistics.rescues;
            summary.newton_rescued                 = statistics.rescued;
            summary.knee_refreshes                 = statistics.knee_refreshes;
          }
      }
    catch (const SimulationError &e)
      {
        if (progress)
          *progress << "\n";
        release();
        throw SimulationError(e.what() + context.ida_report());
      }
    catch (...)
      {
        if (progress)
          *progress << "\n";
        release();
        throw;
      }
    release();
    if (progress)
      *progress << "\n";
    summary.integrate_seconds = seconds_since(start);
    summary.residual_calls    = c.residual_calls;
    summary.jacobian_calls    = c.jacobian_calls;
    return summary;
  }
} // namespace hamilton::lumped
