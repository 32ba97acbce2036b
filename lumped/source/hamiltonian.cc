#include <hamilton/base/input.h>
#include <hamilton/lumped/canonical.h>
#include <hamilton/lumped/equations.h>
#include <hamilton/lumped/hamiltonian.h>
#include <hamilton/lumped/system.h>

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/utilities.h>

#include <Eigen/Dense>

#include <algorithm>
#include <cctype>
#include <iomanip>
#include <set>
#include <sstream>

namespace hamilton::lumped
{
  using dealii::Patterns::Anything;
  using dealii::Utilities::trim;
  using GiNaC::ex;
  using Style = CanonicalForm::Style;

  namespace
  {
    /** Coordinates with more than this many degrees of freedom get H in matrix form (no symbolic inverse). */
    constexpr unsigned int largest_symbolic_inverse = 4;

    std::string
    text(const ex &e)
    {
      return canonical_string(e, Style::text);
    }

    std::string
    latex(const ex &e)
    {
      return canonical_string(e, Style::latex);
    }

    /** The text of an expression for a message, shortened. */
    std::string
    shown(const std::string &t)
    {
      return t.size() <= 120 ? "'" + t + "'" : "'" + t.substr(0, 100) + "...' (" + std::to_string(t.size()) + " characters)";
    }

    /** Split "a; b; c" (top-level ';'), trimming blanks; empty items removed. */
    std::vector<std::string>
    items_of(const std::string &t)
    {
      std::vector<std::string> items;
      for (const auto &item : dealii::Utilities::split_string_list(t, ';'))
        if (!trim(item).empty())
          items.push_back(trim(item));
      return items;
    }

    /** "p_x, p_y" */
    std::string
    momentum_list(const System &s)
    {
      std::string list;
      for (const auto &[q, p] : s.hamiltonian.indices)
        {
          (void)q;
          list += (list.empty() ? "" : ", ") + s.coordinates[p].name;
        }
      return list;
    }

    /**
     * Refuse identifiers of the form p_<name> in `t` that are no momentum
     * (nor another known name): a momentum of a coordinate that does not
     * exist, with the list of the momenta.
     */
    void
    check_momentum_names(const System &s, const std::string &where, const std::string &entry, const std::string &t)
    {
      std::set<std::string> known;
      for (const auto &c : s.coordinates)
        known.insert({c.name, c.name + "_dot", c.name + "_ddot"});
      for (const auto &p : s.parameters)
        known.insert(p.first.get_name());
      for (const auto &f : s.time_functions)
        known.insert({f.second.name, f.second.name + "_rate", f.second.name + "_rate2", f.second.name + "_integral"});
      for (std::size_t i = 0; i < t.size();)
        {
          if (!std::isalpha(static_cast<unsigned char>(t[i])))
            {
              // skip numbers such as 1e5 whole (their 'e' is no identifier)
              if (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '.')
                while (i < t.size() && (std::isalnum(static_cast<unsigned char>(t[i])) || t[i] == '.'))
                  ++i;
              else
                ++i;
              continue;
            }
          const std::size_t begin = i;
          while (i < t.size() && (std::isalnum(static_cast<unsigned char>(t[i])) || t[i] == '_'))
            ++i;
          const std::string name = t.substr(begin, i - begin);
          if (name.rfind("p_", 0) == 0 && !known.count(name))
            input_error(where, entry, shown(t),
                        "'" + name + "' is not a momentum: the momentum of coordinate x is named p_x, and '" +
                          name.substr(2) + "' is not a coordinate. Momenta: " + momentum_list(s) +
                          ". Declare the coordinate in 'Coordinates' or 'Electrical coordinates', or correct the name.");
        }
    }

    /** Refuse velocities (x_dot) in an expression of (q, p, t). */
    void
    refuse_velocities(const System &s, const ex &e, const std::string &where, const std::string &entry,
                      const std::string &t, const std::string &why)
    {
      for (const auto &c : s.coordinates)
        if (e.has(c.velocity))
          input_error(where, entry, shown(t),
                      "uses the velocity " + c.name + "_dot. " + why);
    }

    /** The symbol of a coordinate's momentum in printed Lagrangian systems. */
    GiNaC::symbol
    momentum_symbol(const Coordinate &c)
    {
      const std::string name = c.name;
      return GiNaC::symbol("p_" + name, "p_{" + name + "}");
    }
  } // namespace

  void
  declare_hamiltonian_parameters(dealii::ParameterHandler &prm)
  {
    prm.declare_entry("Hamiltonian", "", Anything(),
                      "The system given by its Hamiltonian H(q, p) (J) instead of energies: an expression of the "
                      "coordinates q, their momenta p_q (the momentum of coordinate x is named p_x: N s, N m s, or "
                      "V s, a flux linkage, for a charge) and the parameters, e.g. 'q^2/(2*C) + p_q^2/(2*L)'. "
                      "Integrated in canonical form dq/dt = dH/dp - f, dp/dt = -dH/dq + e - dD/dq_dot, the efforts "
                      "e in 'Generalized forces' (on q), the flows f in 'Flow sources' and 'Dissipative flows', "
                      "D the 'Dissipation' with q_dot = dH/dp. Initial momenta go in 'Initial positions' (p_x: "
                      "value). Not with the energy entries, energy components or constraints.");
    prm.declare_entry("Flow sources", "", Anything(),
                      "With 'Hamiltonian': flow sources f(q, p, t), 'coordinate: expression' separated by ';', "
                      "subtracted from dq/dt = dH/dp (the Hamiltonian lecture notes' general form); their work (-f dH/dq) is supplied.");
    prm.declare_entry("Dissipative flows", "", Anything(),
                      "With 'Hamiltonian': flows f_d(q, p) subtracted from dq/dt like 'Flow sources', booked "
                      "as dissipated (power f_d dH/dq), e.g. a resistor R1 across the capacitor of charge q: "
                      "'q: q/(C*R1)'.");
    prm.declare_entry("Canonical transformation", "none", dealii::Patterns::Selection("none|exchange"),
                      "With 'Hamiltonian': exchange integrates the system in the variables of the canonical "
                      "transformation (p, q) -> (-q*, p*) (coordinates x_star = -p_x, momenta p_x_star = x; "
                      "H*(q*, p*) = H(p*, -q*); forcing terms f* = e, e* = -f); --print-equations prints both "
                      "forms; the CSV has the original x and p_x as outputs.");
    prm.declare_entry("Inverse Legendre transform", "false", dealii::Patterns::Bool(),
                      "With 'Hamiltonian': print the Lagrangian L(q, q_dot) = p q_dot - H with p solved from "
                      "q_dot = dH/dp (--print-equations). H must be convex in p (checked at the initial state); "
                      "the inverse is symbolic when H is quadratic in p.");
    prm.enter_subsection("Simulation");
    prm.declare_entry("Momenta in output", "false", dealii::Patterns::Bool(),
                      "Write the generalized momenta p = dL/dq_dot as CSV columns p_<coordinate> (kg m/s, N m s "
                      "for an angle, V s for a charge); a system given by its Hamiltonian has them anyway.");
    prm.leave_subsection();
  }

  void
  parse_hamiltonian(System &s, Section &section)
  {
    auto             &h     = s.hamiltonian;
    const std::string where = section.path();
    h.inverse_legendre      = section.get_bool("Inverse Legendre transform");
    h.transformation        = section.get("Canonical transformation");
    {
      Section::Scope simulation(section, "Simulation");
      h.momenta_in_output = section.get_bool("Momenta in output");
    }
    const std::string hamiltonian = section.get("Hamiltonian");
    if (trim(hamiltonian).empty())
      {
        const std::string why = " applies to a system given by its 'Hamiltonian' only; this one is given by "
                                "its energies. Set 'Hamiltonian' (H(q, p)) instead of the energy entries, or remove it.";
        if (h.transformation != "none")
          section.fail("Canonical transformation", "'" + h.transformation + "'" + why);
        if (h.inverse_legendre)
          section.fail("Inverse Legendre transform", "'true'" + why);
        for (const char *entry : {"Flow sources", "Dissipative flows"})
          if (!items_of(section.get(entry)).empty())
            section.fail(entry, shown(section.get(entry)) + why);
        return;
      }
    if (s.coordinates.empty())
      section.fail("Hamiltonian", "the system has no coordinates: name the coordinates q in 'Coordinates' or "
                                  "'Electrical coordinates'; their momenta are then p_q.");
    h.given            = true;
    const unsigned int N = s.coordinates.size();
    for (unsigned int i = 0; i < N; ++i)
      {
        const std::string name       = s.coordinates[i].name;
        const bool        electrical = s.coordinates[i].electrical;
        s.coordinate("p_" + name, electrical, where, "Hamiltonian");
        h.indices.emplace_back(i, N + i);
      }
    for (unsigned int i = 0; i < N; ++i)
      h.pairs.push_back({s.coordinates[i].position, s.coordinates[N + i].position});
    check_momentum_names(s, where, "Hamiltonian", hamiltonian);
    h.H = s.parse(hamiltonian, where, "Hamiltonian", true);
    refuse_velocities(s, h.H, where, "Hamiltonian", hamiltonian,
                      "The Hamiltonian is a function of the coordinates and their momenta p_x; the velocities "
                      "follow from it (x_dot = dH/dp_x). Write the kinetic part in the momenta, e.g. p_x^2/(2*m).");

    for (const char *entry : {"Flow sources", "Dissipative flows"})
      for (const auto &item : items_of(section.get(entry)))
        {
          const auto colon = item.find(':');
          if (colon == std::string::npos)
            section.fail(entry, "the item '" + item + "' is not 'coordinate: expression'. Separate items with ';'.");
          const std::string name = trim(item.substr(0, colon)), t = trim(item.substr(colon + 1));
          unsigned int      k    = 0;
          while (k < N && s.coordinates[k].name != name)
            ++k;
          if (k == N)
            {
              std::string known;
              for (unsigned int i = 0; i < N; ++i)
                known += (i ? ", " : "") + s.coordinates[i].name;
              section.fail(entry, "'" + name + "' is not a coordinate of the Hamiltonian system" +
                                    (name.rfind("p_", 0) == 0 ? " (flows act on coordinates, efforts on momenta "
                                                                "through 'Generalized forces' of the coordinate)" :
                                                                "") +
                                    "; coordinates: " + known + ".");
            }
          check_momentum_names(s, where, entry, t);
          const bool dissipative = std::string(entry) == "Dissipative flows";
          const ex   f           = s.parse(t, where, entry, dissipative);
          refuse_velocities(s, f, where, entry, t, "Flows are functions of q, p (and t for sources): write x_dot as dH/dp_x.");
          (dissipative ? h.pairs[k].dissipative_flow : h.pairs[k].flow) += f;
        }
  }

  namespace
  {
    /** Add the momenta p = dL/dq_dot of a Lagrangian system as outputs. */
    void
    add_momentum_outputs(System &s, const std::string &where)
    {
      const ex L = s.kinetic + s.magnetic - s.potential - s.electric;
      for (const auto &c : s.coordinates)
        {
          const std::string name = "p_" + c.name;
          s.claim(name, "the momentum column of the coordinate '" + c.name + "'", where + "/Simulation",
                  "Momenta in output");
          s.outputs.emplace_back(name, L.diff(c.velocity));
          s.hamiltonian.momentum_units.emplace_back(name, c.electrical ? "V s" : "kg m/s (N m s for an angle)");
        }
    }

    /**
     * Refuse a Hamiltonian that is not convex in the momenta at the initial
     * state (the inverse Legendre transform asked for does not exist there).
     */
    void
    check_convexity(const System &s, const std::string &where, const std::string &hamiltonian)
    {
      const auto        &h = s.hamiltonian;
      const unsigned int N = h.pairs.size();
      GiNaC::exmap       at = s.parameter_values();
      std::ostringstream state;
      state << std::setprecision(6);
      for (const auto &c : s.coordinates)
        {
          at[c.position] = exact(c.initial_position.value_or(0.));
          state << (state.tellp() > 0 ? ", " : "") << c.name << " = " << c.initial_position.value_or(0.);
        }
      Eigen::MatrixXd Hpp(N, N);
      for (unsigned int i = 0; i < N; ++i)
        for (unsigned int j = 0; j < N; ++j)
          {
            const auto value = finite_value(h.H.diff(h.pairs[i].p).diff(h.pairs[j].p).subs(at));
            if (!value)
              input_error(where, "Hamiltonian", shown(hamiltonian),
                          "its second derivative d2H/dp_" + s.coordinates[h.indices[i].first].name + "dp_" +
                            s.coordinates[h.indices[j].first].name + " is not a finite number at the initial "
                            "state (" + state.str() + "), so 'Inverse Legendre transform' cannot solve q_dot = "
                            "dH/dp for p there. Check the Hamiltonian and the initial momenta.");
            Hpp(i, j) = *value;
          }
      const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(Hpp);
      const double smallest = eigen.eigenvalues()[0];
      if (!(smallest > 1e-12 * std::max(1., eigen.eigenvalues().cwiseAbs().maxCoeff())))
        {
          std::ostringstream m;
          m << std::setprecision(6) << "is not convex in the momenta at the initial state (" << state.str()
            << "): the Hessian d2H/dp2 there has the eigenvalue " << smallest
            << " <= 0, so q_dot = dH/dp does not determine p and the Lagrangian asked for by 'Inverse Legendre "
               "transform' does not exist. Kinetic energies of positive inertias are convex (p^2/(2*m) with "
               "m > 0, p_q^2/(2*L) with L > 0): check the signs and the inertias, or set 'Inverse Legendre "
               "transform' to false.";
          input_error(where, "Hamiltonian", shown(hamiltonian), m.str());
        }
    }

    /**
     * Replace the pairs (q, p) by (q*, p*) = (-p, q): new coordinates
     * x_star and p_x_star, H* = H(q = p*, p = -q*), f* = e, e* = -f,
     * f_d* = -e_d, e_d* = f_d; the outputs and drawing rewritten, the
     * original q and p added as outputs.
     */
    void
    exchange(System &s, const std::string &where)
    {
      auto              &h = s.hamiltonian;
      const unsigned int N = h.pairs.size();
      h.original_H         = h.H;
      h.original_pairs     = h.pairs;
      const std::vector<Coordinate> old = s.coordinates;
      s.coordinates.clear();
      s.forces.clear();
      s.non_reciprocal_forces.clear();
      GiNaC::exmap to_new;
      for (unsigned int k = 0; k < N; ++k)
        s.coordinate(old[h.indices[k].first].name + "_star", old[k].electrical, where, "Canonical transformation");
      for (unsigned int k = 0; k < N; ++k)
        s.coordinate("p_" + old[h.indices[k].first].name + "_star", old[k].electrical, where,
                     "Canonical transformation");
      for (unsigned int k = 0; k < N; ++k)
        {
          const Coordinate &q = old[h.indices[k].first], &p = old[h.indices[k].second];
          Coordinate       &q_star = s.coordinates[k], &p_star = s.coordinates[N + k];
          // q* = -p and p* = q keep the units of p and q (lumped.csv.columns.json)
          for (const auto &[to, from] : {std::pair{q_star.name, p.name}, std::pair{p_star.name, q.name}})
            if (const auto unit = s.units.find(from); unit != s.units.end())
              s.units[to] = unit->second;
          to_new[q.position] = p_star.position;
          to_new[p.position] = -q_star.position;
          to_new[q.velocity] = p_star.velocity;
          to_new[p.velocity] = -q_star.velocity;
          q_star.initial_position = -p.initial_position.value_or(0.);
          p_star.initial_position = q.initial_position.value_or(0.);
        }
      h.H = h.H.subs(to_new);
      for (unsigned int k = 0; k < N; ++k)
        {
          const CanonicalPair &o = h.original_pairs[k];
          h.pairs[k]             = {s.coordinates[k].position,
                                    s.coordinates[N + k].position,
                                    -o.flow.subs(to_new),
                                    o.effort.subs(to_new),
                                    o.dissipative_flow.subs(to_new),
                                    -o.dissipative_effort.subs(to_new)};
          h.indices[k] = {k, N + k};
        }
      for (auto &[name, e] : s.outputs)
        e = e.subs(to_new);
      for (auto &line : s.drawing)
        for (auto &[x, y] : line.points)
          {
            x = x.subs(to_new);
            y = y.subs(to_new);
          }
      for (unsigned int k = 0; k < N; ++k)
        {
          s.outputs.emplace_back(old[h.indices[k].first].name, s.coordinates[N + k].position);
          s.outputs.emplace_back(old[N + k].name, -s.coordinates[k].position);
        }
      s.dissipation = 0; // in the dissipative efforts and flows
    }
  } // namespace

  void
  finish_hamiltonian(System &s, Section &section)
  {
    auto             &h     = s.hamiltonian;
    const std::string where = section.path();
    if (!h.given)
      {
        if (h.momenta_in_output)
          add_momentum_outputs(s, where);
        return;
      }
    const std::string hamiltonian = section.get("Hamiltonian");
    for (const auto &[entry, e] : std::vector<std::pair<std::string, ex>>{{"Kinetic coenergy", s.kinetic},
                                                                         {"Potential energy", s.potential},
                                                                         {"Magnetic coenergy", s.magnetic},
                                                                         {"Electric energy", s.electric}})
      if (!e.is_zero())
        input_error(where, entry,
                    trim(section.get(entry)) == "0" ? shown(text(e)) + " (from components)" : shown(section.get(entry)),
                    "the system is given by its 'Hamiltonian' (" + shown(hamiltonian) +
                      "), which holds all its stored energy; Lagrangian energies (this entry, or components "
                      "that store energy: masses, springs, inductors, capacitors, transducers) cannot be mixed "
                      "with it. Write this energy into H in the momenta (a kinetic coenergy m*x_dot^2/2 as "
                      "p_x^2/(2*m), a magnetic coenergy L*q_dot^2/2 as p_q^2/(2*L), potential and electric "
                      "energies as they are) and remove it here, or remove 'Hamiltonian'.");
    if (!s.constraints.empty())
      section.fail("Constraints", "a system given by its 'Hamiltonian' takes no constraints (the canonical form "
                                  "here is unconstrained): eliminate the constrained coordinates in H, or describe "
                                  "the system by its energies.");
    for (const auto &c : s.coordinates)
      if (c.initial_velocity)
        section.fail("Initial velocities",
                     "'" + c.name + "' has an initial velocity, but in a system given by its 'Hamiltonian' the "
                     "velocities follow from H (x_dot = dH/dp_x): give the initial momenta in 'Initial positions' "
                     "instead (e.g. 'p_x: 0.1'), and remove this entry.");
    const unsigned int N = h.pairs.size();
    for (unsigned int k = 0; k < N; ++k)
      {
        const auto &[qi, pi] = h.indices[k];
        const auto &p        = s.coordinates[pi];
        if (!s.forces[pi].is_zero() || !s.non_reciprocal_forces[pi].is_zero())
          section.fail("Generalized forces",
                       "'" + p.name + "' is a momentum: a generalized force (effort) acts on its coordinate '" +
                         s.coordinates[qi].name + "' (dp/dt = -dH/dq + e); flows go into 'Flow sources'. Write "
                         "'" + s.coordinates[qi].name + ": ...'.");
        h.pairs[k].effort = s.forces[qi] + s.non_reciprocal_forces[qi];
        refuse_velocities(s, h.pairs[k].effort, where, "Generalized forces", text(h.pairs[k].effort),
                          "Efforts of a system given by its 'Hamiltonian' are functions of q, p and t: write "
                          "x_dot as dH/dp_x, or a dissipative force as 'Dissipation'.");
      }
    GiNaC::exmap velocities; // q_dot = dH/dp
    for (unsigned int k = 0; k < N; ++k)
      {
        const auto &p = s.coordinates[h.indices[k].second];
        if (s.dissipation.has(p.velocity))
          input_error(where, "Dissipation", shown(text(s.dissipation)),
                      "uses " + p.name + "_dot, the rate of a momentum: the Rayleigh function of a system given "
                      "by its 'Hamiltonian' is a function of the velocities x_dot (= dH/dp_x) and q.");
        velocities[s.coordinates[h.indices[k].first].velocity] = h.H.diff(h.pairs[k].p);
      }
    for (unsigned int k = 0; k < N; ++k)
      h.pairs[k].dissipative_effort = s.dissipation.diff(s.coordinates[h.indices[k].first].velocity).subs(velocities);
    if (h.inverse_legendre)
      check_convexity(s, where, hamiltonian);
    // an electrical momentum is a flux linkage (V s = Wb), not a charge
    // (System gives every electrical coordinate C unless 'Units' says)
    for (const auto &[q, p] : h.indices)
      if (s.coordinates[q].electrical)
        {
          auto unit = s.units.find(s.coordinates[p].name);
          if (unit == s.units.end() || unit->second == "C")
            s.units[s.coordinates[p].name] = "Wb";
        }
    if (h.transformation == "exchange")
      exchange(s, where);
    for (const auto &[q, p] : h.indices)
      {
        (void)q;
        const auto &c = s.coordinates[p];
        h.momentum_units.emplace_back(c.name, c.electrical ? "V s" : "kg m/s (N m s for an angle)");
      }
  }

  void
  derive_canonical_equations(Equations &eq)
  {
    const System &s    = eq.system;
    const auto   &h    = s.hamiltonian;
    const auto    zero = s.neglected_values();
    const ex      H    = exact(h.H.subs(zero));
    eq.residual.assign(eq.n, 0);
    eq.algebraic.assign(eq.n, true); // the mass matrix is zero: every velocity is algebraic
    eq.energy           = H;
    eq.supplied_power   = 0;
    eq.source_power     = 0;
    eq.dissipated_power = 0;
    for (unsigned int k = 0; k < h.pairs.size(); ++k)
      {
        const auto &pair   = h.pairs[k];
        const auto &[a, b] = h.indices[k];
        const ex    Hq = H.diff(pair.q), Hp = H.diff(pair.p);
        const ex    e = exact(pair.effort.subs(zero)), f = exact(pair.flow.subs(zero)),
                 ed = exact(pair.dissipative_effort.subs(zero)), fd = exact(pair.dissipative_flow.subs(zero));
        // the Lagrange equations of p . q_dot - H with these forces
        eq.residual[a] = s.coordinates[b].velocity + Hq - e + ed;
        eq.residual[b] = -s.coordinates[a].velocity + Hp - f - fd;
        eq.supplied_power += e * Hp - f * Hq;
        eq.dissipated_power += ed * Hp + fd * Hq;
      }
    eq.matrix_form.exists  = false;
    eq.matrix_form.why_not = "the system is given by its Hamiltonian (canonical equations above)";
  }

  namespace
  {
    /** Print the canonical equations of H and the pairs, as text and LaTeX. */
    void
    print_canonical(const System &s, const ex &H_in, const std::vector<CanonicalPair> &pairs, std::ostream &out)
    {
      const auto zero = s.neglected_values();
      const ex   H    = exact(H_in.subs(zero));
      std::vector<std::pair<ex, ex>> lines; // (left, right)
      out << "  H = " << text(H) << "\n";
      for (const auto &pair : pairs)
        {
          const ex f = exact((pair.flow + pair.dissipative_flow).subs(zero)),
                   e = exact((pair.effort - pair.dissipative_effort).subs(zero));
          const ex q_rate = (H.diff(pair.p) - f).expand(), p_rate = (-H.diff(pair.q) + e).expand();
          const std::string q = pair.q.get_name(), p = pair.p.get_name();
          out << "  [" << q << "]  d" << q << "/dt = dH/d" << p << (f.is_zero() ? "" : " - f") << " = " << text(q_rate)
              << "\n  [" << p << "]  d" << p << "/dt = -dH/d" << q << (e.is_zero() ? "" : " + e") << " = "
              << text(p_rate) << "\n";
          lines.emplace_back(GiNaC::symbol(q + "_dot", "\\dot{" + latex(pair.q) + "}"), q_rate);
          lines.emplace_back(GiNaC::symbol(p + "_dot", "\\dot{" + latex(pair.p) + "}"), p_rate);
        }
      out << "\nLaTeX:\n\\begin{align}\n  H &= " << latex(H) << " \\\\\n";
      for (unsigned int k = 0; k < lines.size(); ++k)
        out << "  " << latex(lines[k].first) << " &= " << latex(lines[k].second) << (k + 1 < lines.size() ? " \\\\\n" : "\n");
      out << "\\end{align}\n";
    }

    /** The inverse Legendre transform of a Hamiltonian system (asked by 'Inverse Legendre transform'). */
    void
    print_inverse_legendre(const System &s, std::ostream &out)
    {
      const auto        &h    = s.hamiltonian;
      const unsigned int N    = h.pairs.size();
      const auto         zero = s.neglected_values();
      const ex           H    = exact(h.H.subs(zero));
      GiNaC::matrix      Hpp(N, N), c(N, 1), v(N, 1);
      GiNaC::exmap       at_rest;
      for (const auto &pair : h.pairs)
        at_rest[pair.p] = 0;
      bool quadratic = true;
      for (unsigned int i = 0; i < N; ++i)
        {
          v(i, 0) = s.coordinates[h.indices[i].first].velocity;
          c(i, 0) = H.diff(h.pairs[i].p).subs(at_rest);
          for (unsigned int j = 0; j < N; ++j)
            {
              Hpp(i, j) = H.diff(h.pairs[i].p).diff(h.pairs[j].p);
              for (const auto &pair : h.pairs)
                quadratic = quadratic && vanishes(Hpp(i, j).diff(pair.p));
            }
        }
      out << "\nInverse Legendre transform (H convex in p at the initial state: checked)\n";
      if (!quadratic || N > largest_symbolic_inverse)
        {
          out << "  " << (quadratic ? "more than " + std::to_string(largest_symbolic_inverse) + " coordinates" :
                                      "H is not quadratic in the momenta")
              << ": q_dot = dH/dp cannot be solved for p symbolically here; L(q, q_dot) = p q_dot - H exists "
                 "near the initial state (H convex in p there).\n";
          return;
        }
      const GiNaC::matrix p = Hpp.inverse().mul(v.sub(c));
      GiNaC::exmap        momenta;
      for (unsigned int i = 0; i < N; ++i)
        momenta[h.pairs[i].p] = p(i, 0);
      ex L = -H;
      for (unsigned int i = 0; i < N; ++i)
        L += h.pairs[i].p * v(i, 0);
      L = GiNaC::normal(L.subs(momenta).expand());
      out << "  L(q, q_dot) = p q_dot - H at p = (d2H/dp2)^-1 (q_dot - dH/dp at p = 0) = " << text(L.expand()) << "\n";
      out << "  LaTeX: L = " << latex(L.expand()) << "\n";
    }

    /**
     * When the symbolic difference H(q, p(q, q_dot)) - E does not simplify
     * to zero (radicals): its value at three states (q_k = 0.1 (k + 1) j /
     * (n + 1), q_dot_k = 0.2 (k + 1) j / (n + 1), j = 1, 2, 3, with the
     * parameters' values) relative to E there.
     */
    std::string
    jacobi_check(const System &s, const ex &difference, const ex &E)
    {
      const unsigned int n = s.coordinates.size();
      double             largest = 0;
      unsigned int       points  = 0;
      for (unsigned int j = 1; j <= 3; ++j)
        {
          GiNaC::exmap at = s.parameter_values();
          for (unsigned int k = 0; k < n; ++k)
            {
              at[s.coordinates[k].position] = GiNaC::numeric(int(k + 1) * int(j), 10 * int(n + 1));
              at[s.coordinates[k].velocity] = GiNaC::numeric(2 * int(k + 1) * int(j), 10 * int(n + 1));
            }
          const auto d = finite_value(difference.subs(at)), e = finite_value(E.subs(at));
          if (!d || !e)
            continue;
          largest = std::max(largest, std::abs(*d) / std::max(std::abs(*e), 1e-300));
          ++points;
        }
      std::ostringstream m;
      m << std::setprecision(3);
      if (points == 0)
        m << "not simplified to zero symbolically (radicals), and not finite at the check points: H could not be "
             "checked against the Jacobi integral E";
      else if (largest <= 1e-12)
        m << "not simplified to zero symbolically (radicals), but zero to " << largest << " of E at " << points
          << " states: H equals the Jacobi integral E of the energy audit (checked numerically)";
      else
        m << "NOT zero (" << largest << " of E at " << points << " states): H differs from the Jacobi integral";
      return m.str();
    }

    /** The Hamiltonian side of a Lagrangian system. */
    void
    print_legendre(const Equations &eq, std::ostream &out)
    {
      const System      &s = eq.system;
      const unsigned int n = eq.n;
      const auto         zero = s.neglected_values();
      const ex           L    = exact((s.kinetic + s.magnetic - s.potential - s.electric).subs(zero));
      const ex           D    = exact(s.dissipation.subs(zero));
      out << "\nHamiltonian side (the Hamiltonian lecture notes: p = dL/dq_dot, H(q, p) = p . q_dot - L by the Legendre transform)\n";
      std::vector<GiNaC::symbol> p;
      std::vector<ex>            momenta;
      for (unsigned int i = 0; i < n; ++i)
        {
          p.push_back(momentum_symbol(s.coordinates[i]));
          momenta.push_back(L.diff(s.coordinates[i].velocity));
          out << "  p_" << s.coordinates[i].name << " = " << text(momenta.back()) << "\n";
        }
      // the reasons why there is no symbolic H(q, p)
      std::string why_not, algebraic;
      for (unsigned int i = 0; i < n; ++i)
        if (eq.algebraic[i])
          algebraic += (algebraic.empty() ? "" : ", ") + s.coordinates[i].name;
      GiNaC::exmap at_rest;
      for (const auto &c : s.coordinates)
        at_rest[c.velocity] = 0;
      for (unsigned int i = 0; i < n && why_not.empty(); ++i)
        for (unsigned int j = 0; j < n && why_not.empty(); ++j)
          for (const auto &c : s.coordinates)
            if (!vanishes(eq.mass(i, j).diff(c.velocity)))
              why_not = "L is not quadratic in the velocities (the mass matrix d2L/dq_dot2 depends on " + c.name +
                        "_dot), so p(q_dot) cannot be inverted symbolically; H is the Jacobi integral E below as a "
                        "function of (q, q_dot)";
      if (why_not.empty() && !algebraic.empty())
        why_not = "the Legendre transform is degenerate: the mass matrix d2L/dq_dot2 is singular (no inertia for " +
                  algebraic + ", whose momenta vanish identically): H(q, p) is not defined on all of p";
      auto singular = eq.floating_directions; // a floating node group (Equations::floating_directions)
      singular.insert(singular.end(), eq.index2_directions.begin(), eq.index2_directions.end());
      for (const auto &u : singular)
        if (why_not.empty())
          {
            std::string direction;
            for (unsigned int j = 0; j < n; ++j)
              direction += (j ? ", " : "") + canonical_string(exact(u[j]), CanonicalForm::Style::text);
            why_not = "the Legendre transform is degenerate: the mass matrix d2L/dq_dot2 is singular along (" +
                      direction + "), where the combination of the momenta does not depend on the velocities (a "
                      "floating node group: its net charge): H(q, p) is not defined on all of p";
          }
      ex E = exact(eq.energy);
      if (!why_not.empty())
        {
          out << "  No H(q, p): " << why_not << ".\n  E = q_dot . p - L = " << text(E.expand()) << "\n";
          return;
        }
      // L = 1/2 v^T M v + b . v + L(q, 0): p = M v + b, v = M^-1 (p - b)
      GiNaC::matrix M(n, n), b(n, 1), pv(n, 1);
      for (unsigned int i = 0; i < n; ++i)
        {
          b(i, 0)  = momenta[i].subs(at_rest);
          pv(i, 0) = p[i] - b(i, 0);
          for (unsigned int j = 0; j < n; ++j)
            M(i, j) = eq.mass(i, j);
        }
      if (n > largest_symbolic_inverse)
        {
          out << "  H(q, p) = 1/2 (p - b)^T M^-1 (p - b) - L(q, 0) with (symbolic inverse left out for more than "
              << largest_symbolic_inverse << " coordinates)\n  M = " << canonical_string(M, Style::text)
              << "\n  b = " << canonical_string(b, Style::text)
              << "\n  L(q, 0) = " << text(L.subs(at_rest)) << "\n";
          return;
        }
      const GiNaC::matrix Minv = M.inverse();
      const GiNaC::matrix v    = Minv.mul(pv);
      GiNaC::exmap        velocities, of_velocities;
      for (unsigned int i = 0; i < n; ++i)
        {
          velocities[s.coordinates[i].velocity] = GiNaC::normal(v(i, 0));
          of_velocities[p[i]]                   = momenta[i];
        }
      // H = 1/2 (p - b)^T M^-1 (p - b) - L(q, 0), kept in this form for printing
      ex H = -L.subs(at_rest).expand();
      for (unsigned int i = 0; i < n; ++i)
        for (unsigned int j = 0; j < n; ++j)
          H += pv(i, 0) * GiNaC::normal(Minv(i, j)) * pv(j, 0) / 2;
      out << "  H = " << text(H) << "\n";
      const ex difference = GiNaC::normal((H.subs(of_velocities) - E).expand());
      if (difference.is_zero())
        out << "  H(q, p(q, q_dot)) = E, the Jacobi integral of the energy audit (checked symbolically)\n";
      else
        out << "  H(q, p(q, q_dot)) - E: " << jacobi_check(s, difference, E) << "\n";
      // Hamilton's equations with the non-conservative terms
      out << "  Hamilton's equations (q_dot = dH/dp; p_dot = -dH/dq - dD/dq_dot + F";
      if (eq.m > 0)
        out << " - Phi_q^T lambda";
      out << ", q_dot = dH/dp in D and F):\n";
      std::vector<std::pair<ex, ex>> lines;
      for (unsigned int i = 0; i < n; ++i)
        {
          const auto &c      = s.coordinates[i];
          const ex    q_rate = GiNaC::normal(H.diff(p[i]));
          ex          p_rate = -H.diff(c.position) - D.diff(c.velocity) +
                     exact((s.forces[i] + s.non_reciprocal_forces[i]).subs(zero));
          for (unsigned int k = 0; k < eq.m; ++k)
            p_rate -= eq.constraint_jacobian(k, i) * eq.multipliers[k];
          p_rate = GiNaC::normal(p_rate.subs(velocities));
          out << "  [" << c.name << "]  d" << c.name << "/dt = " << text(q_rate) << "\n  [p_" << c.name << "]  dp_"
              << c.name << "/dt = " << text(p_rate) << "\n";
          lines.emplace_back(GiNaC::symbol(c.name + "_dot", "\\dot{" + latex(c.position) + "}"), q_rate);
          lines.emplace_back(GiNaC::symbol("p_" + c.name + "_dot", "\\dot{p}_{" + c.name + "}"), p_rate);
        }
      out << "\nLaTeX:\n\\begin{align}\n  H &= " << latex(H) << " \\\\\n";
      for (unsigned int k = 0; k < lines.size(); ++k)
        out << "  " << latex(lines[k].first) << " &= " << latex(lines[k].second) << (k + 1 < lines.size() ? " \\\\\n" : "\n");
      out << "\\end{align}\n";
    }
  } // namespace

  void
  print_hamiltonian_side(const Equations &eq, std::ostream &out)
  {
    const System &s = eq.system;
    const auto   &h = s.hamiltonian;
    if (!h.given)
      {
        print_legendre(eq, out);
        return;
      }
    out << "Hamilton's equations (the system given by its Hamiltonian; dq/dt = dH/dp - f, dp/dt = -dH/dq + e, "
           "f the flow sources and dissipative flows, e the efforts minus dD/dq_dot at q_dot = dH/dp; "
           "parameters as symbols";
    out << s.neglected_note() << ")\n\n";
    if (h.transformation == "exchange")
      {
        print_canonical(s, h.original_H, h.original_pairs, out);
        out << "\nCanonical transformation (p, q) -> (-q*, p*):";
        for (const auto &pair : h.original_pairs)
          out << " " << pair.q.get_name() << " = p_" << pair.q.get_name() << "_star, " << pair.p.get_name() << " = -"
              << pair.q.get_name() << "_star;";
        out << "\n  H*(q*, p*) = H(p*, -q*); forcing terms f* = e, e* = -f (dissipative: f_d* = -e_d, e_d* = f_d)."
               "\n  The transformed equations (integrated):\n\n";
      }
    print_canonical(s, h.H, h.pairs, out);
    if (h.inverse_legendre)
      print_inverse_legendre(s, out);
  }
} // namespace hamilton::lumped
