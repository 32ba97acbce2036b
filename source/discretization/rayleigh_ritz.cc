#include <hamilton/discretization/rayleigh_ritz.h>

#include <deal.II/base/polynomial.h>
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/full_matrix.h>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace hamilton
{
  using namespace dealii;

  namespace
  {
    using Values = std::array<std::vector<double>, 3>;
    using Family = std::function<void(double, Values &)>;

    struct Restraint
    {
      double x;
      bool   slope; // false: w = 0, true: w' = 0
    };

    std::vector<Restraint>
    restraints(const BeamModel &model)
    {
      std::vector<Restraint> result;
      for (const auto &s : model.supports)
        {
          if (s.condition == SupportCondition::clamped || s.condition == SupportCondition::pinned)
            result.push_back({s.position, false});
          if (s.condition == SupportCondition::clamped || s.condition == SupportCondition::guided)
            result.push_back({s.position, true});
        }
      return result;
    }

    // raw families, `count` functions, derivatives with respect to x
    Family
    legendre(double L, unsigned int count)
    {
      std::vector<Polynomials::Legendre> p;
      for (unsigned int k = 0; k < count; ++k)
        p.emplace_back(k);
      return [p, L](double x, Values &out) {
        std::vector<double> v(3);
        for (auto &o : out)
          o.resize(p.size());
        for (unsigned int k = 0; k < p.size(); ++k)
          {
            p[k].value(x / L, v);
            out[0][k] = v[0];
            out[1][k] = v[1] / L;
            out[2][k] = v[2] / (L * L);
          }
      };
    }

    Family
    sine_series(double L, unsigned int count)
    {
      return [L, count](double x, Values &out) {
        for (auto &o : out)
          o.assign(count, 0.);
        const double xi = x / L;
        for (unsigned int k = 0; k < count; ++k)
          if (k < 4) // 1, xi, xi^2, xi^3
            {
              out[0][k] = std::pow(xi, k);
              out[1][k] = k >= 1 ? k * std::pow(xi, k - 1) / L : 0.;
              out[2][k] = k >= 2 ? k * (k - 1) * std::pow(xi, k - 2) / (L * L) : 0.;
            }
          else
            {
              const double a = (k - 3) * M_PI / L;
              out[0][k]      = std::sin(a * x);
              out[1][k]      = a * std::cos(a * x);
              out[2][k]      = -a * a * std::sin(a * x);
            }
      };
    }

    // Combine raw functions into ones satisfying the restraints: the null
    // space of the constraint rows, orthonormal in coefficient space.
    Family
    constrained(const std::function<Family(unsigned int)> &raw_of,
                const std::vector<Restraint>              &rows,
                unsigned int                               n)
    {
      const auto rank_for = [&](unsigned int count, Eigen::MatrixXd &V) {
        const Family    raw = raw_of(count);
        Eigen::MatrixXd C(std::max<std::size_t>(rows.size(), 1), count);
        C.setZero();
        Values v;
        for (unsigned int r = 0; r < rows.size(); ++r)
          {
            raw(rows[r].x, v);
            for (unsigned int k = 0; k < count; ++k)
              C(r, k) = v[rows[r].slope ? 1 : 0][k];
          }
        Eigen::JacobiSVD<Eigen::MatrixXd> svd(C, Eigen::ComputeFullV);
        svd.setThreshold(1e-10);
        V = svd.matrixV();
        return static_cast<unsigned int>(svd.rank());
      };
      Eigen::MatrixXd    V;
      const unsigned int rank  = rank_for(n + rows.size(), V);
      const unsigned int count = n + rank;
      const unsigned int r2    = rank_for(count, V);
      const Eigen::MatrixXd null = V.rightCols(count - r2).leftCols(n);
      const Family          raw  = raw_of(count);
      return [raw, null](double x, Values &out) {
        Values v;
        raw(x, v);
        for (unsigned int d = 0; d < 3; ++d)
          {
            out[d].assign(null.cols(), 0.);
            for (unsigned int j = 0; j < null.cols(); ++j)
              for (unsigned int k = 0; k < null.rows(); ++k)
                out[d][j] += null(k, j) * v[d][k];
          }
      };
    }

    // The derivative orders a support condition prescribes to zero at an
    // end of a free beam: w, w' (clamped); w, w'' (pinned); w', w''' (guided);
    // w'', w''' (free).
    std::array<unsigned int, 2>
    orders(bool w_fixed, bool slope_fixed)
    {
      if (w_fixed && slope_fixed)
        return {0, 1};
      if (w_fixed)
        return {0, 2};
      if (slope_fixed)
        return {1, 3};
      return {2, 3};
    }

    // Row of the d-th derivative / beta^d of (cos bx, sin bx, e^-bx, e^-b(L-x)).
    std::array<double, 4>
    row(double beta, double L, double x, unsigned int d)
    {
      return {std::cos(beta * x + d * M_PI / 2),
              std::sin(beta * x + d * M_PI / 2),
              (d % 2 ? -1. : 1.) * std::exp(-beta * x),
              std::exp(-beta * (L - x))};
    }

    // Eigenfunctions of a uniform beam with end conditions, rigid modes first.
    Family
    beam_eigenfunctions(double L, bool w0, bool s0, bool wL, bool sL, unsigned int n)
    {
      // rigid modes: a + b x/L in the null space of the geometric conditions
      std::vector<std::array<double, 2>> rigid_rows;
      if (w0)
        rigid_rows.push_back({1., 0.});
      if (s0 || sL)
        rigid_rows.push_back({0., 1.});
      if (wL)
        rigid_rows.push_back({1., 1.});
      Eigen::MatrixXd C(std::max<std::size_t>(rigid_rows.size(), 1), 2);
      C.setZero();
      for (unsigned int r = 0; r < rigid_rows.size(); ++r)
        C.row(r) << rigid_rows[r][0], rigid_rows[r][1];
      Eigen::JacobiSVD<Eigen::MatrixXd> svd(C, Eigen::ComputeFullV);
      svd.setThreshold(1e-12);
      const Eigen::MatrixXd rigid = svd.matrixV().rightCols(2 - svd.rank());

      const auto o0 = orders(w0, s0), oL = orders(wL, sL);
      const auto matrix = [&](double lambda) {
        const double    beta = lambda / L;
        Eigen::Matrix4d A;
        for (unsigned int i = 0; i < 2; ++i)
          {
            const auto a = row(beta, L, 0., o0[i]), b = row(beta, L, L, oL[i]);
            for (unsigned int k = 0; k < 4; ++k)
              {
                A(i, k)     = a[k];
                A(i + 2, k) = b[k];
              }
          }
        return A;
      };
      std::vector<double>                betas;
      std::vector<Eigen::Vector4d>       coefficients;
      const unsigned int n_elastic = n > rigid.cols() ? n - rigid.cols() : 0;
      double             previous  = matrix(1e-3).determinant();
      for (double lambda = 1e-3 + 1e-3; betas.size() < n_elastic; lambda += 1e-3)
        {
          const double current = matrix(lambda).determinant();
          if ((current < 0) != (previous < 0))
            {
              double a = lambda - 1e-3, b = lambda, fa = previous;
              for (int i = 0; i < 100; ++i)
                {
                  const double m = (a + b) / 2, fm = matrix(m).determinant();
                  if ((fm < 0) == (fa < 0))
                    {
                      a  = m;
                      fa = fm;
                    }
                  else
                    b = m;
                }
              const double root = (a + b) / 2;
              Eigen::JacobiSVD<Eigen::Matrix4d> s(matrix(root), Eigen::ComputeFullV);
              betas.push_back(root / L);
              coefficients.push_back(s.matrixV().col(3));
            }
          previous = current;
        }
      return [rigid, betas, coefficients, L](double x, Values &out) {
        for (auto &o : out)
          o.clear();
        for (unsigned int j = 0; j < rigid.cols(); ++j)
          {
            out[0].push_back(rigid(0, j) + rigid(1, j) * x / L);
            out[1].push_back(rigid(1, j) / L);
            out[2].push_back(0.);
          }
        for (unsigned int j = 0; j < betas.size(); ++j)
          for (unsigned int d = 0; d < 3; ++d)
            {
              const auto r = row(betas[j], L, x, d);
              double     v = 0;
              for (unsigned int k = 0; k < 4; ++k)
                v += coefficients[j](k) * r[k];
              out[d].push_back(v * std::pow(betas[j], d));
            }
      };
    }
  } // namespace

  void
  RayleighRitz::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Rayleigh-Ritz");
    prm.declare_entry("Trial functions",
                      "polynomials",
                      Patterns::Selection("polynomials|sine series|beam eigenfunctions"),
                      "Global trial functions, combined to satisfy the geometric "
                      "conditions: Legendre polynomials, a cubic plus a sine "
                      "series, or the exact modes of a uniform beam with the "
                      "same end conditions (supports at the ends only).");
    prm.declare_entry("Number of functions", "10", Patterns::Integer(1),
                      "Number n of trial functions (unknowns).");
    prm.leave_subsection();
  }

  void
  RayleighRitz::parse_parameters(Section &s)
  {
    Section::Scope scope(s, "Rayleigh-Ritz");
    const unsigned int n_functions = s.get_unsigned("Number of functions");
    // full n x n operators, dense copies and the complete modal basis
    require_memory(12. * n_functions * double(n_functions) * sizeof(double), s.path(), "Number of functions",
                   std::to_string(n_functions),
                   "the full operators of " + std::to_string(n_functions) + " trial functions");
    set(s.get("Trial functions"), n_functions);
  }

  void
  RayleighRitz::set(const std::string &f, unsigned int n_functions)
  {
    family = f;
    n      = n_functions;
  }

  void
  RayleighRitz::setup(const BeamModel &beam)
  {
    model          = &beam;
    const double L = beam.length();
    const auto   rows = restraints(beam);
    if (family == "beam eigenfunctions")
      {
        bool w0 = false, s0 = false, wL = false, sL = false;
        for (const auto &r : rows)
          {
            if (r.x > 1e-12 * L && r.x < L * (1 - 1e-12))
              input_error("Discretization/Rayleigh-Ritz", "Trial functions", "'beam eigenfunctions'",
                          "the beam has a geometric support inside the span (x = " +
                            std::to_string(r.x) +
                            " m); eigenfunctions of a beam supported at its ends "
                            "cannot satisfy it. Use 'polynomials' or 'sine series'.");
            bool &flag = (r.x < L / 2) ? (r.slope ? s0 : w0) : (r.slope ? sL : wL);
            flag       = true;
          }
        functions = beam_eigenfunctions(L, w0, s0, wL, sL, n);
      }
    else
      functions = constrained(
        [&](unsigned int count) { return family == "sine series" ? sine_series(L, count) : legendre(L, count); },
        rows,
        n);
  }

  std::unique_ptr<Operators>
  RayleighRitz::assemble() const
  {
    auto                   ops = std::make_unique<Operators>();
    DynamicSparsityPattern dsp(n, n);
    for (unsigned int i = 0; i < n; ++i)
      for (unsigned int j = 0; j < n; ++j)
        dsp.add(i, j);
    ops->sparsity.copy_from(dsp);
    FullMatrix<double> M(n, n), K(n, n), G(n, n);
    ops->load.reinit(n);
    ops->base_translation_load.reinit(n);
    ops->base_rotation_load.reinit(n);
    for (const auto &e : model->electrodes)
      ops->electrodes.push_back({e.name, Vector<double>(n), 0.});

    Values v;
    double stiffness_scale = 0;
    for_each_quadrature_point([&](double x, double JxW, double middle) {
      const Segment &segment = model->segment_at(middle);
      const double   EI      = segment.section.bending_stiffness;
      const double   rhoA    = segment.section.mass_per_length;
      functions(x, v);
      const double N0 = model->has_prestress ? model->axial_force->value(Point<1>(x)) : 0.;
      const double f  = model->has_distributed_load ? model->distributed_load->value(Point<1>(x)) : 0.;
      for (unsigned int i = 0; i < n; ++i)
        {
          for (unsigned int j = 0; j < n; ++j)
            {
              M(i, j) += rhoA * v[0][i] * v[0][j] * JxW;
              K(i, j) += EI * v[2][i] * v[2][j] * JxW;
              G(i, j) += N0 * v[1][i] * v[1][j] * JxW;
            }
          ops->load(i) += f * v[0][i] * JxW;
          ops->base_translation_load(i) += rhoA * v[0][i] * JxW;
          ops->base_rotation_load(i) += rhoA * x * v[0][i] * JxW;
        }
      ops->rigid_mass += rhoA * JxW;
      ops->rigid_first_moment += rhoA * x * JxW;
      ops->rigid_second_moment += rhoA * x * x * JxW;
      for (unsigned int e = 0; e < model->electrodes.size(); ++e)
        {
          const Electrode &electrode = model->electrodes[e];
          if (middle < electrode.x_start || middle > electrode.x_end)
            continue;
          const ElectrodeTerms terms = electrode_terms(electrode, segment);
          for (unsigned int i = 0; i < n; ++i)
            ops->electrodes[e].coupling(i) += terms.coupling_per_curvature * v[2][i] * JxW;
          ops->electrodes[e].capacitance += terms.capacitance_per_length * JxW;
        }
      stiffness_scale = std::max(stiffness_scale, EI / rhoA * std::pow(n / model->length(), 4));
    });
    ops->stiffness_scale = stiffness_scale;
    // the round-off scale per segment uses the beam's mean mass per length,
    // so that a stiff, light segment is not taken for a fine discretization
    double mean_rhoA = 0;
    for (const auto &segment : model->segments)
      mean_rhoA += segment.section.mass_per_length * (segment.x_end - segment.x_start) / model->length();
    for (const auto &segment : model->segments)
      ops->stiffness_scales.push_back({segment.x_start,
                                       segment.x_end,
                                       segment.section.bending_stiffness / mean_rhoA *
                                         std::pow(n / model->length(), 4)});

    const auto add_point = [&](double x, double m, double J, double k, double kr, double F, double Mo) {
      functions(x, v);
      for (unsigned int i = 0; i < n; ++i)
        {
          ops->load(i) += F * v[0][i] + Mo * v[1][i];
          ops->base_translation_load(i) += m * v[0][i];
          ops->base_rotation_load(i) += m * x * v[0][i] + J * v[1][i];
          for (unsigned int j = 0; j < n; ++j)
            {
              M(i, j) += m * v[0][i] * v[0][j] + J * v[1][i] * v[1][j];
              K(i, j) += k * v[0][i] * v[0][j] + kr * v[1][i] * v[1][j];
            }
        }
      ops->rigid_mass += m;
      ops->rigid_first_moment += m * x;
      ops->rigid_second_moment += m * x * x + J;
    };
    for (const auto &m : model->point_masses)
      add_point(m.position, m.mass, m.rotary_inertia, 0, 0, 0, 0);
    for (const auto &s : model->supports)
      add_point(s.position, 0, 0, s.translational_stiffness, s.rotational_stiffness, 0, 0);
    for (const auto &p : model->point_loads)
      add_point(p.position, 0, 0, 0, 0, p.force, p.moment);

    ops->mass.reinit(ops->sparsity);
    ops->stiffness.reinit(ops->sparsity);
    ops->geometric_stiffness.reinit(ops->sparsity);
    for (unsigned int i = 0; i < n; ++i)
      for (unsigned int j = 0; j < n; ++j)
        {
          // symmetrize exactly: the quadrature sums are symmetric up to round-off
          ops->mass.set(i, j, (M(i, j) + M(j, i)) / 2);
          ops->stiffness.set(i, j, (K(i, j) + K(j, i)) / 2);
          ops->geometric_stiffness.set(i, j, (G(i, j) + G(j, i)) / 2);
        }
    return ops;
  }

  void
  RayleighRitz::for_each_quadrature_point(const std::function<void(double, double, double)> &f) const
  {
    // Gauss points between key points, each interval subdivided so that the
    // oscillating trial functions are integrated accurately
    const std::vector<double> keys = model->key_points();
    const double              L    = model->length();
    const QGauss<1>           quadrature(std::max(16u, n + 8));
    for (unsigned int k = 0; k + 1 < keys.size(); ++k)
      {
        const unsigned int pieces = std::max(
          1u, static_cast<unsigned int>(std::ceil((keys[k + 1] - keys[k]) / L * std::max(4u, n))));
        for (unsigned int p = 0; p < pieces; ++p)
          {
            const double a = keys[k] + (keys[k + 1] - keys[k]) * p / pieces;
            const double b = keys[k] + (keys[k + 1] - keys[k]) * (p + 1) / pieces;
            for (unsigned int q = 0; q < quadrature.size(); ++q)
              f(a + (b - a) * quadrature.point(q)[0], (b - a) * quadrature.weight(q), (a + b) / 2);
          }
      }
  }

  void
  RayleighRitz::assemble_geometric_stiffness(const std::function<double(double)> &axial_force,
                                             SparseMatrix<double>                &matrix) const
  {
    FullMatrix<double> G(n, n);
    Values             v;
    for_each_quadrature_point([&](double x, double JxW, double) {
      functions(x, v);
      const double N0 = axial_force(x);
      for (unsigned int i = 0; i < n; ++i)
        for (unsigned int j = 0; j < n; ++j)
          G(i, j) += N0 * v[1][i] * v[1][j] * JxW;
    });
    for (unsigned int i = 0; i < n; ++i)
      for (unsigned int j = 0; j < n; ++j)
        matrix.set(i, j, (G(i, j) + G(j, i)) / 2);
  }

  void
  RayleighRitz::evaluate(const Vector<double> &u, double x, double &w, double &slope, double &curvature) const
  {
    Values v;
    functions(x, v);
    w = slope = curvature = 0;
    for (unsigned int j = 0; j < n; ++j)
      {
        w += u(j) * v[0][j];
        slope += u(j) * v[1][j];
        curvature += u(j) * v[2][j];
      }
  }

  std::vector<double>
  RayleighRitz::sample_points(unsigned int per_element) const
  {
    const double        L = model->length();
    const unsigned int  m = per_element * std::max(4u, n);
    std::vector<double> points = model->key_points();
    for (unsigned int i = 0; i <= m; ++i)
      points.push_back(L * i / m);
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end(),
                             [L](double a, double b) { return std::abs(a - b) < 1e-12 * L; }),
                 points.end());
    return points;
  }

  std::string
  RayleighRitz::description() const
  {
    std::ostringstream s;
    s << "Rayleigh-Ritz, " << n << " " << family << " trial functions";
    return s.str();
  }

  HAMILTON_REGISTER_PLUGIN(Discretization,
                           RayleighRitz,
                           "rayleigh-ritz",
                           "assumed modes: global trial functions that satisfy "
                           "the geometric conditions, subsection 'Rayleigh-Ritz'.")
} // namespace hamilton
