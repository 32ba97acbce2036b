#include <hamilton/analyses/modal.h>
#include <hamilton/discretization/discretization.h>
#include <hamilton/lumped/lumped_run.h>
#include <hamilton/sweep.h>

#include <deal.II/base/utilities.h>

#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace hamilton
{
  using namespace dealii;

  namespace
  {
    // Set entry "A/B/entry" of the handler (from the top level).
    void
    set_entry(ParameterHandler &prm, const std::string &path, double value)
    {
      std::vector<std::string> parts = Utilities::split_string_list(path, '/');
      const std::string        entry = parts.back();
      parts.pop_back();
      for (const auto &p : parts)
        prm.enter_subsection(p);
      std::ostringstream s;
      s << std::setprecision(17) << value;
      try
        {
          prm.set(entry, s.str());
        }
      catch (...)
        {
          for (std::size_t i = 0; i < parts.size(); ++i)
            prm.leave_subsection();
          throw;
        }
      for (std::size_t i = 0; i < parts.size(); ++i)
        prm.leave_subsection();
    }

    class SweepResult : public AnalysisResult
    {
    public:
      Table  table{"sweep", {}, {}};
      double seconds = 0;

      void
      print_summary(std::ostream &out) const override
      {
        out << "Sweep: " << table.rows.size() << " modal analyses in "
            << std::setprecision(3) << seconds << " s ("
            << 1e3 * seconds / std::max<std::size_t>(1, table.rows.size())
            << " ms per analysis); table sweep.csv\n";
      }
      void
      add_to_json(nlohmann::json &results) const override
      {
        results["sweep"] = {{"points", table.rows.size()},
                            {"columns", table.columns}};
      }
      std::vector<Table>
      tables() const override
      {
        return {table};
      }
    };
  } // namespace

  void
  Sweep::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Sweep");
    for (const std::string n : {"1", "2"})
      {
        prm.declare_entry("Parameter " + n,
                          "",
                          Patterns::Anything(),
                          "Path of a numeric entry to vary, subsections and "
                          "entry joined by '/', e.g. 'Beam/Layers/substrate/"
                          "Thickness'. Empty: no sweep (parameter 1) or a "
                          "one-parameter sweep (parameter 2).");
        prm.declare_entry("Values " + n,
                          "",
                          Patterns::Anything(),
                          "Values of parameter " + n +
                            " in its own unit: a list 'a, b, c' or "
                            "'linspace(start, stop, count)'.");
      }
    prm.leave_subsection();
  }

  void
  Sweep::parse_parameters(Section &s)
  {
    Section::Scope scope(s, "Sweep");
    axes.clear();
    for (const std::string n : {"1", "2"})
      {
        const std::string path = Utilities::trim(s.get("Parameter " + n));
        if (path.empty())
          continue;
        Axis axis{path, {}};
        // each point is a whole run: a million points is already days
        axis.values = get_number_list(s, "Values " + n, 1000000);
        if (axis.values.empty())
          s.fail("Values " + n, "is empty. Give the values of 'Parameter " + n + "'.");
        axes.push_back(axis);
      }
    if (axes.size() == 1 && Utilities::trim(s.get("Parameter 1")).empty())
      s.fail("Parameter 1",
             "is empty while 'Parameter 2' is set. Use 'Parameter 1' for a "
             "one-parameter sweep.");
  }

  namespace
  {
    /** What to write instead of a sweep that cannot run as one. */
    const std::string write_a_study =
      " Write a study instead, which repeats every analysis and a lumped system: subsection 'Study' with "
      "'Design = grid' and, per parameter, a subsection of 'Study/Parameters' with 'Path' and 'Values' "
      "(doc/studies.md; examples in prm/studies/).";
  } // namespace

  void
  Sweep::check_without_beam(ParameterHandler &prm)
  {
    const std::string path = Utilities::trim(prm.get({"Sweep"}, "Parameter 1"));
    if (!path.empty())
      input_error("Sweep",
                  "Parameter 1",
                  "'" + path + "'",
                  "subsection 'Sweep' repeats the modal analysis of a beam, and this file has no beam: the "
                  "sweep would be ignored." + write_a_study);
  }

  void
  Sweep::check(ParameterHandler &prm,
               const std::vector<std::pair<std::string, std::unique_ptr<Analysis>>>
                 &analyses)
  {
    for (const auto &a : analyses)
      if (a.first != "modal")
        input_error("Sweep",
                    "Parameter 1",
                    "'" + axes[0].path + "'",
                    "subsection 'Sweep' repeats only the modal analysis, and this file also selects '" + a.first +
                      "' in 'Analysis/Analyses': its results would be dropped." + write_a_study);
    if (lumped::LumpedRun::described_in(prm))
      input_error("Sweep",
                  "Parameter 1",
                  "'" + axes[0].path + "'",
                  "subsection 'Sweep' repeats only the modal analysis of the beam, and this file also has a "
                  "lumped system: it would not be run." + write_a_study);
    modal = nullptr;
    for (const auto &a : analyses)
      if (a.first == "modal")
        modal = a.second.get();
    if (modal == nullptr)
      input_error("Analysis",
                  "Analyses",
                  "'" + prm.get(std::vector<std::string>{"Analysis"}, "Analyses") + "'",
                  "a sweep repeats the modal analysis. Add 'modal' to the list.");
    for (std::size_t a = 0; a < axes.size(); ++a)
      {
        const std::vector<std::string> parts =
          Utilities::split_string_list(axes[a].path, '/');
        std::string original;
        try
          {
            if (!entry_declared(prm, std::vector<std::string>(parts.begin(), parts.end() - 1), parts.back()))
              throw std::invalid_argument("undeclared");
            original = prm.get(std::vector<std::string>(parts.begin(), parts.end() - 1),
                               parts.back());
            set_entry(prm, axes[a].path, axes[a].values.front());
            set_entry(prm, axes[a].path, Utilities::string_to_double(original));
          }
        catch (const std::exception &)
          {
            input_error("Sweep",
                        "Parameter " + std::to_string(a + 1),
                        "'" + axes[a].path + "'",
                        "no numeric entry with this path exists. Give "
                        "subsections and entry joined by '/', as listed by "
                        "'hamilton --print-parameters', e.g. "
                        "'Beam/Layers/substrate/Thickness'.");
          }
      }
  }

  std::unique_ptr<AnalysisResult>
  Sweep::run(ParameterHandler &prm, Section &section, std::ostream &) const
  {
    const auto &options = static_cast<const ModalAnalysis *>(modal)->options;
    ModalOptions point_options          = options;
    point_options.samples_per_element   = 0;

    auto result = std::make_unique<SweepResult>();
    for (const auto &axis : axes)
      result->table.columns.push_back(axis.path);
    for (unsigned int m = 1; m <= options.n_modes; ++m)
      result->table.columns.push_back("frequency_hz_mode_" + std::to_string(m));

    const std::size_t n1 = axes[0].values.size();
    const std::size_t n2 = axes.size() > 1 ? axes[1].values.size() : 1;
    const std::size_t total = n1 * n2;
    const bool        tty   = isatty(fileno(stderr));
    const auto        start = std::chrono::steady_clock::now();
    std::size_t       last_percent = 101;
    for (std::size_t i = 0; i < n1; ++i)
      for (std::size_t j = 0; j < n2; ++j)
        {
          std::vector<double> row{axes[0].values[i]};
          set_entry(prm, axes[0].path, axes[0].values[i]);
          if (axes.size() > 1)
            {
              row.push_back(axes[1].values[j]);
              set_entry(prm, axes[1].path, axes[1].values[j]);
            }
          BeamModel model;
          model.parse_parameters(section);
          auto discretization = Discretization::create(section);
          discretization->setup(model);
          const auto    operators = discretization->assemble();
          const Problem problem{model, *discretization, *operators};
          modal->check(problem);
          const auto modes = compute_modes(problem, point_options);
          for (const auto &mode : modes->modes)
            row.push_back(mode.frequency_hz);
          result->table.rows.push_back(row);

          const std::size_t done    = result->table.rows.size();
          const std::size_t percent = 100 * done / total;
          if (percent != last_percent && (tty || percent % 10 == 0))
            {
              std::cerr << (tty ? "\r" : "") << "  sweep " << std::setw(3)
                        << percent << "% (" << done << "/" << total << ")"
                        << (tty ? "" : "\n") << std::flush;
              last_percent = percent;
            }
        }
    if (tty)
      std::cerr << "\n";
    result->seconds = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    require_finite(*result, "Sweep", "Check the swept values ('Values 1', 'Values 2').");
    return result;
  }
} // namespace hamilton
