#include <hamilton/lumped/canonical.h>
#include <hamilton/lumped/equations.h>

namespace hamilton::lumped
{
  using GiNaC::ex;

  namespace
  {
    bool
    vanishes(const ex &e)
    {
      return e.expand().is_zero() || GiNaC::normal(e).is_zero();
    }

    GiNaC::exmap
    neglected_values(const System &system)
    {
      GiNaC::exmap values;
      for (const auto &name : system.neglected)
        for (const auto &p : system.parameters)
          if (p.first.get_name() == name)
            values[p.first] = 0;
      return values;
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
    const GiNaC::exmap zero = neglected_values(s);
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
    std::vector<ex> lhs(n), rhs(n);
    for (unsigned int i = 0; i < n; ++i)
      {
        rhs[i] = GiNaC::normal(exact(s.forces[i] + s.non_reciprocal_forces[i]));
        lhs[i] = (residual[i] + rhs[i]).expand().collect(accelerations);
      }
    out << "Lagrange's equations (L = T* + W_m* - V - W_e; parameters as symbols";
    if (!s.neglected.empty())
      {
        out << "; simplified model:";
        for (const auto &name : s.neglected)
          out << " " << name;
        out << " = 0";
      }
    out << ")\n\n";
    for (unsigned int i = 0; i < n; ++i)
      out << "  [" << s.coordinates[i].name << (algebraic[i] ? ", algebraic velocity" : "") << "]  " << text(lhs[i])
          << " = " << text(rhs[i]) << "\n";
    for (unsigned int k = 0; k < m; ++k)
      out << "  [" << (on_velocities[k] ? "velocity constraint " : "constraint ") << k + 1 << "]  "
          << text(constraints[k]) << " = 0\n";
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
      out << "  " << latex(lhs[i]) << " &= " << latex(rhs[i]) << (i + 1 < n || m > 0 ? " \\\\\n" : "\n");
    for (unsigned int k = 0; k < m; ++k)
      out << "  " << latex(constraints[k]) << " &= 0" << (k + 1 < m ? " \\\\\n" : "\n");
    out << "\\end{align}\n";
    if (f.exists)
      out << "M = " << latex(f.M) << ",\\quad C = " << latex(f.C) << ",\\quad G = " << latex(f.G)
          << ",\\quad D = " << latex(f.D) << ",\\quad g = " << latex(f.g)
          << (s.time_functions.empty() ? "" : ",\\quad B = " + latex(f.B)) << "\n";
    print_hamiltonian_side(*this, out);
  }
} // namespace hamilton::lumped
