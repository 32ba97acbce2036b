#include <hamilton/analyses/frequency_response.h>
#include <hamilton/base/format.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace hamilton
{
  using namespace dealii;
  using complex = std::complex<double>;

  void
  FrequencyGrid::declare(ParameterHandler &prm, double default_min, double default_max)
  {
    prm.declare_entry("Minimum frequency", std::to_string(default_min), Patterns::Double(),
                      "Lowest frequency of the sweep (Hz).");
    prm.declare_entry("Maximum frequency", std::to_string(default_max), Patterns::Double(),
                      "Highest frequency of the sweep (Hz).");
    prm.declare_entry("Number of frequencies", "500", Patterns::Integer(2),
                      "Points of the base grid.");
    prm.declare_entry("Spacing", "linear", Patterns::Selection("linear|logarithmic"),
                      "Spacing of the base grid.");
    prm.declare_entry("Refine near resonances", "true", Patterns::Bool(),
                      "Add 81 points around every resonance in the range, from "
                      "f_sc (1 - 6 zeta) to the open-circuit estimate f_oc (1 + 6 zeta).");
  }

  void
  FrequencyGrid::parse(Section &s)
  {
    // 1e12 Hz is far above any structural mode; (2 pi f)^2 stays finite
    minimum     = get_bounded_double(s, "Minimum frequency", 1e12, "Hz");
    maximum     = get_bounded_double(s, "Maximum frequency", 1e12, "Hz");
    n           = s.get_unsigned("Number of frequencies");
    logarithmic = s.get("Spacing") == "logarithmic";
    refine      = s.get_bool("Refine near resonances");
    if (!(minimum > 0))
      s.fail("Minimum frequency", "must be positive (Hz). Give the lowest frequency of interest.");
    if (!(maximum > minimum))
      s.fail("Maximum frequency",
             "must be larger than 'Minimum frequency' (" + format_number(minimum) +
               " Hz): the range is empty. Swap or widen them.");
  }

  std::vector<double>
  FrequencyGrid::frequencies_hz(const SpectralModel &model) const
  {
    std::vector<double> f;
    for (unsigned int i = 0; i < n; ++i)
      {
        const double t = double(i) / (n - 1);
        f.push_back(logarithmic ? minimum * std::pow(maximum / minimum, t) :
                                  minimum + (maximum - minimum) * t);
      }
    if (refine)
      for (unsigned int r = 0; r < model.n_modes(); ++r)
        {
          const double w = model.omega[r];
          if (w == 0)
            continue;
          double gamma = 0; // single-mode open-circuit estimate
          for (unsigned int e = 0; e < model.chi.size(); ++e)
            gamma += model.chi[e][r] * model.chi[e][r] / (model.capacitance[e] * w * w);
          const double width = std::max(6 * model.zeta[r], 3e-3);
          const double a     = w / (2 * M_PI) * (1 - width);
          const double b     = w * std::sqrt(1 + gamma) / (2 * M_PI) * (1 + width);
          for (unsigned int k = 0; k <= 80; ++k)
            {
              const double x = a + (b - a) * k / 80.;
              if (x >= minimum && x <= maximum)
                f.push_back(x);
            }
        }
    std::sort(f.begin(), f.end());
    f.erase(std::unique(f.begin(), f.end()), f.end());
    return f;
  }

  std::vector<std::pair<std::string, double>>
  parse_output_points(Section &s, const std::string &entry)
  {
    std::vector<std::pair<std::string, double>> points;
    for (const auto &item : split_list(s.get(entry)))
      {
        const auto  colon = item.find(':');
        std::string name  = colon == std::string::npos ? item : Utilities::trim(item.substr(0, colon));
        double      x     = -1;
        try
          {
            x = Utilities::string_to_double(
              Utilities::trim(colon == std::string::npos ? item : item.substr(colon + 1)));
          }
        catch (...)
          {
            s.fail(entry, "'" + item + "' is not 'name: position' or a position (m).");
          }
        if (!std::isfinite(x) || x < 0)
          s.fail(entry, "the point '" + item + "' lies outside the beam (x must be >= 0 m).");
        points.emplace_back(name, x);
      }
    return points;
  }

  void
  check_number_of_modes(unsigned int n_modes, const Problem &problem, const std::string &path)
  {
    const unsigned int n = problem.discretization.n_dofs();
    if (n_modes > n)
      input_error(path, "Number of modes", std::to_string(n_modes),
                  "the discretization has " + std::to_string(n) + " unknowns, hence only " +
                    std::to_string(n) + " modes. Ask for at most " + std::to_string(n) +
                    " (0 keeps all of them), or refine 'Discretization'.");
  }

  void
  require_full_modal_basis(const Problem &problem, const std::string &path)
  {
    // dense eigensolution of all modes: about six n x n matrices
    const double n = problem.discretization.n_dofs();
    require_memory(6 * n * n * sizeof(double), path, "Number of modes", "0",
                   "the complete modal basis of " + std::to_string(problem.discretization.n_dofs()) +
                     " unknowns (dense). Give a number of modes, or fewer elements in 'Discretization'");
  }

  std::vector<std::pair<std::string, double>>
  points_on_beam(const std::vector<std::pair<std::string, double>> &points,
                 const BeamModel                                   &model,
                 const std::string                                 &path,
                 const std::string                                 &entry)
  {
    std::vector<std::pair<std::string, double>> result;
    for (const auto &[name, x] : points)
      {
        if (!model.on_beam(x))
          input_error(path, entry, "'" + name + ": " + format_number(x) + "'",
                      "lies outside the beam (0 <= x <= " + format_number(model.length()) +
                        " m). Give a position on the beam.");
        result.emplace_back(name, model.snap(x));
      }
    return result;
  }

  void
  FrequencyResponseResult::print_summary(std::ostream &out) const
  {
    out << "Frequency response (" << table.rows.size() << " frequencies)\n";
    for (const auto &l : lines)
      out << "  " << l << "\n";
  }

  void
  FrequencyResponseResult::add_to_json(nlohmann::json &results) const
  {
    results["frequency_response"] = summary;
  }

  void
  FrequencyResponseAnalysis::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Frequency response");
    prm.declare_entry("Input",
                      "base acceleration",
                      Patterns::Selection("base acceleration|point force|voltage"),
                      "What drives the beam: a harmonic base translation, a "
                      "point force, or the electrodes with 'Circuit = voltage' "
                      "(their 'Voltage' is the amplitude).");
    prm.declare_entry("Base acceleration", "1", Patterns::Double(),
                      "Amplitude of the base acceleration, in 'Acceleration unit'.");
    prm.declare_entry("Acceleration unit", "g", Patterns::Selection("g|m/s^2"),
                      "Unit of 'Base acceleration': g = 9.81 m/s^2 (results per g), or m/s^2.");
    prm.declare_entry("Force", "1", Patterns::Double(), "Point force amplitude (N).");
    prm.declare_entry("Force position", "0", Patterns::Double(), "x of the point force (m).");
    FrequencyGrid::declare(prm, 1, 1000);
    prm.declare_entry("Output points", "", Patterns::Anything(),
                      "Points for displacement and velocity: 'name: x' pairs (m), "
                      "comma separated, e.g. 'tip: 0.1'.");
    prm.declare_entry("Power", "peak", Patterns::Selection("peak|average"),
                      "Electrical power reported: 'peak' |V|^2 Re(Y) (the "
                      "convention of Erturk and Inman) or 'average' (half of it).");
    prm.declare_entry("Number of modes", "0", Patterns::Integer(0),
                      "0: all modes, i.e. the full finite-element model; n: the "
                      "n-mode model (1 gives the single-mode model of the literature).");
    prm.declare_entry("Include prestress", "true", Patterns::Bool(),
                      "Whether K_g of 'Beam/Prestress' enters.");
    prm.leave_subsection();
  }

  void
  FrequencyResponseAnalysis::parse_parameters(Section &s)
  {
    input = s.get("Input");
    const double unit = s.get("Acceleration unit") == "g" ? g_acceleration : 1.;
    if (input == "base acceleration")
      excitation.base_acceleration = get_bounded_double(s, "Base acceleration", 1e12, s.get("Acceleration unit")) * unit;
    if (input == "point force")
      {
        excitation.force          = get_bounded_double(s, "Force", 1e15, "N");
        excitation.force_position = s.get_double("Force position");
      }
    grid.parse(s);
    points            = parse_output_points(s, "Output points");
    average_power     = s.get("Power") == "average";
    n_modes           = s.get_unsigned("Number of modes");
    include_prestress = s.get_bool("Include prestress");
  }

  void
  FrequencyResponseAnalysis::check(const Problem &problem) const
  {
    const std::string path = "Analysis/Frequency response";
    points_on_beam(points, problem.model, path, "Output points");
    check_number_of_modes(n_modes, problem, path);
    const double columns = 1 + 5. * points.size() + 4. * problem.model.electrodes.size();
    require_memory(double(grid.n) * (columns * sizeof(double) + 32), path, "Number of frequencies",
                   std::to_string(grid.n), "the table of " + std::to_string(grid.n) + " frequencies");
    if (n_modes == 0)
      require_full_modal_basis(problem, path);
    if (input == "point force" && !problem.model.on_beam(excitation.force_position))
      input_error("Analysis/Frequency response", "Force position",
                  format_number(excitation.force_position),
                  "lies outside the beam (0 <= x <= " + format_number(problem.model.length()) +
                    " m). Give a position on the beam.");
    if (input == "voltage")
      {
        bool any = false;
        for (const auto &e : problem.model.electrodes)
          any = any || e.circuit == ElectrodeCircuit::voltage;
        if (!any)
          input_error("Analysis/Frequency response", "Input", "'voltage'",
                      "no electrode has 'Circuit = voltage'. Set it on the "
                      "driving electrode in 'Beam/Electrodes'.");
      }
  }

  std::unique_ptr<AnalysisResult>
  FrequencyResponseAnalysis::run(const Problem &problem) const
  {
    const SpectralModel model(problem, n_modes, include_prestress);
    auto                result = std::make_unique<FrequencyResponseResult>();
    const double        power_factor = average_power ? 0.5 : 1.;
    const double        a_base       = excitation.base_acceleration;
    const auto points = points_on_beam(this->points, problem.model, "Analysis/Frequency response", "Output points");
    auto       excitation = this->excitation;
    excitation.force_position = problem.model.snap(excitation.force_position);
    result->warnings          = problem.model.electrode_warnings();

    std::vector<std::vector<double>> phi;
    auto                            &columns = result->table.columns;
    columns.push_back("frequency_hz");
    for (const auto &p : points)
      {
        phi.push_back(model.mode_values(p.second));
        for (const char *c : {"w_rel_m", "w_rel_phase_deg", "w_abs_m", "v_rel_m_s", "v_abs_m_s"})
          columns.push_back(p.first + "_" + c);
      }
    for (const auto &name : model.electrode_names)
      for (const char *c : {"V_V", "V_phase_deg", "I_A", "power_W"})
        columns.push_back(name + "_" + c);

    // the largest values: frequency, value and row
    struct Largest
    {
      double      frequency = 0, value = 0;
      std::size_t row       = 0;
    };
    std::vector<Largest> peak_w(points.size()), peak_p(model.electrode_names.size());
    const auto           frequencies = grid.frequencies_hz(model);
    for (const double f : frequencies)
      {
        const double w     = 2 * M_PI * f;
        const auto   state = model.solve(w, excitation, model.circuits_of_model(w));
        // base displacement amplitude for the acceleration amplitude
        const complex w_base = (input == "base acceleration") ? -a_base / (w * w) : 0.;
        std::vector<double> row{f};
        for (unsigned int i = 0; i < points.size(); ++i)
          {
            const complex rel = SpectralModel::deflection(state, phi[i]);
            const complex abs = rel + w_base;
            row.insert(row.end(),
                       {std::abs(rel), std::arg(rel) * 180 / M_PI, std::abs(abs),
                        w * std::abs(rel), w * std::abs(abs)});
            if (std::abs(rel) > peak_w[i].value)
              peak_w[i] = {f, std::abs(rel), result->table.rows.size()};
          }
        const auto circuits = model.circuits_of_model(w);
        for (unsigned int e = 0; e < state.V.size(); ++e)
          {
            const double P = circuits[e].kind == SpectralModel::Circuit::admittance ?
                               power_factor * std::norm(state.V[e]) * circuits[e].value.real() :
                               0.;
            row.insert(row.end(),
                       {std::abs(state.V[e]), std::arg(state.V[e]) * 180 / M_PI,
                        std::abs(state.I[e]), P});
            if (P > peak_p[e].value)
              peak_p[e] = {f, P, result->table.rows.size()};
          }
        result->table.rows.push_back(row);
      }

    // a largest value on the first or last frequency is no resonance peak:
    // the response still rises beyond the window
    const auto where = [&](const Largest &l) -> std::string {
      if (frequencies.size() > 2 && l.row > 0 && l.row + 1 < frequencies.size())
        return "interior";
      return l.row == 0 ? "lower edge" : "upper edge";
    };
    const auto describe = [&](const Largest &l, const std::string &what, const std::string &unit) {
      std::ostringstream line;
      if (where(l) == "interior")
        line << "peak " << what << " " << format_significant(l.value) << " " << unit << " at "
             << format_significant(l.frequency) << " Hz";
      else
        line << "no peak of " << what << " inside the window: the largest, " << format_significant(l.value) << " "
             << unit << ", is at its " << where(l) << ", " << format_significant(l.frequency)
             << " Hz (the response still rises beyond it: widen '"
             << (where(l) == "lower edge" ? "Minimum" : "Maximum") << " frequency' to find the peak)";
      return line.str();
    };
    auto &summary = result->summary;
    summary["input"] = input;
    summary["power"] = average_power ? "average" : "peak";
    summary["modes"] = model.n_modes();
    summary["points"] = nlohmann::json::array();
    for (unsigned int i = 0; i < points.size(); ++i)
      {
        summary["points"].push_back({{"name", points[i].first},
                                     {"position_m", points[i].second},
                                     {"peak_frequency_hz", peak_w[i].frequency},
                                     {"peak_w_rel_m", peak_w[i].value},
                                     {"largest_at", where(peak_w[i])}});
        result->lines.push_back(points[i].first + ": " + describe(peak_w[i], "|w_rel|", "m"));
      }
    summary["electrodes"] = nlohmann::json::array();
    for (unsigned int e = 0; e < peak_p.size(); ++e)
      {
        summary["electrodes"].push_back({{"name", model.electrode_names[e]},
                                         {"peak_power_frequency_hz", peak_p[e].frequency},
                                         {"peak_power_W", peak_p[e].value},
                                         {"largest_at", where(peak_p[e])}});
        if (peak_p[e].value > 0)
          result->lines.push_back("electrode " + model.electrode_names[e] + ": " +
                                  describe(peak_p[e], "power", average_power ? "W (average)" : "W (peak |V|^2 Re Y)"));
      }
    require_finite(*result, "Analysis/Frequency response", "Check 'Base acceleration', 'Force', 'Minimum frequency' and 'Maximum frequency' and the electrode voltages.");
    return result;
  }

  HAMILTON_REGISTER_PLUGIN(Analysis,
                           FrequencyResponseAnalysis,
                           "frequency response",
                           "steady-state response to base acceleration, a "
                           "point force or electrode voltages, with the "
                           "electrode circuits (resistors, RL shunts), on the "
                           "full model in its modal basis.")
} // namespace hamilton
