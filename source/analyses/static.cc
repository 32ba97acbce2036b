#include <hamilton/analyses/electrodes.h>
#include <hamilton/analyses/static.h>

#include <deal.II/lac/sparse_direct.h>

#include <iomanip>

namespace hamilton
{
  using namespace dealii;

  void
  StaticAnalysis::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Static");
    prm.declare_entry("Include prestress",
                      "true",
                      Patterns::Bool(),
                      "Whether the geometric stiffness of "
                      "'Beam/Prestress/Axial force' enters (K + K_g).");
    prm.declare_entry("Samples per element",
                      "8",
                      Patterns::Integer(1),
                      "Points per element in the table along x.");
    prm.leave_subsection();
  }

  void
  StaticAnalysis::parse_parameters(Section &s)
  {
    include_prestress   = s.get_bool("Include prestress");
    samples_per_element = s.get_unsigned("Samples per element");
  }

  void
  StaticAnalysis::check(const Problem &problem) const
  {
    const double n_points =
      double(problem.discretization.sample_points(1).size()) * samples_per_element;
    require_memory(n_points * (8 * sizeof(double) + 32), "Analysis/Static", "Samples per element",
                   std::to_string(samples_per_element),
                   "the deflection table at " + format_number(n_points) + " points");
    if (problem.model.rigid_body_restraint_rank() < 2)
      {
        std::string conditions;
        for (const auto &s : problem.model.supports)
          conditions += (conditions.empty() ? "" : ", ") + s.name + ": " +
                        to_string(s.condition);
        input_error("Beam/Supports",
                    "Left end, Right end, Names",
                    "'" + conditions + "'",
                    "a static analysis needs a beam that cannot move as a "
                    "rigid body, but these supports leave a rigid "
                    "translation or rotation free. Clamp one end, pin two "
                    "points, or add springs ('Translational stiffness', "
                    "'Rotational stiffness').");
      }
  }

  std::unique_ptr<AnalysisResult>
  StaticAnalysis::run(const Problem &problem) const
  {
    const Operators &ops    = problem.operators;
    auto             result = std::make_unique<StaticResult>();
    result->with_prestress  = include_prestress && problem.model.has_prestress;

    SparseMatrix<double> K(ops.sparsity);
    K.copy_from(ops.stiffness);
    if (result->with_prestress)
      K.add(1., ops.geometric_stiffness);
    // electrodes: prescribed voltages load the structure, open circuits are
    // condensed exactly, short circuits have V = 0
    const auto       &electrodes = problem.model.electrodes;
    std::vector<bool> open(electrodes.size(), false);
    result->solution = ops.load;
    for (unsigned int e = 0; e < electrodes.size(); ++e)
      {
        open[e] = electrodes[e].circuit == ElectrodeCircuit::open_circuit;
        if (electrodes[e].circuit == ElectrodeCircuit::voltage)
          result->solution.add(electrodes[e].voltage, ops.electrodes[e].coupling);
      }
    const auto condensed = condense_open_electrodes(ops, K, open);
    SparseDirectUMFPACK solver;
    solver.initialize(condensed->matrix);
    solver.solve(result->solution);

    std::vector<double> voltages(electrodes.size(), 0.);
    for (unsigned int e = 0; e < electrodes.size(); ++e)
      {
        const auto  &op           = ops.electrodes[e];
        const double coupled      = op.coupling * result->solution;
        voltages[e]               = open[e] ? -coupled / op.capacitance :
                                    electrodes[e].circuit == ElectrodeCircuit::voltage ?
                                              electrodes[e].voltage :
                                              0.;
        const char *circuit = open[e] ? "open circuit" :
                              electrodes[e].circuit == ElectrodeCircuit::voltage ?
                                        "voltage" :
                                        "short circuit";
        result->electrodes.push_back(
          {electrodes[e].name, circuit, voltages[e], coupled + op.capacitance * voltages[e]});
      }

    const Segment *segment = nullptr;
    result->x = problem.discretization.sample_points(samples_per_element);
    for (const double x : result->x)
      {
        double w, slope, curvature;
        problem.discretization.evaluate(result->solution, x, w, slope, curvature);
        segment = &problem.model.segment_at(x);
        result->w.push_back(w);
        result->slope.push_back(slope);
        result->curvature.push_back(curvature);
        result->moment.push_back(segment->section.bending_stiffness * curvature);
      }

    for (const auto &r : ops.reactions)
      {
        double value = r.row_stiffness * result->solution - r.load;
        if (result->with_prestress)
          value += r.row_geometric * result->solution;
        for (unsigned int e = 0; e < voltages.size(); ++e)
          value -= r.electrode_coupling[e] * voltages[e];
        result->reactions.push_back({r.support, r.component, r.position, value});
      }
    require_finite(*result, "Analysis/Static",
                   "Check 'Loads' ('Distributed load', point loads) and 'Beam/Prestress/Axial force': "
                   "they must be finite on the whole beam.");
    return result;
  }

  void
  StaticResult::print_summary(std::ostream &out) const
  {
    std::size_t largest = 0;
    for (std::size_t i = 0; i < w.size(); ++i)
      if (std::abs(w[i]) > std::abs(w[largest]))
        largest = i;
    out << "Static analysis" << (with_prestress ? " (with prestress)" : "")
        << "\n  largest deflection " << std::setprecision(8) << w[largest]
        << " m at x = " << x[largest] << " m; tip deflection " << w.back()
        << " m, tip slope " << slope.back() << " rad\n";
    for (const auto &r : reactions)
      out << "  reaction " << r.component << " at " << r.support << " (x = "
          << r.position << " m): " << r.value
          << (r.component == "force" ? " N" : " N m") << "\n";
    for (const auto &e : electrodes)
      out << "  electrode " << e.name << " (" << e.circuit << "): V = " << e.voltage
          << " V, Q = " << e.charge << " C\n";
  }

  void
  StaticResult::add_to_json(nlohmann::json &results) const
  {
    nlohmann::json reaction_list = nlohmann::json::array();
    for (const auto &r : reactions)
      reaction_list.push_back({{"support", r.support},
                               {"component", r.component},
                               {"position_m", r.position},
                               {"value", r.value}});
    std::size_t largest = 0;
    for (std::size_t i = 0; i < w.size(); ++i)
      if (std::abs(w[i]) > std::abs(w[largest]))
        largest = i;
    nlohmann::json electrode_list = nlohmann::json::array();
    for (const auto &e : electrodes)
      electrode_list.push_back({{"name", e.name},
                                {"circuit", e.circuit},
                                {"voltage_V", e.voltage},
                                {"charge_C", e.charge}});
    results["static"] = {{"largest_deflection_m", w[largest]},
                         {"electrodes", electrode_list},
                         {"largest_deflection_at_m", x[largest]},
                         {"tip_deflection_m", w.back()},
                         {"tip_slope_rad", slope.back()},
                         {"root_moment_Nm", moment.front()},
                         {"with_prestress", with_prestress},
                         {"reactions", reaction_list}};
  }

  std::vector<Table>
  StaticResult::tables() const
  {
    Table t{"static",
            {"x_m", "w_m", "slope_rad", "curvature_1_m", "bending_moment_Nm"},
            {}};
    for (std::size_t i = 0; i < x.size(); ++i)
      t.rows.push_back({x[i], w[i], slope[i], curvature[i], moment[i]});
    return {t};
  }

  std::vector<std::pair<std::string, std::vector<Field>>>
  StaticResult::fields() const
  {
    return {{"static", {{"static_deflection", 0., solution}}}};
  }

  HAMILTON_REGISTER_PLUGIN(Analysis,
                           StaticAnalysis,
                           "static",
                           "deflection, slope and bending moment along x and "
                           "support reactions under 'Loads'.")
} // namespace hamilton
