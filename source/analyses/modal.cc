#include <hamilton/analyses/modal.h>

#include <deal.II/lac/sparse_matrix.h>

#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

namespace hamilton
{
  using namespace dealii;

  namespace
  {
    // EI / (rhoA L^4) of the first segment: the eigenvalue scale of the beam
    double
    eigenvalue_scale(const BeamModel &model)
    {
      const auto  &s = model.segments.front().section;
      const double L = model.length();
      return s.bending_stiffness / (s.mass_per_length * std::pow(L, 4));
    }
  } // namespace

  std::unique_ptr<ModalResult>
  compute_modes(const Problem &problem, const ModalOptions &options)
  {
    const Operators &ops    = problem.operators;
    auto             result = std::make_unique<ModalResult>();
    result->with_prestress  = options.include_prestress && problem.model.has_prestress;
    result->rigid_mass      = ops.rigid_mass;

    SparseMatrix<double> K(ops.sparsity);
    K.copy_from(ops.stiffness);
    if (result->with_prestress)
      K.add(1., ops.geometric_stiffness);

    const double scale = eigenvalue_scale(problem.model);
    const bool   free_to_move = problem.model.rigid_body_restraint_rank() < 2;
    const EigenSolution solution =
      lowest_eigenpairs(K,
                        ops.mass,
                        options.n_modes,
                        options.backend,
                        free_to_move ? scale : 0.,
                        scale);
    result->backend = solution.backend;

    const double eps = std::numeric_limits<double>::epsilon();
    for (unsigned int i = 0; i < solution.values.size(); ++i)
      {
        ModalResult::Mode mode;
        mode.index      = i + 1;
        mode.eigenvalue = solution.values[i];
        // a rigid-body eigenvalue is zero up to round-off, whose absolute
        // size is ~ eps * stiffness_scale
        mode.rigid_body = std::abs(mode.eigenvalue) <
                          1e-8 * scale + 1e2 * eps * ops.stiffness_scale;
        mode.frequency_hz =
          std::copysign(std::sqrt(std::abs(mode.eigenvalue)), mode.eigenvalue) /
          (2 * M_PI);
        mode.shape          = solution.vectors[i];
        mode.participation  = mode.shape * ops.base_translation_load;
        mode.effective_mass = mode.participation * mode.participation;
        // Round-off of a fourth-order operator: a perturbation of relative
        // size eps in each element's stiffness moves lambda by about
        // eps * EI/(rhoA h^4). The factor 10 makes this an upper bound of
        // the errors measured by benchmark_beam_roundoff (Hermite cubics,
        // 30 to 16384 elements, dense and SLEPc); the added 10 covers the
        // eigensolver's own relative accuracy (~1e-14 measured under
        // p-refinement).
        mode.roundoff_estimate =
          mode.rigid_body ?
            0. :
            10 * eps * (ops.stiffness_scale / std::abs(mode.eigenvalue) + 10);
        if (mode.eigenvalue < 0 && !mode.rigid_body)
          {
            std::ostringstream w;
            w << "Mode " << mode.index << " has a negative eigenvalue ("
              << mode.eigenvalue
              << " 1/s^2): the prestressed beam is unstable (beyond "
                 "buckling); its 'frequency' is reported with a minus sign.";
            result->warnings.push_back(w.str());
          }
        if (mode.roundoff_estimate > options.roundoff_warning)
          {
            std::ostringstream w;
            w << "Mode " << mode.index << ": the estimated round-off error of "
              << "its eigenvalue is " << std::setprecision(2)
              << mode.roundoff_estimate << " (relative), above "
              << options.roundoff_warning
              << ". The mesh is finer than double precision supports for a "
                 "fourth-order operator (cond K ~ N^4): use fewer, "
                 "higher-degree elements ('Discretization/Finite elements/"
                 "Polynomial degree').";
            result->warnings.push_back(w.str());
          }
        result->modes.push_back(std::move(mode));
      }

    if (options.samples_per_element == 0)
      return result;
    result->x = problem.discretization.sample_points(options.samples_per_element);
    result->w.assign(result->modes.size(), std::vector<double>());
    for (unsigned int m = 0; m < result->modes.size(); ++m)
      for (const double x : result->x)
        {
          double w, slope, curvature;
          problem.discretization.evaluate(result->modes[m].shape, x, w, slope, curvature);
          result->w[m].push_back(w);
        }
    return result;
  }

  void
  ModalResult::print_summary(std::ostream &out) const
  {
    out << "Modal analysis (" << backend
        << (with_prestress ? ", with prestress K + K_g" : "") << ")\n"
        << "  mode   frequency (Hz)      participation (kg^1/2)  "
           "effective mass (%)\n";
    for (const auto &m : modes)
      out << "  " << std::setw(4) << m.index << "   " << std::setw(16)
          << std::setprecision(10) << m.frequency_hz << "    " << std::setw(14)
          << std::setprecision(5) << m.participation << "           "
          << std::setw(8) << std::setprecision(4)
          << 100 * m.effective_mass / rigid_mass
          << (m.rigid_body ? "   rigid-body mode" : "") << "\n";
  }

  void
  ModalResult::add_to_json(nlohmann::json &results) const
  {
    auto &list = results["modes"] = nlohmann::json::array();
    for (const auto &m : modes)
      list.push_back({{"index", m.index},
                      {"frequency_hz", m.frequency_hz},
                      {"angular_frequency_rad_s",
                       std::copysign(std::sqrt(std::abs(m.eigenvalue)), m.eigenvalue)},
                      {"modal_mass_kg", 1.0},
                      {"participation_base_translation", m.participation},
                      {"effective_mass_kg", m.effective_mass},
                      {"rigid_body", m.rigid_body},
                      {"roundoff_estimate", m.roundoff_estimate}});
    results["modal"] = {{"eigensolver", backend},
                        {"with_prestress", with_prestress},
                        {"rigid_mass_kg", rigid_mass}};
  }

  std::vector<Table>
  ModalResult::tables() const
  {
    Table summary{"modes",
                  {"index",
                   "frequency_hz",
                   "eigenvalue_1_s2",
                   "participation",
                   "effective_mass_kg",
                   "roundoff_estimate"},
                  {}};
    for (const auto &m : modes)
      summary.rows.push_back({double(m.index),
                              m.frequency_hz,
                              m.eigenvalue,
                              m.participation,
                              m.effective_mass,
                              m.roundoff_estimate});
    Table shapes{"mode_shapes", {"x_m"}, {}};
    for (const auto &m : modes)
      shapes.columns.push_back("w_mode_" + std::to_string(m.index));
    for (unsigned int i = 0; i < x.size(); ++i)
      {
        std::vector<double> row{x[i]};
        for (const auto &wm : w)
          row.push_back(wm[i]);
        shapes.rows.push_back(row);
      }
    return {summary, shapes};
  }

  std::vector<std::pair<std::string, std::vector<Field>>>
  ModalResult::fields() const
  {
    std::vector<Field> list;
    for (const auto &m : modes)
      list.push_back({"mode_" + std::to_string(m.index), double(m.index), m.shape});
    return {{"modes", list}};
  }

  void
  ModalAnalysis::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Modal");
    prm.declare_entry("Number of modes",
                      "6",
                      Patterns::Integer(1),
                      "How many of the lowest modes to compute.");
    prm.declare_entry("Eigensolver",
                      "automatic",
                      Patterns::Selection("automatic|dense|slepc"),
                      "'dense': LAPACK on the inverted problem (all modes); "
                      "'slepc': SLEPc Krylov-Schur, shift-and-invert with a "
                      "direct solve; 'automatic': dense up to 200 unknowns.");
    prm.declare_entry("Include prestress",
                      "true",
                      Patterns::Bool(),
                      "Whether the geometric stiffness of "
                      "'Beam/Prestress/Axial force' enters (K + K_g).");
    prm.declare_entry("Round-off warning",
                      "1e-6",
                      Patterns::Double(0),
                      "Warn when a mode's estimated relative round-off error "
                      "exceeds this.");
    prm.declare_entry("Samples per element",
                      "8",
                      Patterns::Integer(1),
                      "Points per element in the mode-shape table and VTU.");
    prm.leave_subsection();
  }

  void
  ModalAnalysis::parse_parameters(Section &s)
  {
    options.n_modes   = s.get_unsigned("Number of modes");
    options.backend   = eigensolver_backend_from_string(s.get("Eigensolver"));
    options.include_prestress   = s.get_bool("Include prestress");
    options.roundoff_warning    = s.get_double("Round-off warning");
    options.samples_per_element = s.get_unsigned("Samples per element");
  }

  void
  ModalAnalysis::check(const Problem &problem) const
  {
    const unsigned int n = problem.discretization.n_dofs();
    if (options.n_modes > n)
      input_error("Analysis/Modal",
                  "Number of modes",
                  std::to_string(options.n_modes),
                  "the discretization has only " + std::to_string(n) +
                    " unknowns (" + problem.discretization.description() +
                    "). Ask for at most " + std::to_string(n) +
                    " modes or refine 'Discretization'.");
  }

  std::unique_ptr<AnalysisResult>
  ModalAnalysis::run(const Problem &problem) const
  {
    return compute_modes(problem, options);
  }

  HAMILTON_REGISTER_PLUGIN(Analysis,
                           ModalAnalysis,
                           "modal",
                           "lowest natural frequencies (Hz), mass-normalized "
                           "modes and base-translation participation, with "
                           "the prestress of 'Beam/Prestress' if any.")
} // namespace hamilton
