#include <hamilton/analyses/eigensolver.h>
#include <hamilton/rom/reduced_model.h>

#include <deal.II/lac/sparse_direct.h>

#include <Eigen/Dense>

#include <cmath>

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

  } // namespace

  ReducedModel
  reduce(const Problem                                     &problem,
         unsigned int                                       n_modes,
         unsigned int                                       correction_order,
         const std::vector<std::pair<std::string, double>> &output_points,
         bool                                               include_prestress)
  {
    const Operators     &ops = problem.operators;
    SparseMatrix<double> K(ops.sparsity);
    K.copy_from(ops.stiffness);
    if (include_prestress && problem.model.has_prestress)
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
    // the projected pencil's eigenvectors have an arbitrary sign (Eigen,
    // round-off of the basis): give every ROM coordinate the documented one
    for (unsigned int r = 0; r < n; ++r)
      {
        for (unsigned int k = 0; k < n; ++k)
          phi[r].add(eig.eigenvectors()(k, r), basis[k]);
        apply_sign_convention(phi[r]);
      }
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
    // the shapes along the beam, about 40 points, for drawings
    const unsigned int per_element =
      std::max<std::size_t>(1, 40 / std::max<std::size_t>(1, problem.discretization.sample_points(1).size() - 1));
    rom.shape_x = problem.discretization.sample_points(per_element);
    for (const double x : rom.shape_x)
      {
        std::vector<double> row;
        for (const auto &v : phi)
          {
            double w, slope, curvature;
            problem.discretization.evaluate(v, x, w, slope, curvature);
            row.push_back(w);
          }
        rom.shape_w.push_back(row);
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

} // namespace hamilton
