#include <hamilton/analyses/electrodes.h>
#include <hamilton/analyses/modal.h>
#include <hamilton/base/format.h>

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
    /**
     * A mode beyond Euler-Bernoulli theory: its bending wavelength 2 pi/beta,
     * beta^4 = rhoA omega^2/EI, shorter than 10 thicknesses in some segment.
     * Shear deformation and rotary inertia, which the theory neglects, lower
     * such a frequency by about (1 + E/(kappa G)) (beta h)^2/24 (Timoshenko, a
     * homogeneous rectangular section; 0.17 (beta h)^2 for nu = 0.3, kappa =
     * 5/6): 7 % at 10 thicknesses. Empty if none.
     */
    std::string
    thickness_warning(const BeamModel &model, const ModalResult::Mode &mode)
    {
      if (mode.rigid_body || mode.eigenvalue <= 0)
        return "";
      const double omega2 = mode.eigenvalue;
      for (const auto &segment : model.segments)
        {
          const auto  &section = segment.section;
          const double beta    = std::pow(section.mass_per_length * omega2 / section.bending_stiffness, 0.25);
          const double bh      = beta * section.thickness;
          if (2 * M_PI / beta < 10 * section.thickness)
            return "Mode " + std::to_string(mode.index) + " (" + format_significant(mode.frequency_hz, 6) +
                   " Hz) is beyond Euler-Bernoulli theory: its bending wavelength 2 pi/beta = " +
                   format_significant(2 * M_PI / beta, 3) + " m in segment '" + segment.name + "' is " +
                   format_significant(2 * M_PI / bh, 3) + " times its thickness " +
                   format_significant(section.thickness, 3) +
                   " m (10 or more needed). Shear deformation and rotary inertia, which the theory neglects, "
                   "would lower this frequency by roughly " + format_significant(100 * 0.17 * bh * bh, 2) +
                   " % (Timoshenko, homogeneous section). Ask for fewer modes, or model the beam as a continuum "
                   "('Continuum/Mesh') for these frequencies.";
        }
      return "";
    }

    // EI / (rhoA L^4) of the first segment: the eigenvalue scale of the beam
    double
    eigenvalue_scale(const BeamModel &model)
    {
      const auto  &s = model.segments.front().section;
      const double L = model.length();
      return s.bending_stiffness / (s.mass_per_length * std::pow(L, 4));
    }

    // The stiffness scale EI/(rhoA h^4) of the parts of the beam weighted by
    // the bending strain energy the mode `shape` stores there (3-point Gauss
    // rule per part): the scale that limits the accuracy of this mode's
    // eigenvalue. Equals Operators::stiffness_scale on a uniform mesh of a
    // uniform beam; a stiff segment that barely bends weighs little.
    double
    energy_weighted_scale(const Problem &problem, const Vector<double> &shape)
    {
      const auto &intervals = problem.operators.stiffness_scales;
      if (intervals.empty())
        return problem.operators.stiffness_scale;
      const double gauss[3][2] = {{-std::sqrt(0.6), 5. / 9}, {0., 8. / 9}, {std::sqrt(0.6), 5. / 9}};
      double       energy = 0, weighted = 0;
      for (const auto &interval : intervals)
        for (const auto &[xi, weight] : gauss)
          {
            const double h = interval.x_end - interval.x_start;
            const double x = interval.x_start + h * (1 + xi) / 2;
            double       w, slope, curvature;
            problem.discretization.evaluate(shape, x, w, slope, curvature);
            const double u =
              problem.model.segment_at(x).section.bending_stiffness * curvature * curvature * weight * h / 2;
            energy += u;
            weighted += interval.scale * u;
          }
      return energy > 0 ? weighted / energy : problem.operators.stiffness_scale;
    }
  } // namespace

  namespace
  {
    double
    k_eff(double f_sc, double f_oc)
    {
      return std::sqrt(std::max(0., (f_oc * f_oc - f_sc * f_sc) / (f_oc * f_oc)));
    }

    // Open-circuit frequencies with the electrodes flagged in `open`
    // condensed exactly (zero net charge), paired with the short-circuit
    // modes by index.
    std::vector<double>
    open_circuit_frequencies(const Operators            &ops,
                             const SparseMatrix<double> &K,
                             const std::vector<bool>    &open,
                             const ModalOptions         &options,
                             double                      shift,
                             double                      scale)
    {
      const auto condensed = condense_open_electrodes(ops, K, open);
      const auto solution  = lowest_eigenpairs(
        condensed->matrix, ops.mass, options.n_modes, options.backend, shift, scale);
      std::vector<double> f;
      for (const double lambda : solution.values)
        f.push_back(std::copysign(std::sqrt(std::abs(lambda)), lambda) / (2 * M_PI));
      return f;
    }

    void
    add_open_circuit_modes(ModalResult                &result,
                           const Operators            &ops,
                           const SparseMatrix<double> &K,
                           const ModalOptions         &options,
                           double                      shift,
                           double                      scale)
    {
      const unsigned int n_electrodes = ops.electrodes.size();
      if (n_electrodes == 0)
        return;
      for (const auto &e : ops.electrodes)
        result.capacitances.emplace_back(e.name, e.capacitance);

      const auto all_open = open_circuit_frequencies(
        ops, K, std::vector<bool>(n_electrodes, true), options, shift, scale);
      std::vector<std::vector<double>> one_open(n_electrodes);
      for (unsigned int e = 0; e < n_electrodes; ++e)
        {
          std::vector<bool> open(n_electrodes, false);
          open[e]     = true;
          one_open[e] = (n_electrodes == 1) ?
                          all_open :
                          open_circuit_frequencies(ops, K, open, options, shift, scale);
        }
      for (unsigned int m = 0; m < result.modes.size(); ++m)
        {
          auto &mode                     = result.modes[m];
          mode.frequency_open_circuit_hz = all_open[m];
          mode.k_eff = k_eff(mode.frequency_hz, mode.frequency_open_circuit_hz);
          for (unsigned int e = 0; e < n_electrodes; ++e)
            {
              ModalResult::Mode::ElectrodeCoupling c;
              c.modal_coupling = mode.shape * ops.electrodes[e].coupling;
              c.gamma          = mode.rigid_body ?
                                   0. :
                                   c.modal_coupling * c.modal_coupling /
                                     (ops.electrodes[e].capacitance * mode.eigenvalue);
              c.frequency_open_circuit_hz = one_open[e][m];
              c.k_eff = k_eff(mode.frequency_hz, c.frequency_open_circuit_hz);
              mode.electrodes.push_back(c);
            }
        }
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
    // The supports leave 2 - rank rigid motions (translation, rotation); a
    // rigid-body mode is one of the lowest that many modes whose eigenvalue
    // is zero up to round-off: tiny next to the first elastic eigenvalue (or,
    // if that one was not computed, the beam's EI/(rhoA L^4)), or below the
    // absolute round-off floor eps * stiffness_scale of a fine mesh, capped
    // at 1e-3 of it. A supported beam has no rigid-body mode at all, however
    // stiff and light a segment is.
    const unsigned int n_rigid   = 2 - problem.model.rigid_body_restraint_rank();
    const double       reference = n_rigid < solution.values.size() ?
                                     std::abs(solution.values[n_rigid]) :
                                     scale;
    const double rigid_threshold =
      std::max(1e-8 * reference, std::min(1e-3 * reference, 1e2 * eps * ops.stiffness_scale));
    bool thick_warned = false;
    for (unsigned int i = 0; i < solution.values.size(); ++i)
      {
        ModalResult::Mode mode;
        mode.index      = i + 1;
        mode.eigenvalue = solution.values[i];
        mode.rigid_body = i < n_rigid && std::abs(mode.eigenvalue) < rigid_threshold;
        mode.frequency_hz =
          std::copysign(std::sqrt(std::abs(mode.eigenvalue)), mode.eigenvalue) /
          (2 * M_PI);
        mode.shape          = solution.vectors[i];
        mode.participation  = mode.shape * ops.base_translation_load;
        mode.effective_mass = mode.participation * mode.participation;
        // Round-off of a fourth-order operator: a perturbation of relative
        // size eps in each element's stiffness moves lambda by about
        // eps * EI/(rhoA h^4), weighted by the share of the mode's strain
        // energy in that element. The factor 10 makes this an upper bound of
        // the errors measured by benchmark_beam_roundoff (Hermite cubics,
        // 30 to 16384 elements, dense and SLEPc); the added 10 covers the
        // eigensolver's own relative accuracy (~1e-14 measured under
        // p-refinement).
        mode.roundoff_estimate =
          mode.rigid_body ?
            0. :
            10 * eps *
              (energy_weighted_scale(problem, mode.shape) / std::abs(mode.eigenvalue) + 10);
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
        if (const std::string w = thickness_warning(problem.model, mode); !w.empty() && !thick_warned)
          {
            result->warnings.push_back(w);
            thick_warned = true; // the lowest such mode; the higher ones more so
          }
        result->modes.push_back(std::move(mode));
      }

    add_open_circuit_modes(*result, ops, K, options, free_to_move ? scale : 0., scale);

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
    if (capacitances.empty())
      return;
    out << "  electrodes:";
    for (const auto &[name, C] : capacitances)
      out << " " << name << " C = " << std::setprecision(6) << C << " F;";
    out << "\n  mode   short circuit (Hz)   open circuit (Hz)    k_eff\n";
    for (const auto &m : modes)
      out << "  " << std::setw(4) << m.index << "   " << std::setw(18)
          << std::setprecision(10) << m.frequency_hz << "   " << std::setw(17)
          << m.frequency_open_circuit_hz << "    " << std::setprecision(5)
          << m.k_eff << "\n";
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
    for (unsigned int i = 0; i < modes.size() && !capacitances.empty(); ++i)
      {
        const auto &m                           = modes[i];
        list[i]["frequency_open_circuit_hz"]    = m.frequency_open_circuit_hz;
        list[i]["coupling_k_eff"]               = m.k_eff;
        auto &per_electrode = list[i]["electrodes"] = nlohmann::json::array();
        for (unsigned int e = 0; e < m.electrodes.size(); ++e)
          per_electrode.push_back(
            {{"name", capacitances[e].first},
             {"modal_coupling_N_per_V", m.electrodes[e].modal_coupling},
             {"gamma", m.electrodes[e].gamma},
             {"frequency_open_circuit_hz", m.electrodes[e].frequency_open_circuit_hz},
             {"coupling_k_eff", m.electrodes[e].k_eff}});
      }
    if (!capacitances.empty())
      {
        auto &electrodes = results["electrodes"] = nlohmann::json::array();
        for (const auto &[name, C] : capacitances)
          electrodes.push_back({{"name", name}, {"capacitance_F", C}});
      }
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
                   "frequency_open_circuit_hz",
                   "k_eff",
                   "eigenvalue_1_s2",
                   "participation",
                   "effective_mass_kg",
                   "roundoff_estimate"},
                  {}};
    for (const auto &m : modes)
      summary.rows.push_back({double(m.index),
                              m.frequency_hz,
                              capacitances.empty() ? m.frequency_hz : m.frequency_open_circuit_hz,
                              m.k_eff,
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
                      "Points per element in the mode-shape table (modes.csv); the VTU files "
                      "use 'Output/Samples per element'.");
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
    // mode shapes (n_modes x n) and the sampled shapes, table and arrays
    const double n_points =
      double(problem.discretization.sample_points(1).size()) * options.samples_per_element;
    require_memory(3. * options.n_modes * n * sizeof(double), "Analysis/Modal", "Number of modes",
                   std::to_string(options.n_modes),
                   std::to_string(options.n_modes) + " mode shapes of " + std::to_string(n) + " unknowns");
    require_memory(n_points * (2. * options.n_modes + 1) * sizeof(double), "Analysis/Modal",
                   "Samples per element", std::to_string(options.samples_per_element),
                   "the table of " + std::to_string(options.n_modes) + " mode shapes at " +
                     format_number(n_points) + " points");
  }

  std::unique_ptr<AnalysisResult>
  ModalAnalysis::run(const Problem &problem) const
  {
    auto result = compute_modes(problem, options);
    for (const auto &w : problem.model.electrode_warnings())
      result->warnings.push_back(w);
    require_finite(*result, "Analysis/Modal",
                   "Check the magnitudes in 'Beam' (moduli, densities, lengths, "
                   "'Prestress/Axial force').");
    return result;
  }

  HAMILTON_REGISTER_PLUGIN(Analysis,
                           ModalAnalysis,
                           "modal",
                           "lowest natural frequencies (Hz), mass-normalized "
                           "modes and base-translation participation, with "
                           "the prestress of 'Beam/Prestress' if any.")
} // namespace hamilton
