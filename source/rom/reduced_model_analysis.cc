#include <hamilton/analyses/frequency_response.h>
#include <hamilton/analyses/modal.h>
#include <hamilton/analyses/spectral_model.h>
#include <hamilton/base/output_file_name.h>
#include <hamilton/rom/reduced_model.h>
#include <hamilton/rom/state_space.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace hamilton
{
  using namespace dealii;
  using complex = std::complex<double>;

  namespace
  {
    const std::string path = "Analysis/Reduced model";

    /** Largest |a - b| / |b| over pairs. */
    double
    relative_difference(complex a, complex b)
    {
      return std::abs(a - b) / std::max(std::abs(b), 1e-300);
    }

    /**
     * Static displacement at the points (all electrodes short-circuited
     * except `driven`, held at 1 V) for a base acceleration of 1 m/s^2 if
     * driven < 0: the omega = 0 limit of the modal solution.
     */
    std::vector<complex>
    static_response(const SpectralModel                                &model,
                    const std::vector<std::pair<std::string, double>> &points,
                    int                                                 driven)
    {
      std::vector<SpectralModel::Circuit> circuits(model.chi.size());
      SpectralModel::Excitation           excitation;
      if (driven < 0)
        excitation.base_acceleration = 1;
      else
        circuits[driven] = {SpectralModel::Circuit::prescribed, 1.};
      const auto           state = model.solve(0., excitation, circuits);
      std::vector<complex> w;
      for (const auto &p : points)
        w.push_back(SpectralModel::deflection(state, model.mode_values(p.second)));
      return w;
    }

    double
    largest_relative_difference(const std::vector<complex> &a, const std::vector<complex> &b)
    {
      double d = 0;
      for (unsigned int i = 0; i < a.size(); ++i)
        d = std::max(d, relative_difference(a[i], b[i]));
      return d;
    }
  } // namespace

  class ReducedModelResult : public AnalysisResult
  {
  public:
    ReducedModel             rom;
    StateSpace               state_space;
    std::string              rom_file, state_space_file;
    nlohmann::json           summary;
    std::vector<std::string> lines;
    std::vector<Table>       result_tables;

    void
    print_summary(std::ostream &out) const override
    {
      out << "Reduced model: " << rom.n_normal_modes << " modes + " << rom.n_correction_modes
          << " static correction(s) -> " << rom_file << ", state space ("
          << state_space.states.size() << " states, " << state_space.inputs.size() << " inputs, "
          << state_space.outputs.size() << " outputs) -> " << state_space_file << "\n";
      for (const auto &l : lines)
        out << "  " << l << "\n";
    }
    void
    add_to_json(nlohmann::json &results) const override
    {
      results["reduced_model"] = summary;
    }
    std::vector<Table>
    tables() const override
    {
      return result_tables;
    }
    std::vector<std::pair<std::string, nlohmann::json>>
    documents() const override
    {
      return {{rom_file, rom.to_json()}, {state_space_file, state_space.to_json()}};
    }
  };

  /** The "reduced model" analysis: reduce, verify against the full model, export. */
  class ReducedModelAnalysis : public Analysis
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm)
    {
      prm.enter_subsection("Reduced model");
      prm.declare_entry("Number of modes", "4", Patterns::Integer(1),
                        "Short-circuit modes kept (the lowest ones).");
      prm.declare_entry("Static correction order", "1", Patterns::Integer(0, 10),
                        "0: the modes only. 1: add the static shape K^-1 f of each "
                        "load the ROM is driven by (base translation, each electrode, "
                        "the 'Loads' of the model): the ROM's static response becomes "
                        "exact. k > 1: also (K^-1 M)^(j-1) K^-1 f for j <= k, the "
                        "inertia of the truncated modes (smaller errors below the "
                        "highest kept mode). All re-orthogonalized; not available for "
                        "beams free to move as a rigid body.");
      prm.declare_entry("Output points", "", Patterns::Anything(),
                        "Points whose displacement and slope the ROM carries: 'name: x' "
                        "pairs (m). Empty: 'tip' at the right end.");
      prm.declare_entry("File", "rom.json", Patterns::Anything(),
                        "Name of the ROM file in the output directory (format "
                        "'hamilton-rom', see doc/reduced-models.md).");
      prm.declare_entry("State-space file", "state_space.json", Patterns::Anything(),
                        "Name of the (A, B, C, D) file in the output directory.");
      prm.declare_entry("State-space inputs", "", Patterns::Anything(),
                        "Comma-separated: 'base acceleration' (m/s^2), 'voltage: E' "
                        "(electrode E with Circuit = voltage), 'current: E' (A into "
                        "electrode E), 'force: P' (N at output point P). Empty: base "
                        "acceleration and the voltage of every driven electrode.");
      prm.declare_entry("State-space outputs", "", Patterns::Anything(),
                        "Comma-separated: 'displacement: P', 'velocity: P', 'slope: P' "
                        "(relative to the base), 'voltage: E', 'charge: E', 'current: "
                        "E' (into E's load). Empty: the displacement of every output "
                        "point and the voltage of every electrode that is not short-circuited.");
      prm.declare_entry("Include prestress", "true", Patterns::Bool(),
                        "Whether K_g of 'Beam/Prestress' enters the ROM's stiffness. A ROM for "
                        "a rotating root ('modal beam' with 'Root angle') must leave it out: the "
                        "lumped model adds the centrifugal stiffening itself.");
      prm.declare_entry("Compare with full model", "true", Patterns::Bool(),
                        "Compare frequencies, open-circuit frequencies, static "
                        "response and the FRF (1 m/s^2 base acceleration, the "
                        "model's circuits) with the full model in its complete "
                        "modal basis; writes rom_verification.csv.");
      prm.declare_entry("Verification frequencies", "2000", Patterns::Integer(10),
                        "Points of the logarithmic comparison grid from f_1/20 to "
                        "1.2 times the highest kept mode (errors are reported below "
                        "0.8 times it).");
      prm.leave_subsection();
    }

    void
    parse_parameters(Section &s) override
    {
      n_modes           = s.get_unsigned("Number of modes");
      correction_order  = s.get_unsigned("Static correction order");
      points            = parse_output_points(s, "Output points");
      rom_file          = s.get("File");
      state_space_file  = s.get("State-space file");
      // the analysis also writes rom_modes.csv and rom_verification.csv
      for (const auto *entry : {"File", "State-space file"})
        check_output_file_name(s.path(), entry, s.get(entry), {"rom_modes.csv", "rom_verification.csv"});
      if (rom_file == state_space_file)
        s.fail("State-space file", "is also 'File', the ROM file: one would "
                                   "overwrite the other. Give the two files different names.");
      inputs_text  = s.get("State-space inputs");
      outputs_text = s.get("State-space outputs");
      if (!inputs_text.empty())
        parse_ports(inputs_text, path, "State-space inputs", {"base acceleration", "voltage", "current", "force"});
      if (!outputs_text.empty())
        parse_ports(outputs_text, path, "State-space outputs",
                    {"displacement", "velocity", "slope", "voltage", "charge", "current"});
      compare             = s.get_bool("Compare with full model");
      include_prestress   = s.get_bool("Include prestress");
      n_verification      = s.get_unsigned("Verification frequencies");

    }

    void
    check(const Problem &problem) const override
    {
      const unsigned int n = problem.discretization.n_dofs();
      if (n_modes > n)
        input_error(path, "Number of modes", std::to_string(n_modes),
                    "the discretization has " + std::to_string(n) + " unknowns, hence " +
                      std::to_string(n) + " modes. Ask for at most " + std::to_string(n) +
                      " or refine the discretization.");
      points_on_beam(points, problem.model, path, "Output points");
      if (compare)
        {
          // each row holds 1 + 3 numbers per output point and electrode;
          // the comparison uses the complete modal basis
          const double columns = 1 + 3. * (output_points(problem).size() + problem.model.electrodes.size());
          require_memory(double(n_verification) * (columns * sizeof(double) + 32), path,
                         "Verification frequencies", std::to_string(n_verification),
                         "the verification table of " + std::to_string(n_verification) + " frequencies");
          require_full_modal_basis(problem, path);
        }
      if (correction_order > 0 && problem.model.rigid_body_restraint_rank() < 2)
        input_error(path, "Static correction order", std::to_string(correction_order),
                    "the beam can move as a rigid body, so K is singular and has no static "
                    "shapes. Set 'Static correction order = 0' or support the beam.");
      // the ports, against a ROM of the right shape
      ReducedModel shape;
      shape.omega = shape.damping_ratios = shape.participation_translation = {1.};
      for (const auto &e : problem.model.electrodes)
        shape.electrodes.push_back({e.name, 1., {0.}});
      for (const auto &p : output_points(problem))
        shape.outputs.push_back({p.first, p.second, {0.}, {0.}});
      build_state_space(shape, problem.model.electrodes, inputs(problem), outputs(problem), path);
    }

    std::vector<std::pair<std::string, nlohmann::json>>
    provisional_documents(const Problem &problem) const override
    {
      // the static corrections: at most one per load and order (base
      // translation, each electrode, the model's loads), fewer if dropped
      const auto        &model = problem.model;
      const unsigned int loads =
        1 + problem.operators.electrodes.size() + (problem.operators.load.l2_norm() > 0 ? 1 : 0);
      const unsigned int n =
        std::min<unsigned int>(problem.discretization.n_dofs(),
                               n_modes + (model.rigid_body_restraint_rank() < 2 ? 0 : correction_order * loads));
      ReducedModel rom;
      rom.n_normal_modes     = std::min(n_modes, n);
      rom.n_correction_modes = n - rom.n_normal_modes;
      rom.mass = rom.stiffness = rom.geometric_unit_axial = rom.geometric_rotation =
        std::vector<std::vector<double>>(n, std::vector<double>(n, 0.));
      for (unsigned int r = 0; r < n; ++r)
        {
          rom.omega.push_back(r + 1.);
          rom.damping_ratios.push_back(0.01);
          rom.participation_translation.push_back(1.);
          rom.participation_rotation.push_back(1.);
          rom.mass[r][r]      = 1.;
          rom.stiffness[r][r] = (r + 1.) * (r + 1.);
        }
      rom.rigid_mass    = 1.;
      rom.first_moment  = 1.;
      rom.second_moment = 1.;
      for (const auto &e : model.electrodes)
        rom.electrodes.push_back({e.name, 1., std::vector<double>(n, 1.)});
      for (const auto &p : output_points(problem))
        rom.outputs.push_back({p.first, p.second, std::vector<double>(n, 1.), std::vector<double>(n, 1.)});
      rom.shape_x = {0., model.length()};
      rom.shape_w.assign(2, std::vector<double>(n, 0.));
      return {{rom_file, rom.to_json()}};
    }

    std::unique_ptr<AnalysisResult>
    run(const Problem &problem) const override
    {
      auto result              = std::make_unique<ReducedModelResult>();
      result->rom_file         = rom_file;
      result->state_space_file = state_space_file;
      const auto xs            = output_points(problem);
      auto      &rom           = result->rom;
      rom                      = reduce(problem, n_modes, correction_order, xs, include_prestress);
      result->state_space =
        build_state_space(rom, problem.model.electrodes, inputs(problem), outputs(problem), path);

      auto &summary                 = result->summary;
      summary["file"]               = rom_file;
      summary["state_space_file"]   = state_space_file;
      summary["n_modes"]            = rom.size();
      summary["n_normal_modes"]     = rom.n_normal_modes;
      summary["n_correction_modes"] = rom.n_correction_modes;
      std::vector<double> f;
      for (const double w : rom.omega)
        f.push_back(w / (2 * M_PI));
      summary["frequencies_hz"] = f;

      Table modes{"rom_modes", {"index", "frequency_hz", "normal_mode", "damping_ratio",
                                "participation_translation", "participation_rotation"}, {}};
      for (const auto &e : rom.electrodes)
        modes.columns.push_back("coupling_" + e.name + "_N_per_V");
      for (unsigned int r = 0; r < rom.size(); ++r)
        {
          modes.rows.push_back({double(r + 1), f[r], r < rom.n_normal_modes ? 1. : 0.,
                                rom.damping_ratios[r], rom.participation_translation[r],
                                rom.participation_rotation[r]});
          for (const auto &e : rom.electrodes)
            modes.rows.back().push_back(e.coupling[r]);
        }
      result->result_tables.push_back(modes);
      if (compare)
        verify(problem, *result);
      require_finite(*result, path, "Check the magnitudes in 'Beam' and 'Beam/Electrodes'.");
      return result;
    }

  private:
    unsigned int                                n_modes           = 4;
    unsigned int                                correction_order  = 1;
    std::vector<std::pair<std::string, double>> points;
    std::string                                 rom_file, state_space_file, inputs_text, outputs_text;
    bool                                        compare        = true;
    bool                                        include_prestress = true;
    unsigned int                                n_verification = 2000;

    std::vector<std::pair<std::string, double>>
    output_points(const Problem &problem) const
    {
      if (points.empty())
        return {{"tip", problem.model.length()}};
      return points_on_beam(points, problem.model, path, "Output points");
    }

    std::vector<Port>
    inputs(const Problem &problem) const
    {
      if (!inputs_text.empty())
        return parse_ports(inputs_text, path, "State-space inputs", {"base acceleration", "voltage", "current", "force"});
      std::vector<Port> ports{{"base acceleration", ""}};
      for (const auto &e : problem.model.electrodes)
        if (e.circuit == ElectrodeCircuit::voltage)
          ports.push_back({"voltage", e.name});
      return ports;
    }

    std::vector<Port>
    outputs(const Problem &problem) const
    {
      if (!outputs_text.empty())
        return parse_ports(outputs_text, path, "State-space outputs",
                           {"displacement", "velocity", "slope", "voltage", "charge", "current"});
      std::vector<Port> ports;
      for (const auto &p : output_points(problem))
        ports.push_back({"displacement", p.first});
      for (const auto &e : problem.model.electrodes)
        if (e.circuit != ElectrodeCircuit::short_circuit)
          ports.push_back({"voltage", e.name});
      return ports;
    }

    void
    verify(const Problem &problem, ReducedModelResult &result) const
    {
      const ReducedModel &rom = result.rom;
      const SpectralModel full(problem, 0, include_prestress), reduced(problem, rom);
      const auto          xs = output_points(problem);
      nlohmann::json      v;

      // kept frequencies and open-circuit frequencies (all electrodes open,
      // exact condensation) of the modal analysis of the full model
      ModalOptions options;
      options.n_modes             = rom.n_normal_modes;
      options.samples_per_element = 0;
      const auto modal            = compute_modes(problem, options);
      double     df               = 0;
      for (unsigned int r = 0; r < rom.n_normal_modes; ++r)
        if (modal->modes[r].eigenvalue > 0)
          df = std::max(df, std::abs(rom.omega[r] / std::sqrt(modal->modes[r].eigenvalue) - 1));
      v["kept_frequencies_max_relative_difference"] = df;
      std::ostringstream l;
      l << "kept frequencies vs full model: largest relative difference " << df;
      result.lines.push_back(l.str());
      if (!rom.electrodes.empty())
        {
          const auto     oc_rom = reduced.open_circuit_omega(std::vector<bool>(rom.electrodes.size(), true));
          nlohmann::json oc     = nlohmann::json::array();
          for (unsigned int r = 0; r < rom.n_normal_modes; ++r)
            {
              const double exact = modal->modes[r].frequency_open_circuit_hz, f = oc_rom[r] / (2 * M_PI);
              oc.push_back({{"index", r + 1},
                            {"full_hz", exact},
                            {"rom_hz", f},
                            {"relative_difference", std::abs(f - exact) / std::max(exact, 1e-300)}});
            }
          v["open_circuit"] = oc;
          std::ostringstream o;
          o << std::setprecision(12) << "open-circuit mode 1 (all electrodes open): ROM " << oc[0]["rom_hz"].get<double>()
            << " Hz, full model (exact condensation) " << oc[0]["full_hz"].get<double>() << " Hz, relative difference "
            << std::setprecision(3) << oc[0]["relative_difference"].get<double>();
          result.lines.push_back(o.str());
        }

      // static response (omega = 0), with and without the corrections
      const bool     supported = problem.model.rigid_body_restraint_rank() >= 2;
      nlohmann::json st        = nlohmann::json::array();
      if (supported)
        {
          const ReducedModel  plain =
            rom.n_correction_modes > 0 ? reduce(problem, n_modes, 0, xs, include_prestress) : rom;
          const SpectralModel plain_model(problem, plain);
          for (int driven = -1; driven < int(rom.electrodes.size()); ++driven)
            {
              const auto   w_full = static_response(full, xs, driven);
              const double e_rom  = largest_relative_difference(static_response(reduced, xs, driven), w_full);
              const double e_pure = largest_relative_difference(static_response(plain_model, xs, driven), w_full);
              const std::string load = driven < 0 ? "base acceleration" : "1 V on " + rom.electrodes[driven].name;
              st.push_back({{"load", load}, {"rom_relative_error", e_rom}, {"modes_only_relative_error", e_pure}});
              std::ostringstream s;
              s << "static response to " << load << ": relative error " << e_rom << " (modes only: " << e_pure << ")";
              result.lines.push_back(s.str());
            }
        }
      v["static_response"] = st;

      // FRF, 1 m/s^2 base acceleration, the model's circuits
      double f_first = 0;
      for (const double w : full.omega)
        if (w > 0 && f_first == 0)
          f_first = w / (2 * M_PI);
      const double f_top   = rom.omega[rom.n_normal_modes - 1] / (2 * M_PI);
      const double f_limit = 0.8 * f_top;
      Table        t{"rom_verification", {"frequency_hz"}, {}};
      for (const auto &p : xs)
        for (const char *c : {"_w_full_m", "_w_rom_m", "_relative_difference"})
          t.columns.push_back(p.first + c);
      std::vector<unsigned int> loaded;
      for (unsigned int e = 0; e < rom.electrodes.size(); ++e)
        if (problem.model.electrodes[e].circuit != ElectrodeCircuit::short_circuit &&
            problem.model.electrodes[e].circuit != ElectrodeCircuit::voltage)
          {
            loaded.push_back(e);
            for (const char *c : {"_V_full_V", "_V_rom_V", "_relative_difference"})
              t.columns.push_back(rom.electrodes[e].name + c);
          }
      std::vector<std::vector<double>> phi_full, phi_rom;
      for (const auto &p : xs)
        {
          phi_full.push_back(full.mode_values(p.second));
          phi_rom.push_back(reduced.mode_values(p.second));
        }
      SpectralModel::Excitation excitation;
      excitation.base_acceleration = 1;
      double max_w = 0, max_v = 0;
      for (unsigned int k = 0; k < n_verification; ++k)
        {
          const double f  = f_first / 20 * std::pow(1.2 * f_top / (f_first / 20), double(k) / (n_verification - 1));
          const double w  = 2 * M_PI * f;
          const auto   c  = full.circuits_of_model(w);
          const auto   sf = full.solve(w, excitation, c), sr = reduced.solve(w, excitation, c);
          std::vector<double> row{f};
          for (unsigned int i = 0; i < xs.size(); ++i)
            {
              const complex a = SpectralModel::deflection(sf, phi_full[i]), b = SpectralModel::deflection(sr, phi_rom[i]);
              row.insert(row.end(), {std::abs(a), std::abs(b), relative_difference(b, a)});
              if (f <= f_limit)
                max_w = std::max(max_w, relative_difference(b, a));
            }
          for (const unsigned int e : loaded)
            {
              row.insert(row.end(), {std::abs(sf.V[e]), std::abs(sr.V[e]), relative_difference(sr.V[e], sf.V[e])});
              if (f <= f_limit)
                max_v = std::max(max_v, relative_difference(sr.V[e], sf.V[e]));
            }
          t.rows.push_back(row);
        }
      result.result_tables.push_back(t);
      v["frf_upper_frequency_hz"]               = f_limit;
      v["frf_displacement_max_relative_difference"] = max_w;
      v["frf_voltage_max_relative_difference"]      = max_v;
      std::ostringstream s;
      s << "FRF below " << f_limit << " Hz (0.8 x mode " << rom.n_normal_modes
        << "): largest relative difference displacement " << max_w << ", voltage " << max_v;
      result.lines.push_back(s.str());
      result.summary["verification"] = v;
    }
  };

  HAMILTON_REGISTER_PLUGIN(Analysis,
                           ReducedModelAnalysis,
                           "reduced model",
                           "reduce to the lowest short-circuit modes plus static "
                           "corrections; export the ROM (JSON) and its state space "
                           "(A, B, C, D); verify against the full model.")
} // namespace hamilton
