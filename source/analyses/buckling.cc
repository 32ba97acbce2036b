#include <hamilton/analyses/buckling.h>

#include <iomanip>

namespace hamilton
{
  using namespace dealii;

  void
  BucklingAnalysis::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Buckling");
    prm.declare_entry("Number of modes",
                      "3",
                      Patterns::Integer(1),
                      "How many of the lowest positive load factors to compute.");
    prm.declare_entry("Eigensolver",
                      "automatic",
                      Patterns::Selection("automatic|dense|slepc"),
                      "As in 'Analysis/Modal'.");
    prm.leave_subsection();
  }

  void
  BucklingAnalysis::parse_parameters(Section &s)
  {
    n_modes = s.get_unsigned("Number of modes");
    backend = eigensolver_backend_from_string(s.get("Eigensolver"));
  }

  void
  BucklingAnalysis::check(const Problem &problem) const
  {
    if (!problem.model.has_prestress)
      input_error("Beam/Prestress",
                  "Axial force",
                  "0",
                  "a buckling analysis needs a reference axial force N0(x) "
                  "(N, tension positive); the load factors multiply it. Set "
                  "for example 'Axial force = -1' for a unit compressive load.");
    if (problem.model.rigid_body_restraint_rank() < 2)
      input_error("Beam/Supports",
                  "Left end, Right end",
                  "'" + to_string(problem.model.supports[0].condition) + ", " +
                    to_string(problem.model.supports[1].condition) + "'",
                  "a buckling analysis needs a beam that cannot move as a "
                  "rigid body. Clamp one end or pin two points.");
    if (n_modes > problem.discretization.n_dofs())
      input_error("Analysis/Buckling",
                  "Number of modes",
                  std::to_string(n_modes),
                  "the discretization has only " +
                    std::to_string(problem.discretization.n_dofs()) +
                    " unknowns. Ask for fewer modes or refine.");
  }

  std::unique_ptr<AnalysisResult>
  BucklingAnalysis::run(const Problem &problem) const
  {
    const Operators &ops    = problem.operators;
    auto             result = std::make_unique<BucklingResult>();
    result->reference_axial_force_at_0 =
      problem.model.axial_force->value(Point<1>(0.));

    // K x = lambda (-K_g) x, solved inverted: (-K_g) x = mu K x, lambda = 1/mu
    SparseMatrix<double> minus_Kg(ops.sparsity);
    minus_Kg.copy_from(ops.geometric_stiffness);
    minus_Kg *= -1.;
    const EigenSolution solution =
      largest_eigenpairs(minus_Kg, ops.stiffness, n_modes, backend);
    result->backend = solution.backend;
    for (unsigned int i = 0; i < solution.values.size(); ++i)
      if (solution.values[i] > 0)
        {
          // shown with unit largest unknown (a displacement in this scaling)
          Vector<double> shape = solution.vectors[i];
          shape /= shape.linfty_norm();
          result->modes.push_back(
            {static_cast<unsigned int>(result->modes.size() + 1),
             1. / solution.values[i],
             shape});
        }
    if (result->modes.size() < n_modes)
      result->warnings.push_back(
        "Only " + std::to_string(result->modes.size()) +
        " positive load factors exist: the reference axial force puts only "
        "part of the beam in compression, or it is tension (which does not "
        "buckle). Use compression (negative 'Beam/Prestress/Axial force').");
    require_finite(*result, "Analysis/Buckling", "Check 'Beam/Prestress/Axial force' and the magnitudes in 'Beam'.");
    return result;
  }

  void
  BucklingResult::print_summary(std::ostream &out) const
  {
    out << "Buckling analysis (" << backend << "), reference N0(0) = "
        << reference_axial_force_at_0 << " N\n  mode   load factor\n";
    for (const auto &m : modes)
      out << "  " << std::setw(4) << m.index << "   " << std::setprecision(12)
          << m.load_factor << "\n";
  }

  void
  BucklingResult::add_to_json(nlohmann::json &results) const
  {
    auto &list = results["buckling"] = nlohmann::json::array();
    for (const auto &m : modes)
      list.push_back({{"index", m.index},
                      {"load_factor", m.load_factor},
                      {"critical_axial_force_at_0_N",
                       m.load_factor * reference_axial_force_at_0}});
  }

  std::vector<Table>
  BucklingResult::tables() const
  {
    Table t{"buckling", {"index", "load_factor"}, {}};
    for (const auto &m : modes)
      t.rows.push_back({double(m.index), m.load_factor});
    return {t};
  }

  std::vector<std::pair<std::string, std::vector<Field>>>
  BucklingResult::fields() const
  {
    std::vector<Field> list;
    for (const auto &m : modes)
      list.push_back({"buckling_mode_" + std::to_string(m.index), double(m.index), m.shape});
    return {{"buckling_modes", list}};
  }

  HAMILTON_REGISTER_PLUGIN(Analysis,
                           BucklingAnalysis,
                           "buckling",
                           "critical load factors and buckling modes for the "
                           "reference axial force 'Beam/Prestress/Axial force'.")
} // namespace hamilton
