#include <hamilton/base/files.h>
#include <hamilton/base/format.h>
#include <hamilton/base/process.h>
#include <hamilton/lumped/lumped_run.h>
#include <hamilton/lumped/steady_state.h>

#include <Eigen/Dense>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <iomanip>
#include <sstream>

namespace hamilton::lumped
{
  void
  LumpedRun::declare_parameters(dealii::ParameterHandler &prm, const dealii::ParameterHandler *previous)
  {
    System::declare_parameters(prm, previous);
    Statics::declare_parameters(prm);
  }

  bool
  LumpedRun::described_in(dealii::ParameterHandler &prm)
  {
    return System::described_in(prm);
  }

  void
  LumpedRun::parse_parameters(Section &s, const std::string &directory)
  {
    const auto start = std::chrono::steady_clock::now();
    system.parse_parameters(s, directory);
    {
      Section::Scope a(s, "Lumped system");
      Section::Scope b(s, "Simulation");
      options.final_time         = s.get_positive("Final time", "s");
      options.output_interval    = s.get_positive("Output interval", "s");
      options.relative_tolerance = s.get_positive("Relative tolerance", "-");
      options.absolute_tolerance = s.get_positive("Absolute tolerance", "-");
      linearize_at = s.get("Linearize at");
      const std::string evaluation = s.get("Evaluation");
      options.evaluation = evaluation == "automatic"   ? Evaluation::automatic :
                           evaluation == "interpreted" ? Evaluation::interpreted :
                                                         Evaluation::compiled;
      if (options.output_interval > options.final_time)
        s.fail("Output interval", "is longer than 'Final time': there would be no output. Make it shorter.");
      const std::string frequency = s.get("Harmonic frequency");
      harmonic_periods            = s.get_unsigned("Harmonic periods");
      automatic_steady_state      = frequency == "automatic";
      if (!automatic_steady_state && frequency != "none")
        {
          char *end = nullptr;
          std::strtod(frequency.c_str(), &end);
          if (frequency.empty() || *end != '\0')
            s.fail("Harmonic frequency", "'" + frequency + "' is neither a frequency nor 'automatic' or 'none': give "
                   "the drive's frequency in Hz (> 0), 'automatic' (the period detected from the run) or 'none'.");
          harmonic_frequency = s.get_double("Harmonic frequency");
          if (harmonic_frequency < 0)
            s.fail("Harmonic frequency", frequency + " Hz is negative: give a frequency > 0, 'automatic' or 'none' "
                   "(0 also means none).");
        }
      if (harmonic_frequency > 0)
        {
          if (harmonic_periods / harmonic_frequency > options.final_time)
            s.fail("Harmonic periods", std::to_string(harmonic_periods) + " periods of " +
                                         std::to_string(1 / harmonic_frequency) + " s are longer than 'Final time' (" +
                                         std::to_string(options.final_time) + " s). Use fewer periods or a longer run.");
          if (options.output_interval * harmonic_frequency > 1. / 8)
            s.fail("Output interval", std::to_string(options.output_interval) + " s gives fewer than 8 rows per "
                                        "period of the 'Harmonic frequency' (" + std::to_string(harmonic_frequency) +
                                        " Hz): make it at most " + std::to_string(1 / (8 * harmonic_frequency)) + " s.");
        }
    }
    {
      Section::Scope a(s, "Lumped system");
      Section::Scope b(s, "Animation");
      frame_interval = s.get_double("Frame interval");
      if (frame_interval > 0 && frame_interval < options.output_interval * (1 - 1e-9))
        s.fail("Frame interval", std::to_string(frame_interval) + " s is shorter than 'Simulation/Output interval' (" +
                                   std::to_string(options.output_interval) +
                                   " s): frames are taken at the CSV rows. Make it a multiple of the output interval.");
      if (frame_interval > 0 && system.drawing.empty())
        s.fail("Frame interval", "nothing to draw: the system's components do not draw themselves (mechanisms and "
                                 "modal beams do). Add 'Polylines' or set 'Frame interval' to 0.");
    }
    statics.parse_parameters(s, system);
    equations = std::make_unique<Equations>(system, statics.simulate()); // statics alone: no inertia needed
    if (linearize_at == "equilibrium" && statics.analysis != "equilibrium and simulation")
      input_error("Lumped system/Simulation", "Linearize at", "'equilibrium'",
                  "there is no equilibrium to linearize at: set 'Lumped system/Statics/Analysis' to 'equilibrium "
                  "and simulation' (the equilibrium alone writes no linearization), or linearize at 'initial' "
                  "or 'final'.");
    {
      // the size of lumped.csv, before anything runs: one row per output
      // time, at most 20 characters per value (12 digits, sign, exponent,
      // comma)
      Section::Scope     a(s, "Lumped system");
      Section::Scope     b(s, "Simulation");
      const double       rows    = std::floor(options.final_time / options.output_interval) + 2;
      const std::size_t  columns = output_columns(*equations).size();
      const double       bytes   = rows * columns * 20;
      if (rows > max_rows || bytes > max_csv_bytes)
        {
          std::ostringstream m;
          m << std::setprecision(6) << "gives " << rows << " rows of " << columns << " columns over 'Final time' = "
            << options.final_time << " s (about " << bytes / (1 << 30) << " GiB of lumped.csv); the limit is "
            << max_rows << " rows and 1 GiB. Make it at least "
            << options.final_time / std::min(max_rows, max_csv_bytes / (20. * columns)) << " s, or shorten 'Final time'.";
          s.fail("Output interval", m.str());
        }
    }
    {
      Section::Scope a(s, "Lumped system");
      Section::Scope b(s, "Simulation");
      const auto     columns = output_columns(*equations);
      steady_state_signal    = s.get("Steady-state signal");
      if (steady_state_signal.empty())
        steady_state_signal = system.outputs.empty() ? columns.at(1) : system.outputs.front().first;
      else if (std::find(columns.begin() + 1, columns.end(), steady_state_signal) == columns.end())
        {
          std::string allowed;
          for (unsigned int k = 1; k < columns.size(); ++k)
            allowed += (k > 1 ? ", " : "") + columns[k];
          s.fail("Steady-state signal", "'" + steady_state_signal + "' is not a column of lumped.csv; the columns are " +
                                          allowed + ". Name one of them, or leave the entry empty (the first output).");
        }
    }
    derive_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  namespace
  {
    /**
     * Refuse equations whose terms, with the parameters' values, hold a
     * number beyond 1e300 in magnitude (a parameter out of scale, such as a
     * mass of 1e308, multiplied by others): the evaluation would overflow
     * to inf. Names the equation and the parameters beyond 1e100.
     */
    void
    check_magnitudes(const Equations &eq)
    {
      const auto &s      = eq.system;
      const auto  values = s.parameter_values();
      const auto  overflows = [&](const GiNaC::ex &e) {
        const GiNaC::ex value = GiNaC::evalf(e.subs(values));
        for (auto i = value.preorder_begin(); i != value.preorder_end(); ++i)
          if (GiNaC::is_a<GiNaC::numeric>(*i))
            {
              const auto &x = GiNaC::ex_to<GiNaC::numeric>(*i);
              if (!x.is_real() || abs(x) > GiNaC::numeric(1e300))
                return true;
            }
        return false;
      };
      const auto fail = [&](const std::string &where) {
        std::string large;
        for (const auto &[symbol, value] : s.parameters)
          if (!(std::abs(value) <= 1e100))
            {
              std::ostringstream v;
              v << symbol.get_name() << " = " << value;
              large += (large.empty() ? "" : ", ") + v.str();
            }
        input_error("Lumped system", "Parameters", large.empty() ? "(the values given)" : large,
                    where + " holds a number beyond 1e300 in magnitude with these values, and its evaluation "
                    "would overflow: a parameter is out of scale (SI units). Give physical magnitudes.");
      };
      for (unsigned int i = 0; i < eq.n; ++i)
        if (overflows(eq.residual[i]))
          fail("the equation of motion of coordinate " + s.coordinates[i].name);
      for (unsigned int k = 0; k < eq.m; ++k)
        if (overflows(eq.constraints[k]) || overflows(eq.constraint_rates[k]))
          fail("constraint " + std::to_string(k + 1));
      if (overflows(eq.energy) || overflows(eq.supplied_power) || overflows(eq.source_power) ||
          overflows(eq.dissipated_power))
        fail("the energy audit (energy or powers)");
      for (const auto &[name, e] : s.outputs)
        if (overflows(e))
          fail("the output " + name);
    }
  } // namespace

  void
  LumpedRun::check_initial_state(bool validate_only)
  {
    check_magnitudes(*equations);
    if (statics.enabled())
      statics.result = statics.solve(*equations);
    if (!statics.simulate())
      return;
    compiled = std::make_unique<CompiledSystem>(*equations,
                                                validate_only ? Evaluation::interpreted : options.evaluation);
    Eigen::VectorXd y, y_dot;
    consistent_initial_state(*compiled, *equations, y, y_dot);
  }

  void
  LumpedRun::print_equations(std::ostream &out) const
  {
    equations->print(out);
  }

  namespace
  {
    std::string
    evaluation_summary(const CompiledSystem &c)
    {
      std::ostringstream s;
      s << std::setprecision(3);
      if (c.interpreted_calls == 0)
        s << "compiled";
      else
        s << c.interpreted_calls << " interpreted evaluations (" << c.interpreted_seconds << " s)"
          << (c.is_compiled() ? ", then compiled" : ", no compilation needed (estimated " +
                                                     std::to_string(c.compile_estimate) + " s)");
      return s.str();
    }
  } // namespace

  namespace
  {
    /**
     * The summary of a column of lumped.csv while it is computed: the final
     * value, the mean and amplitude (half of max - min) over a window at
     * the end of the run, the peak (the largest |value|, with its sign) over
     * the whole run and its time, and the range of the run.
     */
    struct ColumnSummary
    {
      double      final = 0, sum = 0, lowest = 0, highest = 0, peak = 0, peak_time = 0, min = 0, max = 0;
      std::size_t n = 0, n_all = 0;

      void
      add(double t, double value, bool in_window)
      {
        final = value;
        min   = n_all == 0 ? value : std::min(min, value);
        max   = n_all == 0 ? value : std::max(max, value);
        ++n_all;
        if (std::abs(value) > std::abs(peak) || (peak == 0 && value != 0))
          {
            peak      = value;
            peak_time = t;
          }
        if (!in_window)
          return;
        lowest  = n == 0 ? value : std::min(lowest, value);
        highest = n == 0 ? value : std::max(highest, value);
        sum += value;
        ++n;
      }

      double
      mean() const
      {
        return n > 0 ? sum / n : final;
      }

      double
      amplitude() const
      {
        return n > 0 ? (highest - lowest) / 2 : 0.;
      }
    };
  } // namespace

  void
  HarmonicFit::print(std::ostream &out) const
  {
    out << "  harmonic analysis at f = " << format_significant(frequency_hz, 9) << " Hz over the last " << periods
        << " periods, each column at its own fundamental k f (amplitude, phase against sin(2 pi k f t), fit "
           "residual / amplitude, k if not 1):\n";
    for (const auto &c : columns)
      if (c.name.find("_J") == std::string::npos) // not the audit's growing integrals
        out << "    " << std::setw(24) << std::left << c.name << std::right << " " << std::setw(13) << c.amplitude
            << " " << std::setw(9) << std::setprecision(4) << c.phase_deg << std::setprecision(6) << " deg  "
            << c.largest_fit_residual / std::max(c.amplitude, 1e-300)
            << (c.harmonic > 1 ? "  (at " + std::to_string(c.harmonic) + " f)" : std::string()) << "\n";
  }

  nlohmann::json
  HarmonicFit::to_json() const
  {
    nlohmann::json j{{"frequency_hz", frequency_hz},
                     {"periods", periods},
                     {"from_s", from_s},
                     {"rows", rows},
                     {"columns", nlohmann::json::object()}};
    for (const auto &c : columns)
      {
        auto &column = j["columns"][c.name] = {{"amplitude", c.amplitude},
                                               {"phase_deg", c.phase_deg},
                                               {"mean", c.mean},
                                               {"largest_fit_residual", c.largest_fit_residual},
                                               {"peak", c.peak},
                                               {"peak_time_s", c.peak_time_s},
                                               {"harmonic", c.harmonic}};
        if (c.mean_change)
          column["mean_change"] = *c.mean_change;
        if (c.amplitude_change)
          column["amplitude_change"] = *c.amplitude_change;
      }
    return j;
  }

  void
  SteadyState::print(std::ostream &out) const
  {
    if (given)
      return fit.print(out);
    if (!found && detected_frequency > 0)
      {
        out << "  steady state: none in " << signal << " over " << searched << " (the last half of the run): "
            << "a period near " << format_significant(detected_frequency, 6) << " Hz was detected, but " << reason
            << ". Run longer (or give 'Lumped system/Simulation/Harmonic frequency' for a drive of known "
               "frequency, whose fit then shows its residual).\n";
        return;
      }
    if (!found)
      {
        out << "  steady state: no period detected in " << signal << " over " << searched
            << " (the last half of the run): " << reason
            << ". Give 'Lumped system/Simulation/Harmonic frequency' if the drive's frequency is known.\n";
        return;
      }
    out << "  steady state: period detected in " << signal << " over " << searched
        << " (the last half of the run): f = " << format_significant(fit.frequency_hz, 9) << " Hz (autocorrelation "
        << format_significant(correlation, 4) << " at one period)\n";
    fit.print(out);
    if (!steadiness_measured)
      out << "  how steady: not measured (fewer than " << 2 * fit.periods
          << " periods in the last half of the run)\n";
    else
      out << "  how steady: from the " << fit.periods << " periods before to the last " << fit.periods << ", "
          << signal << "'s mean changed by " << format_significant(mean_change, 3)
          << " (of |mean| + amplitude) and its amplitude by " << format_significant(amplitude_change, 3) << "\n";
  }

  nlohmann::json
  SteadyState::to_json() const
  {
    if (given)
      {
        auto j                = fit.to_json();
        j["frequency_source"] = "given";
        return j;
      }
    nlohmann::json j{{"frequency_source", "detected"}, {"signal", signal}, {"searched", searched}};
    if (!found)
      {
        j["found"]  = false;
        j["reason"] = reason;
        if (detected_frequency > 0) // a period, but no steady state
          j["detected_frequency_hz"] = detected_frequency;
        return j;
      }
    j.update(fit.to_json());
    j["found"]       = true;
    j["correlation"] = correlation;
    if (!steadiness_measured)
      j["steadiness"] = {{"measured", false},
                         {"reason", "fewer than 2 x 'Harmonic periods' periods in the last half of the run"}};
    else
      j["steadiness"] = {{"measured", true},
                         {"previous_from_s", previous_from_s},
                         {"mean_change", mean_change},
                         {"amplitude_change", amplitude_change}};
    return j;
  }

  std::string
  RunSummary::EnergyAudit::relative_text() const
  {
    if (reference_J == 0)
      return "every energy term is zero";
    const std::string relative = format_significant(largest_relative_residual, 3);
    if (relative_to == "supplied work") // the main example's line, unchanged (README.md)
      return relative + " of the supplied work";
    // nothing supplied: relative to the largest energy term, named, with its value
    return relative + " relative to the largest energy term, " + reference_column + " = " +
           format_significant(reference_J, 6) + " J in magnitude; nothing is supplied";
  }

  void
  RunSummary::print(std::ostream &out) const
  {
    if (statics)
      statics->print(out);
    if (!simulated)
      return; // the static equilibrium alone
    const auto number = [](double v) { return format_significant(v); };
    out << "  derivation " << format_seconds(derivation_s) << ", compilation " << format_seconds(compilation_s)
        << ", integration " << format_seconds(integration_s) << " (" << residual_evaluations << " residual, "
        << jacobian_evaluations << " Jacobian evaluations) to t = " << number(final_time_s) << " s\n"
        << "  evaluation: " << evaluation.summary << "\n"
        << "  energy audit: supplied " << number(energy_audit.supplied_work_J) << " J, source "
        << number(energy_audit.source_work_J) << " J, dissipated " << number(energy_audit.dissipated_energy_J)
        << " J, stored change " << number(energy_audit.stored_energy_change_J) << " J, largest residual "
        << number(energy_audit.largest_residual_J) << " J (" << energy_audit.relative_text() << ")\n";

    // the aligned summary of the outputs and (at most 12) coordinates
    const auto column = [&](const std::string &name) -> const Column & {
      return *std::find_if(columns.begin(), columns.end(), [&](const Column &c) { return c.name == name; });
    };
    std::size_t width = 6, unit_width = 4;
    for (const auto &name : shown)
      width = std::max(width, name.size()), unit_width = std::max(unit_width, column(name).unit.size());
    const bool        harmonic = steady_state && steady_state->given;
    const std::string window   = "t = " + format_significant(summary_from_s) + " ... " +
                               format_significant(summary_to_s) + " s" +
                               (harmonic ? " (the harmonic analysis' periods)" : " (the last 20 % of the run)");
    out << "  summary: final value; mean and amplitude ((max - min)/2) over " << window
        << "; peak: the largest |value| of the run, and when\n";
    out << "    " << std::left << std::setw(width) << "column" << " " << std::setw(unit_width) << "unit" << std::right;
    for (const char *title : {"final", "mean", "amplitude", "peak", "at t (s)"})
      out << " " << std::setw(13) << title;
    out << "\n";
    for (const auto &name : shown)
      {
        const auto &c = column(name);
        out << "    " << std::left << std::setw(width) << name << " " << std::setw(unit_width) << c.unit << std::right;
        for (const double v : {c.final, c.mean, c.amplitude, c.peak, c.peak_time_s})
          out << " " << std::setw(13) << format_significant(v);
        out << "\n";
      }
    if (coordinates.size() > 12)
      out << "    (the " << coordinates.size() << " coordinates: in lumped.csv and results.json, 'lumped/summary')\n";

    if (steady_state)
      steady_state->print(out);
    if (linearization)
      {
        out << "  linearization at t = " << linearization->time_s << " s: eigenvalues (1/s)";
        for (const auto &e : linearization->eigenvalues)
          out << " " << e.real() << (e.imag() >= 0 ? "+" : "") << e.imag() << "i";
        out << "\n";
      }
  }

  nlohmann::json
  RunSummary::to_json() const
  {
    if (!simulated)
      return {{"statics", statics->to_json()}, {"warnings", warnings}};
    nlohmann::json j;
    j["summary"] = {{"from_s", summary_from_s}, {"to_s", summary_to_s}, {"columns", nlohmann::json::object()}};
    j["final_state"] = nlohmann::json::object();
    j["range"]       = nlohmann::json::object();
    for (const auto &c : columns)
      {
        j["summary"]["columns"][c.name] = {{"final", c.final},
                                           {"mean", c.mean},
                                           {"amplitude", c.amplitude},
                                           {"peak", c.peak},
                                           {"peak_time_s", c.peak_time_s}};
        j["final_state"][c.name]        = c.final;
        j["range"][c.name]              = {{"min", c.min}, {"max", c.max}};
      }
    j["coordinates"] = nlohmann::json::array();
    for (const auto &c : coordinates)
      j["coordinates"].push_back(
        {{"name", c.name}, {"electrical", c.electrical}, {"algebraic_velocity", c.algebraic_velocity}});
    j["constraints"]  = constraints;
    j["matrix_form"]  = matrix_form;
    j["neglected"]    = neglected;
    j["final_time_s"] = final_time_s;
    j["rows"]         = rows;
    if (steady_state)
      j["harmonic"] = steady_state->to_json();
    j["evaluation"] = {{"compiled", evaluation.compiled},
                       {"interpreted_evaluations", evaluation.interpreted_evaluations},
                       {"interpreted_s", evaluation.interpreted_s},
                       {"compile_estimate_s", evaluation.compile_estimate_s},
                       {"summary", evaluation.summary}};
    j["timings_s"]    = {{"derivation", derivation_s}, {"compilation", compilation_s}, {"integration", integration_s}};
    j["energy_audit"] = {{"supplied_work_J", energy_audit.supplied_work_J},
                         {"source_work_J", energy_audit.source_work_J},
                         {"dissipated_energy_J", energy_audit.dissipated_energy_J},
                         {"stored_energy_change_J", energy_audit.stored_energy_change_J},
                         {"largest_residual_J", energy_audit.largest_residual_J},
                         {"largest_relative_residual", energy_audit.largest_relative_residual},
                         {"relative_to", energy_audit.relative_to},
                         {"parts", nlohmann::json::object()},
                         {"largest_parts_residual_J", energy_audit.largest_parts_residual_J}};
    for (const auto &[name, value] : energy_audit.parts)
      j["energy_audit"]["parts"][name] = value;
    j["energy_audit"]["reference_column"] = energy_audit.reference_column;
    j["energy_audit"]["reference_J"]      = energy_audit.reference_J;
    j["evaluations"] = {{"residual", residual_evaluations}, {"jacobian", jacobian_evaluations}, {"steps", steps}};
    j["error_control"] = {{"relative_tolerance_used", relative_tolerance_used},
                          {"estimated_global_error_in_tolerances", estimated_global_error}};
    if (residual_per_period) // the cost of a period, e.g. through a rectifier's switching
      j["evaluations"]["residual_per_period"] = *residual_per_period;
    if (newton_rescues) // diodes: Newton iterations rescued by damping (README, "Rectifier circuits")
      j["evaluations"]["newton_rescues"] = {{"tried", (*newton_rescues)[0]},
                                            {"converged", (*newton_rescues)[1]},
                                            {"knee_refreshes", (*newton_rescues)[2]}};
    j["warnings"] = warnings;
    if (hamiltonian)
      {
        j["hamiltonian"] = {{"given", hamiltonian->given},
                            {"transformation", hamiltonian->transformation},
                            {"momenta", nlohmann::json::object()}};
        for (const auto &[column, unit] : hamiltonian->momenta)
          j["hamiltonian"]["momenta"][column] = unit;
      }
    if (statics)
      j["statics"] = statics->to_json();
    if (linearization)
      {
        nlohmann::json eigen = nlohmann::json::array();
        for (const auto &e : linearization->eigenvalues)
          eigen.push_back({{"real", e.real()}, {"imag", e.imag()}});
        j["linearization"] = {{"time_s", linearization->time_s}, {"eigenvalues", eigen}, {"file", "linearization.json"}};
      }
    return j;
  }

  HarmonicFit
  LumpedRun::harmonic_fit(const std::vector<std::string>         &columns,
                          const std::vector<std::vector<double>> &rows,
                          double                                  frequency) const
  {
    // least squares: column ~ mean + sum_{k=1..3} a_k cos(k w t) + b_k sin(k w t),
    // reported: the mean and the column's own fundamental A sin(k w t +
    // phase), the lowest harmonic k whose amplitude exceeds both 1e-3 of the
    // largest of the three and the fit's residual (k = 2 for a power R i^2
    // of a current at f), and the residual relative to its amplitude. The
    // second and third harmonics also keep the mean of a quadratic quantity
    // exact on a window that is not a whole number of rows per period. (At
    // the coarsest sampling, 8 rows per period, 3 f is the highest harmonic
    // below the Nyquist frequency: a power is not fitted at 2 f, 4 f, 6 f.)
    const double    w = 2 * M_PI * frequency;
    Eigen::MatrixXd basis(rows.size(), 7);
    for (unsigned int r = 0; r < rows.size(); ++r)
      {
        const double t = rows[r][0];
        basis.row(r) << 1, std::cos(w * t), std::sin(w * t), std::cos(2 * w * t), std::sin(2 * w * t),
          std::cos(3 * w * t), std::sin(3 * w * t);
      }
    const auto  qr = basis.colPivHouseholderQr();
    HarmonicFit fit{frequency, harmonic_periods, rows.front()[0], rows.size(), {}};
    for (unsigned int k = 1; k < columns.size(); ++k)
      {
        Eigen::VectorXd y(rows.size());
        double          peak = 0, peak_time = rows.front()[0];
        for (unsigned int r = 0; r < rows.size(); ++r)
          {
            y[r] = rows[r][k];
            if (std::abs(y[r]) > std::abs(peak))
              {
                peak      = y[r];
                peak_time = rows[r][0];
              }
          }
        const Eigen::VectorXd c        = qr.solve(y);
        const double          residual = (basis * c - y).lpNorm<Eigen::Infinity>();
        const double amplitudes[3] = {std::hypot(c[1], c[2]), std::hypot(c[3], c[4]), std::hypot(c[5], c[6])};
        const double largest       = *std::max_element(amplitudes, amplitudes + 3);
        unsigned int harmonic      = 1;
        for (unsigned int h = 1; h <= 3; ++h)
          if (amplitudes[h - 1] > 1e-3 * largest && amplitudes[h - 1] > residual)
            {
              harmonic = h;
              break;
            }
        const double cosine = c[2 * harmonic - 1], sine = c[2 * harmonic];
        HarmonicFit::Column column{
          columns[k], std::hypot(cosine, sine), std::atan2(cosine, sine) * 180 / M_PI, c[0], residual, peak,
          peak_time, {}, {}};
        column.harmonic = harmonic;
        fit.columns.push_back(column);
      }
    return fit;
  }

  SteadyState
  LumpedRun::detected_steady_state(const std::vector<std::string>         &columns,
                                   const std::vector<std::vector<double>> &rows) const
  {
    const std::size_t signal = std::find(columns.begin(), columns.end(), steady_state_signal) - columns.begin();
    std::vector<double> t, y;
    for (const auto &row : rows)
      {
        t.push_back(row[0]);
        y.push_back(row[signal]);
      }
    SteadyState steady;
    steady.signal   = steady_state_signal;
    steady.searched = "t = " + format_significant(t.empty() ? 0. : t.front()) + " ... " +
                      format_significant(t.empty() ? 0. : t.back()) + " s";
    const auto none = [&](const std::string &reason) {
      steady.reason = reason;
      return steady;
    };
    const DetectedPeriod period = detect_period(t, y);
    if (!period.found)
      return none(period.reason);
    const double f = period.frequency, end = t.back();
    if (harmonic_periods / f > (end - t.front()) * (1 + 1e-12))
      return none("a period of " + format_significant(f, 6) + " Hz was found, but only " +
                  format_significant((end - t.front()) * f, 3) + " periods lie in the last half, fewer than the " +
                  std::to_string(harmonic_periods) + " of 'Harmonic periods': use a longer run or fewer periods");
    if (options.output_interval * f > 1. / 8)
      return none("a period of " + format_significant(f, 6) + " Hz was found, but the output interval gives fewer "
                  "than 8 rows per period: make 'Output interval' at most " +
                  format_significant(1 / (8 * f), 3) + " s");
    // the last N periods and the N before
    const double                     start = end - harmonic_periods / f, before = end - 2 * harmonic_periods / f;
    const double                     slack = 1e-9 * options.output_interval;
    std::vector<std::vector<double>> last, previous;
    for (const auto &row : rows)
      if (row[0] >= start - slack)
        last.push_back(row);
      else if (row[0] >= before - slack)
        previous.push_back(row);
    // a steady state only if the signal is periodic over the fitted periods
    // (the same frequency, amplitude and mean in their two halves, a fit
    // that describes it): else a run-up or a transient, and no numbers
    steady.detected_frequency = f;
    steady.correlation        = period.correlation;
    {
      std::vector<double> tw, yw;
      for (const auto &row : last)
        {
          tw.push_back(row[0]);
          yw.push_back(row[signal]);
        }
      const Periodicity periodicity = check_periodicity(tw, yw, f);
      if (!periodicity.periodic)
        return none(periodicity.reason);
    }
    const auto fit = harmonic_fit(columns, last, f);
    // how steady: the change from the N periods before, of the mean relative
    // to |mean| + amplitude and of the amplitude relative to the amplitude
    if (before < t.front() - slack)
      {
        steady.found = true;
        steady.fit   = fit;
        return steady; // fewer than 2 N periods: not measured
      }
    steady.found       = true;
    steady.fit         = fit;
    const auto earlier = harmonic_fit(columns, previous, f);
    for (std::size_t k = 0; k < steady.fit.columns.size(); ++k)
      {
        auto        &now = steady.fit.columns[k];
        const auto  &was = earlier.columns[k];
        const double m1 = now.mean, a1 = now.amplitude, m0 = was.mean, a0 = was.amplitude;
        const double scale   = std::abs(m1) + a1;
        now.mean_change      = scale > 0 ? std::abs(m1 - m0) / scale : 0.;
        now.amplitude_change = a1 > 0 ? std::abs(a1 - a0) / a1 : (a0 > 0 ? 1. : 0.);
        if (now.name == steady_state_signal)
          {
            steady.mean_change      = *now.mean_change;
            steady.amplitude_change = *now.amplitude_change;
          }
      }
    steady.steadiness_measured = true;
    steady.previous_from_s     = earlier.from_s;
    if (steady.mean_change > largest_level_change || steady.amplitude_change > largest_level_change)
      {
        const bool  amplitude = steady.amplitude_change > largest_level_change;
        SteadyState refused;
        refused.signal             = steady.signal;
        refused.searched           = steady.searched;
        refused.detected_frequency = f;
        refused.reason = "from the " + std::to_string(harmonic_periods) + " periods before to the last " +
                         std::to_string(harmonic_periods) + ", the " + (amplitude ? "amplitude" : "mean") +
                         " changes by " +
                         format_significant(amplitude ? steady.amplitude_change : steady.mean_change, 3) +
                         (amplitude ? "" : " of |mean| + amplitude") + " (more than " +
                         format_significant(largest_level_change, 3) + "): the run has not settled";
        return refused;
      }
    return steady;
  }

  RunSummary
  LumpedRun::run(const std::vector<std::unique_ptr<RowSink>> &sinks, std::ostream &out)
  {
    linearization = nullptr;
    const auto &s = system;
    out << "Lumped system: " << s.coordinates.size() << " coordinates (";
    for (unsigned int i = 0; i < s.coordinates.size(); ++i)
      out << (i ? ", " : "") << s.coordinates[i].name << (equations->algebraic[i] ? " [algebraic velocity]" : "");
    out << "), " << equations->m << " constraints, " << s.time_functions.size() << " time functions\n";
    if (s.hamiltonian.given)
      out << "  given by its Hamiltonian: canonical equations in (q, p)"
          << (s.hamiltonian.transformation == "exchange" ? ", exchanged (p, q) -> (-q*, p*)" : "") << "\n";
    for (const auto &w : s.warnings)
      out << "  WARNING: " << w << "\n";
    RunSummary summary;
    summary.warnings = s.warnings;
    if (statics.enabled())
      {
        if (!statics.result)
          statics.result = statics.solve(*equations);
        summary.statics = statics.equilibrium(*statics.result, *equations);
        if (!statics.simulate())
          return summary;
      }
    summary.simulated = true;

    out << std::flush; // before the progress on stderr
    if (!this->compiled)
      {
        check_magnitudes(*equations);
        this->compiled = std::make_unique<CompiledSystem>(*equations, options.evaluation);
      }
    const CompiledSystem &compiled = *this->compiled;
    const auto            columns  = output_columns(*equations);
    const auto            described = describe_output_columns(*equations);
    for (const auto &sink : sinks)
      sink->begin(columns, described);
    std::vector<std::vector<double>> window; // rows for the harmonic analysis
    const double window_start = options.final_time - harmonic_periods / std::max(harmonic_frequency, 1e-300);
    // the terminal summary's window: the harmonic analysis' periods, else
    // the last 20 % of the run
    const double summary_start = harmonic_frequency > 0 ? window_start : 0.8 * options.final_time;
    std::vector<ColumnSummary> summaries(columns.size());
    // the automatic steady state: the rows of the last half of the run
    // (in memory: lumped.csv's limit, max_csv_bytes at 20 bytes a value,
    // keeps it below 2.7e7 values, 215 MB)
    const bool detect = automatic_steady_state && harmonic_frequency == 0;
    std::vector<std::vector<double>> tail;
    const auto          result = simulate(
      compiled, *equations, options,
      [&](const std::vector<double> &row) {
        for (const auto &sink : sinks)
          sink->row(row);
        check_interrupt(); // SIGINT/SIGTERM: stop here, the rows so far are kept
        if (harmonic_frequency > 0 && row[0] >= window_start - 1e-9 * options.output_interval)
          window.push_back(row);
        if (detect && row[0] >= 0.5 * options.final_time)
          tail.push_back(row);
        const bool in_summary = row[0] >= summary_start - 1e-9 * options.output_interval;
        for (unsigned int k = 0; k < row.size(); ++k)
          summaries[k].add(row[0], row[k], in_summary);
      },
      &std::cerr);
    // the residual relative to the supplied work, or, when (almost) nothing
    // is supplied, to the largest energy term of the audit
    const double supplied = std::abs(result.supplied_work) + std::abs(result.source_work);
    const bool   supplied_reference = supplied > 1e-9 * result.largest_energy_term && supplied > 0;
    const double scale             = supplied_reference ? supplied : result.largest_energy_term;
    summary.energy_audit = {result.supplied_work,
                            result.source_work,
                            result.dissipated_energy,
                            result.stored_energy_change,
                            result.largest_audit_residual,
                            scale > 0 ? result.largest_audit_residual / scale : 0.,
                            result.largest_parts_residual,
                            supplied_reference ? "supplied work" :
                            scale > 0          ? "largest energy term (nothing supplied)" :
                                                 "energy: every term is zero",
                            result.audit_parts,
                            supplied_reference ? (result.source_work != 0 ? "supplied_work_J + source_work_J" :
                                                                             "supplied_work_J") :
                                                 result.largest_energy_term_name,
                            scale};
    summary.derivation_s  = derive_seconds;
    summary.compilation_s = compiled.compile_seconds;
    summary.integration_s = result.integrate_seconds;
    summary.evaluation    = {compiled.is_compiled(), compiled.interpreted_calls, compiled.interpreted_seconds,
                             compiled.compile_estimate, evaluation_summary(compiled)};

    for (const auto &o : system.outputs)
      summary.shown.push_back(o.first);
    if (s.coordinates.size() <= 12)
      for (const char *suffix : {"", "_dot"})
        for (const auto &c : s.coordinates)
          summary.shown.push_back(c.name + suffix);
    for (unsigned int k = 1; k < columns.size(); ++k)
      {
        const auto &c = summaries[k];
        std::string unit;
        for (const auto &d : described)
          if (d.name == columns[k])
            {
              unit = d.unit;
              break;
            }
        summary.columns.push_back({columns[k], unit, c.final, c.mean(), c.amplitude(), c.peak, c.peak_time, c.min, c.max});
      }
    summary.summary_from_s = summary_start;
    summary.summary_to_s   = options.final_time;
    for (unsigned int i = 0; i < s.coordinates.size(); ++i)
      summary.coordinates.push_back({s.coordinates[i].name, s.coordinates[i].electrical, bool(equations->algebraic[i])});
    summary.constraints  = equations->m;
    summary.matrix_form  = equations->matrix_form.exists;
    summary.neglected    = s.neglected;
    summary.final_time_s = options.final_time;
    summary.rows         = result.rows;
    if (harmonic_frequency > 0)
      {
        summary.steady_state        = SteadyState{};
        summary.steady_state->given = true;
        summary.steady_state->fit   = harmonic_fit(columns, window, harmonic_frequency);
      }
    else if (detect)
      summary.steady_state = detected_steady_state(columns, tail);
    summary.residual_evaluations = result.residual_calls;
    summary.jacobian_evaluations = result.jacobian_calls;
    summary.steps                = result.steps;
    summary.relative_tolerance_used = result.relative_tolerance_used;
    summary.estimated_global_error  = result.estimated_global_error;
    if (harmonic_frequency > 0) // the cost of a period, e.g. through a rectifier's switching
      summary.residual_per_period = result.residual_calls / (options.final_time * harmonic_frequency);
    if (result.newton_rescues + result.knee_refreshes > 0)
      summary.newton_rescues = std::array<unsigned long, 3>{result.newton_rescues, result.newton_rescued,
                                                            result.knee_refreshes};
    if (s.hamiltonian.given || !s.hamiltonian.momentum_units.empty())
      summary.hamiltonian = RunSummary::Hamiltonian{s.hamiltonian.given, s.hamiltonian.transformation,
                                                    s.hamiltonian.momentum_units};
    if (linearize_at != "none")
      {
        const bool   final = linearize_at == "final", rest = linearize_at == "equilibrium";
        // at rest at the static equilibrium: (q, 0, lambda, mu = 0, W = 0), y' = 0
        std::vector<double> at_rest(compiled.size(), 0.), rates(compiled.size(), 0.);
        if (rest)
          {
            std::copy(statics.result->q.begin(), statics.result->q.end(), at_rest.begin());
            std::copy(statics.result->lambda.begin(), statics.result->lambda.end(), at_rest.begin() + 2 * equations->n);
          }
        const auto  &y     = rest ? at_rest : final ? result.final_y : result.initial_y;
        const auto  &yd    = rest ? rates : final ? result.final_y_dot : result.initial_y_dot;
        const double t     = rest ? statics.time : final ? options.final_time : 0.;
        const auto   lin   = compiled.linearize(t, y.data(), yd.data());
        const auto   rows  = [](const Eigen::MatrixXd &A) {
          std::vector<std::vector<double>> r(A.rows(), std::vector<double>(A.cols()));
          for (Eigen::Index i = 0; i < A.rows(); ++i)
            for (Eigen::Index k = 0; k < A.cols(); ++k)
              r[i][k] = A(i, k);
          return r;
        };
        std::vector<std::string> states, inputs, outputs;
        for (const auto &c : s.coordinates)
          states.push_back(c.name);
        for (const auto &c : s.coordinates)
          states.push_back(c.name + "_dot");
        for (unsigned int k = 0; k < equations->m; ++k)
          states.push_back("lambda_" + std::to_string(k + 1));
        for (unsigned int k = 0; k < equations->m; ++k)
          states.push_back("mu_" + std::to_string(k + 1));
        for (const auto &f : s.time_functions)
          inputs.push_back(f.second.name);
        for (const auto &o : s.outputs)
          outputs.push_back(o.first);
        // the units of the states and outputs, as lumped.csv.columns.json
        // gives them ("" where unknown: a multiplier is in J per unit of its
        // constraint's expression, a time function's unit is not declared)
        const auto unit_of = [&](const std::string &name) {
          for (const auto &d : described)
            if (d.name == name)
              return d.unit;
          return std::string();
        };
        nlohmann::json units = {{"states", nlohmann::json::array()},
                                {"inputs", nlohmann::json::array()},
                                {"outputs", nlohmann::json::array()}};
        for (const auto &name : states)
          units["states"].push_back(unit_of(name));
        for (std::size_t k = 0; k < inputs.size(); ++k)
          units["inputs"].push_back("");
        for (const auto &name : outputs)
          units["outputs"].push_back(unit_of(name));
        nlohmann::json eigen = nlohmann::json::array();
        for (const auto &e : lin.eigenvalues)
          eigen.push_back({{"real", e.real()}, {"imag", e.imag()}});
        summary.linearization = RunSummary::Linearization{t, {lin.eigenvalues.begin(), lin.eigenvalues.end()}};
        std::vector<double> point(y.begin(), y.end() - 3);
        linearization = {{"format", "hamilton-descriptor-state-space"},
                         {"version", 1},
                         {"description", "E x' = A x + B u, y = C x + D u, linearized at the point (SI)"},
                         {"time_s", t},
                         {"point", point},
                         {"states", states},
                         {"inputs", inputs},
                         {"outputs", outputs},
                         {"units", units},
                         {"E", rows(lin.E)},
                         {"A", rows(lin.A)},
                         {"B", rows(lin.B)},
                         {"C", rows(lin.C)},
                         {"D", rows(lin.D)},
                         {"eigenvalues", eigen}};
      }
    return summary;
  }
} // namespace hamilton::lumped
