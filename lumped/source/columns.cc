// The units and meanings of the columns of lumped.csv (the sidecar
// lumped.csv.columns.json).
#include <hamilton/lumped/simulation.h>

namespace hamilton::lumped
{
  std::vector<ColumnDescription>
  describe_output_columns(const Equations &eq)
  {
    const System &s    = eq.system;
    const auto    unit = [&](const std::string &name) {
      const auto found = s.units.find(name);
      return found == s.units.end() ? std::string() : found->second;
    };
    std::vector<ColumnDescription> d{{"t_s", "s", "time"}};
    for (const auto &q : s.coordinates)
      d.push_back({q.name, unit(q.name),
                   q.electrical ? (unit(q.name) == "Wb" ? "flux linkage coordinate '" + q.name + "'" :
                                                           "charge coordinate '" + q.name + "'") :
                                  "mechanical coordinate '" + q.name + "'" +
                                    (unit(q.name).empty() ? " (no unit given: add it to 'Lumped system/Units')" : "")});
    for (const auto &q : s.coordinates)
      d.push_back({q.name + "_dot", rate_unit(unit(q.name)),
                   q.electrical ? (unit(q.name) == "Wb" ? "voltage d/dt of '" + q.name + "'" :
                                                           "current d/dt of '" + q.name + "'") :
                                  "velocity d/dt of '" + q.name + "'" +
                                    (unit(q.name).empty() ? " (no unit given: add the coordinate's to 'Lumped system/Units')" :
                                                            "")});
    const unsigned int own = eq.m - eq.n_floating_constraints; // then the index-2 floating node groups
    for (unsigned int k = 0; k < eq.m; ++k)
      d.push_back({"lambda_" + std::to_string(k + 1), "",
                   k < own ? "Lagrange multiplier of constraint " + std::to_string(k + 1) +
                               ": the generalized force that keeps it, in J per unit of the constraint's expression" :
                             "multiplier of the current law of an index-2 floating node group (doc/lumped.md): "
                             "zero on the solution"});
    for (const auto &o : s.outputs)
      {
        // the unit given, else the one of the name's suffix (power_W)
        const std::string given = unit(o.first), suffix = unit_from_suffix(o.first);
        d.push_back({o.first, given.empty() ? suffix : given,
                     "output '" + o.first + "' ('Lumped system/Outputs' or a component's)" +
                       (given.empty() && suffix.empty() ? " (no unit given: add it to 'Lumped system/Units')" :
                        given.empty()                   ? " (unit from the name's suffix)" :
                                                          "")});
      }
    for (unsigned int k = 0; k < eq.m; ++k)
      d.push_back({"constraint_" + std::to_string(k + 1), "",
                   k < own ? "value of constraint " + std::to_string(k + 1) +
                               " Phi(q, t), zero up to the integration's drift (in the unit of its expression)" :
                             "the current law g(q, t) of an index-2 floating node group divided by the norm of "
                             "g_q (doc/lumped.md), zero up to the integration's tolerance"});
    d.push_back({"stored_energy_change_J", "J", "energy audit: change of the stored energy since t = 0"});
    d.push_back({"supplied_work_J", "J", "energy audit: work supplied by sources and prescribed motions since t = 0"});
    d.push_back({"source_work_J", "J", "energy audit: work of non-reciprocal forces (booked as a source) since t = 0"});
    d.push_back({"dissipated_energy_J", "J", "energy audit: energy dissipated since t = 0"});
    d.push_back({"audit_residual_J", "J", "energy audit: stored change - supplied - source + dissipated (ideally 0)"});
    // the audit's parts (output_columns(): the stored energy by domain, then
    // the works per element)
    for (const auto &part : eq.domain_energies)
      {
        const std::string domain = part.first.substr(0, part.first.find('_'));
        d.push_back({part.first, "J",
                     "energy audit: change since t = 0 of the stored " + domain +
                       " energy (the part of the Jacobi integral from the '" +
                       (domain == "kinetic"   ? std::string("Kinetic coenergy") :
                        domain == "potential" ? std::string("Potential energy") :
                        domain == "magnetic"  ? std::string("Magnetic coenergy") :
                                                std::string("Electric energy")) +
                       "' terms)"});
      }
    for (const auto &part : eq.element_powers)
      {
        const std::string &name = part.first;
        const auto         of   = [&](const std::string &prefix) {
          return name.substr(prefix.size(), name.size() - prefix.size() - 2); // without the prefix and "_J"
        };
        const auto element = [&](const std::string &prefix) {
          const std::string e = of(prefix);
          return e == "entries" ? std::string("the file's own entries of 'Lumped system'") : "component '" + e + "'";
        };
        std::string meaning;
        if (name.rfind("supplied_work_", 0) == 0)
          meaning = "energy audit: work supplied since t = 0 by " + element("supplied_work_") +
                    " (its forces and prescribed motions)";
        else if (name.rfind("source_work_", 0) == 0)
          meaning = "energy audit: work of the non-reciprocal forces of " + element("source_work_") + " since t = 0";
        else if (name.rfind("dissipated_energy_", 0) == 0)
          meaning = "energy audit: energy dissipated by " + element("dissipated_energy_") + " since t = 0";
        else
          meaning = "energy audit: work the mechanical coordinates delivered since t = 0 to the terms of " +
                    element("coupling_work_") + " that hold both domains (electromechanical coupling)";
        d.push_back({name, "J", meaning});
      }
    return d;
  }
} // namespace hamilton::lumped
