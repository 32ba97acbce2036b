#include <hamilton/base/format.h>
#include <hamilton/lumped/canonical.h>
#include <hamilton/lumped/statics.h>

#include <deal.II/base/utilities.h>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace hamilton::lumped
{
  using namespace dealii;
  using GiNaC::ex;

  namespace
  {
    const std::string path = "Lumped system/Statics";
  }

  void
  Statics::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Lumped system");
    prm.enter_subsection("Statics");
    prm.declare_entry("Analysis", "none", Patterns::Selection("none|equilibrium|equilibrium and simulation"),
                      "Static equilibrium by virtual work: d(V + W_e)/dq - F + Phi_q^T lambda = 0, Phi = 0 at "
                      "rest and at the inputs of 'Time', solved by Newton's method (symbolic Jacobian) from "
                      "'Initial guess'; reports the equilibrium, the multipliers (reactions) and the eigenvalues "
                      "of the tangent stiffness on the constraints' tangent space (all positive: stable). "
                      "'equilibrium': no simulation (no lumped.csv); 'equilibrium and simulation': both.");
    prm.declare_entry("Initial guess", "", Patterns::Anything(),
                      "'coordinate: value' separated by ';' (values may use the parameters); coordinates not "
                      "listed start from their 'Initial positions' (default 0), the multipliers from 0.");
    prm.declare_entry("Time", "0", Patterns::Double(),
                      "Time (s) at which the forces, time functions and time-dependent constraints are taken.");
    prm.declare_entry("Tolerance", "1e-12", Patterns::Double(),
                      "Newton's method stops when its step is at most this times (1 + |unknowns|) (max norms).");
    prm.declare_entry("Maximum iterations", "50", Patterns::Integer(1), "Newton iterations before giving up.");
    prm.leave_subsection();
    prm.leave_subsection();
  }

  void
  Statics::parse_parameters(Section &s, const System &system)
  {
    Section::Scope a(s, "Lumped system");
    Section::Scope b(s, "Statics");
    analysis = s.get("Analysis");
    const double t = s.get_double("Time");
    if (!std::isfinite(t))
      s.fail("Time", "is not a finite number.");
    time           = t;
    tolerance      = s.get_positive("Tolerance", "-");
    max_iterations = s.get_unsigned("Maximum iterations");
    guess.assign(system.coordinates.size(), {});
    for (unsigned int i = 0; i < guess.size(); ++i)
      guess[i] = system.coordinates[i].initial_position;
    for (const auto &item : Utilities::split_string_list(s.get("Initial guess"), ';'))
      {
        if (Utilities::trim(item).empty())
          continue;
        const auto colon = item.find(':');
        if (colon == std::string::npos)
          s.fail("Initial guess", "the item '" + item + "' is not 'coordinate: value'. Separate items with ';'.");
        const std::string name = Utilities::trim(item.substr(0, colon)), text = Utilities::trim(item.substr(colon + 1));
        const auto        at   = std::find_if(system.coordinates.begin(), system.coordinates.end(),
                                     [&](const auto &c) { return c.name == name; });
        if (at == system.coordinates.end())
          s.fail("Initial guess", "'" + name + "' is not a coordinate of the system.");
        const auto value = finite_value(system.parse(text, s.path(), "Initial guess", true).subs(system.parameter_values()));
        if (!value)
          s.fail("Initial guess", "the value of '" + name + "' (" + text +
                                    ") is not a finite real number: write a number or an expression of the parameters.");
        guess[at - system.coordinates.begin()] = *value;
      }
    if (enabled() && !system.velocity_constraints.empty())
      input_error(path, "Analysis", "'" + analysis + "'",
                  "the system has 'Velocity constraints' (non-holonomic), which do not restrict the configuration: "
                  "its equilibria form a family of dimension " + std::to_string(system.velocity_constraints.size()) +
                  " along which the reactions are undetermined. Solve the equilibrium of the system without them "
                  "(or with their integrated holonomic form in 'Constraints'), or set 'Analysis' to none.");
  }

  Statics::Result
  Statics::solve(const Equations &eq) const
  {
    const auto        &s  = eq.system;
    const unsigned int n  = eq.n, m = s.constraints.size(), N = n + m;
    // at rest, at the inputs of `time`, with the parameters' values
    GiNaC::exmap at = s.parameter_values();
    for (const auto &c : s.coordinates)
      at[c.velocity] = at[c.acceleration] = 0;
    at[s.time] = exact(time);
    for (const auto &[u, f] : s.time_functions)
      {
        at[u]                    = exact(f(time));
        at[f.rate_symbol]        = exact(f.rate(time));
        at[f.second_rate_symbol] = exact(f.second_rate(time));
        at[f.integral_symbol]    = exact(f.integral(time));
      }
    GiNaC::lst                 unknowns;
    std::vector<GiNaC::symbol> z_symbols;
    for (const auto &c : s.coordinates)
      z_symbols.push_back(c.position);
    for (unsigned int k = 0; k < m; ++k)
      z_symbols.push_back(eq.multipliers[k]);
    for (const auto &z : z_symbols)
      unknowns.append(z);
    std::vector<ex> G, J;
    for (unsigned int i = 0; i < n; ++i)
      G.push_back(eq.residual[i].subs(at));
    for (unsigned int k = 0; k < m; ++k)
      G.push_back(eq.constraints[k].subs(at));
    for (const auto &g : G)
      for (const auto &z : z_symbols)
        J.push_back(g.diff(z));
    const CanonicalLists lists({G, J}, unknowns);

    Eigen::VectorXd z = Eigen::VectorXd::Zero(N), r(N);
    for (unsigned int i = 0; i < n; ++i)
      z[i] = guess[i].value_or(0.);
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> jacobian(N, N);
    const auto residual = [&](const Eigen::VectorXd &x) {
      Eigen::VectorXd result(N);
      lists.evaluate(0, x.data(), result.data());
      return result;
    };
    const auto iterate_text = [&](const Eigen::VectorXd &x) {
      std::ostringstream t;
      t << std::setprecision(10);
      for (unsigned int j = 0; j < N; ++j)
        t << (j ? ", " : "") << z_symbols[j].get_name() << " = " << x[j];
      return t.str();
    };
    const auto fail = [&](unsigned int iteration, const std::string &why) {
      std::ostringstream t;
      t << std::setprecision(6) << "Newton's method found no equilibrium at t = " << time << " s: " << why
        << " After " << iteration << " iteration" << (iteration == 1 ? "" : "s") << " the residual |G, Phi| is "
        << r.norm() << " at the last iterate (" << iterate_text(z)
        << "). Give an 'Initial guess' closer to the equilibrium, check that one exists at these inputs (forces "
           "that no configuration balances have none, e.g. a constant force on a free coordinate), or allow more "
           "'Maximum iterations'.";
      std::string shown;
      for (unsigned int i = 0; i < n; ++i)
        if (guess[i])
          {
            std::ostringstream g;
            g << s.coordinates[i].name << ": " << *guess[i];
            shown += (shown.empty() ? "" : "; ") + g.str();
          }
      input_error(path, "Initial guess", "'" + shown + "'", t.str());
    };

    Result result;
    r = residual(z);
    if (!r.allFinite())
      fail(0, "the equations are not finite at the initial guess.");
    if (m > 0)
      {
        // the multipliers' first estimate: the least-squares solution of
        // G(q, lambda) = G(q, 0) + Phi_q^T lambda = 0 at the guessed q (with
        // lambda = 0 the stiffness terms lambda . Phi_qq vanish, and the
        // Jacobian is singular wherever the applied forces alone give none)
        lists.evaluate(1, z.data(), jacobian.data());
        const Eigen::MatrixXd transposed = jacobian.topRightCorner(n, m); // Phi_q^T
        const Eigen::VectorXd estimate   = transposed.completeOrthogonalDecomposition().solve(-r.head(n));
        if (estimate.allFinite())
          {
            z.tail(m) = estimate;
            r         = residual(z);
          }
      }
    for (unsigned int iteration = 0;; ++iteration)
      {
        if (iteration == max_iterations)
          fail(iteration, "it did not converge in 'Maximum iterations' (" + std::to_string(max_iterations) + ").");
        lists.evaluate(1, z.data(), jacobian.data());
        const Eigen::FullPivLU<Eigen::MatrixXd> lu(jacobian);
        if (!jacobian.allFinite() || !lu.isInvertible())
          fail(iteration, "the Jacobian [dG/dq, Phi_q^T; Phi_q, 0] is singular there (a coordinate that no force "
                          "or stiffness holds, dependent constraints, or a turning point of the equilibrium).");
        const Eigen::VectorXd step = lu.solve(r);
        if (step.lpNorm<Eigen::Infinity>() <= tolerance * (1 + z.lpNorm<Eigen::Infinity>()))
          {
            z -= step;
            r                 = residual(z);
            result.iterations = iteration + 1;
            break;
          }
        // backtracking on |r| (Armijo), from the full step
        bool decreased = false;
        for (double alpha = 1; alpha > 1e-10 && !decreased; alpha /= 2)
          {
            const Eigen::VectorXd trial   = z - alpha * step;
            const Eigen::VectorXd r_trial = residual(trial);
            if (r_trial.allFinite() && r_trial.norm() < (1 - 1e-4 * alpha) * r.norm())
              {
                z         = trial;
                r         = r_trial;
                decreased = true;
              }
          }
        if (!decreased)
          {
            if (r.norm() == 0)
              {
                result.iterations = iteration;
                break;
              }
            fail(iteration, "no step along Newton's direction reduces the residual (a minimum of |G, Phi| that "
                            "is not an equilibrium).");
          }
      }
    result.q.assign(z.data(), z.data() + n);
    result.lambda.assign(z.data() + n, z.data() + N);
    result.residual = r.norm();

    // the tangent stiffness on the constraints' tangent space
    lists.evaluate(1, z.data(), jacobian.data());
    const Eigen::MatrixXd K = jacobian.topLeftCorner(n, n);
    Eigen::MatrixXd       Z = Eigen::MatrixXd::Identity(n, n);
    if (m > 0)
      {
        const Eigen::JacobiSVD<Eigen::MatrixXd> svd(jacobian.bottomLeftCorner(m, n), Eigen::ComputeFullV);
        const auto                              sv   = svd.singularValues();
        unsigned int                            rank = 0;
        while (rank < sv.size() && sv[rank] > 1e-12 * sv[0])
          ++rank;
        Z = svd.matrixV().rightCols(n - rank);
      }
    const Eigen::MatrixXd Kr = Z.transpose() * K * Z;
    result.symmetric         = (Kr - Kr.transpose()).norm() <= 1e-10 * Kr.norm();
    if (result.symmetric)
      {
        const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver((Kr + Kr.transpose()) / 2,
                                                                    Eigen::EigenvaluesOnly);
        for (Eigen::Index i = 0; i < Kr.rows(); ++i)
          result.stiffness_eigenvalues.emplace_back(solver.eigenvalues()[i], 0.);
      }
    else
      {
        const Eigen::EigenSolver<Eigen::MatrixXd> solver(Kr, false);
        for (Eigen::Index i = 0; i < Kr.rows(); ++i)
          result.stiffness_eigenvalues.push_back(solver.eigenvalues()[i]);
      }
    std::sort(result.stiffness_eigenvalues.begin(), result.stiffness_eigenvalues.end(),
              [](const auto &a, const auto &b) { return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag()); });
    result.stable = std::all_of(result.stiffness_eigenvalues.begin(), result.stiffness_eigenvalues.end(),
                                [](const auto &e) { return e.real() > 0; });
    return result;
  }

  Statics::Equilibrium
  Statics::equilibrium(const Result &result, const Equations &eq) const
  {
    Equilibrium e{time, result, {}, {}};
    for (unsigned int i = 0; i < eq.n; ++i)
      e.coordinates.push_back(eq.system.coordinates[i].name);
    for (unsigned int k = 0; k < result.lambda.size(); ++k)
      e.multipliers.push_back(eq.multipliers[k].get_name());
    return e;
  }

  void
  Statics::Equilibrium::print(std::ostream &out) const
  {
    out << "  static equilibrium at t = " << format_significant(time_s) << " s: Newton " << result.iterations
        << " iterations, residual " << format_significant(result.residual, 3) << "\n";
    std::size_t width = 12;
    for (const auto &name : coordinates)
      width = std::max(width, name.size());
    const auto row = [&](const std::string &name, const double value) {
      out << "    " << std::left << std::setw(width) << name << std::right << " " << std::setw(16)
          << format_significant(value, 10) << "\n";
    };
    out << "    " << std::left << std::setw(width) << "coordinate" << std::right << " " << std::setw(16) << "value"
        << "\n";
    for (unsigned int i = 0; i < coordinates.size(); ++i)
      row(coordinates[i], result.q[i]);
    if (!multipliers.empty())
      out << "    " << std::left << std::setw(width) << "multiplier" << std::right << " " << std::setw(16) << "value"
          << "  (reaction: the generalized force -Phi_q^T lambda on the coordinates)\n";
    for (unsigned int k = 0; k < multipliers.size(); ++k)
      row(multipliers[k], result.lambda[k]);
    out << "    tangent stiffness eigenvalues" << (multipliers.empty() ? "" : " on the constraints' tangent space")
        << (result.symmetric ? "" : " (not symmetric: non-conservative forces)") << ":";
    for (const auto &e : result.stiffness_eigenvalues)
      {
        out << " " << format_significant(e.real(), 10);
        if (e.imag() != 0)
          out << (e.imag() > 0 ? "+" : "") << format_significant(e.imag(), 10) << "i";
      }
    out << (result.stiffness_eigenvalues.empty() ? " none (no freedom left)" : "") << " -> "
        << (result.stable ? "stable" : "not stable") << "\n";
  }

  nlohmann::json
  Statics::Equilibrium::to_json() const
  {
    nlohmann::json q = nlohmann::json::object(), lambda = nlohmann::json::object(), eigenvalues = nlohmann::json::array();
    for (unsigned int i = 0; i < coordinates.size(); ++i)
      q[coordinates[i]] = result.q[i];
    for (unsigned int k = 0; k < multipliers.size(); ++k)
      lambda[multipliers[k]] = result.lambda[k];
    for (const auto &e : result.stiffness_eigenvalues)
      eigenvalues.push_back({{"real", e.real()}, {"imag", e.imag()}});
    return {{"time_s", time_s},
            {"iterations", result.iterations},
            {"residual", result.residual},
            {"coordinates", q},
            {"multipliers", lambda},
            {"stiffness_eigenvalues", eigenvalues},
            {"symmetric_stiffness", result.symmetric},
            {"stable", result.stable}};
  }
} // namespace hamilton::lumped
