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
     * The terminal summary of a column of lumped.csv: the final value, the
     * mean and amplitude (half of max - min) over a window at the end of
     * the run, and the peak (the largest |value|, with its sign) over the
     * whole run and its time.
     */
    struct ColumnSummary
    {
      double      final = 0, sum = 0, lowest = 0, highest = 0, peak = 0, peak_time = 0;
      std::size_t n = 0;

      void
      add(double t, double value, bool in_window)
      {
        final = value;
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

    /**
     * Print the aligned summary of the outputs and, for systems of at most
     * 12 coordinates, of the coordinates and their velocities (rows of
     * `columns`, the columns of lumped.csv, with their units from
     * `descriptions`; window from `from` to `to`); return every column's
     * summary for results.json.
     */
    nlohmann::json
    summary_table(const std::vector<std::string>       &columns,
                  const std::vector<ColumnSummary>     &summaries,
                  const std::vector<ColumnDescription> &descriptions,
                  const System                         &system,
                  double                            from,
                  double                            to,
                  bool                              harmonic,
                  std::ostream                     &out)
    {
      std::vector<std::string> shown;
      for (const auto &o : system.outputs)
        shown.push_back(o.first);
      const bool coordinates = system.coordinates.size() <= 12;
      if (coordinates)
        for (const char *suffix : {"", "_dot"})
          for (const auto &c : system.coordinates)
            shown.push_back(c.name + suffix);
      const auto unit = [&](const std::string &name) {
        for (const auto &d : descriptions)
          if (d.name == name)
            return d.unit;
        return std::string();
      };
      std::size_t width = 6, unit_width = 4;
      for (const auto &name : shown)
        width = std::max(width, name.size()), unit_width = std::max(unit_width, unit(name).size());
      const std::string window =
        "t = " + format_significant(from) + " ... " + format_significant(to) + " s" +
        (harmonic ? " (the harmonic analysis' periods)" : " (the last 20 % of the run)");
      out << "  summary: final value; mean and amplitude ((max - min)/2) over " << window
          << "; peak: the largest |value| of the run, and when\n";
      out << "    " << std::left << std::setw(width) << "column" << " " << std::setw(unit_width) << "unit"
          << std::right;
      for (const char *title : {"final", "mean", "amplitude", "peak", "at t (s)"})
        out << " " << std::setw(13) << title;
      out << "\n";
      nlohmann::json j{{"from_s", from}, {"to_s", to}, {"columns", nlohmann::json::object()}};
      for (unsigned int k = 1; k < columns.size(); ++k)
        {
          const auto &c = summaries[k];
          j["columns"][columns[k]] = {{"final", c.final},
                                      {"mean", c.mean()},
                                      {"amplitude", c.amplitude()},
                                      {"peak", c.peak},
                                      {"peak_time_s", c.peak_time}};
        }
      for (const auto &name : shown)
        {
          const auto &c = summaries[std::find(columns.begin(), columns.end(), name) - columns.begin()];
          out << "    " << std::left << std::setw(width) << name << " " << std::setw(unit_width) << unit(name)
              << std::right;
          for (const double v : {c.final, c.mean(), c.amplitude(), c.peak, c.peak_time})
            out << " " << std::setw(13) << format_significant(v);
          out << "\n";
        }
      if (!coordinates)
        out << "    (the " << system.coordinates.size()
            << " coordinates: in lumped.csv and results.json, 'lumped/summary')\n";
      return j;
    }
  } // namespace

  nlohmann::json
  LumpedRun::harmonic_fit(const std::vector<std::string>         &columns,
                          const std::vector<std::vector<double>> &rows,
                          double                                  frequency,
                          std::ostream                           *out) const
  {
    // least squares: column ~ mean + sum_{k=1..3} a_k cos(k w t) + b_k sin(k w t),
    // reported: the mean and the fundamental A sin(w t + phase). The second and
    // third harmonics keep the mean of a quadratic quantity (a power) exact on
    // a window that is not a whole number of rows per period.
    const double    w = 2 * M_PI * frequency;
    Eigen::MatrixXd basis(rows.size(), 7);
    for (unsigned int r = 0; r < rows.size(); ++r)
      {
        const double t = rows[r][0];
        basis.row(r) << 1, std::cos(w * t), std::sin(w * t), std::cos(2 * w * t), std::sin(2 * w * t),
          std::cos(3 * w * t), std::sin(3 * w * t);
      }
    const auto      qr = basis.colPivHouseholderQr();
    nlohmann::json  j{{"frequency_hz", frequency},
                      {"periods", harmonic_periods},
                      {"from_s", rows.front()[0]},
                      {"rows", rows.size()},
                      {"columns", nlohmann::json::object()}};
    if (out)
      *out << "  harmonic analysis at " << format_significant(frequency, 9) << " Hz over the last " << harmonic_periods
           << " periods (amplitude, phase against sin(2 pi f t), fit residual / amplitude):\n";
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
        const double          A        = std::hypot(c[1], c[2]);
        const double          residual = (basis * c - y).lpNorm<Eigen::Infinity>();
        const double          phase    = std::atan2(c[1], c[2]) * 180 / M_PI;
        j["columns"][columns[k]] = {{"amplitude", A},
                                    {"phase_deg", phase},
                                    {"mean", c[0]},
                                    {"largest_fit_residual", residual},
                                    {"peak", peak},
                                    {"peak_time_s", peak_time}};
        if (out && columns[k].find("_J") == std::string::npos) // not the audit's growing integrals
          *out << "    " << std::setw(24) << std::left << columns[k] << std::right << " " << std::setw(13) << A << " "
               << std::setw(9) << std::setprecision(4) << phase << std::setprecision(6) << " deg  "
               << residual / std::max(A, 1e-300) << "\n";
      }
    return j;
  }

  nlohmann::json
  LumpedRun::detected_steady_state(const std::vector<std::string>         &columns,
                                   const std::vector<std::vector<double>> &rows,
                                   std::ostream                           &out) const
  {
    const std::size_t signal = std::find(columns.begin(), columns.end(), steady_state_signal) - columns.begin();
    std::vector<double> t, y;
    for (const auto &row : rows)
      {
        t.push_back(row[0]);
        y.push_back(row[signal]);
      }
    const std::string span = "t = " + format_significant(t.empty() ? 0. : t.front()) + " ... " +
                             format_significant(t.empty() ? 0. : t.back()) + " s";
    nlohmann::json j{{"frequency_source", "detected"}, {"signal", steady_state_signal}, {"searched", span}};
    const auto     none = [&](const std::string &reason) {
      out << "  steady state: no period detected in " << steady_state_signal << " over " << span
          << " (the last half of the run): " << reason
          << ". Give 'Lumped system/Simulation/Harmonic frequency' if the drive's frequency is known.\n";
      j["found"]  = false;
      j["reason"] = reason;
      return j;
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
    out << "  steady state: period detected in " << steady_state_signal << " over " << span
        << " (the last half of the run): f = " << format_significant(f, 9) << " Hz (autocorrelation "
        << format_significant(period.correlation, 4) << " at one period)\n";
    j.update(harmonic_fit(columns, last, f, &out));
    j["found"]       = true;
    j["correlation"] = period.correlation;
    // how steady: the change from the N periods before, of the mean relative
    // to |mean| + amplitude and of the amplitude relative to the amplitude
    const bool whole = before >= t.front() - slack;
    if (!whole)
      {
        j["steadiness"] = {{"measured", false},
                           {"reason", "fewer than 2 x 'Harmonic periods' periods in the last half of the run"}};
        out << "  how steady: not measured (fewer than " << 2 * harmonic_periods
            << " periods in the last half of the run)\n";
        return j;
      }
    const auto earlier = harmonic_fit(columns, previous, f, nullptr);
    for (unsigned int k = 1; k < columns.size(); ++k)
      {
        auto        &now = j["columns"][columns[k]];
        const auto  &was = earlier["columns"][columns[k]];
        const double m1 = now["mean"], a1 = now["amplitude"], m0 = was["mean"], a0 = was["amplitude"];
        const double scale       = std::abs(m1) + a1;
        now["mean_change"]       = scale > 0 ? std::abs(m1 - m0) / scale : 0.;
        now["amplitude_change"]  = a1 > 0 ? std::abs(a1 - a0) / a1 : (a0 > 0 ? 1. : 0.);
      }
    const auto &reference = j["columns"][steady_state_signal];
    j["steadiness"] = {{"measured", true},
                       {"previous_from_s", earlier["from_s"]},
                       {"mean_change", reference["mean_change"]},
                       {"amplitude_change", reference["amplitude_change"]}};
    out << "  how steady: from the " << harmonic_periods << " periods before to the last " << harmonic_periods << ", "
        << steady_state_signal << "'s mean changed by "
        << format_significant(reference["mean_change"].get<double>(), 3)
        << " (of |mean| + amplitude) and its amplitude by "
        << format_significant(reference["amplitude_change"].get<double>(), 3) << "\n";
    return j;
  }

  nlohmann::json
  LumpedRun::run(const std::vector<std::unique_ptr<RowSink>> &sinks, std::ostream &out)
  {
    linearization = nullptr;
    const auto   &s = system;
    out << "Lumped system: " << s.coordinates.size() << " coordinates (";
    for (unsigned int i = 0; i < s.coordinates.size(); ++i)
      out << (i ? ", " : "") << s.coordinates[i].name << (equations->algebraic[i] ? " [algebraic velocity]" : "");
    out << "), " << equations->m << " constraints, " << s.time_functions.size() << " time functions\n";
    if (s.hamiltonian.given)
      out << "  given by its Hamiltonian: canonical equations in (q, p)"
          << (s.hamiltonian.transformation == "exchange" ? ", exchanged (p, q) -> (-q*, p*)" : "") << "\n";
    for (const auto &w : s.warnings)
      out << "  WARNING: " << w << "\n";
    nlohmann::json equilibrium;
    if (statics.enabled())
      {
        if (!statics.result)
          statics.result = statics.solve(*equations);
        equilibrium = statics.report(*statics.result, *equations, out);
        if (!statics.simulate())
          return {{"statics", equilibrium}, {"warnings", s.warnings}};
      }

    out << std::flush; // before the progress on stderr
    if (!this->compiled)
      {
        check_magnitudes(*equations);
        this->compiled = std::make_unique<CompiledSystem>(*equations, options.evaluation);
      }
    const CompiledSystem &compiled = *this->compiled;
    const auto            columns  = output_columns(*equations);
    for (const auto &sink : sinks)
      sink->begin(columns, describe_output_columns(*equations));
    std::vector<double>              last, lowest, highest;
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
        last = row;
        if (harmonic_frequency > 0 && row[0] >= window_start - 1e-9 * options.output_interval)
          window.push_back(row);
        if (detect && row[0] >= 0.5 * options.final_time)
          tail.push_back(row);
        const bool in_summary = row[0] >= summary_start - 1e-9 * options.output_interval;
        for (unsigned int k = 0; k < row.size(); ++k)
          summaries[k].add(row[0], row[k], in_summary);
        if (lowest.empty())
          lowest = highest = row;
        for (unsigned int k = 0; k < row.size(); ++k)
          {
            lowest[k]  = std::min(lowest[k], row[k]);
            highest[k] = std::max(highest[k], row[k]);
          }
      },
      &std::cerr);
    // the residual relative to the supplied work, or, when (almost) nothing
    // is supplied, to the largest energy term of the audit
    const double supplied = std::abs(result.supplied_work) + std::abs(result.source_work);
    const bool   supplied_reference = supplied > 1e-9 * result.largest_energy_term && supplied > 0;
    const double scale             = supplied_reference ? supplied : result.largest_energy_term;
    const std::string reference    = supplied_reference ? "supplied work" :
                                     scale > 0          ? "largest energy term (nothing supplied)" :
                                                          "energy: every term is zero";
    const double relative_residual = scale > 0 ? result.largest_audit_residual / scale : 0.;
    const auto number = [](double v) { return format_significant(v); };
    out << "  derivation " << format_seconds(derive_seconds) << ", compilation "
        << format_seconds(compiled.compile_seconds) << ", integration " << format_seconds(result.integrate_seconds)
        << " (" << result.residual_calls << " residual, " << result.jacobian_calls
        << " Jacobian evaluations) to t = " << number(options.final_time) << " s\n"
        << "  evaluation: " << evaluation_summary(compiled) << "\n"
        << "  energy audit: supplied " << number(result.supplied_work) << " J, source "
        << number(result.source_work) << " J, dissipated " << number(result.dissipated_energy)
        << " J, stored change " << number(result.stored_energy_change) << " J, largest residual "
        << number(result.largest_audit_residual) << " J (" << format_significant(relative_residual, 3)
        << " of the " << reference << ")\n";
    nlohmann::json j;
    j["summary"] = summary_table(columns, summaries, describe_output_columns(*equations), system, summary_start, options.final_time, harmonic_frequency > 0, out);
    j["coordinates"] = nlohmann::json::array();
    for (unsigned int i = 0; i < s.coordinates.size(); ++i)
      j["coordinates"].push_back({{"name", s.coordinates[i].name},
                                  {"electrical", s.coordinates[i].electrical},
                                  {"algebraic_velocity", bool(equations->algebraic[i])}});
    j["constraints"]        = equations->m;
    j["matrix_form"]        = equations->matrix_form.exists;
    j["neglected"]          = s.neglected;
    j["final_time_s"]       = options.final_time;
    j["rows"]               = result.rows;
    j["final_state"]        = nlohmann::json::object();
    j["range"]              = nlohmann::json::object();
    for (unsigned int k = 1; k < columns.size(); ++k)
      {
        j["final_state"][columns[k]] = last[k];
        j["range"][columns[k]]       = {{"min", lowest[k]}, {"max", highest[k]}};
      }
    if (harmonic_frequency > 0)
      {
        j["harmonic"]                     = harmonic_fit(columns, window, harmonic_frequency, &out);
        j["harmonic"]["frequency_source"] = "given";
      }
    else if (detect)
      j["harmonic"] = detected_steady_state(columns, tail, out);
    for (const auto &sink : sinks)
      {
        auto summary = sink->end(out);
        if (!summary.is_null())
          j[sink->name()] = std::move(summary);
      }
    j["evaluation"] = {{"compiled", compiled.is_compiled()},
                       {"interpreted_evaluations", compiled.interpreted_calls},
                       {"interpreted_s", compiled.interpreted_seconds},
                       {"compile_estimate_s", compiled.compile_estimate},
                       {"summary", evaluation_summary(compiled)}};
    j["timings_s"] = {{"derivation", derive_seconds}, {"compilation", compiled.compile_seconds},
                      {"integration", result.integrate_seconds}};
    j["energy_audit"]       = {{"supplied_work_J", result.supplied_work},
                               {"source_work_J", result.source_work},
                               {"dissipated_energy_J", result.dissipated_energy},
                               {"stored_energy_change_J", result.stored_energy_change},
                               {"largest_residual_J", result.largest_audit_residual},
                               {"largest_relative_residual", relative_residual},
                               {"relative_to", reference}};
    // the audit per element and domain (final values) and how far the
    // totals are from the sums of their parts
    j["energy_audit"]["parts"] = nlohmann::json::object();
    for (const auto &[name, value] : result.audit_parts)
      j["energy_audit"]["parts"][name] = value;
    j["energy_audit"]["largest_parts_residual_J"] = result.largest_parts_residual;
    j["evaluations"]        = {{"residual", result.residual_calls}, {"jacobian", result.jacobian_calls},
                               {"steps", result.steps}};
    if (harmonic_frequency > 0) // the cost of a period, e.g. through a rectifier's switching
      j["evaluations"]["residual_per_period"] = result.residual_calls / (options.final_time * harmonic_frequency);
    if (result.newton_rescues + result.knee_refreshes > 0) // diodes: Newton iterations rescued by damping (README, "Rectifier circuits")
      j["evaluations"]["newton_rescues"] = {{"tried", result.newton_rescues}, {"converged", result.newton_rescued},
                                            {"knee_refreshes", result.knee_refreshes}};
    j["warnings"]           = s.warnings;
    if (s.hamiltonian.given || !s.hamiltonian.momentum_units.empty())
      {
        j["hamiltonian"] = {{"given", s.hamiltonian.given}, {"transformation", s.hamiltonian.transformation},
                            {"momenta", nlohmann::json::object()}};
        for (const auto &[column, unit] : s.hamiltonian.momentum_units)
          j["hamiltonian"]["momenta"][column] = unit;
      }
    if (statics.enabled())
      j["statics"] = equilibrium;
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
        nlohmann::json eigen = nlohmann::json::array();
        out << "  linearization at t = " << t << " s: eigenvalues (1/s)";
        for (const auto &e : lin.eigenvalues)
          {
            eigen.push_back({{"real", e.real()}, {"imag", e.imag()}});
            out << " " << e.real() << (e.imag() >= 0 ? "+" : "") << e.imag() << "i";
          }
        out << "\n";
        std::vector<double> point(y.begin(), y.end() - 3);
        linearization = {{"format", "hamilton-descriptor-state-space"},
                         {"version", 1},
                         {"description", "E x' = A x + B u, y = C x + D u, linearized at the point (SI)"},
                         {"time_s", t},
                         {"point", point},
                         {"states", states},
                         {"inputs", inputs},
                         {"outputs", outputs},
                         {"E", rows(lin.E)},
                         {"A", rows(lin.A)},
                         {"B", rows(lin.B)},
                         {"C", rows(lin.C)},
                         {"D", rows(lin.D)},
                         {"eigenvalues", eigen}};
        j["linearization"] = {{"time_s", t}, {"eigenvalues", eigen}, {"file", "linearization.json"}};
      }
    return j;
  }
} // namespace hamilton::lumped
