// The energy audit per element and per domain: what each component (and the
// file's own entries) added to the system, and the powers and stored energies
// derived from it.
#include <hamilton/lumped/canonical.h>
#include <hamilton/lumped/equations.h>

namespace hamilton::lumped
{
  using GiNaC::ex;

  void
  System::add_resistive_force(const GiNaC::ex &v, const GiNaC::ex &along)
  {
    for (unsigned int k = 0; k < coordinates.size(); ++k)
      {
        const GiNaC::ex share = along.diff(coordinates[k].position);
        if (!share.is_zero())
          resistive_forces[k] += v * share;
      }
  }

  System::Element
  System::terms() const
  {
    return {"",
            kinetic,
            potential,
            magnetic,
            electric,
            dissipation,
            forces,
            non_reciprocal_forces,
            resistive_forces,
            0,
            static_cast<unsigned int>(constraints.size())};
  }

  void
  System::record_element(const std::string &name, const Element &before)
  {
    // GiNaC cancels the earlier terms of each sum exactly: what remains is
    // what the element added
    Element e{name,
              kinetic - before.kinetic,
              potential - before.potential,
              magnetic - before.magnetic,
              electric - before.electric,
              dissipation - before.dissipation,
              forces,
              non_reciprocal_forces,
              resistive_forces,
              before.end_constraint,
              static_cast<unsigned int>(constraints.size())};
    for (unsigned int k = 0; k < before.forces.size(); ++k)
      {
        e.forces[k] -= before.forces[k];
        e.non_reciprocal_forces[k] -= before.non_reciprocal_forces[k];
        e.resistive_forces[k] -= before.resistive_forces[k];
      }
    elements.push_back(e);
  }

  namespace
  {
    /** v . d(e)/dv - e: the energy function of a term of the Lagrangian. */
    ex
    energy_function(const System &s, const ex &e)
    {
      ex r = -e;
      for (const auto &c : s.coordinates)
        r += c.velocity * e.diff(c.velocity);
      return r;
    }

    /** Whether e holds a position or velocity of an electrical (mechanical) coordinate. */
    bool
    has_domain(const System &s, const ex &e, bool electrical)
    {
      for (const auto &c : s.coordinates)
        if (c.electrical == electrical && (e.has(c.position) || e.has(c.velocity)))
          return true;
      return false;
    }
  } // namespace

  void
  Equations::derive_audit(const GiNaC::exmap &zero)
  {
    const auto &s = system;
    const auto  prepared = [&](const ex &e) { return exact(e.subs(zero)); };
    // stored energy by domain: E = v.p - L split by the four energy functions
    const ex T = prepared(s.kinetic), Wm = prepared(s.magnetic);
    domain_energies = {{"kinetic_energy_change_J", energy_function(s, T)},
                       {"potential_energy_change_J", prepared(s.potential)},
                       {"magnetic_energy_change_J", energy_function(s, Wm)},
                       {"electric_energy_change_J", prepared(s.electric)}};

    for (const auto &element : s.elements)
      {
        ex supplied = 0, source = 0, dissipated = 0;
        const ex D = prepared(element.dissipation);
        for (unsigned int i = 0; i < n; ++i)
          {
            const auto &v = s.coordinates[i].velocity;
            if (i < element.forces.size())
              {
                supplied += prepared(element.forces[i]) * v;
                source += prepared(element.non_reciprocal_forces[i]) * v;
                dissipated += prepared(element.resistive_forces[i]) * v;
              }
            dissipated += D.diff(v) * v;
          }
        for (unsigned int k = element.first_constraint; k < element.end_constraint; ++k)
          supplied += multipliers[k] * constraint_rates[k];

        // coupling: the power the mechanical coordinates deliver to the
        // terms of the element's Lagrangian that hold both domains,
        // -sum_mech (dL_mix/dq_k - d/dt dL_mix/dv_k) v_k
        const ex L = prepared(element.kinetic + element.magnetic - element.potential - element.electric).expand();
        ex       mixed = 0;
        for (const auto &term : GiNaC::is_a<GiNaC::add>(L) ? std::vector<ex>(L.begin(), L.end()) : std::vector<ex>{L})
          if (has_domain(s, term, true) && has_domain(s, term, false))
            mixed += term;
        ex coupling = 0;
        for (const auto &c : s.coordinates)
          if (!c.electrical)
            {
              const ex p = mixed.diff(c.velocity);
              ex       dp = 0; // d/dt of dL_mix/dv_k
              for (const auto &d : s.coordinates)
                dp += p.diff(d.position) * d.velocity + p.diff(d.velocity) * d.acceleration;
              coupling -= (mixed.diff(c.position) - dp) * c.velocity;
            }
        const std::pair<const char *, ex> parts[] = {{"supplied_work_", supplied},
                                                     {"source_work_", source},
                                                     {"dissipated_energy_", dissipated},
                                                     {"coupling_work_", coupling}};
        for (const auto &[prefix, power] : parts)
          if (!vanishes(power))
            element_powers.emplace_back(prefix + element.name + "_J", power);
      }
  }
} // namespace hamilton::lumped
