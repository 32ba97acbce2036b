#include <hamilton/analyses/eigensolver.h>
#include <hamilton/analyses/spectral_model.h>
#include <hamilton/rom/reduced_model.h>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hamilton
{
  using namespace dealii;
  using complex = std::complex<double>;

  ElectricalPort
  port_of(const Electrode &electrode)
  {
    return {electrode.name, electrode.circuit, electrode.voltage, electrode.resistance, electrode.inductance};
  }

  std::complex<double>
  load_admittance(const ElectricalPort &port, double omega)
  {
    const double R = port.resistance, L = port.inductance;
    switch (port.circuit)
      {
        case ElectrodeCircuit::resistor:
          return 1. / R;
        case ElectrodeCircuit::series_rl:
          return 1. / complex(R, omega * L);
        case ElectrodeCircuit::parallel_rl:
          return 1. / R + 1. / complex(0., omega * L);
        default:
          return 0.;
      }
  }

  SpectralModel::SpectralModel(const Problem &problem,
                               unsigned int   n_modes,
                               bool           include_prestress)
    : problem(problem)
  {
    AssertDimension(problem.operators.electrodes.size(), problem.model.electrodes.size());
    const Operators &ops = problem.operators;
    const unsigned int n = problem.discretization.n_dofs();
    if (n_modes == 0 || n_modes > n)
      n_modes = n;
    SparseMatrix<double> K(ops.sparsity);
    K.copy_from(ops.stiffness);
    if (include_prestress && problem.model.has_prestress)
      K.add(1., ops.geometric_stiffness);
    const auto  &section = problem.model.segments.front().section;
    const double scale   = section.bending_stiffness /
                         (section.mass_per_length * std::pow(problem.model.length(), 4));
    const bool   free_to_move = problem.model.rigid_body_restraint_rank() < 2;
    // all modes of a full model: dense; a truncated basis may use SLEPc
    const EigenSolution modes = lowest_eigenpairs(
      K, ops.mass, n_modes,
      n_modes == n ? EigensolverBackend::dense : EigensolverBackend::automatic,
      free_to_move ? scale : 0., scale);

    for (unsigned int r = 0; r < modes.values.size(); ++r)
      {
        const double w = std::sqrt(std::max(0., modes.values[r]));
        omega.push_back(w);
        zeta.push_back(w > 0 ? problem.model.damping.ratio(r, w) : 0.);
        participation.push_back(modes.vectors[r] * ops.base_translation_load);
        shapes.push_back(modes.vectors[r]);
      }
    for (const auto &e : ops.electrodes)
      {
        std::vector<double> c;
        for (const auto &phi : shapes)
          c.push_back(phi * e.coupling);
        chi.push_back(c);
        capacitance.push_back(e.capacitance);
        electrode_names.push_back(e.name);
      }
    for (const auto &e : problem.model.electrodes)
      ports.push_back(port_of(e));
    position_tolerance = problem.model.position_tolerance();
  }

  SpectralModel::SpectralModel(const Problem &problem, const ReducedModel &rom)
    : SpectralModel(rom, {}, problem.model.position_tolerance())
  {
    for (const auto &e : problem.model.electrodes)
      ports.push_back(port_of(e));
    AssertDimension(ports.size(), chi.size());
  }

  SpectralModel::SpectralModel(const ReducedModel &rom, std::vector<ElectricalPort> ports, const double position_tolerance)
    : omega(rom.omega)
    , zeta(rom.damping_ratios)
    , participation(rom.participation_translation)
    , ports(std::move(ports))
    , position_tolerance(position_tolerance)
  {
    for (const auto &e : rom.electrodes)
      {
        chi.push_back(e.coupling);
        capacitance.push_back(e.capacitance);
        electrode_names.push_back(e.name);
      }
    for (const auto &o : rom.outputs)
      point_values.emplace_back(OutputPoint{o.name, o.position}, o.displacement);
  }

  std::vector<SpectralModel::Circuit>
  SpectralModel::circuits_of_model(double w) const
  {
    std::vector<Circuit> result;
    for (const auto &e : ports)
      {
        Circuit c;
        if (e.circuit == ElectrodeCircuit::short_circuit)
          c.kind = Circuit::short_circuit;
        else if (e.circuit == ElectrodeCircuit::voltage)
          {
            c.kind  = Circuit::prescribed;
            c.value = e.voltage;
          }
        else
          {
            c.kind  = Circuit::admittance;
            c.value = load_admittance(e, w);
          }
        result.push_back(c);
      }
    return result;
  }

  SpectralModel::State
  SpectralModel::solve(double                      w,
                       const Excitation           &excitation,
                       const std::vector<Circuit> &circuits) const
  {
    const unsigned int n = omega.size(), n_e = chi.size();
    const complex      iw(0., w);

    // modal force and dynamic stiffness
    std::vector<complex> f(n), d(n);
    const std::vector<double> phi_force =
      excitation.force == 0                     ? std::vector<double>(n, 0.) :
      !excitation.force_mode_values.empty() ? excitation.force_mode_values :
      !excitation.force_point.empty()       ? mode_values(OutputPoint{excitation.force_point}) :
                                              mode_values(excitation.force_position);
    for (unsigned int r = 0; r < n; ++r)
      {
        d[r] = omega[r] * omega[r] - w * w + 2. * iw * zeta[r] * omega[r];
        f[r] = -participation[r] * excitation.base_acceleration +
               phi_force[r] * excitation.force;
      }

    State state;
    state.V.assign(n_e, 0.);
    state.I.assign(n_e, 0.);
    std::vector<unsigned int> unknown;
    for (unsigned int e = 0; e < n_e; ++e)
      if (circuits[e].kind == Circuit::prescribed)
        {
          state.V[e] = circuits[e].value;
          for (unsigned int r = 0; r < n; ++r)
            f[r] += chi[e][r] * state.V[e];
        }
      else if (circuits[e].kind == Circuit::admittance)
        unknown.push_back(e);

    // electrical equations of the loaded electrodes with the modal amplitudes
    // eliminated: sum_f [i w sum_r chi_e chi_f / d_r] V_f + (i w C_e + Y_e) V_e
    //             = -i w sum_r chi_e f_r / d_r.
    // A mode at (or within round-off of) an undamped resonance has d_r = 0:
    // it is kept as an unknown instead (inf - inf gave NaN at exactly
    // omega_r, found when a ROM's omega_1 equalled the analysed frequency bit
    // for bit), with its equation d_r q_r - sum_e chi_er V_e = f_r and its
    // part i w chi_er q_r of each electrode's current; the loads keep the
    // response finite.
    const unsigned int        m = unknown.size();
    std::vector<unsigned int> resonant;
    if (m > 0)
      for (unsigned int r = 0; r < n; ++r)
        if (std::abs(d[r]) <= 1e-8 * std::max(omega[r] * omega[r], w * w))
          resonant.push_back(r);
    std::vector<bool> kept(n, false);
    for (const unsigned int r : resonant)
      kept[r] = true;
    if (m > 0)
      {
        const unsigned int k = resonant.size();
        Eigen::MatrixXcd   A = Eigen::MatrixXcd::Zero(m + k, m + k);
        Eigen::VectorXcd   b = Eigen::VectorXcd::Zero(m + k);
        for (unsigned int a = 0; a < m; ++a)
          {
            const unsigned int e = unknown[a];
            for (unsigned int r = 0; r < n; ++r)
              if (!kept[r])
                b(a) -= iw * chi[e][r] * f[r] / d[r];
            for (unsigned int c = 0; c < m; ++c)
              {
                const unsigned int g = unknown[c];
                complex            s = 0.;
                for (unsigned int r = 0; r < n; ++r)
                  if (!kept[r])
                    s += chi[e][r] * chi[g][r] / d[r];
                A(a, c) = iw * s;
              }
            A(a, a) += iw * capacitance[e] + circuits[e].value;
            for (unsigned int j = 0; j < k; ++j)
              {
                const unsigned int r = resonant[j];
                A(a, m + j)          = iw * chi[e][r];
                A(m + j, a)          = -chi[e][r];
              }
          }
        for (unsigned int j = 0; j < k; ++j)
          {
            A(m + j, m + j) = d[resonant[j]];
            b(m + j)        = f[resonant[j]];
          }
        const Eigen::VectorXcd x = A.fullPivLu().solve(b);
        for (unsigned int a = 0; a < m; ++a)
          {
            state.V[unknown[a]] = x(a);
            state.I[unknown[a]] = circuits[unknown[a]].value * x(a);
          }
        state.q.assign(n, 0.);
        for (unsigned int j = 0; j < k; ++j)
          state.q[resonant[j]] = x(m + j);
      }

    state.q.resize(n);
    for (unsigned int r = 0; r < n; ++r)
      if (!kept[r])
        {
          complex force = f[r];
          for (const unsigned int e : unknown)
            force += chi[e][r] * state.V[e];
          state.q[r] = force / d[r];
        }
    // current delivered by a voltage source: i w Q
    for (unsigned int e = 0; e < n_e; ++e)
      if (circuits[e].kind == Circuit::prescribed)
        {
          complex Q = capacitance[e] * state.V[e];
          for (unsigned int r = 0; r < n; ++r)
            Q += chi[e][r] * state.q[r];
          state.I[e] = iw * Q;
        }
    return state;
  }

  std::vector<double>
  SpectralModel::open_circuit_omega(const std::vector<bool> &open) const
  {
    // A = D + W W^T, D = diag(omega_r^2), W's columns chi_e / C_e^1/2 of the
    // open electrodes. A dense eigensolver is accurate to eps ||A|| = eps
    // omega_max^2, a relative error eps (omega_max / omega_r)^2 in the low
    // modes (Case 1b, 54 modes: 3.4e-9 in f_oc, varying with the BLAS
    // kernel). Each eigenvalue is therefore refined: inverse iteration with
    // the structured solve (Woodbury, componentwise accurate)
    //   (A - mu)^-1 = (D - mu)^-1 - (D - mu)^-1 W S^-1 W^T (D - mu)^-1,  S = I + W^T (D - mu)^-1 W,
    // then the Rayleigh quotient sum_r d_r v_r^2 + |W^T v|^2 (no cancellation).
    const unsigned int n = omega.size();
    std::vector<unsigned int> ports;
    for (unsigned int e = 0; e < chi.size(); ++e)
      if (open[e])
        ports.push_back(e);
    const unsigned int k = ports.size();
    Eigen::VectorXd    d(n);
    Eigen::MatrixXd    W(n, k);
    for (unsigned int r = 0; r < n; ++r)
      {
        d[r] = omega[r] * omega[r];
        for (unsigned int p = 0; p < k; ++p)
          W(r, p) = chi[ports[p]][r] / std::sqrt(capacitance[ports[p]]);
      }
    const Eigen::MatrixXd A = Eigen::MatrixXd(d.asDiagonal()) + W * W.transpose();
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(A);
    std::vector<double> result;
    for (unsigned int j = 0; j < n; ++j)
      {
        Eigen::VectorXd v  = solver.eigenvectors().col(j);
        double          mu = solver.eigenvalues()(j);
        if (k > 0)
          for (unsigned int iteration = 0; iteration < 3; ++iteration)
            {
              Eigen::VectorXd inverse(n);
              for (unsigned int r = 0; r < n; ++r)
                {
                  // a shift on a pole (an uncoupled mode): move it by one ulp
                  const double gap = d[r] - mu != 0. ? d[r] - mu : std::max(std::abs(mu), 1.) * 1e-16;
                  inverse[r]       = 1. / gap;
                }
              const Eigen::MatrixXd DW = inverse.asDiagonal() * W;
              const Eigen::MatrixXd S  = Eigen::MatrixXd::Identity(k, k) + W.transpose() * DW;
              const Eigen::VectorXd Dv = inverse.cwiseProduct(v);
              Eigen::VectorXd       y  = Dv - DW * S.fullPivLu().solve(W.transpose() * Dv);
              if (!y.allFinite() || y.norm() == 0.)
                break;
              v  = y / y.norm();
              mu = (d.cwiseProduct(v.cwiseProduct(v)).sum() + (W.transpose() * v).squaredNorm()) / v.squaredNorm();
            }
        result.push_back(std::sqrt(std::max(0., mu)));
      }
    std::sort(result.begin(), result.end());
    return result;
  }

  double
  maximize_unimodal(const std::function<double(double)> &f, double a, double b, double tolerance)
  {
    const double ratio = (std::sqrt(5.) - 1) / 2;
    double       x1 = b - ratio * (b - a), x2 = a + ratio * (b - a);
    double       f1 = f(x1), f2 = f(x2);
    while (b - a > tolerance * (std::abs(a) + std::abs(b)))
      {
        if (f1 < f2)
          {
            a  = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + ratio * (b - a);
            f2 = f(x2);
          }
        else
          {
            b  = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - ratio * (b - a);
            f1 = f(x1);
          }
      }
    return (a + b) / 2;
  }

  std::vector<double>
  SpectralModel::mode_values(double x) const
  {
    return mode_values(OutputPoint{"", x});
  }

  std::vector<double>
  SpectralModel::mode_values(const OutputPoint &point) const
  {
    if (shapes.empty())
      {
        for (const auto &[where, values] : point_values)
          if (point.has_position() ? std::abs(where.x - point.x) <= position_tolerance : where.name == point.name)
            return values;
        throw std::invalid_argument(
          (point.has_position() ? "x = " + std::to_string(point.x) + " m" : "'" + point.name + "'") +
          " is not an output point of the reduced model");
      }
    Assert(point.has_position(), dealii::ExcMessage("a beam's point needs a position"));
    std::vector<double> values;
    for (const auto &phi : shapes)
      {
        double value, slope, curvature;
        problem->discretization.evaluate(phi, point.x, value, slope, curvature);
        values.push_back(value);
      }
    return values;
  }

  std::complex<double>
  SpectralModel::deflection(const State &state, const std::vector<double> &mode_values)
  {
    complex w = 0.;
    for (unsigned int r = 0; r < mode_values.size(); ++r)
      w += mode_values[r] * state.q[r];
    return w;
  }
} // namespace hamilton
