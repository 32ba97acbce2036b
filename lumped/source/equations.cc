#include <hamilton/lumped/canonical.h>
#include <hamilton/lumped/equations.h>

#include <algorithm>
#include <sstream>

namespace hamilton::lumped
{
  using GiNaC::ex;

  namespace
  {
    using Rational = std::vector<std::vector<GiNaC::numeric>>;

    /** A basis of {x : A x = 0} (A: rows of `columns` exact rationals), by exact Gauss-Jordan elimination. */
    Rational
    null_space(Rational A, unsigned int columns)
    {
      std::vector<unsigned int> pivots;
      for (unsigned int c = 0, r = 0; c < columns && r < A.size(); ++c)
        {
          unsigned int p = r;
          while (p < A.size() && A[p][c].is_zero())
            ++p;
          if (p == A.size())
            continue;
          std::swap(A[r], A[p]);
          const GiNaC::numeric pivot = A[r][c];
          for (auto &a : A[r])
            a = a / pivot;
          for (unsigned int i = 0; i < A.size(); ++i)
            if (i != r && !A[i][c].is_zero())
              {
                const GiNaC::numeric f = A[i][c];
                for (unsigned int j = 0; j < columns; ++j)
                  A[i][j] = A[i][j] - f * A[r][j];
              }
          pivots.push_back(c);
          ++r;
        }
      Rational basis;
      for (unsigned int f = 0; f < columns; ++f)
        if (std::find(pivots.begin(), pivots.end(), f) == pivots.end())
          {
            std::vector<GiNaC::numeric> x(columns, 0);
            x[f] = 1;
            for (unsigned int i = 0; i < pivots.size(); ++i)
              x[pivots[i]] = -A[i][f];
            basis.push_back(x);
          }
      return basis;
    }

    /**
     * The mass matrix's null space beyond its zero rows (constant in q), and
     * per direction whether an equation fixes it; see
     * Equations::floating_directions.
     */
    void
    find_floating_directions(Equations &eq, const GiNaC::exmap &neglected)
    {
      const System      &s = eq.system;
      const unsigned int n = eq.n, m = eq.m;
      // the parameters' values (symbolic checks), then the initial state
      GiNaC::exmap parameters = neglected;
      for (const auto &p : s.parameters)
        if (parameters.find(p.first) == parameters.end())
          parameters[p.first] = exact(p.second);
      GiNaC::exmap initial = parameters;
      for (const auto &c : s.coordinates)
        {
          initial[c.position]     = exact(c.initial_position.value_or(0.));
          initial[c.velocity]     = exact(c.initial_velocity.value_or(0.));
          initial[c.acceleration] = 0;
        }
      for (const auto &f : s.time_functions)
        initial[f.first] = exact(f.second(0.));
      for (const auto &l : eq.multipliers)
        initial[l] = 0;
      initial[s.time] = 0;
      bool       numeric = true;
      const auto value   = [&](const ex &e) {
        const ex v = GiNaC::normal(e.subs(initial));
        if (GiNaC::is_a<GiNaC::numeric>(v) && GiNaC::ex_to<GiNaC::numeric>(v).is_rational())
          return GiNaC::ex_to<GiNaC::numeric>(v);
        const ex f = v.evalf();
        if (!GiNaC::is_a<GiNaC::numeric>(f) || !GiNaC::ex_to<GiNaC::numeric>(f).is_real())
          {
            numeric = false;
            return GiNaC::numeric(0);
          }
        return GiNaC::ex_to<GiNaC::numeric>(exact(GiNaC::ex_to<GiNaC::numeric>(f).to_double()));
      };

      std::vector<unsigned int> inertial;
      for (unsigned int i = 0; i < n; ++i)
        if (!eq.algebraic[i])
          inertial.push_back(i);
      Rational M(inertial.size());
      for (unsigned int i = 0; i < inertial.size(); ++i)
        for (unsigned int j : inertial)
          M[i].push_back(value(eq.mass(inertial[i], j)));
      if (!numeric)
        return;
      Rational directions;
      for (const auto &x : null_space(M, inertial.size()))
        {
          std::vector<GiNaC::numeric> u(n, 0);
          for (unsigned int i = 0; i < inertial.size(); ++i)
            u[inertial[i]] = x[i];
          // constant: M(q) u = 0 for every q, or the singularity is one of
          // this configuration only (left to the integration's diagnostics)
          for (unsigned int i = 0; i < n; ++i)
            {
              ex row = 0;
              for (unsigned int j = 0; j < n; ++j)
                row += eq.mass(i, j) * u[j];
              if (!vanishes(row.subs(parameters)))
                return;
            }
          directions.push_back(u);
        }
      if (directions.empty())
        return;
      // a holonomic constraint along u fixes it (a voltage source at a node):
      // the mass matrix with the constraint Jacobian is then regular
      for (const auto &u : directions)
        for (unsigned int k = 0; k < m; ++k)
          {
            ex along = 0;
            for (unsigned int j = 0; j < n; ++j)
              along += eq.constraint_jacobian(k, j) * u[j];
            if (!vanishes(along.subs(parameters)))
              return;
          }

      // the shift q -> q + s u, v -> v + s_dot u changes the residuals at
      // the rate K [s; s_dot]; a combination of the directions that changes
      // none of them is undetermined: no equation fixes it
      const unsigned int r = directions.size();
      std::vector<std::vector<ex>> shift_q(n, std::vector<ex>(r)), shift_v(n, std::vector<ex>(r));
      Rational K;
      for (unsigned int i = 0; i < n; ++i)
        {
          std::vector<GiNaC::numeric> kq, kv;
          for (unsigned int d = 0; d < r; ++d)
            {
              ex dq = 0, dv = 0;
              for (unsigned int j = 0; j < n; ++j)
                {
                  dq += eq.residual[i].diff(s.coordinates[j].position) * directions[d][j];
                  dv += eq.residual[i].diff(s.coordinates[j].velocity) * directions[d][j];
                }
              shift_q[i][d] = dq.subs(parameters);
              shift_v[i][d] = dv.subs(parameters);
              kq.push_back(value(dq));
              kv.push_back(value(dv));
            }
          K.push_back(kq);
          K.push_back(kv);
        }
      if (!numeric)
        return;
      for (const auto &w : null_space(K, r))
        {
          bool identically = true;
          for (unsigned int i = 0; i < n && identically; ++i)
            {
              ex dq = 0, dv = 0;
              for (unsigned int d = 0; d < r; ++d)
                {
                  dq += shift_q[i][d] * w[d];
                  dv += shift_v[i][d] * w[d];
                }
              identically = vanishes(dq) && vanishes(dv);
            }
          if (!identically)
            continue; // a singular configuration, not a free combination
          std::string nodes, combination, first;
          bool        electrical = true;
          for (unsigned int j = 0; j < n; ++j)
            {
              GiNaC::numeric x = 0;
              for (unsigned int d = 0; d < r; ++d)
                x = x + w[d] * directions[d][j];
              if (x.is_zero())
                continue;
              electrical = electrical && s.coordinates[j].electrical;
              if (first.empty())
                first = s.coordinates[j].name;
              nodes += (nodes.empty() ? "" : ", ") + s.coordinates[j].name;
              std::ostringstream term;
              term << x;
              combination += (combination.empty() ? "" : ", ") + term.str();
            }
          input_error("Lumped system",
                      electrical ? "Electrical coordinates" : "Coordinates",
                      "'" + nodes + "'",
                      "the mass matrix (the capacitance matrix of a flux-linkage network) is singular in the "
                      "direction (" + combination + ") of these coordinates, and no equation fixes the "
                      "motion along it: shifting them together by any function of time changes no energy, "
                      "dissipation or force, so their common level (the potential of a floating node "
                      "group) is indeterminate. Ground the group: connect one of " + nodes +
                        " to ground (or to a node outside the group) by a capacitor or a resistor, fix one "
                        "of them with a constraint (such as 'Constraints = " + first +
                        "', which grounds that node), or remove the group.");
        }

      // per direction, whether u^T R holds velocities (index 1) or only
      // positions and time (index 2: a group tied to ground by inductors and
      // current sources)
      const auto nodes_of = [&](const std::vector<unsigned int> &which, bool &electrical) {
        std::string nodes;
        electrical = true;
        for (unsigned int j = 0; j < n; ++j)
          for (unsigned int d : which)
            if (!directions[d][j].is_zero())
              {
                nodes += (nodes.empty() ? "" : ", ") + s.coordinates[j].name;
                electrical = electrical && s.coordinates[j].electrical;
                break;
              }
        return nodes;
      };
      std::vector<unsigned int> first_order, second_order;
      std::vector<ex>           equations(r);
      for (unsigned int d = 0; d < r; ++d)
        {
          for (unsigned int i = 0; i < n; ++i)
            equations[d] += directions[d][i] * eq.residual[i];
          equations[d] = equations[d].expand();
          bool positions_only = true;
          for (const auto &c : s.coordinates)
            positions_only = positions_only && vanishes(equations[d].diff(c.velocity).subs(parameters)) &&
                             vanishes(equations[d].diff(c.acceleration).subs(parameters));
          (positions_only ? second_order : first_order).push_back(d);
        }

      // index 1: u^T R fixes the velocities along the directions if its
      // derivative in them, U^T R_v U, is regular
      Rational G(first_order.size());
      for (unsigned int a = 0; a < first_order.size(); ++a)
        for (unsigned int b : first_order)
          {
            ex g = 0;
            for (unsigned int i = 0; i < n; ++i)
              g += directions[first_order[a]][i] * shift_v[i][b];
            G[a].push_back(value(g));
          }
      if (numeric && !null_space(G, first_order.size()).empty())
        {
          bool              electrical = true;
          const std::string nodes      = nodes_of(first_order, electrical);
          input_error("Lumped system", electrical ? "Electrical coordinates" : "Coordinates", "'" + nodes + "'",
                      "the mass matrix (the capacitance matrix of a flux-linkage network) is singular along a "
                      "combination of these coordinates, and the equation that holds no acceleration along "
                      "it holds velocities, but not the velocities along it: it fixes neither the motion "
                      "along the combination (index 1) nor, holding positions only, its position (index 2), "
                      "which is not supported. Connect the group to ground (or to another node) by a "
                      "resistor or a capacitor, or write the network in loop charges.");
        }

      // index 2: g = u^T R (positions and time) fixes the position along
      // the directions, and its derivative g_q v + g_t their velocity, if
      // U^T g_q^T, the change of g under the shift, is regular
      Rational Gq(second_order.size());
      for (unsigned int a = 0; a < second_order.size(); ++a)
        for (unsigned int b : second_order)
          {
            ex g = 0;
            for (unsigned int i = 0; i < n; ++i)
              g += directions[second_order[a]][i] * shift_q[i][b];
            Gq[a].push_back(value(g));
          }
      if (numeric && !null_space(Gq, second_order.size()).empty())
        {
          bool              electrical = true;
          const std::string nodes      = nodes_of(second_order, electrical);
          std::ostringstream text;
          for (unsigned int d : second_order)
            text << (text.tellp() > 0 ? "; " : "") << canonical_string(equations[d], CanonicalForm::Style::text)
                 << " = 0";
          input_error("Lumped system", electrical ? "Electrical coordinates" : "Coordinates", "'" + nodes + "'",
                      "the mass matrix (the capacitance matrix of a flux-linkage network) is singular along a "
                      "combination of these coordinates, and the equation that holds no acceleration along it, " +
                        text.str() +
                        ", holds neither the velocities nor the positions along it (it does not change when "
                        "the group is shifted: the currents of its inductors to ground sum to zero, or a "
                        "controlled source returns them): the group's potential is indeterminate. Connect one "
                        "of " + nodes + " to ground by a capacitor, a resistor or an inductor whose current is "
                        "not returned to the group, or fix one of them with a constraint (such as "
                        "'Constraints = " + nodes.substr(0, nodes.find(',')) +
                        "').");
        }
      for (unsigned int d = 0; d < r; ++d)
        {
          std::vector<double> x;
          for (unsigned int j = 0; j < n; ++j)
            x.push_back(directions[d][j].to_double());
          const bool index2 = std::find(second_order.begin(), second_order.end(), d) != second_order.end();
          (index2 ? eq.index2_directions : eq.floating_directions).push_back(x);
          (index2 ? eq.index2_equations : eq.floating_equations).push_back(equations[d]);
        }

      // the index-2 directions as constraints Phi = g/s: s the norm of g_q
      // at the initial state, rounded to a rational (the same on every run)
      for (unsigned int d : second_order)
        {
          double norm = 0;
          for (const auto &c : s.coordinates)
            {
              const double x = value(equations[d].diff(c.position)).to_double();
              norm += x * x;
            }
          const ex    phi = (equations[d] / exact(norm > 0 ? std::sqrt(norm) : 1.)).expand(); // not numeric: 1
          const auto  k   = eq.constraints.size();
          GiNaC::matrix J(k + 1, n);
          for (unsigned int i = 0; i < k; ++i)
            for (unsigned int j = 0; j < n; ++j)
              J(i, j) = eq.constraint_jacobian(i, j);
          const GiNaC::symbol lambda = s.multiplier(k);
          for (unsigned int j = 0; j < n; ++j)
            {
              J(k, j) = phi.diff(s.coordinates[j].position);
              eq.residual[j] += J(k, j) * lambda;
            }
          eq.constraint_jacobian = J;
          eq.constraints.push_back(phi);
          eq.multipliers.push_back(lambda);
          eq.on_velocities.push_back(false);
          eq.constraint_rates.push_back(s.partial_time_derivative(phi));
          ++eq.m;
          ++eq.n_floating_constraints;
        }
    }
  } // namespace

  Equations::Equations(const System &s, bool dynamics)
    : system(s)
    , n(s.coordinates.size())
    , m(s.constraints.size() + s.velocity_constraints.size())
    , mass(n, n)
    , constraint_jacobian(m, n)
  {
    if (s.hamiltonian.given)
      {
        derive_canonical_equations(*this);
        return;
      }
    // exact numbers: GiNaC's arithmetic on them does not depend on the
    // (address-dependent) order of terms, so the derivation is the same on
    // every run
    const GiNaC::exmap zero = s.neglected_values();
    const ex           L    = exact((s.kinetic + s.magnetic - s.potential - s.electric).subs(zero));
    const ex           D    = exact(s.dissipation.subs(zero));
    std::vector<ex>    forces(n), non_reciprocal_forces(n);
    for (unsigned int i = 0; i < n; ++i)
      {
        forces[i]                = exact(s.forces[i].subs(zero));
        non_reciprocal_forces[i] = exact(s.non_reciprocal_forces[i].subs(zero));
      }
    std::vector<ex>    p(n);
    for (unsigned int i = 0; i < n; ++i)
      p[i] = L.diff(s.coordinates[i].velocity);
    GiNaC::exmap at_rest;
    for (const auto &c : s.coordinates)
      at_rest[c.velocity] = 0;
    for (unsigned int k = 0; k < m; ++k)
      {
        // a velocity constraint A v + b = 0 enters as Phi_q v + Phi_t = 0 does:
        // A in place of Phi_q, b in place of Phi_t
        const bool velocity = k >= s.constraints.size();
        on_velocities.push_back(velocity);
        multipliers.push_back(s.multiplier(k));
        constraints.push_back(
          exact((velocity ? s.velocity_constraints[k - s.constraints.size()] : s.constraints[k]).subs(zero)));
        for (unsigned int j = 0; j < n; ++j)
          constraint_jacobian(k, j) = velocity ? constraints[k].diff(s.coordinates[j].velocity) :
                                                 constraints[k].diff(s.coordinates[j].position);
        constraint_rates.push_back(velocity ? constraints[k].subs(at_rest) : s.partial_time_derivative(constraints[k]));
      }
    energy           = -L;
    supplied_power   = 0;
    for (unsigned int k = 0; k < m; ++k)
      supplied_power += multipliers[k] * constraint_rates[k];
    source_power     = 0;
    dissipated_power = 0;
    for (unsigned int i = 0; i < n; ++i)
      {
        const auto &c = s.coordinates[i];
        const ex    resistive = exact(s.resistive_forces[i].subs(zero));
        ex          r = -L.diff(c.position) + D.diff(c.velocity) + resistive - forces[i] - non_reciprocal_forces[i];
        for (unsigned int j = 0; j < n; ++j)
          {
            mass(i, j) = p[i].diff(s.coordinates[j].velocity);
            r += mass(i, j) * s.coordinates[j].acceleration + p[i].diff(s.coordinates[j].position) * s.coordinates[j].velocity;
          }
        for (unsigned int k = 0; k < m; ++k)
          r += constraint_jacobian(k, i) * multipliers[k];
        residual.push_back(r);
        energy += c.velocity * p[i];
        supplied_power += forces[i] * c.velocity;
        source_power += non_reciprocal_forces[i] * c.velocity;
        dissipated_power += (D.diff(c.velocity) + resistive) * c.velocity;
        if (!resistive.is_zero())
          matrix_form.why_not = "a dissipative element (a diode) is not a Rayleigh function";
      }
    derive_audit(zero);

    // velocities without inertia become algebraic, if their equation
    // determines them
    for (unsigned int i = 0; i < n; ++i)
      {
        bool zero_row = true;
        for (unsigned int j = 0; j < n; ++j)
          zero_row = zero_row && vanishes(mass(i, j));
        algebraic.push_back(zero_row);
        bool constrained = false; // a constraint (e.g. a current source) may determine it
        for (unsigned int k = 0; k < m; ++k)
          constrained = constrained || !vanishes(constraint_jacobian(k, i));
        if (dynamics && zero_row && !constrained && vanishes(residual[i].diff(s.coordinates[i].velocity)))
          input_error("Lumped system", "Coordinates", "'" + s.coordinates[i].name + "'",
                      "this coordinate has no inertia (T* and W_m* hold no term in " + s.coordinates[i].name +
                        "_dot^2) and its equation does not contain " + s.coordinates[i].name +
                        "_dot either, so it can be neither integrated nor solved for. Give it inertia "
                        "(a mass, an inductance) or a dissipation, or remove it.");
      }

    if (dynamics)
      find_floating_directions(*this, zero);

    // the matrix form, if the structure allows it
    auto &f = matrix_form;
    f.M     = mass;
    f.C = f.G = f.D = GiNaC::matrix(n, n);
    f.g = f.f = GiNaC::matrix(n, 1);
    f.B       = GiNaC::matrix(n, s.time_functions.size());
    ex quadratic = 0, linear = 0;
    for (unsigned int i = 0; i < n; ++i)
      for (unsigned int j = 0; j < n; ++j)
        {
          quadratic += mass(i, j) * s.coordinates[i].velocity * s.coordinates[j].velocity / 2;
          for (const auto &c : s.coordinates)
            if (!vanishes(mass(i, j).diff(c.velocity)))
              f.why_not = "the mass matrix depends on the velocities";
        }
    std::vector<ex> b(n);
    for (unsigned int i = 0; i < n; ++i)
      {
        b[i] = p[i].subs(at_rest);
        linear += b[i] * s.coordinates[i].velocity;
      }
    const ex rest = L.subs(at_rest);
    if (f.why_not.empty() && !vanishes(L - quadratic - linear - rest))
      f.why_not = "the Lagrangian is not quadratic in the velocities";
    ex dissipation_quadratic = 0;
    for (unsigned int i = 0; i < n; ++i)
      for (unsigned int j = 0; j < n; ++j)
        {
          f.D(i, j) = D.diff(s.coordinates[i].velocity).diff(s.coordinates[j].velocity);
          dissipation_quadratic += f.D(i, j) * s.coordinates[i].velocity * s.coordinates[j].velocity / 2;
          for (const auto &c : s.coordinates)
            if (!vanishes(f.D(i, j).diff(c.velocity)) || !vanishes(f.D(i, j).diff(c.position)))
              f.why_not = "the dissipation is not a constant quadratic form of the velocities";
        }
    if (f.why_not.empty() && !vanishes(D - dissipation_quadratic))
      f.why_not = "the dissipation is not a quadratic form of the velocities";
    if (f.why_not.empty())
      for (unsigned int i = 0; i < n; ++i)
        {
          const auto &qi = s.coordinates[i].position;
          for (unsigned int j = 0; j < n; ++j)
            {
              const auto &qj = s.coordinates[j].position;
              ex          cij = 0;
              for (unsigned int k = 0; k < n; ++k)
                {
                  const auto &qk = s.coordinates[k].position;
                  cij += (mass(i, j).diff(qk) + mass(i, k).diff(qj) - mass(j, k).diff(qi)) *
                         s.coordinates[k].velocity / 2;
                }
              f.C(i, j) = GiNaC::normal(cij.expand());
              f.G(i, j) = GiNaC::normal((b[i].diff(qj) - b[j].diff(qi)).expand());
            }
          f.g(i, 0) = -rest.diff(qi);
          const ex force = forces[i] + non_reciprocal_forces[i];
          ex       remainder = force;
          for (unsigned int u = 0; u < s.time_functions.size(); ++u)
            {
              f.B(i, u) = force.diff(s.time_functions[u].first);
              remainder -= f.B(i, u) * s.time_functions[u].first;
              if (!vanishes(f.B(i, u).diff(s.time_functions[u].first)))
                f.why_not = "a generalized force is not linear in the time functions";
            }
          f.f(i, 0) = GiNaC::normal(remainder.expand());
        }
    f.exists = f.why_not.empty();
  }

  void
  Equations::print(std::ostream &out) const
  {
    // every expression in canonical order (the same text on every run)
    using Style      = CanonicalForm::Style;
    const auto text  = [](const auto &e) { return canonical_string(e, Style::text); };
    const auto latex = [](const auto &e) { return canonical_string(e, Style::latex); };
    const auto &s = system;
    if (s.hamiltonian.given)
      {
        print_hamiltonian_side(*this, out);
        return;
      }
    GiNaC::lst  accelerations;
    for (const auto &c : s.coordinates)
      accelerations.append(c.acceleration);
    // the system's own rows: the multipliers of the index-2 directions
    // (zero on the solution, see index2_directions) are left out
    const unsigned int own = m - n_floating_constraints;
    GiNaC::exmap       index2_multipliers;
    for (unsigned int k = own; k < m; ++k)
      index2_multipliers[multipliers[k]] = 0;
    std::vector<ex> lhs(n), rhs(n);
    for (unsigned int i = 0; i < n; ++i)
      {
        rhs[i] = GiNaC::normal(exact(s.forces[i] + s.non_reciprocal_forces[i]));
        lhs[i] = (residual[i].subs(index2_multipliers) + rhs[i]).expand().collect(accelerations);
      }
    out << "Lagrange's equations (L = T* + W_m* - V - W_e; parameters as symbols";
    out << s.neglected_note() << ")\n\n";
    for (unsigned int i = 0; i < n; ++i)
      out << "  [" << s.coordinates[i].name << (algebraic[i] ? ", algebraic velocity" : "") << "]  " << text(lhs[i])
          << " = " << text(rhs[i]) << "\n";
    for (unsigned int k = 0; k < own; ++k)
      out << "  [" << (on_velocities[k] ? "velocity constraint " : "constraint ") << k + 1 << "]  "
          << text(constraints[k]) << " = 0\n";
    for (unsigned int d = 0; d < floating_directions.size(); ++d)
      {
        out << "  [M singular along (";
        for (unsigned int j = 0; j < n; ++j)
          out << (j ? ", " : "") << exact(floating_directions[d][j]);
        ex rhs = 0, lhs = floating_equations[d];
        for (unsigned int j = 0; j < n; ++j)
          rhs += exact(floating_directions[d][j]) * exact(s.forces[j] + s.non_reciprocal_forces[j]);
        rhs = GiNaC::normal(rhs);
        out << "): algebraic]  " << text((lhs + rhs).expand()) << " = " << text(rhs) << "\n";
      }
    for (unsigned int d = 0; d < index2_directions.size(); ++d)
      {
        out << "  [M singular along (";
        for (unsigned int j = 0; j < n; ++j)
          out << (j ? ", " : "") << exact(index2_directions[d][j]);
        ex rhs = 0, rate = 0;
        for (unsigned int j = 0; j < n; ++j)
          rhs += exact(index2_directions[d][j]) * exact(s.forces[j] + s.non_reciprocal_forces[j]);
        rhs            = GiNaC::normal(rhs);
        const ex lhs   = (index2_equations[d] + rhs).expand();
        const ex g     = index2_equations[d];
        for (const auto &c : s.coordinates)
          rate += g.diff(c.position) * c.velocity;
        out << "): index 2, positions only]  " << text(lhs) << " = " << text(rhs)
            << "\n      replaced by its time derivative  " << text((rate + s.partial_time_derivative(g)).expand())
            << " = 0,\n      kept at position level by the stabilizing multiplier mu_"
            << own + d + 1 << " (q' = v + Phi_q^T mu); lambda_" << own + d + 1 << " = 0 on the solution\n";
      }
    const auto &f = matrix_form;
    if (f.exists)
      {
        out << "\nMatrix form M q'' + (C + G) q' + D q' + g = B u + f, q = (";
        for (unsigned int i = 0; i < n; ++i)
          out << (i ? ", " : "") << s.coordinates[i].name;
        out << "), u = (";
        for (unsigned int u = 0; u < s.time_functions.size(); ++u)
          out << (u ? ", " : "") << s.time_functions[u].second.name;
        out << ")" << (s.time_functions.empty() ? ": no inputs" : "") << "\n  M = " << text(f.M)
            << "\n  C = " << text(f.C) << "\n  G = " << text(f.G) << "\n  D = " << text(f.D)
            << "\n  g = " << text(f.g) << "\n  B = " << text(f.B) << "\n  f = " << text(f.f) << "\n";
      }
    else
      out << "\nNo matrix form: " << f.why_not << ".\n";

    out << "\nLaTeX:\n\\begin{align}\n";
    for (unsigned int i = 0; i < n; ++i)
      out << "  " << latex(lhs[i]) << " &= " << latex(rhs[i]) << (i + 1 < n || own > 0 ? " \\\\\n" : "\n");
    for (unsigned int k = 0; k < own; ++k)
      out << "  " << latex(constraints[k]) << " &= 0" << (k + 1 < own ? " \\\\\n" : "\n");
    out << "\\end{align}\n";
    if (f.exists)
      out << "M = " << latex(f.M) << ",\\quad C = " << latex(f.C) << ",\\quad G = " << latex(f.G)
          << ",\\quad D = " << latex(f.D) << ",\\quad g = " << latex(f.g)
          << (s.time_functions.empty() ? "" : ",\\quad B = " + latex(f.B)) << "\n";
    print_hamiltonian_side(*this, out);
  }
} // namespace hamilton::lumped
