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
    nlohmann::json summary;
    summary["input"]  = input;
    summary["power"]  = average_power ? "average" : "peak";
    summary["modes"]  = n_modes;
    summary["points"] = nlohmann::json::array();
    for (const auto &p : points)
      {
        nlohmann::json point = {{"name", p.name},
                                {"peak_frequency_hz", p.frequency_hz},
                                {"peak_w_rel_m", p.w_rel_m},
                                {"largest_at", p.largest_at}};
        if (p.position_m)
          point["position_m"] = *p.position_m;
        summary["points"].push_back(point);
      }
    summary["electrodes"] = nlohmann::json::array();
    for (const auto &e : electrodes)
      summary["electrodes"].push_back({{"name", e.name},
                                       {"peak_power_frequency_hz", e.frequency_hz},
                                       {"peak_power_W", e.power_W},
                                       {"largest_at", e.largest_at}});
    if (reduction_check)
      summary["reduction_check"] = reduction_check->to_json();
    results["frequency_response"] = summary;
  }

  nlohmann::json
  ReductionCheck::to_json() const
  {
    nlohmann::json j = {{"comparisons", comparisons}, {"largest_relative_difference", largest_relative_difference}};
    if (!frequencies_hz.empty())
      j["frequencies_hz"] = frequencies_hz;
    return j;
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
    prm.declare_entry("Force position", "0", Patterns::Double(), "x of the point force on a beam (m).");
    prm.declare_entry("Force point", "", Patterns::Anything(),
                      "On a continuum: the name of the output point ('Continuum/Output points') where the point "
                      "force acts, along the point's direction. Empty on a beam ('Force position').");
    FrequencyGrid::declare(prm, 1, 1000);
    prm.declare_entry("Output points", "", Patterns::Anything(),
                      "Points for displacement and velocity, comma separated: on a beam "
                      "'name: x' pairs (m), e.g. 'tip: 0.1'; on a continuum the names of "
                      "its 'Continuum/Output points' (displacement along their direction).");
    prm.declare_entry("Power", "peak", Patterns::Selection("peak|average"),
                      "Electrical power reported: 'peak' |V|^2 Re(Y) (the "
                      "convention of Erturk and Inman) or 'average' (half of it).");
    prm.declare_entry("Number of modes", "0", Patterns::Integer(0),
                      "0: all modes, i.e. the full finite-element model; n: the "
                      "n-mode model (1 gives the single-mode model of the literature).");
    prm.declare_entry("Include prestress", "true", Patterns::Bool(),
                      "Whether K_g of 'Beam/Prestress' enters.");
    prm.declare_entry("Check frequencies", "automatic", Patterns::Anything(),
                      "A continuum's response comes from its reduced model ('Analysis/Reduced model'); "
                      "at these frequencies (Hz) the full model is also solved directly (undamped) "
                      "and the two compared: 'automatic' (the window's ends and middle, off "
                      "resonances), 'none', or a list. A beam's response is exact: not used.");
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
        excitation.force = get_bounded_double(s, "Force", 1e15, "N");
        const auto named = parse_point(s, "Force point");
        force_point      = named ? *named : OutputPoint{"force", s.get_double("Force position")};
      }
    grid.parse(s);
    points            = parse_points(s, "Output points");
    average_power     = s.get("Power") == "average";
    n_modes           = s.get_unsigned("Number of modes");
    include_prestress = s.get_bool("Include prestress");
    const std::string checks = Utilities::trim(s.get("Check frequencies"));
    automatic_checks         = checks == "automatic";
    if (!automatic_checks && checks != "none")
      {
        check_frequencies = get_number_list(s, "Check frequencies", 100);
        for (const double f : check_frequencies)
          if (!(f > 0))
            s.fail("Check frequencies", "must be positive (Hz), 'automatic' or 'none'.");
      }
  }

  void
  FrequencyResponseAnalysis::check_on(const Structure &structure) const
  {
    const std::string path = "Analysis/Frequency response";
    for (const auto &p : points)
      structure.resolve(p, path, "Output points");
    structure.check_modes(n_modes, path);
    const auto   ports   = structure.ports();
    const double columns = 1 + 5. * points.size() + 4. * ports.size();
    require_memory(double(grid.n) * (columns * sizeof(double) + 32), path, "Number of frequencies",
                   std::to_string(grid.n), "the table of " + std::to_string(grid.n) + " frequencies");
    if (input == "point force")
      structure.resolve(force_point, path, force_point.has_position() ? "Force position" : "Force point");
    if (input == "voltage")
      {
        bool any = false;
        for (const auto &e : ports)
          any = any || e.circuit == ElectrodeCircuit::voltage;
        if (!any)
          input_error(path, "Input", "'voltage'",
                      "no electrode has 'Circuit = voltage'. Set it on the driving electrode in '" +
                        structure.electrodes_path() + "'.");
      }
  }

  std::unique_ptr<AnalysisResult>
  FrequencyResponseAnalysis::run_on(const Structure &structure) const
  {
    const std::string   path  = "Analysis/Frequency response";
    const SpectralModel model = structure.spectral_model(n_modes, include_prestress);
    auto                result = std::make_unique<FrequencyResponseResult>();
    const double        power_factor = average_power ? 0.5 : 1.;
    const double        a_base       = excitation.base_acceleration;
    std::vector<OutputPoint> points;
    for (const auto &p : this->points)
      points.push_back(structure.resolve(p, path, "Output points"));
    auto excitation = this->excitation;
    if (input == "point force")
      {
        const OutputPoint at = structure.resolve(force_point, path, force_point.has_position() ? "Force position" : "Force point");
        excitation.force_position    = at.has_position() ? at.x : 0.;
        excitation.force_point       = at.has_position() ? "" : at.name;
        excitation.force_mode_values = model.mode_values(at);
      }
    result->warnings = structure.warnings();

    std::vector<std::vector<double>> phi;
    auto                            &columns = result->table.columns;
    columns.push_back("frequency_hz");
    for (const auto &p : points)
      {
        phi.push_back(model.mode_values(p));
        for (const char *c : {"w_rel_m", "w_rel_phase_deg", "w_abs_m", "v_rel_m_s", "v_abs_m_s"})
          columns.push_back(p.name + "_" + c);
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
    result->input         = input;
    result->average_power = average_power;
    result->n_modes       = model.n_modes();
    for (unsigned int i = 0; i < points.size(); ++i)
      {
        result->points.push_back({points[i].name,
                                  points[i].has_position() ? std::optional<double>(points[i].x) : std::nullopt,
                                  peak_w[i].frequency,
                                  peak_w[i].value,
                                  where(peak_w[i])});
        result->lines.push_back(points[i].name + ": " + describe(peak_w[i], "|w_rel|", "m"));
      }
    for (unsigned int e = 0; e < peak_p.size(); ++e)
      {
        result->electrodes.push_back({model.electrode_names[e], peak_p[e].frequency, peak_p[e].value, where(peak_p[e])});
        if (peak_p[e].value > 0)
          result->lines.push_back("electrode " + model.electrode_names[e] + ": " +
                                  describe(peak_p[e], "power", average_power ? "W (average)" : "W (peak |V|^2 Re Y)"));
      }
    if (structure.is_reduced())
      {
        const auto checks = automatic_checks ? automatic_check_frequencies(model, grid.minimum, grid.maximum) :
                                               check_frequencies;
        if (!checks.empty())
          {
            const auto [list, largest] = check_reduction(
              structure, model, excitation, [&](double w) { return model.circuits_of_model(w); }, points, checks);
            result->reduction_check = ReductionCheck{checks, list, largest};
            result->lines.push_back("reduced model (" + std::to_string(model.n_modes()) +
                                    " coordinates) against direct solves of the full model at " +
                                    std::to_string(checks.size()) + " frequencies, undamped: largest relative "
                                    "difference " + format_significant(largest));
          }
      }
    require_finite(*result, "Analysis/Frequency response", "Check 'Base acceleration', 'Force', 'Minimum frequency' and 'Maximum frequency' and the electrode voltages.");
    return result;
  }

  std::vector<double>
  automatic_check_frequencies(const SpectralModel &model, const double minimum_hz, const double maximum_hz)
  {
    std::vector<double> result;
    for (const double target : {minimum_hz, (minimum_hz + maximum_hz) / 2, maximum_hz})
      {
        double f = target;
        // step off resonances (2 % of the nearest), towards the window
        for (unsigned int pass = 0; pass < 2 * model.n_modes() + 1; ++pass)
          {
            bool moved = false;
            for (const double w : model.omega)
              {
                const double f_r = w / (2 * M_PI);
                if (f_r > 0 && std::abs(f - f_r) < 0.02 * f_r)
                  {
                    f     = (f_r < target || target == maximum_hz) && f_r * 0.98 > minimum_hz ? f_r * 0.98 : f_r * 1.02;
                    moved = true;
                  }
              }
            if (!moved)
              break;
          }
        if (f >= minimum_hz && f <= maximum_hz &&
            std::find(result.begin(), result.end(), f) == result.end())
          result.push_back(f);
      }
    return result;
  }

  std::pair<nlohmann::json, double>
  check_reduction(const Structure                                                    &structure,
                  const SpectralModel                                                &model,
                  const SpectralModel::Excitation                                    &excitation,
                  const std::function<std::vector<SpectralModel::Circuit>(double)> &circuits_at,
                  const std::vector<OutputPoint>                                     &points,
                  const std::vector<double>                                          &frequencies_hz)
  {
    SpectralModel undamped = model;
    std::fill(undamped.zeta.begin(), undamped.zeta.end(), 0.);
    nlohmann::json list    = nlohmann::json::array();
    double         largest = 0;
    for (const double f : frequencies_hz)
      {
        const double w        = 2 * M_PI * f;
        const auto   circuits = circuits_at(w);
        const auto   reduced  = undamped.solve(w, excitation, circuits);
        const auto   full     = structure.direct_response(w, excitation, circuits, points);
        const auto compare = [&](const std::string &quantity, const complex a, const complex b) {
          const double scale = std::max(std::abs(a), std::abs(b));
          const double d     = scale > 0 ? std::abs(a - b) / scale : 0.;
          largest            = std::max(largest, d);
          list.push_back({{"frequency_hz", f},
                          {"quantity", quantity},
                          {"reduced", std::abs(a)},
                          {"full", std::abs(b)},
                          {"relative_difference", d}});
        };
        for (unsigned int e = 0; e < circuits.size(); ++e)
          if (circuits[e].kind == SpectralModel::Circuit::admittance)
            compare(undamped.electrode_names[e] + " voltage (V)", reduced.V[e], full.V[e]);
        for (unsigned int i = 0; i < points.size(); ++i)
          compare(points[i].name + " displacement (m)",
                  SpectralModel::deflection(reduced, undamped.mode_values(points[i])), full.points[i]);
      }
    return {list, largest};
  }

  HAMILTON_REGISTER_PLUGIN(Analysis,
                           FrequencyResponseAnalysis,
                           "frequency response",
                           "steady-state response to base acceleration, a "
                           "point force or electrode voltages, with the "
                           "electrode circuits (resistors, RL shunts), on the "
                           "full model in its modal basis.")
} // namespace hamilton
