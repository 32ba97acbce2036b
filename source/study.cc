#include <hamilton/analyses/analysis.h>
#include <hamilton/analyses/results_schema.h>
#include <hamilton/analyses/study_result.h>
#include <hamilton/base/columns.h>
#include <hamilton/base/files.h>
#include <hamilton/base/input.h>
#include <hamilton/base/process.h>
#include <hamilton/lumped/simulation.h>
#include <hamilton/output/writer.h>
#include <hamilton/study.h>

#include <deal.II/base/mpi.h>
#include <deal.II/base/utilities.h>

#include <nlopt.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <csignal>
#include <cerrno>
#include <unistd.h>

namespace hamilton
{
  using namespace dealii;

  namespace
  {
    const std::string designs    = "none|grid|zip|monte carlo|optimize";
    const std::string algorithms = "LN_BOBYQA|LN_COBYLA|LN_NELDERMEAD|LN_SBPLX|GN_DIRECT_L";

    /** A number as text that reads back to the same double. */
    std::string
    exact_text(const double value)
    {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.17g", value);
      return buffer;
    }

    std::vector<std::string>
    path_parts(const std::string &path)
    {
      std::vector<std::string> parts;
      for (const auto &p : Utilities::split_string_list(path, '/'))
        parts.push_back(Utilities::trim(p));
      return parts;
    }

    /** Whether two entry paths name the same entry: parts trimmed, blanks collapsed. */
    bool
    same_entry(const std::string &a, const std::string &b)
    {
      const auto normalized = [](const std::string &path) {
        std::string result;
        for (const auto &part : path_parts(path))
          {
            std::istringstream words(part);
            std::string        word, joined;
            while (words >> word)
              joined += (joined.empty() ? "" : " ") + word;
            result += "/" + joined;
          }
        return result;
      };
      return normalized(a) == normalized(b);
    }

    /** The numeric leaves of a results document, as paths 'a/0/b'. */
    void
    numeric_leaves(const nlohmann::json &node, const std::string &prefix, std::vector<std::string> &paths)
    {
      if (node.is_number())
        paths.push_back(prefix);
      else if (node.is_object())
        for (auto item = node.begin(); item != node.end(); ++item)
          numeric_leaves(*item, prefix + (prefix.empty() ? "" : "/") + item.key(), paths);
      else if (node.is_array())
        for (std::size_t i = 0; i < node.size(); ++i)
          numeric_leaves(node[i], prefix + (prefix.empty() ? "" : "/") + std::to_string(i), paths);
    }

    /** The value at `path` in `results`, or nullptr. */
    const nlohmann::json *
    find(const nlohmann::json &results, const std::string &path)
    {
      const nlohmann::json *node = &results;
      for (const auto &key : path_parts(path))
        {
          if (node->is_object() && node->contains(key))
            node = &(*node)[key];
          else if (node->is_array() && !key.empty() && key.find_first_not_of("0123456789") == std::string::npos &&
                   std::stoull(key) < node->size())
            node = &(*node)[std::stoull(key)];
          else
            return nullptr;
        }
      return node;
    }


    /** The parameter values of a point, "name = value, ...". */
    std::string
    describe_point(const std::vector<Study::Parameter> &parameters, const std::vector<double> &x)
    {
      std::ostringstream text;
      text << std::setprecision(6);
      for (std::size_t i = 0; i < parameters.size(); ++i)
        text << (i ? ", " : "") << parameters[i].name << " = " << x[i];
      return text.str();
    }

    /** Progress on stderr: points done / total, time used and left. */
    class Progress
    {
    public:
      explicit Progress(const std::size_t total)
        : total(total)
        , tty(isatty(fileno(stderr)) != 0)
        , start(std::chrono::steady_clock::now())
      {}

      void
      update(const std::size_t done)
      {
        const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const std::size_t percent = total ? 100 * done / total : 0;
        if (percent == last_percent || (!tty && percent % 10 != 0 && done != total))
          return;
        last_percent = percent;
        std::cerr << (tty ? "\r" : "") << "  study " << std::setw(3) << percent << "% (" << done << "/" << total
                  << " points, " << std::fixed << std::setprecision(1) << seconds << " s";
        if (done > 0 && done < total)
          std::cerr << ", about " << seconds / done * (total - done) << " s left";
        std::cerr << ")" << std::defaultfloat << (tty ? "   " : "\n") << std::flush;
        if (tty && done == total)
          std::cerr << "\n";
      }

    private:
      std::size_t                           total;
      bool                                  tty;
      std::chrono::steady_clock::time_point start;
      std::size_t                           last_percent = 101;
    };

    /**
     * Two counters on rank 0 that every rank increments atomically by MPI
     * one-sided communication (passive target): the next point of the design
     * to compute and the points done. Collective: every rank constructs and
     * destroys it together.
     */
    class SharedCounters
    {
    public:
      enum Counter : int
      {
        next_point  = 0,
        points_done = 1
      };

      explicit SharedCounters(const unsigned int rank)
      {
        const MPI_Aint size = rank == 0 ? 2 * sizeof(unsigned long) : 0;
        int ierr = MPI_Win_allocate(size, sizeof(unsigned long), MPI_INFO_NULL, MPI_COMM_WORLD, &values, &window);
        AssertThrowMPI(ierr);
        if (rank == 0)
          {
            ierr = MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, window);
            AssertThrowMPI(ierr);
            values[next_point] = values[points_done] = 0;
            ierr = MPI_Win_unlock(0, window);
            AssertThrowMPI(ierr);
          }
        ierr = MPI_Barrier(MPI_COMM_WORLD);
        AssertThrowMPI(ierr);
      }

      ~SharedCounters()
      {
        MPI_Win_free(&window);
      }

      SharedCounters(const SharedCounters &) = delete;
      SharedCounters &
      operator=(const SharedCounters &) = delete;

      /** Add 1 to a counter; its value before. */
      std::size_t
      add(const Counter counter)
      {
        const unsigned long one = 1;
        unsigned long       before;
        int                 ierr = MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, window);
        AssertThrowMPI(ierr);
        ierr = MPI_Fetch_and_op(&one, &before, MPI_UNSIGNED_LONG, 0, counter, MPI_SUM, window);
        AssertThrowMPI(ierr);
        ierr = MPI_Win_unlock(0, window);
        AssertThrowMPI(ierr);
        return before;
      }

    private:
      unsigned long *values = nullptr;
      MPI_Win        window;
    };
  } // namespace

  void
  Study::declare_parameters(ParameterHandler &prm, const ParameterHandler *first_pass)
  {
    prm.enter_subsection("Study");
    prm.declare_entry("Design",
                      "none",
                      Patterns::Selection(designs),
                      "none: a single run. grid: every combination of the parameters' 'Values' (the first "
                      "parameter outermost). zip: the i-th values of all parameters together (lists of equal "
                      "length). monte carlo: 'Number of samples' random points ('Distribution', 'Nominal "
                      "value', 'Tolerance'). optimize: maximize or minimize 'Objective' within each "
                      "parameter's bounds with NLopt. Each point is a whole run of every analysis in the file.");
    prm.declare_entry("Quantities",
                      "",
                      Patterns::Anything(),
                      "Result quantities per point, comma-separated paths into the results.json of a run "
                      "(keys and list indices joined by '/', e.g. 'modes/0/frequency_hz, "
                      "harvester/optimal_loads/0/max_power_W'); in the unit their name ends with. Empty: a "
                      "default set per analysis (frequencies, f_oc and k_eff, peak and maximum power, optimal "
                      "load, final state of a lumped system, energy-audit residual).");
    prm.declare_entry("Number of samples", "100", Patterns::Integer(1, 1000000), "monte carlo: the number of points.");
    prm.declare_entry("Seed", "1", Patterns::Integer(0), "monte carlo: the seed of the std::mt19937_64 generator.");
    prm.declare_entry("Objective", "", Patterns::Anything(), "optimize: the quantity (a path into results.json).");
    prm.declare_entry("Goal", "maximize", Patterns::Selection("maximize|minimize"), "optimize: the direction.");
    prm.declare_entry("Algorithm",
                      "LN_BOBYQA",
                      Patterns::Selection(algorithms),
                      "optimize: the NLopt algorithm; LN_* are derivative-free local methods, GN_DIRECT_L a "
                      "global one (needs more evaluations).");
    prm.declare_entry("Relative tolerance",
                      "1e-6",
                      Patterns::Double(0),
                      "optimize: stop when a step changes every parameter by less than this fraction of its "
                      "value (NLopt xtol_rel).");
    prm.declare_entry("Maximum evaluations", "200", Patterns::Integer(1, 1000000), "optimize: at most this many runs.");
    prm.declare_entry("Write point outputs",
                      "false",
                      Patterns::Bool(),
                      "Whether each point writes the output directory of its run, as points/NNNN/ in the "
                      "study's directory.");
    prm.declare_entry("Continue on failure",
                      "false",
                      Patterns::Bool(),
                      "false: a point whose run fails on its input stops the study, naming the point's values, "
                      "and nothing is written. true: the failure is recorded in the point's row (quantities "
                      "nan, the message in results.json) and the study goes on.");
    prm.enter_subsection("Parameters");
    std::vector<std::string> names;
    if (first_pass != nullptr)
      names = split_list(first_pass->get({"Study", "Parameters"}, "Names"));
    declare_named_list(
      prm,
      "Names of the study's parameters (each a subsection; the name is the column in study.csv).",
      names,
      [](ParameterHandler &p) {
        p.declare_entry("Path",
                        "",
                        Patterns::Anything(),
                        "The entry to vary: subsections and entry joined by '/', as 'hamilton "
                        "--print-parameters' lists them, e.g. 'Beam/Layers/substrate/Thickness' or 'Lumped "
                        "system/Parameters/R'. Its values are in the entry's own unit.");
        p.declare_entry("Values",
                        "",
                        Patterns::Anything(),
                        "grid and zip: 'a, b, c', 'linspace(start, stop, count)' or 'logspace(exponent1, "
                        "exponent2, count)' (powers of 10).");
        p.declare_entry("Distribution",
                        "normal",
                        Patterns::Selection("normal|uniform"),
                        "monte carlo: normal (standard deviation = Tolerance x nominal) or uniform (nominal "
                        "+- Tolerance x nominal).");
        p.declare_entry("Nominal value", "", Patterns::Anything(), "monte carlo: empty: the value in the file.");
        p.declare_entry("Tolerance",
                        "0",
                        Patterns::Anything(),
                        "monte carlo: relative standard deviation (normal) or relative half width "
                        "(uniform), e.g. 0.05 for 5 %.");
        p.declare_entry("Lower bound", "", Patterns::Anything(), "optimize: the smallest value allowed.");
        p.declare_entry("Upper bound", "", Patterns::Anything(), "optimize: the largest value allowed.");
        p.declare_entry("Initial value",
                        "",
                        Patterns::Anything(),
                        "optimize: where the search starts; empty: the value in the file if it lies within "
                        "the bounds, else the middle of the bounds.");
      });
    prm.leave_subsection();
    prm.leave_subsection();
  }

  bool
  Study::described_in(const ParameterHandler &prm)
  {
    return prm.get({"Study"}, "Design") != "none";
  }

  void
  Study::parse_parameters(Section &s)
  {
    // the paths, checked from the top level (a ParameterHandler's paths are
    // relative to the subsection entered)
    ParameterHandler                  &prm = s.handler();
    std::map<std::string, std::string> path_problems, file_values;
    for (const auto &name : split_list(prm.get({"Study", "Parameters"}, "Names")))
      {
        const std::string path = Utilities::trim(prm.get({"Study", "Parameters", name}, "Path"));
        if (path.empty())
          continue;
        std::string problem = check_entry_path(prm, path);
        if (problem.empty() && (path.rfind("Study/", 0) == 0 || path.rfind("Output/", 0) == 0))
          problem = "is an entry of the study or of the output: give an entry of the model, its analyses or its "
                    "simulation.";
        if (problem.empty())
          if (const std::string not_a_number = check_entry_value(prm, path, "1"); !not_a_number.empty())
            problem = "this entry does not take numbers (" + not_a_number + "). A study varies numeric entries.";
        if (!problem.empty())
          {
            path_problems[name] = problem;
            continue;
          }
        const auto parts = path_parts(path);
        if (entry_declared(prm, std::vector<std::string>(parts.begin(), parts.end() - 1), parts.back()))
          file_values[name] = prm.get(std::vector<std::string>(parts.begin(), parts.end() - 1), parts.back());
        else // an item of a list entry such as 'Lumped system/Parameters/R'
          file_values[name] =
            list_item(prm.get(std::vector<std::string>(parts.begin(), parts.end() - 2), parts[parts.size() - 2]),
                      parts.back())
              .value_or("");
      }
    Section::Scope scope(s, "Study");
    design              = s.get("Design");
    quantities          = split_list(s.get("Quantities"));
    n_samples           = s.get_unsigned("Number of samples");
    seed                = s.get_unsigned("Seed");
    objective           = Utilities::trim(s.get("Objective"));
    goal                = s.get("Goal");
    algorithm           = s.get("Algorithm");
    relative_tolerance  = s.get_non_negative("Relative tolerance", "1");
    max_evaluations     = s.get_unsigned("Maximum evaluations");
    write_point_outputs = s.get_bool("Write point outputs");
    continue_on_failure = s.get_bool("Continue on failure");
    if (design == "optimize" && objective.empty())
      s.fail("Objective",
             "is empty: 'Design = optimize' needs the quantity to " + goal +
               ", a path into results.json such as 'harvester/optimal_loads/0/max_power_W'.");
    if (design != "optimize" && !objective.empty())
      s.fail("Objective", "is only used by 'Design = optimize' (the design is '" + design + "'). Delete it.");

    Section::Scope           list(s, "Parameters");
    std::vector<std::string> names = s.get_names("Names");
    if (names.empty())
      s.fail("Names",
             "is empty: a study needs at least one parameter. Name it here and give its 'Path' in a "
             "subsection of that name.");
    parameters.clear();
    for (const auto &name : names)
      {
        Section::Scope one(s, name);
        Parameter      p;
        p.name = name;
        p.path = Utilities::trim(s.get("Path"));
        if (p.path.empty())
          s.fail("Path", "is empty. Give the entry to vary, e.g. 'Beam/Layers/substrate/Thickness'.");
        if (const auto problem = path_problems.find(name); problem != path_problems.end())
          s.fail("Path", problem->second);
        const std::string in_file = file_values[name];
        const auto number_or = [&](const std::string &entry, const std::string &fallback) {
          const std::string text = Utilities::trim(s.get(entry));
          if (text.empty())
            {
              if (fallback.empty())
                s.fail(entry, "is empty, and the file's value of '" + p.path + "' ('" + in_file +
                                "') is not a number. Give a number.");
              return parse_number(fallback);
            }
          return s.get_double(entry);
        };
        const auto file_value_is_number = [&]() {
          try
            {
              parse_number(in_file);
              return true;
            }
          catch (const std::invalid_argument &)
            {
              return false;
            }
        };
        if (design == "grid" || design == "zip")
          {
            p.values = get_number_list(s, "Values", 1000000);
            if (p.values.empty())
              s.fail("Values", "is empty. Give the values of '" + p.path + "', e.g. 'linspace(1e3, 1e5, 5)'.");
          }
        else if (!Utilities::trim(s.get("Values")).empty())
          s.fail("Values", "is only used by the designs grid and zip (the design is '" + design + "'). Delete it.");
        if (design == "monte carlo")
          {
            p.distribution = s.get("Distribution");
            p.nominal      = number_or("Nominal value", file_value_is_number() ? in_file : "");
            p.tolerance    = s.get_double("Tolerance");
            if (!(p.tolerance >= 0))
              s.fail("Tolerance", "is negative: a distribution's width is zero or positive (a fraction of the "
                                  "nominal value, e.g. 0.05).");
            if (p.distribution == "uniform" && p.tolerance > 1)
              s.fail("Tolerance", "is above 1: a uniform distribution nominal +- tolerance x nominal would "
                                  "change the sign of the value. Give at most 1.");
          }
        if (design == "optimize")
          {
            if (Utilities::trim(s.get("Lower bound")).empty() || Utilities::trim(s.get("Upper bound")).empty())
              s.fail(Utilities::trim(s.get("Lower bound")).empty() ? "Lower bound" : "Upper bound",
                     "is empty: 'Design = optimize' needs both bounds of every parameter.");
            p.lower = s.get_double("Lower bound");
            p.upper = s.get_double("Upper bound");
            if (!(p.lower < p.upper))
              s.fail("Upper bound", "must be larger than 'Lower bound' (" + exact_text(p.lower) + ").");
            if (!Utilities::trim(s.get("Initial value")).empty())
              {
                p.initial = s.get_double("Initial value");
                if (p.initial < p.lower || p.initial > p.upper)
                  s.fail("Initial value", "lies outside the bounds [" + exact_text(p.lower) + ", " +
                                            exact_text(p.upper) + "]. Give a value within them.");
              }
            else if (file_value_is_number() && parse_number(in_file) >= p.lower && parse_number(in_file) <= p.upper)
              p.initial = parse_number(in_file);
            else
              p.initial = 0.5 * (p.lower + p.upper);
          }
        // two parameters of one entry: the later change would silently win at every point
        for (const auto &other : parameters)
          if (same_entry(other.path, p.path))
            s.fail("Path", "parameter '" + other.name + "' varies the same entry ('" + other.path +
                             "'). A study varies each entry by one parameter (the other's values would be "
                             "silently replaced at every point): delete one, or give it the path of another entry.");
        parameters.push_back(p);
      }
    if (design == "zip")
      for (const auto &p : parameters)
        if (p.values.size() != parameters[0].values.size())
          input_error(s.path() + "/" + p.name,
                      "Values",
                      std::to_string(p.values.size()) + " values",
                      "'Design = zip' pairs the i-th values of all parameters, but '" + parameters[0].name +
                        "' has " + std::to_string(parameters[0].values.size()) +
                        ". Give lists of equal length, or use 'Design = grid' for every combination.");
    if (design == "grid")
      {
        double n = 1;
        for (const auto &p : parameters)
          n *= p.values.size();
        if (n > 1e6)
          input_error(s.path(),
                      "Names",
                      std::to_string(parameters.size()) + " parameters",
                      "the grid has " + exact_text(n) +
                        " points; at most 1e6 are allowed (each is a whole run). Use fewer values.");
      }
  }

  std::vector<std::vector<double>>
  monte_carlo_samples(const std::vector<Study::Parameter> &parameters,
                      const unsigned int                   n_samples,
                      const std::uint64_t                  seed)
  {
    std::mt19937_64 generator(seed);
    const auto      uniform = [&]() { return static_cast<double>(generator() >> 11) * 0x1.0p-53; };
    std::vector<std::vector<double>> samples;
    for (unsigned int i = 0; i < n_samples; ++i)
      {
        std::vector<double> x;
        for (const auto &p : parameters)
          if (p.distribution == "uniform")
            x.push_back(p.nominal * (1 + p.tolerance * (2 * uniform() - 1)));
          else
            {
              const double u1 = uniform(), u2 = uniform();
              const double z  = std::sqrt(-2 * std::log(1 - u1)) * std::cos(2 * M_PI * u2);
              x.push_back(p.nominal * (1 + p.tolerance * z));
            }
        samples.push_back(x);
      }
    return samples;
  }

  std::vector<std::vector<double>>
  Study::points() const
  {
    std::vector<std::vector<double>> result;
    if (design == "zip")
      for (std::size_t i = 0; i < parameters[0].values.size(); ++i)
        {
          std::vector<double> x;
          for (const auto &p : parameters)
            x.push_back(p.values[i]);
          result.push_back(x);
        }
    else if (design == "grid")
      {
        std::vector<std::size_t> index(parameters.size(), 0);
        while (true)
          {
            std::vector<double> x;
            for (std::size_t k = 0; k < parameters.size(); ++k)
              x.push_back(parameters[k].values[index[k]]);
            result.push_back(x);
            // the last parameter varies fastest
            std::size_t k = parameters.size();
            while (k > 0 && ++index[k - 1] == parameters[k - 1].values.size())
              index[--k] = 0;
            if (k == 0)
              break;
          }
      }
    else if (design == "monte carlo")
      result = monte_carlo_samples(parameters, n_samples, seed);
    return result;
  }

  std::vector<std::string>
  default_quantities(const nlohmann::json &results)
  {
    std::vector<std::string> q;
    const auto               add_if = [&](const std::string &path) {
      if (const auto *node = find(results, path); node != nullptr && node->is_number())
        q.push_back(path);
    };
    if (results.contains("modes"))
      for (std::size_t i = 0; i < std::min<std::size_t>(3, results["modes"].size()); ++i)
        {
          add_if("modes/" + std::to_string(i) + "/frequency_hz");
          if (i == 0)
            {
              add_if("modes/0/frequency_open_circuit_hz");
              add_if("modes/0/coupling_k_eff");
            }
        }
    add_if("static/tip_deflection_m");
    add_if("buckling/0/load_factor");
    if (results.contains("frequency_response") && results["frequency_response"].contains("electrodes"))
      for (std::size_t e = 0; e < results["frequency_response"]["electrodes"].size(); ++e)
        add_if("frequency_response/electrodes/" + std::to_string(e) + "/peak_power_W");
    if (results.contains("harvester") && results["harvester"].contains("optimal_loads"))
      for (std::size_t e = 0; e < results["harvester"]["optimal_loads"].size(); ++e)
        {
          add_if("harvester/optimal_loads/" + std::to_string(e) + "/optimal_resistance_ohm");
          add_if("harvester/optimal_loads/" + std::to_string(e) + "/max_power_W");
        }
    if (results.contains("reduced_model") && results["reduced_model"].contains("frequencies_hz"))
      for (std::size_t i = 0; i < results["reduced_model"]["frequencies_hz"].size(); ++i)
        add_if("reduced_model/frequencies_hz/" + std::to_string(i));
    if (results.contains("lumped"))
      {
        const auto &lumped = results["lumped"];
        if (lumped.contains("coordinates"))
          for (const auto &c : lumped["coordinates"])
            {
              const std::string name = c.value("name", std::string());
              add_if("lumped/final_state/" + name);
              add_if("lumped/final_state/" + name + "_dot");
            }
        // the largest value of every power output (a column named *_W)
        if (lumped.contains("range") && lumped["range"].is_object())
          for (auto item = lumped["range"].begin(); item != lumped["range"].end(); ++item)
            if (item.key().size() > 2 && item.key().compare(item.key().size() - 2, 2, "_W") == 0)
              add_if("lumped/range/" + item.key() + "/max");
        if (lumped.contains("linearization") && lumped["linearization"].contains("eigenvalues"))
          for (std::size_t i = 0; i < lumped["linearization"]["eigenvalues"].size(); ++i)
            {
              add_if("lumped/linearization/eigenvalues/" + std::to_string(i) + "/real");
              add_if("lumped/linearization/eigenvalues/" + std::to_string(i) + "/imag");
            }
        add_if("lumped/energy_audit/largest_relative_residual");
      }
    return q;
  }

  std::string
  quantity_unit(const std::string &quantity)
  {
    std::string last = quantity.substr(quantity.rfind('/') + 1);
    // a summary of a column (lumped/summary/columns/power_W/mean): the column's unit
    if (last == "mean" || last == "final" || last == "amplitude" || last == "peak" || last == "max" || last == "min")
      {
        const auto parts = path_parts(quantity);
        if (parts.size() > 1)
          last = parts[parts.size() - 2];
      }
    if (last == "real" || last == "imag")
      return quantity.find("eigenvalues") != std::string::npos ? "1/s" : "";
    if (last.find_first_not_of("0123456789") == std::string::npos) // a list item: the list's unit
      {
        const auto parts = path_parts(quantity);
        last             = parts.size() > 1 ? parts[parts.size() - 2] : "";
      }
    return unit_from_suffix(last);
  }

  nlohmann::json
  statistics(std::vector<double> values)
  {
    values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }),
                 values.end());
    const std::size_t n = values.size();
    if (n == 0)
      return {{"count", 0}};
    std::sort(values.begin(), values.end());
    double mean = 0;
    for (const double v : values)
      mean += v;
    mean /= n;
    double variance = 0;
    for (const double v : values)
      variance += (v - mean) * (v - mean);
    variance = n > 1 ? variance / (n - 1) : 0;
    const auto percentile = [&](const double p) {
      const double      position = p * (n - 1);
      const std::size_t i        = static_cast<std::size_t>(position);
      return i + 1 < n ? values[i] + (position - i) * (values[i + 1] - values[i]) : values[n - 1];
    };
    return {{"count", n},
            {"mean", mean},
            {"standard_deviation", std::sqrt(variance)},
            {"min", values.front()},
            {"max", values.back()},
            {"percentile_5", percentile(0.05)},
            {"percentile_50", percentile(0.5)},
            {"percentile_95", percentile(0.95)}};
  }

  std::vector<std::string>
  StudyResult::column_names() const
  {
    std::vector<std::string> names{"point"};
    for (const auto &p : study.parameters)
      names.push_back(p.name);
    names.insert(names.end(), quantities.begin(), quantities.end());
    return names;
  }

  std::vector<ColumnDescription>
  StudyResult::columns() const
  {
    std::vector<ColumnDescription> described{{"point", "1", "number of the study's point"}};
    for (const auto &p : study.parameters)
      {
        const std::string unit = unit_of_entry(p.path);
        described.push_back({p.name, unit,
                             "parameter: the entry '" + p.path + "'" +
                               (unit.empty() ? " (in the entry's unit: hamilton --print-parameters)" : "")});
      }
    for (const auto &q : quantities)
      described.push_back({q, quantity_unit(q), "result quantity: the path '" + q + "' into a point's results.json"});
    return described;
  }

  std::vector<double>
  StudyResult::row(const std::size_t k) const
  {
    std::vector<double> values{double(k + 1)};
    values.insert(values.end(), points[k].x.begin(), points[k].x.end());
    values.insert(values.end(), points[k].values.begin(), points[k].values.end());
    return values;
  }

  std::size_t
  StudyResult::n_failed() const
  {
    return std::count_if(points.begin(), points.end(), [](const StudyPoint &p) { return !p.error.empty(); });
  }

  std::vector<double>
  StudyResult::values_of(const std::size_t q) const
  {
    std::vector<double> values;
    for (const auto &p : points)
      values.push_back(p.values[q]);
    return values;
  }

  void
  StudyResult::print_summary(std::ostream &out) const
  {
    if (optimum)
      {
        const auto &best = points[optimum->best];
        out << "Optimum (" << study.goal << " " << study.objective << ", " << study.algorithm << ", "
            << points.size() << " evaluations, " << optimum->stop << "): " << std::setprecision(9)
            << describe_point(study.parameters, best.x) << ": " << best.values[0] << " "
            << quantity_unit(study.objective) << std::setprecision(6) << "\n";
      }
    // the table: every row up to 40, else the first 20 and the last 10
    const std::vector<std::string> names = column_names();
    const auto width = [](const std::string &name) { return std::max<std::size_t>(12, name.size()) + 2; };
    out << std::setw(6) << names[0];
    for (std::size_t k = 1; k < names.size(); ++k)
      out << std::setw(width(names[k])) << names[k];
    out << "\n";
    for (std::size_t i = 0; i < points.size(); ++i)
      {
        if (points.size() > 40 && i == 20)
          out << "  ... (" << points.size() - 30 << " more rows in study.csv)\n";
        if (points.size() > 40 && i >= 20 && i + 10 < points.size())
          continue;
        out << std::setw(6) << i + 1 << std::setprecision(6);
        std::size_t k = 1;
        for (const double v : points[i].x)
          out << std::setw(width(names[k++])) << v;
        for (const double v : points[i].values)
          out << std::setw(width(names[k++])) << v;
        if (!points[i].error.empty())
          out << "  FAILED";
        out << "\n";
      }
    const std::size_t computed = points.size() - n_resumed, failed = n_failed();
    out << "Study: " << points.size() << " points";
    if (resumed)
      out << " (" << n_resumed << " from the earlier table, " << computed << " computed)";
    out << " in " << std::setprecision(3) << seconds << " s (" << 1e3 * seconds / std::max<std::size_t>(1, computed)
        << " ms per point)" << (failed ? ", " + std::to_string(failed) + " failed" : "")
        << (n_compilations ? ", lumped equations compiled " + std::to_string(n_compilations) + " time(s)" : "")
        << (n_beam_solves ? ", beam solved " + std::to_string(n_beam_solves) + " time(s)" : "")
        << std::setprecision(6) << "\n";
    if (study.design == "monte carlo")
      for (std::size_t q = 0; q < quantities.size(); ++q)
        {
          const auto entry = statistics(values_of(q));
          out << "  " << quantities[q] << ": mean " << entry.value("mean", 0.) << ", std "
              << entry.value("standard_deviation", 0.) << ", 5/50/95 % " << entry.value("percentile_5", 0.) << " / "
              << entry.value("percentile_50", 0.) << " / " << entry.value("percentile_95", 0.) << " "
              << quantity_unit(quantities[q]) << "\n";
        }
  }

  void
  StudyResult::add_to_json(nlohmann::json &document) const
  {
    nlohmann::json column_list = nlohmann::json::array();
    for (const auto &p : study.parameters)
      column_list.push_back({{"name", p.name}, {"path", p.path}, {"unit", "the entry's unit"}});
    for (const auto &q : quantities)
      column_list.push_back({{"name", q}, {"unit", quantity_unit(q)}});
    nlohmann::json results;
    results["format"]   = "hamilton-study";
    results["version"]  = 1;
    results["input"]    = input;
    results["design"]   = study.design;
    results["columns"]  = column_list;
    results["n_points"] = points.size();
    results["n_failed"] = n_failed();
    // runs of the C compiler on derived lumped equations, on all ranks (a
    // point whose source was compiled before reuses that library)
    results["n_compilations"] = n_compilations;
    // beams solved (ROMs exported), on all ranks: once per distinct set of
    // entries outside 'Lumped system' in a row of points
    results["n_beam_solves"] = n_beam_solves;
    results["fingerprint"]   = fingerprint;
    nlohmann::json rows      = nlohmann::json::array();
    for (const auto &p : points)
      {
        nlohmann::json values = nlohmann::json::array();
        for (const double v : p.x)
          values.push_back(v);
        for (const double v : p.values)
          values.push_back(std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr));
        nlohmann::json row = {{"values", values}};
        if (!p.error.empty())
          row["error"] = p.error;
        rows.push_back(row);
      }
    results["points"] = rows;
    if (study.design == "monte carlo")
      {
        results["seed"]  = study.seed;
        nlohmann::json s = nlohmann::json::array();
        for (std::size_t q = 0; q < quantities.size(); ++q)
          {
            auto entry    = statistics(values_of(q));
            entry["name"] = quantities[q];
            entry["unit"] = quantity_unit(quantities[q]);
            s.push_back(entry);
          }
        results["statistics"] = s;
      }
    if (optimum)
      {
        const auto &best   = points[optimum->best];
        results["optimum"] = {{"objective", study.objective},
                              {"goal", study.goal},
                              {"algorithm", study.algorithm},
                              {"stop", optimum->stop},
                              {"evaluations", points.size()},
                              {"point", optimum->best + 1},
                              {"parameters", best.x},
                              {"value", best.values[0]}};
      }
    document = results; // a study's results.json is its own document
  }

  namespace
  {
    /** Runs the points of a study and keeps their rows. */
    class Driver
    {
    public:
      Driver(const RunOptions &options, const Study &study, const std::string &directory, StudyResult &result)
        : options(options)
        , study(study)
        , directory(directory)
        , scratch((temporary_directory() /
                   ("hamilton-study-" + std::to_string(getpid()) + "-point"))
                    .string())
        , result(result)
        , quantities(result.quantities)
        , points(result.points)
      {}

      ~Driver()
      {
        std::error_code ignored; // a point stopped by a signal may have kept its scratch directory
        std::filesystem::remove_all(scratch, ignored);
      }

      Driver(const Driver &) = delete;
      Driver &
      operator=(const Driver &) = delete;

      /**
       * Run point `index` of the design; its row is appended to `points`. A
       * row of the table resumed from (`earlier`) with the same parameter
       * values is taken as it is, unless it had failed (it runs again).
       */
      const StudyPoint &
      evaluate(const std::vector<double> &x, const std::size_t index)
      {
        if (index < earlier.size() && earlier[index].x == x && earlier[index].error.empty())
          {
            ++n_resumed;
            return record(earlier[index]);
          }
        StudyPoint          point{index, x, {}, ""};
        RunOptions     o   = options;
        nlohmann::json results;
        o.point_results = &results;
        o.write_output  = study.write_point_outputs;
        char number[16];
        std::snprintf(number, sizeof number, "%04zu", index + 1);
        o.output_directory = study.write_point_outputs ? directory + "/points/" + number : scratch;
        for (std::size_t i = 0; i < x.size(); ++i)
          o.changes.emplace_back(study.parameters[i].path, exact_text(x[i]));
        if (study.write_point_outputs && points.empty())
          std::filesystem::create_directories(directory + "/points");
        try
          {
            std::ostringstream ignored;
            run(o, ignored);
            if (quantities.empty())
              choose_quantities(results);
            for (const auto &q : quantities)
              {
                const auto *node = find(results, q);
                if (node == nullptr || !(node->is_number() || node->is_boolean()))
                  throw InputError("the result quantity '" + q + "' is not a number in the results of this point.");
                point.values.push_back(node->is_boolean() ? double(node->get<bool>()) : node->get<double>());
              }
          }
        catch (const InputError &e)
          {
            if (!study.continue_on_failure || quantities.empty())
              throw InputError("Study point " + std::to_string(index + 1) + " (" +
                               describe_point(study.parameters, x) + ") failed: " + e.what() +
                               " Nothing was written." +
                               (quantities.empty() ? "" :
                                                     " To record failed points and go on, set 'Continue on "
                                                     "failure = true' in subsection 'Study'."));
            point.error  = e.what();
            point.values = std::vector<double>(quantities.size(), std::numeric_limits<double>::quiet_NaN());
          }
        return record(point);
      }

      /**
       * Append a point to `points` and, if the rows go to sinks as they are
       * computed (one process), to the sinks: the columns before the first.
       */
      const StudyPoint &
      record(const StudyPoint &point)
      {
        points.push_back(point);
        if (sinks != nullptr)
          {
            for (const auto &sink : *sinks)
              {
                if (points.size() == 1)
                  sink->begin(result.column_names(), result.columns());
                sink->row(result.row(points.size() - 1));
              }
          }
        return points.back();
      }

      /** The study's quantities, named or by default; checked against the first point's results. */
      void
      choose_quantities(const nlohmann::json &results)
      {
        std::vector<std::string> wanted = study.quantities;
        if (wanted.empty())
          wanted = default_quantities(results);
        if (wanted.empty())
          throw InputError("In subsection 'Study': 'Quantities' is empty and the analyses of this file give "
                           "none of the default quantities. Name the quantities, paths into results.json.");
        if (!study.objective.empty() && std::find(wanted.begin(), wanted.end(), study.objective) == wanted.end())
          wanted.insert(wanted.begin(), study.objective);
        std::vector<std::string> available;
        numeric_leaves(results, "", available);
        for (const auto &q : wanted)
          if (const auto *node = find(results, q); node == nullptr || !(node->is_number() || node->is_boolean()))
            {
              std::stable_sort(available.begin(), available.end(), [&](const auto &a, const auto &b) {
                return edit_distance(a, q) < edit_distance(b, q);
              });
              std::string closest;
              for (std::size_t i = 0; i < std::min<std::size_t>(4, available.size()); ++i)
                closest += (i ? ", '" : "'") + available[i] + "'";
              const bool objective = q == study.objective;
              input_error("Study",
                          objective ? "Objective" : "Quantities",
                          "'" + q + "'",
                          "the results of a run of this file have no number at this path. The closest are " +
                            closest +
                            ". A quantity is a path into results.json (keys and list indices joined by '/'); "
                            "run the file once and look at its results.json.");
            }
        quantities = wanted;
      }

      const RunOptions        &options;
      const Study             &study;
      const std::string        directory;
      const std::string        scratch;
      /** The study's result: its quantities and points are the driver's. */
      const StudyResult        &result;
      std::vector<std::string> &quantities;
      std::vector<StudyPoint>  &points;
      /** --resume: the rows of the earlier table, in the design's order. */
      std::vector<StudyPoint> earlier;
      std::size_t             n_resumed = 0;
      /** Where each point's row goes as soon as it is computed (one process), or nullptr. */
      std::vector<std::unique_ptr<RowSink>> *sinks = nullptr;
    };

    const char *
    nlopt_result_name(const nlopt::result r)
    {
      switch (r)
        {
          case nlopt::SUCCESS:
            return "success";
          case nlopt::STOPVAL_REACHED:
            return "stop value reached";
          case nlopt::FTOL_REACHED:
            return "relative tolerance of the objective reached";
          case nlopt::XTOL_REACHED:
            return "relative tolerance of the parameters reached";
          case nlopt::MAXEVAL_REACHED:
            return "maximum number of evaluations reached";
          case nlopt::MAXTIME_REACHED:
            return "time limit reached";
          default:
            return "stopped";
        }
    }

    /** Run an optimization; returns why it stopped and its best point. */
    StudyResult::Optimum
    optimize(const Study &study, Driver &driver)
    {
      const std::size_t n = study.parameters.size();
      std::vector<double> lower, upper, x;
      for (const auto &p : study.parameters)
        {
          lower.push_back(p.lower);
          upper.push_back(p.upper);
          x.push_back(p.initial);
        }
      nlopt::opt opt(study.algorithm.c_str(), n);
      opt.set_lower_bounds(lower);
      opt.set_upper_bounds(upper);
      opt.set_xtol_rel(study.relative_tolerance);
      opt.set_maxeval(study.max_evaluations);
      Progress progress(study.max_evaluations);
      struct Data
      {
        Driver            *driver;
        nlopt::opt        *opt;
        Progress          *progress;
        std::exception_ptr failure;
      } data{&driver, &opt, &progress, nullptr};
      const auto objective = [](unsigned int, const double *x, double *, void *d) -> double {
        auto *data = static_cast<Data *>(d);
        try
          {
            const auto &point = data->driver->evaluate(std::vector<double>(x, x + data->opt->get_dimension()),
                                                       data->driver->points.size());
            data->progress->update(data->driver->points.size());
            check_interrupt();
            if (!point.error.empty())
              throw InputError("Study point " + std::to_string(data->driver->points.size()) +
                               " failed during the optimization: " + point.error);
            return point.values[0];
          }
        catch (...)
          {
            data->failure = std::current_exception();
            data->opt->force_stop();
            return 0;
          }
      };
      if (study.goal == "maximize")
        opt.set_max_objective(objective, &data);
      else
        opt.set_min_objective(objective, &data);
      double        value  = 0;
      nlopt::result result = nlopt::FAILURE;
      std::string   stop;
      try
        {
          result = opt.optimize(x, value);
          stop   = nlopt_result_name(result);
        }
      catch (const nlopt::roundoff_limited &)
        {
          stop = "limited by roundoff";
        }
      catch (const nlopt::forced_stop &)
        {
        }
      catch (const std::exception &e)
        {
          if (!data.failure)
            throw InputError(std::string("In subsection 'Study': the NLopt algorithm '") + study.algorithm +
                             "' failed (" + e.what() + "). Try 'Algorithm = LN_COBYLA' or other bounds.");
        }
      if (data.failure)
        std::rethrow_exception(data.failure);
      progress.update(study.max_evaluations);
      // the best evaluation (the optimizer's own answer is one of them)
      std::size_t best = 0;
      for (std::size_t i = 1; i < driver.points.size(); ++i)
        if (study.goal == "maximize" ? driver.points[i].values[0] > driver.points[best].values[0] :
                                       driver.points[i].values[0] < driver.points[best].values[0])
          best = i;
      return {stop, best};
    }

    /**
     * What a resumed table must come from: FNV-1a (64 bits) of the parameter
     * file's bytes and of each --set path and value, as 16 hex digits.
     */
    std::string
    fingerprint(const RunOptions &options)
    {
      std::uint64_t hash = 0xcbf29ce484222325ULL;
      const auto    add  = [&](const std::string &text) {
        for (const unsigned char c : text)
          hash = (hash ^ c) * 0x100000001b3ULL;
        hash = (hash ^ 0xffU) * 0x100000001b3ULL; // a byte no text holds: "ab"+"c" differs from "a"+"bc"
      };
      std::ifstream     file(options.parameter_file, std::ios::binary);
      const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
      add(text);
      for (const auto &[path, value] : options.changes)
        {
          add(path);
          add(value);
        }
      char buffer[20];
      std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(hash));
      return buffer;
    }

    /**
     * --resume: the quantities and the rows of the study.csv in `directory`,
     * after checking that the same parameter file with the same --set values
     * wrote it (the fingerprint in its results.json, or in study.partial.json
     * for a study that was stopped). Rows are read up to the first incomplete
     * one; a row whose quantities are all nan (a failed point) runs again.
     */
    std::pair<std::vector<std::string>, std::vector<StudyPoint>>
    read_earlier_rows(const RunOptions &options, const Study &study, const std::string &directory)
    {
      namespace fs          = std::filesystem;
      const std::string csv = directory + "/study.csv";
      const std::string fix = " Run without --resume to start the study anew (its output replaces '" + directory +
                              "'), or give the --output-dir of the study to continue.";
      if (!fs::is_regular_file(csv))
        throw InputError("--resume: there is no table '" + csv + "' to continue from." + fix);
      std::string stored, written_by;
      for (const std::string name : {"results.json", "study.partial.json"})
        if (stored.empty() && fs::is_regular_file(directory + "/" + name))
          {
            std::ifstream in(directory + "/" + name);
            const auto    document = nlohmann::json::parse(in, nullptr, false);
            if (document.is_object() && document.contains("fingerprint") && document["fingerprint"].is_string())
              {
                stored     = document["fingerprint"].get<std::string>();
                written_by = document.value("input", std::string("?"));
              }
          }
      if (stored.empty())
        throw InputError("--resume: '" + directory +
                         "' has no fingerprint of the file that wrote its study.csv (results.json or "
                         "study.partial.json with 'fingerprint'), so it cannot be checked to belong to this "
                         "study." + fix);
      const std::string mine = fingerprint(options);
      if (stored != mine)
        throw InputError("--resume: the table '" + csv + "' was written by another parameter file or other --set "
                         "values (it was written by '" + written_by + "', fingerprint " + stored + "; '" +
                         options.parameter_file + "' with " + std::to_string(options.changes.size()) +
                         " --set value(s) has fingerprint " + mine +
                         "). A study resumes only with the file and the --set values that started it." + fix);

      std::ifstream                         in(csv, std::ios::binary);
      const std::string                     text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      std::vector<std::vector<std::string>> lines;
      std::size_t                           begin = 0;
      for (std::size_t end; (end = text.find('\n', begin)) != std::string::npos; begin = end + 1)
        lines.push_back(Utilities::split_string_list(text.substr(begin, end - begin), ','));
      const std::size_t n_parameters = study.parameters.size();
      bool              header_ok    = !lines.empty() && lines[0].size() > 1 + n_parameters && lines[0][0] == "point";
      for (std::size_t i = 0; header_ok && i < n_parameters; ++i)
        header_ok = lines[0][1 + i] == study.parameters[i].name;
      if (!header_ok)
        {
          std::string names;
          for (const auto &p : study.parameters)
            names += ", " + p.name;
          throw InputError("--resume: the header of '" + csv + "' is not 'point" + names +
                           "' followed by the quantities." + fix);
        }
      const std::vector<std::string> quantities(lines[0].begin() + 1 + n_parameters, lines[0].end());
      std::vector<StudyPoint>             rows;
      for (std::size_t r = 1; r < lines.size() && lines[r].size() == lines[0].size(); ++r)
        {
          StudyPoint      point;
          bool       complete = lines[r][0] == std::to_string(r);
          const auto number   = [&](const std::string &word) {
            char        *end   = nullptr;
            const double value = std::strtod(word.c_str(), &end);
            complete           = complete && !word.empty() && *end == '\0';
            return value;
          };
          for (std::size_t c = 1; c < lines[r].size(); ++c)
            (c <= n_parameters ? point.x : point.values).push_back(number(lines[r][c]));
          if (!complete)
            break;
          point.index = r - 1;
          if (std::none_of(point.values.begin(), point.values.end(), [](double v) { return std::isfinite(v); }))
            point.error = "failed before: runs again";
          rows.push_back(point);
        }
      return {quantities, rows};
    }

    /** Whether the study that writes `directory` (the 'pid' of its study.partial.json) still runs. */
    bool
    still_running(const std::string &directory)
    {
      std::ifstream in(directory + "/study.partial.json");
      const auto    document = nlohmann::json::parse(in, nullptr, false);
      if (!document.is_object() || !document.contains("pid") || !document["pid"].is_number_integer())
        return false;
      const pid_t pid = document["pid"].get<pid_t>();
      return pid != ::getpid() && (::kill(pid, 0) == 0 || errno == EPERM);
    }

    /** The rows --resume continues from: the directory they are in, the quantities and the rows. */
    struct EarlierRows
    {
      std::string              source;
      std::vector<std::string> quantities;
      std::vector<StudyPoint>  rows;
    };

    /**
     * --resume: the rows of the output directory `directory` or, if more,
     * of a temporary directory that a run into it left behind (a study
     * killed by SIGKILL before it could move its rows there), each checked by
     * read_earlier_rows; the output directory's message if none has any.
     */
    EarlierRows
    find_earlier_rows(const RunOptions &options, const Study &study, const std::string &directory)
    {
      EarlierRows               best;
      std::optional<InputError> problem;
      try
        {
          auto [quantities, rows] = read_earlier_rows(options, study, directory);
          best                    = {directory, quantities, rows};
        }
      catch (const InputError &e)
        {
          problem = e;
        }
      for (const auto &left : OutputDirectory::temporary_directories_of(directory))
        if (!still_running(left))
          try
            {
              auto [quantities, rows] = read_earlier_rows(options, study, left);
              if (best.source.empty() || rows.size() > best.rows.size())
                best = {left, quantities, rows};
            }
          catch (const InputError &)
            {} // another study's, or no table yet
      if (best.source.empty())
        throw *problem;
      return best;
    }
  } // namespace

  void
  run_study(const RunOptions   &options,
            ParameterHandler   &prm,
            const std::string  &directory,
            const std::string  &origin,
            std::ostream       &terminal)
  {
    // under an MPI launcher the points are distributed round-robin over the
    // ranks; rank 0 gathers the rows and alone prints and writes
    unsigned int rank = 0, n_ranks = 1;
    if (started_by_mpi_launcher())
      {
        ensure_parallel_initialized();
        rank    = Utilities::MPI::this_mpi_process(MPI_COMM_WORLD);
        n_ranks = Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD);
      }
    std::ostringstream discarded;
    std::ostream      &out = rank == 0 ? terminal : discarded;

    Section section(prm);
    Study   study;
    study.parse_parameters(section);
    // a --set of an entry the study varies would be replaced at every point
    for (const auto &p : study.parameters)
      for (const auto &[path, value] : options.changes)
        if (same_entry(path, p.path))
          input_error("Study/Parameters/" + p.name, "Path", "'" + p.path + "'",
                      "--set '" + path + "=" + value + "' changes the entry this parameter varies, and the "
                      "study's values would replace it at every point. Drop the --set, or vary another entry.");
    // A study that varies parameters or component entries of 'Lumped
    // system' keeps the lumped parameters symbols of the compiled code, their
    // values passed at run time: its points share one compiled library
    // (other lumped entries, e.g. time functions, are not in the code). At
    // the end, the beam solved for the last point is freed.
    struct PointReuse
    {
      explicit PointReuse(const bool runtime_parameters)
      {
        lumped::set_runtime_parameters(runtime_parameters);
        forget_solved_beam();
      }
      ~PointReuse()
      {
        lumped::set_runtime_parameters(false);
        forget_solved_beam();
      }
    } reuse(std::any_of(study.parameters.begin(), study.parameters.end(), [](const auto &p) {
      const auto parts = path_parts(p.path);
      return parts.size() > 2 && parts[0] == "Lumped system" && (parts[1] == "Parameters" || parts[1] == "Components");
    }));
    const unsigned long compilations_before = lumped::compilations(), beam_solves_before = beam_solves();
    if (n_ranks > 1 && study.write_point_outputs)
      input_error("Study",
                  "Write point outputs",
                  "true",
                  "per-point output directories are written by one process only. Run the study without "
                  "mpirun, or set 'Write point outputs = false'.");
    if (!split_list(prm.get({"Sweep"}, "Parameter 1")).empty())
      input_error("Sweep",
                  "Parameter 1",
                  "'" + prm.get({"Sweep"}, "Parameter 1") + "'",
                  "a file has either a 'Sweep' or a 'Study' ('Design = " + study.design +
                    "'). Move the swept parameter into subsection 'Study/Parameters' and delete subsection "
                    "'Sweep'.");
    const std::vector<std::vector<double>> design =
      study.design == "optimize" ? std::vector<std::vector<double>>{} : study.points();
    std::vector<double> first;
    for (const auto &p : study.parameters)
      first.push_back(p.initial);
    if (!design.empty())
      first = design.front();

    if (options.validate_only || (rank != 0 && study.design == "optimize"))
      {
        if (rank != 0) // rank 0 validates or optimizes (one evaluation after the other)
          return;
        RunOptions o = options;
        for (std::size_t i = 0; i < first.size(); ++i)
          o.changes.emplace_back(study.parameters[i].path, exact_text(first[i]));
        std::ostringstream ignored;
        nlohmann::json     results;
        o.point_results = &results;
        run(o, ignored);
        // the quantities, without a run: against the paths a results.json can have
        std::vector<std::pair<std::string, std::string>> named; // entry, path
        for (const auto &q : study.quantities)
          named.emplace_back("Quantities", q);
        if (!study.objective.empty())
          named.emplace_back("Objective", study.objective);
        for (const auto &[entry, q] : named)
          if (const std::string closest = check_results_path(q); !closest.empty())
            input_error("Study", entry, "'" + q + "'",
                        "no run's results.json has a number at this path. The closest paths it can have are " +
                          closest +
                          " ('#' a list index, from 0). A quantity is a path into results.json (keys and list "
                          "indices joined by '/'); run the file once and look at its results.json.");
        out << "'" << options.parameter_file << "' is valid: a study (design " << study.design << ", "
            << (study.design == "optimize" ? "up to " + std::to_string(study.max_evaluations) :
                                             std::to_string(design.size()))
            << " points) over " << study.parameters.size()
            << " parameter(s); the file is valid at its first point (" << describe_point(study.parameters, first)
            << ").\n";
        return;
      }

    out << "Hamilton: " << options.parameter_file << "\n  study, design " << study.design << ", "
        << (study.design == "optimize" ? "up to " + std::to_string(study.max_evaluations) + " evaluations" :
                                         std::to_string(design.size()) + " points")
        << ", each a whole run of the file\n";
    // --resume: the rows of the table in the output directory (every rank
    // reads them, before anything is written)
    const EarlierRows earlier = options.resume ? find_earlier_rows(options, study, directory) : EarlierRows{};
    // rows a killed run left in a temporary directory: removed once they are in the output directory
    const auto forget_left_rows = [&]() {
      std::error_code ignored;
      if (!earlier.source.empty() && earlier.source != directory)
        std::filesystem::remove_all(earlier.source, ignored);
    };
    if (earlier.source != directory && !earlier.source.empty())
      out << "  --resume: " << earlier.rows.size() << " rows from '" << earlier.source
          << "', left by a run that was killed\n";
    InterruptPolling               polling;
    std::optional<OutputDirectory> written;
    if (rank == 0)
      written.emplace(directory, origin);
    StudyResult result;
    result.study       = study;
    result.input       = std::filesystem::path(options.parameter_file).filename().string();
    result.fingerprint = fingerprint(options);
    result.resumed     = options.resume;
    const Writers writers(section);
    RunResults    run;
    run.input      = result.input;
    run.parameters = &prm;
    run.results.push_back(&result);
    Driver driver(options, study, rank == 0 ? written->path() : std::string(), result);
    if (!earlier.rows.empty())
      {
        driver.quantities = earlier.quantities;
        driver.earlier    = earlier.rows;
      }
    // one process: each point's row goes to the writers (study.csv) as soon
    // as it is computed; several: rank 0 hands them over once gathered
    const Destination destination{rank == 0 ? written->path() : std::string(), false, rank == 0};
    std::vector<std::unique_ptr<RowSink>> sinks;
    if (rank == 0)
      sinks = writers.open_rows(result, destination);
    if (n_ranks == 1)
      driver.sinks = &sinks;
    const auto start = std::chrono::steady_clock::now();
    try
      {
        if (study.design == "optimize")
          result.optimum = optimize(study, driver);
        else if (n_ranks == 1)
          {
            Progress progress(design.size());
            for (std::size_t i = 0; i < design.size(); ++i)
              {
                driver.evaluate(design[i], i);
                progress.update(i + 1);
                check_interrupt();
              }
          }
      }
    catch (const Interrupted &e)
      {
        // one process: keep the rows computed so far, for --resume
        if (n_ranks > 1 || driver.quantities.empty() || driver.points.empty())
          throw;
        for (const auto &sink : sinks)
          sink->end(out);
        run.stopped = true;
        writers.finish(run, destination);
        written->commit();
        forget_left_rows();
        throw Interrupted(e.signal_number,
                          "the study stopped after " + std::to_string(driver.points.size()) + " of " +
                            (study.design == "optimize" ? "up to " + std::to_string(study.max_evaluations) :
                                                          std::to_string(design.size())) +
                            " points. Their rows are in '" + directory +
                            "/study.csv' (no results.json: the study did not finish); run the same command "
                            "with --resume to compute the rest.");
      }
    std::size_t   resumed      = driver.n_resumed;
    unsigned long compilations = lumped::compilations() - compilations_before,
                  n_beam_solves = beam_solves() - beam_solves_before;
    if (study.design != "optimize" && n_ranks > 1)
      {
        // Dynamic load balancing: each rank takes the next point of the
        // design when it is free, from a counter on rank 0 (one-sided
        // fetch-and-add), so that ranks given cheap points take more of them;
        // a second counter holds the points done on every rank, shown by
        // rank 0's progress. Which rank computes a point does not change its
        // row. A failure stops this rank and is reported by rank 0.
        nlohmann::json mine = {{"rows", nlohmann::json::array()}};
        Progress       progress(design.size());
        SharedCounters counters(rank);
        try
          {
            for (auto i = counters.add(SharedCounters::next_point); i < design.size();
                 i      = counters.add(SharedCounters::next_point))
              {
                const StudyPoint &p = driver.evaluate(design[i], i);
                nlohmann::json values = nlohmann::json::array();
                for (const double v : p.values) // nan: null
                  values.push_back(std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr));
                mine["rows"].push_back({{"index", i}, {"values", values}, {"error", p.error}});
                const std::size_t done = counters.add(SharedCounters::points_done) + 1;
                if (rank == 0)
                  progress.update(done);
              }
          }
        catch (const InputError &e)
          {
            mine["failure"] = e.what();
          }
        mine["quantities"]   = driver.quantities;
        mine["resumed"]      = driver.n_resumed;
        mine["compilations"] = lumped::compilations() - compilations_before;
        mine["beam_solves"]  = beam_solves() - beam_solves_before;
        // the rows of every rank, in the design's order (nlohmann writes
        // doubles so that they read back bit for bit)
        const auto all = Utilities::MPI::gather(MPI_COMM_WORLD, mine.dump(), 0);
        if (rank != 0)
          return;
        std::vector<StudyPoint> points(design.size());
        std::string        failure;
        for (const auto &text : all)
          {
            const auto part = nlohmann::json::parse(text);
            resumed += part["resumed"].get<std::size_t>();
            compilations += part["compilations"].get<unsigned long>();
            n_beam_solves += part["beam_solves"].get<unsigned long>();
            if (part.contains("failure") && failure.empty())
              failure = part["failure"].get<std::string>();
            if (!part["quantities"].empty() && part["quantities"].get<std::vector<std::string>>() != driver.quantities)
              {
                if (driver.quantities.empty())
                  driver.quantities = part["quantities"].get<std::vector<std::string>>();
                else
                  throw InputError("In subsection 'Study': 'Quantities' is empty and the ranks chose different "
                                   "default quantities from their first points. Name the quantities.");
              }
            for (const auto &row : part["rows"])
              {
                StudyPoint &p = points[row["index"].get<std::size_t>()];
                p.index  = row["index"].get<std::size_t>();
                p.x      = design[p.index];
                p.error  = row["error"].get<std::string>();
                for (const auto &v : row["values"])
                  p.values.push_back(v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>());
              }
          }
        if (!failure.empty())
          throw InputError(failure);
        driver.points = points;
        for (const auto &sink : sinks)
          {
            sink->begin(result.column_names(), result.columns());
            for (std::size_t k = 0; k < points.size(); ++k)
              sink->row(result.row(k));
          }
      }
    for (const auto &sink : sinks)
      sink->end(out);
    result.seconds        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.n_resumed      = resumed;
    result.n_compilations = compilations;
    result.n_beam_solves  = n_beam_solves;
    writers.print(result, out);
    writers.write(result, run, destination);
    writers.finish(run, destination);
    check_interrupt();
    written->commit();
    forget_left_rows();
    out << "Results written to " << directory << "/\n";
  }
} // namespace hamilton
