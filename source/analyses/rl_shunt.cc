#include <hamilton/analyses/rl_shunt.h>

#include <cmath>
#include <iomanip>

namespace hamilton
{
  using namespace dealii;

  namespace
  {
    // |w/F| (m/N) at the driving point with a series RL shunt (L, R) on
    // electrode e, or short (L = R = 0) / open (R < 0) circuit.
    double
    receptance(const SpectralModel       &model,
               unsigned int               e,
               const std::vector<double> &phi,
               double                     omega,
               double                     L,
               double                     R)
    {
      auto circuits = model.circuits_of_model(omega);
      if (R < 0)
        circuits[e] = {SpectralModel::Circuit::admittance, 0.};
      else if (R == 0 && L == 0)
        circuits[e] = {SpectralModel::Circuit::short_circuit, 0.};
      else
        circuits[e] = {SpectralModel::Circuit::admittance, 1. / std::complex<double>(R, omega * L)};
      SpectralModel::Excitation excitation;
      excitation.force             = 1.;
      excitation.force_mode_values = phi;
      return std::abs(SpectralModel::deflection(model.solve(omega, excitation, circuits), phi));
    }

    // Largest receptance over [a, b] (rad/s): grid, then golden refinement.
    std::pair<double, double>
    peak(const std::function<double(double)> &h, double a, double b)
    {
      const unsigned int n      = 200;
      double             best_w = a, best = -1;
      for (unsigned int i = 0; i <= n; ++i)
        {
          const double w = a + (b - a) * i / n, value = h(w);
          if (value > best)
            {
              best   = value;
              best_w = w;
            }
        }
      const double step = (b - a) / n;
      const double w    = maximize_unimodal(h, std::max(a, best_w - step), std::min(b, best_w + step));
      return {w, h(w)};
    }
  } // namespace

  void
  RLShuntAnalysis::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("RL shunt");
    prm.declare_entry("Electrode", "", Patterns::Anything(), "Name of the shunted electrode.");
    prm.declare_entry("Mode", "1", Patterns::Integer(1), "The mode the shunt is tuned to.");
    prm.declare_entry("Position", "-1", Patterns::Double(),
                      "On a beam: x of the point force and response (m); negative: the right end.");
    prm.declare_entry("Point", "", Patterns::Anything(),
                      "On a continuum: the name of the output point ('Continuum/Output points') of the "
                      "force and response, along its direction. Empty: its first output point.");
    prm.declare_entry("Number of modes", "0", Patterns::Integer(0),
                      "0: the full model; n: the n-mode model (1: single mode).");
    prm.leave_subsection();
  }

  void
  RLShuntAnalysis::parse_parameters(Section &s)
  {
    electrode = Utilities::trim(s.get("Electrode"));
    mode      = s.get_unsigned("Mode");
    n_modes   = s.get_unsigned("Number of modes");
    point     = parse_point(s, "Point");
    const double position = s.get_double("Position");
    if (!point && position >= 0)
      point = OutputPoint{"point", position};
  }

  OutputPoint
  RLShuntAnalysis::point_on(const Structure &structure) const
  {
    const std::string path = "Analysis/RL shunt";
    if (!point)
      return structure.default_point(path, "Point");
    return structure.resolve(*point, path, point->has_position() ? "Position" : "Point");
  }

  void
  RLShuntAnalysis::check_on(const Structure &structure) const
  {
    const std::string path = "Analysis/RL shunt";
    bool              found = false;
    for (const auto &e : structure.ports())
      found = found || e.name == electrode;
    if (!found)
      input_error(path, "Electrode", "'" + electrode + "'",
                  "no electrode of that name with a port in '" + structure.electrodes_path() + "'.");
    point_on(structure);
    structure.check_modes(n_modes, path);
    const unsigned int available = structure.n_coordinates(n_modes);
    if (mode > available)
      input_error(path, "Mode", std::to_string(mode), "the model has " + std::to_string(available) + " modes.");
  }

  std::unique_ptr<AnalysisResult>
  RLShuntAnalysis::run_on(const Structure &structure) const
  {
    const SpectralModel model = structure.spectral_model(n_modes, true);
    unsigned int        e     = 0;
    while (model.electrode_names[e] != electrode)
      ++e;
    const unsigned int  r   = mode - 1;
    const auto          phi = model.mode_values(point_on(structure));
    std::vector<bool>   open(model.chi.size(), false);
    open[e]                 = true;
    const double w_sc = model.omega[r], w_oc = model.open_circuit_omega(open)[r];
    // the capacitance the shunt sees near mode r: a beam's (its theory's
    // blocked capacitance); on a reduced continuum the clamped (u = 0)
    // capacitance plus what every other coordinate carries statically,
    // chi_s^2/omega_s^2 (the static corrections hold the free thickness and
    // lateral strains, which double a PZT layer's permittivity)
    double C = model.capacitance[e];
    if (structure.is_reduced())
      for (unsigned int s = 0; s < model.n_modes(); ++s)
        if (s != r && model.omega[s] > 0)
          C += model.chi[e][s] * model.chi[e][s] / (model.omega[s] * model.omega[s]);
    const double K2   = (w_oc * w_oc - w_sc * w_sc) / (w_sc * w_sc);

    const double L_hvf = 1. / (C * w_oc * w_oc);
    const double R_hvf = std::sqrt(2. * K2) / (1 + K2) / (C * w_sc);
    const double a = 0.6 * w_sc, b = 1.5 * w_sc;
    const auto   worst = [&](double L, double R) {
      return peak([&](double w) { return receptance(model, e, phi, w, L, R); }, a, b).second;
    };
    // The equal-peak (H-infinity) optimum: the two peaks, below and above
    // sqrt(w_sc w_oc), are equal and their common value is least. For each
    // L, the R of equal peaks is a root of p_low - p_high (bracketed, then
    // bisection to round-off: the common value is then smooth in L, not a
    // kink blurred by a search tolerance), and L minimizes the common value
    // by a golden search to round-off (location ~1e-8 relative). Where no R
    // in [R_hvf/5, 5 R_hvf] equalizes the peaks, the largest peak is
    // minimized over R instead.
    const double split      = std::sqrt(w_sc * w_oc);
    const auto   peak_difference = [&](double L, double log_R) {
      const auto h = [&](double w) { return receptance(model, e, phi, w, L, std::pow(10., log_R)); };
      return peak(h, a, split).second - peak(h, split, b).second;
    };
    const auto best_log_R = [&](double L) {
      double lo = std::log10(R_hvf / 5), hi = std::log10(R_hvf * 5);
      double d_lo = peak_difference(L, lo), d_hi = peak_difference(L, hi);
      if (d_lo * d_hi > 0)
        return maximize_unimodal([&](double t) { return -worst(L, std::pow(10., t)); }, lo, hi, 1e-13);
      for (unsigned int i = 0; i < 100 && hi - lo > 1e-14 * (std::abs(lo) + std::abs(hi) + 1); ++i)
        {
          const double mid = (lo + hi) / 2, d_mid = peak_difference(L, mid);
          if (d_mid == 0)
            return mid;
          if ((d_mid > 0) == (d_lo > 0))
            {
              lo   = mid;
              d_lo = d_mid;
            }
          else
            hi = mid;
        }
      return (lo + hi) / 2;
    };
    const double L_opt = maximize_unimodal([&](double L) { return -worst(L, std::pow(10., best_log_R(L))); },
                                           0.8 * L_hvf, 1.2 * L_hvf, 1e-13);
    const double R_opt = std::pow(10., best_log_R(L_opt));

    // the two peaks of the optimum: largest values below and above w_sc...w_oc
    const auto h_opt = [&](double w) { return receptance(model, e, phi, w, L_opt, R_opt); };
    const auto   low   = peak(h_opt, a, split);
    const auto   high  = peak(h_opt, split, b);

    auto result = std::make_unique<RLShuntResult>();
    // normalization: the static compliance of the mode, phi(x)^2/omega_sc^2
    const double modal_compliance = phi[r] * phi[r] / (w_sc * w_sc);
    const double peak_hvf         = worst(L_hvf, R_hvf);
    const double peak_opt         = std::max(low.second, high.second);
    result->electrode                  = electrode;
    result->mode                       = mode;
    result->n_modes                    = model.n_modes();
    result->frequency_short_circuit_hz = w_sc / (2 * M_PI);
    result->frequency_open_circuit_hz  = w_oc / (2 * M_PI);
    result->K2                         = K2;
    result->capacitance_F              = C;
    const auto tuning = [&](double L, double R, double peak) {
      return RLShuntResult::Tuning{L, R, L * C * w_sc * w_sc, R * C * w_sc, peak, peak / modal_compliance};
    };
    result->hvf                         = tuning(L_hvf, R_hvf, peak_hvf);
    result->optimum                     = tuning(L_opt, R_opt, peak_opt);
    result->optimum_peak_frequencies_hz = {low.first / (2 * M_PI), high.first / (2 * M_PI)};
    result->optimum_peak_values_m_N     = {low.second, high.second};

    if (structure.is_reduced())
      {
        // the optimum's driving-point response at its two peaks, reduced
        // model against direct solves of the full model (both undamped but
        // for the shunt's resistance)
        const OutputPoint         at = point_on(structure);
        SpectralModel::Excitation force;
        force.force             = 1.;
        force.force_mode_values = phi;
        force.force_point       = at.has_position() ? "" : at.name;
        force.force_position    = at.has_position() ? at.x : 0.;
        const auto circuits     = [&](double w) {
          auto c = model.circuits_of_model(w);
          c[e]   = {SpectralModel::Circuit::admittance, 1. / std::complex<double>(R_opt, w * L_opt)};
          return c;
        };
        const std::vector<double> checks{low.first / (2 * M_PI), high.first / (2 * M_PI)};
        const auto [list, largest] = check_reduction(structure, model, force, circuits, {at}, checks);
        result->reduction_check    = ReductionCheck{checks, list, largest};
      }

    for (unsigned int i = 0; i <= 600; ++i)
      {
        const double w = a + (b - a) * i / 600;
        result->table.rows.push_back({w / (2 * M_PI),
                                      receptance(model, e, phi, w, 0, 0),
                                      receptance(model, e, phi, w, 0, -1),
                                      receptance(model, e, phi, w, L_hvf, R_hvf),
                                      h_opt(w)});
      }
    require_finite(*result, "Analysis/RL shunt",
                   "Check the magnitudes of the " + structure.noun() + " and of '" + structure.electrodes_path() + "'.");
    return result;
  }

  void
  RLShuntResult::print_summary(std::ostream &out) const
  {
    out << "RL shunt on electrode " << electrode << ", mode " << mode << ": f_sc " << std::setprecision(8)
        << frequency_short_circuit_hz << " Hz, f_oc " << frequency_open_circuit_hz << " Hz, K^2 = "
        << std::setprecision(5) << K2 << "\n";
    for (const auto *tuning : {&hvf, &optimum})
      out << "  " << (tuning == &hvf ? "Hagood-von Flotow" : "equal-peak optimum") << ": L = " << std::setprecision(6)
          << tuning->inductance_H << " H, R = " << tuning->resistance_ohm
          << " Ohm, largest |w/F| = " << tuning->peak_m_N << " m/N (" << tuning->normalized_peak
          << " x the modal static compliance)\n";
    if (reduction_check)
      out << "  reduced model against direct solves of the full model at the optimum's peaks: largest relative "
             "difference "
          << std::setprecision(3) << reduction_check->largest_relative_difference << "\n";
  }

  void
  RLShuntResult::add_to_json(nlohmann::json &results) const
  {
    const auto tuning = [](const Tuning &t) {
      return nlohmann::json{{"inductance_H", t.inductance_H}, {"resistance_ohm", t.resistance_ohm},
                            {"LC_omega_sc2", t.LC_omega_sc2}, {"r", t.r},
                            {"peak_m_N", t.peak_m_N},         {"normalized_peak", t.normalized_peak}};
    };
    nlohmann::json s = {{"electrode", electrode},
                        {"mode", mode},
                        {"modes", n_modes},
                        {"frequency_short_circuit_hz", frequency_short_circuit_hz},
                        {"frequency_open_circuit_hz", frequency_open_circuit_hz},
                        {"K2", K2},
                        {"capacitance_F", capacitance_F},
                        {"hvf", tuning(hvf)},
                        {"optimum", tuning(optimum)}};
    s["optimum"]["peak_frequencies_hz"] = optimum_peak_frequencies_hz;
    s["optimum"]["peak_values_m_N"]     = optimum_peak_values_m_N;
    if (reduction_check)
      s["reduction_check"] = reduction_check->to_json();
    results["rl_shunt"] = s;
  }

  HAMILTON_REGISTER_PLUGIN_IN(Analysis,
                           RLShuntAnalysis,
                           "rl shunt",
                           "RL shunt",
                           "series RL shunt on one electrode tuned to one mode: "
                           "Hagood-von Flotow and equal-peak (H-infinity) "
                           "tuning with the damped receptance.")
} // namespace hamilton
