#include <hamilton/analyses/harvester.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace hamilton
{
  using namespace dealii;

  double
  HarvesterAnalysis::power(const SpectralModel  &model,
                           unsigned int          electrode,
                           double                resistance,
                           double                omega,
                           double                base_acceleration,
                           std::complex<double> *voltage)
  {
    auto circuits = model.circuits_of_model(omega);
    circuits[electrode].kind  = SpectralModel::Circuit::admittance;
    circuits[electrode].value = 1. / resistance;
    SpectralModel::Excitation excitation;
    excitation.base_acceleration = base_acceleration;
    const auto state             = model.solve(omega, excitation, circuits);
    if (voltage)
      *voltage = state.V[electrode];
    return std::norm(state.V[electrode]) / resistance; // peak power
  }

  double
  HarvesterAnalysis::optimal_resistance(const SpectralModel &model, unsigned int electrode, double omega)
  {
    auto                      circuits = model.circuits_of_model(omega);
    SpectralModel::Excitation excitation;
    excitation.base_acceleration = 1; // Z_s does not depend on the excitation
    const auto voltage           = [&](const std::complex<double> admittance) {
      circuits[electrode].kind  = SpectralModel::Circuit::admittance;
      circuits[electrode].value = admittance;
      return model.solve(omega, excitation, circuits).V[electrode];
    };
    const std::complex<double> open = voltage(0.);
    // a trial load near the clamped capacitance's reactance keeps V_oc / V_1
    // away from 1 (the voltage halves at most)
    const double               trial   = 1. / (omega * std::max(model.capacitance[electrode], 1e-300));
    const std::complex<double> source  = trial * (open / voltage(1. / trial) - 1.);
    return std::abs(source);
  }

  void
  HarvesterAnalysis::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Harvester");
    prm.declare_entry("Electrode", "", Patterns::Anything(),
                      "Name of the harvesting electrode; its load is the "
                      "resistor R of the study (other electrodes keep their circuits).");
    prm.declare_entry("Resistances", "logspace(2, 6, 5)", Patterns::Anything(),
                      "Load resistances (Ohm): a list, 'linspace(a, b, n)' or "
                      "'logspace(e1, e2, n)' for 10^e1 ... 10^e2.");
    FrequencyGrid::declare(prm, 1, 1000);
    prm.declare_entry("Frequencies of interest", "", Patterns::Anything(),
                      "Frequencies (Hz) at which to find the optimal load and "
                      "the maximum power. Empty: the short- and open-circuit "
                      "frequencies of mode 1 of the model used.");
    prm.declare_entry("Base acceleration", "1", Patterns::Double(),
                      "Amplitude of the base acceleration, in 'Acceleration unit'.");
    prm.declare_entry("Acceleration unit", "g", Patterns::Selection("g|m/s^2"),
                      "g = 9.81 m/s^2 (results per g, power per g^2), or m/s^2.");
    prm.declare_entry("Power", "peak", Patterns::Selection("peak|average"),
                      "'peak' |V|^2/R (Erturk and Inman) or 'average' (half).");
    prm.declare_entry("Number of modes", "0", Patterns::Integer(0),
                      "0: the full model; n: the n-mode model (1: single mode).");
    prm.leave_subsection();
  }

  void
  HarvesterAnalysis::parse_parameters(Section &s)
  {
    electrode = Utilities::trim(s.get("Electrode"));
    resistances = get_number_list(s, "Resistances", 1000000);
    if (resistances.empty())
      s.fail("Resistances", "is empty. Give at least one load resistance (Ohm).");
    for (const double R : resistances)
      if (!(R > 0))
        s.fail("Resistances",
               "contains " + format_number(R) +
                 "; load resistances must be positive (Ohm).");
    grid.parse(s);
    frequencies_of_interest = get_number_list(s, "Frequencies of interest", 100000);
    for (const double f : frequencies_of_interest)
      if (!(f > 0))
        s.fail("Frequencies of interest", "must be positive (Hz).");
    base_acceleration = get_bounded_double(s, "Base acceleration", 1e12, s.get("Acceleration unit")) *
                        (s.get("Acceleration unit") == "g" ? g_acceleration : 1.);
    power_factor = s.get("Power") == "average" ? 0.5 : 1.;
    n_modes      = s.get_unsigned("Number of modes");
  }

  void
  HarvesterAnalysis::check_on(const Structure &structure) const
  {
    const std::string path = "Analysis/Harvester";
    structure.check_modes(n_modes, path);
    const double points = double(grid.n) * double(resistances.size());
    require_memory(points * (5 * sizeof(double) + 32), path, "Number of frequencies", std::to_string(grid.n),
                   "the map of " + format_number(points) + " (resistance, frequency) points with " +
                     std::to_string(resistances.size()) + " 'Resistances'");
    std::string names;
    for (const auto &e : structure.ports())
      {
        if (e.name == electrode)
          return;
        names += (names.empty() ? "" : ", ") + e.name;
      }
    input_error(path, "Electrode", "'" + electrode + "'",
                names.empty() ? "the " + structure.noun() + " has no electrode with a port. Declare one in '" +
                                  structure.electrodes_path() + "'." :
                                "no electrode of that name with a port; the " + structure.noun() + " has: " + names +
                                  ".");
  }

  std::unique_ptr<AnalysisResult>
  HarvesterAnalysis::run_on(const Structure &structure) const
  {
    const SpectralModel model = structure.spectral_model(n_modes, true);
    unsigned int        e     = 0;
    while (model.electrode_names[e] != electrode)
      ++e;
    auto result = std::make_unique<HarvesterResult>();

    const bool no_coupling = structure.coupling_cancels(electrode);
    for (const auto &w : structure.warnings())
      result->warnings.push_back(w);

    const std::vector<double> frequencies = grid.frequencies_hz(model);
    const auto                start       = std::chrono::steady_clock::now();
    std::vector<double>       at_edge;
    for (const double R : resistances)
      {
        double best_f = frequencies.front(), best_p = -1;
        for (const double f : frequencies)
          {
            std::complex<double> V;
            const double P = power_factor * power(model, e, R, 2 * M_PI * f, base_acceleration, &V);
            result->map.rows.push_back({R, f, std::abs(V), std::abs(V) / R, P});
            if (P > best_p)
              {
                best_p = P;
                best_f = f;
              }
          }
        if (no_coupling)
          continue;
        // a largest value at the first or last frequency is no maximum: the
        // power still rises towards the edge of the window
        if (best_f == frequencies.front() || best_f == frequencies.back())
          {
            at_edge.push_back(R);
            continue;
          }
        // refine the peak between the grid neighbours
        const auto   it = std::find(frequencies.begin(), frequencies.end(), best_f);
        const double a  = *(it - 1);
        const double b  = *(it + 1);
        const double f_peak = maximize_unimodal(
          [&](double f) { return power(model, e, R, 2 * M_PI * f, base_acceleration); }, a, b);
        std::complex<double> V;
        const double P = power_factor * power(model, e, R, 2 * M_PI * f_peak, base_acceleration, &V);
        result->peaks.rows.push_back({R, f_peak, P, std::abs(V)});
      }
    if (!at_edge.empty())
      {
        std::ostringstream w;
        w << "For " << at_edge.size() << " of the " << resistances.size()
          << " load resistances (first: " << at_edge.front()
          << " Ohm) the largest power lies at the edge of the frequency window [" << grid.minimum << ", "
          << grid.maximum
          << "] Hz, not at a maximum inside it; no maximum-power frequency is reported for them. "
             "Widen 'Minimum frequency' / 'Maximum frequency' to include the resonance.";
        result->warnings.push_back(w.str());
      }

    result->map_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::vector<double> targets = frequencies_of_interest;
    if (targets.empty())
      {
        const auto exact = n_modes == 0 ? structure.first_mode_frequencies(e) : std::nullopt;
        if (exact)
          targets = {exact->first, exact->second};
        else
          {
            std::vector<bool> open(model.chi.size(), false);
            open[e] = true;
            targets = {model.omega[0] / (2 * M_PI), model.open_circuit_omega(open)[0] / (2 * M_PI)};
          }
      }
    // the optimal load: the modulus of the port's source impedance
    for (const double f : targets)
      {
        if (no_coupling)
          break;
        const double         w = 2 * M_PI * f;
        const double         R = optimal_resistance(model, e, w);
        std::complex<double> V;
        const double         P = std::isfinite(R) ? power_factor * power(model, e, R, w, base_acceleration, &V) : 0.;
        if (!(P > 0) || !(R >= 1e-2 && R <= 1e12))
          {
            std::ostringstream m;
            m << "At " << f << " Hz the optimal load |Z_s| = " << R << " Ohm (power " << P
              << " W) is outside 1e-2 ... 1e12 Ohm or takes no power: no optimal load is reported. "
              << "Check the frequency ('Frequencies of interest') and the electrode's coupling.";
            result->warnings.push_back(m.str());
            continue;
          }
        result->optimum.rows.push_back({f, R, P, std::abs(V)});
      }

    result->electrode              = electrode;
    result->average_power          = power_factor != 1.;
    result->n_modes                = model.n_modes();
    result->base_acceleration_m_s2 = base_acceleration;
    if (structure.is_reduced() && !result->optimum.rows.empty())
      {
        // the voltage at each optimum, reduced model against a direct solve
        // of the full model (both undamped), the optimal load on the port
        nlohmann::json list    = nlohmann::json::array();
        double         largest = 0;
        SpectralModel::Excitation excitation;
        excitation.base_acceleration = base_acceleration;
        for (const auto &row : result->optimum.rows)
          {
            const double R        = row[1];
            const auto circuits = [&](double w) {
              auto c = model.circuits_of_model(w);
              c[e]   = {SpectralModel::Circuit::admittance, 1. / R};
              return c;
            };
            const auto [one, d] = check_reduction(structure, model, excitation, circuits, {}, {row[0]});
            for (auto item : one)
              {
                item["resistance_ohm"] = R;
                list.push_back(item);
              }
            largest = std::max(largest, d);
          }
        result->reduction_check = ReductionCheck{{}, list, largest};
      }
    require_finite(*result, "Analysis/Harvester", "Check 'Base acceleration', 'Resistances', 'Minimum frequency' and 'Maximum frequency'.");
    return result;
  }

  void
  HarvesterResult::print_summary(std::ostream &out) const
  {
    out << "Harvester study, electrode " << electrode << " (" << (average_power ? "average" : "peak") << " power, "
        << n_modes << " modes)\n  map of " << map.rows.size() << " points (R x f) in " << std::setprecision(3)
        << map_seconds << " s, " << 1e6 * map_seconds / std::max<std::size_t>(1, map.rows.size())
        << " us per point\n  resistance (Ohm)   max-power frequency (Hz)   power (W)      voltage (V)\n";
    for (const auto &row : peaks.rows)
      out << "  " << std::setw(16) << std::setprecision(6) << row[0] << "   " << std::setw(24)
          << std::setprecision(8) << row[1] << "   " << std::setw(12) << std::setprecision(5)
          << row[2] << "   " << row[3] << "\n";
    out << "  frequency (Hz)   optimal load (Ohm)   max power (W)   voltage (V)\n";
    for (const auto &row : optimum.rows)
      out << "  " << std::setw(14) << std::setprecision(8) << row[0] << "   " << std::setw(18)
          << std::setprecision(6) << row[1] << "   " << std::setw(13) << row[2] << "   " << row[3]
          << "\n";
    if (reduction_check)
      out << "  reduced model against direct solves of the full model at the optimal loads: largest relative "
             "difference "
          << std::setprecision(3) << reduction_check->largest_relative_difference << "\n";
  }

  void
  HarvesterResult::add_to_json(nlohmann::json &results) const
  {
    nlohmann::json s;
    s["electrode"]              = electrode;
    s["power"]                  = average_power ? "average" : "peak";
    s["modes"]                  = n_modes;
    s["base_acceleration_m_s2"] = base_acceleration_m_s2;
    s["optimal_loads"]          = nlohmann::json::array();
    for (const auto &row : optimum.rows)
      s["optimal_loads"].push_back(
        {{"frequency_hz", row[0]}, {"optimal_resistance_ohm", row[1]}, {"max_power_W", row[2]}, {"voltage_V", row[3]}});
    if (reduction_check)
      s["reduction_check"] = reduction_check->to_json();
    s["peaks"] = nlohmann::json::array();
    for (const auto &row : peaks.rows)
      s["peaks"].push_back(
        {{"resistance_ohm", row[0]}, {"frequency_hz", row[1]}, {"power_W", row[2]}, {"voltage_V", row[3]}});
    results["harvester"] = s;
  }

  HAMILTON_REGISTER_PLUGIN(Analysis,
                           HarvesterAnalysis,
                           "harvester",
                           "load-resistance x frequency study of one electrode "
                           "under base acceleration: voltage, current and power "
                           "maps, maximum-power frequencies, optimal loads.")
} // namespace hamilton
