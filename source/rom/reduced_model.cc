#include <hamilton/analyses/eigensolver.h>
#include <hamilton/rom/reduced_model.h>

#include <deal.II/lac/sparse_direct.h>

#include <Eigen/Dense>

#include <cmath>
#include <fstream>

namespace hamilton
{
  using namespace dealii;
  using Matrix = std::vector<std::vector<double>>;

  namespace
  {
    Matrix
    project(const SparseMatrix<double> &A, const std::vector<Vector<double>> &basis)
    {
      const unsigned int n = basis.size();
      Matrix             result(n, std::vector<double>(n));
      Vector<double>     Ab(A.m());
      for (unsigned int j = 0; j < n; ++j)
        {
          A.vmult(Ab, basis[j]);
          for (unsigned int i = 0; i < n; ++i)
            result[i][j] = basis[i] * Ab;
        }
      for (unsigned int i = 0; i < n; ++i) // exact symmetry
        for (unsigned int j = 0; j < i; ++j)
          result[i][j] = result[j][i] = (result[i][j] + result[j][i]) / 2;
      return result;
    }

    // N0(x) per (rad/s)^2 for rotation about the root: int_x^L rhoA s ds plus
    // the point masses beyond x, m x_m.
    double
    centrifugal_axial_force(const BeamModel &model, double x)
    {
      double N = 0;
      for (const auto &s : model.segments)
        {
          const double a = std::max(x, s.x_start), b = s.x_end;
          if (b > a)
            N += s.section.mass_per_length * (b * b - a * a) / 2;
        }
      for (const auto &m : model.point_masses)
        if (m.position >= x)
          N += m.mass * m.position;
      return N;
    }

    [[noreturn]] void
    fail(const std::string &source, const std::string &field, const std::string &what)
    {
      throw RomError("ROM file '" + source + "': '" + field + "' " + what);
    }
  } // namespace

  ReducedModel
  reduce(const Problem                                     &problem,
         unsigned int                                       n_modes,
         unsigned int                                       correction_order,
         const std::vector<std::pair<std::string, double>> &output_points)
  {
    const Operators     &ops = problem.operators;
    SparseMatrix<double> K(ops.sparsity);
    K.copy_from(ops.stiffness);
    if (problem.model.has_prestress)
      K.add(1., ops.geometric_stiffness);
    const auto  &section = problem.model.segments.front().section;
    const double scale =
      section.bending_stiffness / (section.mass_per_length * std::pow(problem.model.length(), 4));
    const bool   free_to_move = problem.model.rigid_body_restraint_rank() < 2;
    const auto   modes =
      lowest_eigenpairs(K, ops.mass, n_modes, EigensolverBackend::automatic, free_to_move ? scale : 0., scale);

    std::vector<Vector<double>> basis = modes.vectors;
    ReducedModel                rom;
    rom.n_normal_modes = basis.size();
    if (correction_order > 0 && !free_to_move)
      {
        // Krylov vectors (K^-1 M)^(j-1) K^-1 f, j = 1..order, of each load f
        // the ROM is driven by, M-orthogonalized against the basis (twice,
        // for round-off); a vector already in the span is dropped
        SparseDirectUMFPACK solver;
        solver.initialize(K);
        std::vector<Vector<double>> loads{ops.base_translation_load};
        for (const auto &e : ops.electrodes)
          loads.push_back(e.coupling);
        if (ops.load.l2_norm() > 0)
          loads.push_back(ops.load);
        Vector<double>    Mx(K.m());
        std::vector<bool> exhausted(loads.size(), false);
        for (unsigned int order = 1; order <= correction_order; ++order)
          for (unsigned int i = 0; i < loads.size(); ++i)
            {
              if (exhausted[i])
                continue;
              Vector<double> &x = loads[i];
              if (order > 1) // x: the previous vector of this load, orthonormal
                {
                  ops.mass.vmult(Mx, x);
                  x = Mx;
                }
              solver.solve(x);
              ops.mass.vmult(Mx, x);
              const double    norm = std::sqrt(x * Mx);
              Vector<double> &y    = x;
              for (unsigned int pass = 0; pass < 2; ++pass)
                for (const auto &b : basis)
                  {
                    ops.mass.vmult(Mx, b);
                    y.add(-(y * Mx), b);
                  }
              ops.mass.vmult(Mx, y);
              const double residual = std::sqrt(y * Mx);
              if (residual <= 1e-8 * norm)
                exhausted[i] = true; // in the span already
              else
                basis.push_back(y /= residual);
            }
      }
    // Rayleigh-Ritz on the span: mass-normalized, stiffness-diagonal basis;
    // the kept modes are eigenvectors of the projected pencil and come out
    // unchanged, the corrections lie above them (orthogonal to the kept modes)
    const unsigned int n  = basis.size();
    const Matrix       Mr = project(ops.mass, basis), Kr = project(K, basis);
    Eigen::MatrixXd    Me(n, n), Ke(n, n);
    for (unsigned int i = 0; i < n; ++i)
      for (unsigned int j = 0; j < n; ++j)
        {
          Me(i, j) = Mr[i][j];
          Ke(i, j) = Kr[i][j];
        }
    const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> eig(Ke, Me);
    std::vector<Vector<double>> phi(n, Vector<double>(ops.mass.m()));
    for (unsigned int r = 0; r < n; ++r)
      for (unsigned int k = 0; k < n; ++k)
        phi[r].add(eig.eigenvectors()(k, r), basis[k]);
    rom.n_correction_modes = phi.size() - rom.n_normal_modes;

    const unsigned int m = phi.size();
    rom.mass             = project(ops.mass, phi);
    rom.stiffness        = project(K, phi);
    for (unsigned int r = 0; r < m; ++r)
      {
        const double w = std::sqrt(std::max(0., rom.stiffness[r][r] / rom.mass[r][r]));
        rom.omega.push_back(w);
        rom.damping_ratios.push_back(w > 0 ? problem.model.damping.ratio(r, w) : 0.);
        rom.participation_translation.push_back(phi[r] * ops.base_translation_load);
        rom.participation_rotation.push_back(phi[r] * ops.base_rotation_load);
      }
    rom.rigid_mass    = ops.rigid_mass;
    rom.first_moment  = ops.rigid_first_moment;
    rom.second_moment = ops.rigid_second_moment;
    for (const auto &e : ops.electrodes)
      {
        ReducedModel::Electrode re{e.name, e.capacitance, {}};
        for (const auto &v : phi)
          re.coupling.push_back(v * e.coupling);
        rom.electrodes.push_back(re);
      }
    for (const auto &[name, x] : output_points)
      {
        ReducedModel::Output out{name, x, {}, {}};
        for (const auto &v : phi)
          {
            double w, slope, curvature;
            problem.discretization.evaluate(v, x, w, slope, curvature);
            out.displacement.push_back(w);
            out.slope.push_back(slope);
          }
        rom.outputs.push_back(out);
      }
    SparseMatrix<double> G(ops.sparsity);
    problem.discretization.assemble_geometric_stiffness([](double) { return 1.; }, G);
    rom.geometric_unit_axial = project(G, phi);
    const BeamModel &model   = problem.model;
    problem.discretization.assemble_geometric_stiffness(
      [&model](double x) { return centrifugal_axial_force(model, x); }, G);
    rom.geometric_rotation = project(G, phi);
    return rom;
  }

  nlohmann::json
  ReducedModel::to_json() const
  {
    nlohmann::json j;
    j["format"]  = "hamilton-rom";
    j["version"] = version;
    j["units"]   = {{"frequency", "rad/s"}, {"mass", "kg"}, {"stiffness", "N/m"},
                    {"coupling", "N/V"}, {"capacitance", "F"}, {"length", "m"},
                    {"geometric_rotation", "per (rad/s)^2"}};
    j["n_modes"]                   = size();
    j["n_normal_modes"]            = n_normal_modes;
    j["n_correction_modes"]        = n_correction_modes;
    j["angular_frequencies_rad_s"] = omega;
    std::vector<double> f;
    for (const double w : omega)
      f.push_back(w / (2 * M_PI));
    j["frequencies_hz"]                 = f;
    j["damping_ratios"]                 = damping_ratios;
    j["mass_matrix"]                    = mass;
    j["stiffness_matrix"]               = stiffness;
    j["participation_base_translation"] = participation_translation;
    j["participation_base_rotation"]    = participation_rotation;
    j["rigid_body"] = {{"mass_kg", rigid_mass}, {"first_moment_kg_m", first_moment},
                       {"second_moment_kg_m2", second_moment}};
    j["electrodes"] = nlohmann::json::array();
    for (const auto &e : electrodes)
      j["electrodes"].push_back({{"name", e.name}, {"capacitance_F", e.capacitance}, {"coupling_N_per_V", e.coupling}});
    j["outputs"] = nlohmann::json::array();
    for (const auto &o : outputs)
      j["outputs"].push_back({{"name", o.name}, {"position_m", o.position},
                              {"displacement", o.displacement}, {"slope", o.slope}});
    j["geometric_stiffness_unit_axial_force"] = geometric_unit_axial;
    j["geometric_stiffness_rotation"]         = geometric_rotation;
    return j;
  }

  ReducedModel
  ReducedModel::from_json(const nlohmann::json &j, const std::string &source)
  {
    if (j.value("format", std::string()) != "hamilton-rom")
      fail(source, "format", "is not 'hamilton-rom': this is not a Hamilton ROM file.");
    if (!j.contains("version") || j["version"] != version)
      fail(source, "version", "= " + (j.contains("version") ? j["version"].dump() : std::string("missing")) +
                                  ": this Hamilton reads version " + std::to_string(version) +
                                  ". Export the ROM again with this version.");
    ReducedModel rom;
    try
      {
        rom.n_normal_modes     = j.at("n_normal_modes");
        rom.n_correction_modes = j.at("n_correction_modes");
        rom.omega              = j.at("angular_frequencies_rad_s").get<std::vector<double>>();
        rom.damping_ratios     = j.at("damping_ratios").get<std::vector<double>>();
        rom.mass               = j.at("mass_matrix").get<Matrix>();
        rom.stiffness          = j.at("stiffness_matrix").get<Matrix>();
        rom.participation_translation = j.at("participation_base_translation").get<std::vector<double>>();
        rom.participation_rotation    = j.at("participation_base_rotation").get<std::vector<double>>();
        rom.rigid_mass    = j.at("rigid_body").at("mass_kg");
        rom.first_moment  = j.at("rigid_body").at("first_moment_kg_m");
        rom.second_moment = j.at("rigid_body").at("second_moment_kg_m2");
        for (const auto &e : j.at("electrodes"))
          rom.electrodes.push_back({e.at("name"), e.at("capacitance_F"), e.at("coupling_N_per_V").get<std::vector<double>>()});
        for (const auto &o : j.at("outputs"))
          rom.outputs.push_back({o.at("name"), o.at("position_m"),
                                 o.at("displacement").get<std::vector<double>>(),
                                 o.at("slope").get<std::vector<double>>()});
        rom.geometric_unit_axial = j.at("geometric_stiffness_unit_axial_force").get<Matrix>();
        rom.geometric_rotation   = j.at("geometric_stiffness_rotation").get<Matrix>();
      }
    catch (const nlohmann::json::exception &e)
      {
        throw RomError("ROM file '" + source + "': a field is missing or has the wrong type (" +
                       e.what() + "). The file may be truncated; export it again.");
      }
    const unsigned int n = rom.omega.size();
    if (n == 0)
      fail(source, "angular_frequencies_rad_s", "is empty: the ROM has no modes.");
    if (j.value("n_modes", 0u) != n || rom.n_normal_modes + rom.n_correction_modes != n)
      fail(source, "n_modes", "disagrees with the " + std::to_string(n) + " frequencies given.");
    const auto check_vector = [&](const std::vector<double> &v, const char *field) {
      if (v.size() != n)
        fail(source, field, "has " + std::to_string(v.size()) + " entries, expected " + std::to_string(n) + " (one per mode).");
    };
    const auto check_matrix = [&](const Matrix &A, const char *field) {
      if (A.size() != n)
        fail(source, field, "has " + std::to_string(A.size()) + " rows, expected " + std::to_string(n) + ".");
      for (unsigned int i = 0; i < n; ++i)
        {
          if (A[i].size() != n)
            fail(source, field, "row " + std::to_string(i + 1) + " has " + std::to_string(A[i].size()) +
                                  " entries, expected " + std::to_string(n) + ".");
          for (unsigned int k = 0; k < i; ++k)
            if (std::abs(A[i][k] - A[k][i]) > 1e-10 * (std::abs(A[i][k]) + std::abs(A[k][i])) + 1e-300)
              fail(source, field, "is not symmetric: entries (" + std::to_string(i + 1) + "," +
                                    std::to_string(k + 1) + ") and (" + std::to_string(k + 1) + "," +
                                    std::to_string(i + 1) + ") differ.");
        }
    };
    check_vector(rom.damping_ratios, "damping_ratios");
    check_vector(rom.participation_translation, "participation_base_translation");
    check_vector(rom.participation_rotation, "participation_base_rotation");
    check_matrix(rom.mass, "mass_matrix");
    check_matrix(rom.stiffness, "stiffness_matrix");
    check_matrix(rom.geometric_unit_axial, "geometric_stiffness_unit_axial_force");
    check_matrix(rom.geometric_rotation, "geometric_stiffness_rotation");
    for (unsigned int i = 0; i < n; ++i)
      if (!(rom.mass[i][i] > 0))
        fail(source, "mass_matrix", "has a non-positive diagonal entry " + std::to_string(rom.mass[i][i]) +
                                      " (mode " + std::to_string(i + 1) + "): masses must be positive.");
    // the coordinates must be modal: M = I, K = diag(omega^2)
    double k_max = 0;
    for (const double w : rom.omega)
      k_max = std::max(k_max, w * w);
    for (unsigned int i = 0; i < n; ++i)
      for (unsigned int k = 0; k < n; ++k)
        {
          if (std::abs(rom.mass[i][k] - (i == k ? 1. : 0.)) > 1e-8)
            fail(source, "mass_matrix", "entry (" + std::to_string(i + 1) + "," + std::to_string(k + 1) + ") = " +
                                          std::to_string(rom.mass[i][k]) +
                                          ": the coordinates are not mass-normalized modes (M = I expected).");
          const double expected = i == k ? rom.omega[i] * rom.omega[i] : 0.;
          if (std::abs(rom.stiffness[i][k] - expected) > 1e-8 * k_max)
            fail(source, "stiffness_matrix", "entry (" + std::to_string(i + 1) + "," + std::to_string(k + 1) +
                                               ") disagrees with diag(omega^2) of 'angular_frequencies_rad_s'.");
        }
    if (!(rom.rigid_mass > 0))
      fail(source, "rigid_body/mass_kg", "must be positive.");
    for (const auto &e : rom.electrodes)
      {
        check_vector(e.coupling, "electrodes/coupling_N_per_V");
        if (!(e.capacitance > 0))
          fail(source, "electrodes/capacitance_F", "of '" + e.name + "' must be positive.");
      }
    for (const auto &o : rom.outputs)
      {
        check_vector(o.displacement, "outputs/displacement");
        check_vector(o.slope, "outputs/slope");
      }
    return rom;
  }

  ReducedModel
  ReducedModel::read(const std::string &filename)
  {
    std::ifstream in(filename);
    if (!in)
      throw RomError("Cannot open ROM file '" + filename + "'. Check the path.");
    nlohmann::json j;
    try
      {
        in >> j;
      }
    catch (const nlohmann::json::exception &e)
      {
        throw RomError("ROM file '" + filename + "' is not valid JSON (" + e.what() +
                       "); it may be truncated. Export it again.");
      }
    return from_json(j, filename);
  }
} // namespace hamilton
