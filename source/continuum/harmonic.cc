// The continuum as a Structure (doc/layout.md, "Structures with electrical
// ports"): the frequency response, harvester and RL shunt analyses run on its
// reduced model (modes + static corrections, the ROM that 'reduced model'
// exports), and a direct solve of the full model at single frequencies checks
// that reduction.
//
// The direct solve: with the loaded ports' masters free, the electrode charge
// is Q = -(K x)_m (the master's row of the condensed enthalpy operator), and
// a load of admittance Y carries i omega Q + Y V = 0. The harmonic problem is
// therefore (A + sum_k d_k e_k e_k^T) x = f with the real A = K - omega^2 M
// (ports by their circuits: short and prescribed fixed, loaded ones
// floating) and d_k = i Y_k / omega on the masters. A is factored once
// (MUMPS; SuperLU_DIST on several ranks) and the rank-p complex term is
// added by the Woodbury identity:
//   x = x0 - Z (I + D Z_m)^-1 D x0_m,  x0 = A^-1 f,  Z = A^-1 [e_1 .. e_p].

#include <hamilton/base/format.h>

#include "solver.h"

#include <Eigen/Dense>

namespace hamilton::continuum
{
  using complex = std::complex<double>;

  template <int dim>
  class Solver<dim>::AsStructure : public Structure
  {
  public:
    explicit AsStructure(const Solver<dim> &solver)
      : solver(solver)
    {}

    std::string
    noun() const override
    {
      return "continuum";
    }

    std::string
    electrodes_path() const override
    {
      return "Continuum/Electrodes";
    }

    std::vector<ElectricalPort>
    ports() const override
    {
      std::vector<ElectricalPort> result;
      for (const auto k : solver.ports)
        {
          const auto &e = solver.model.electrodes[k];
          ElectricalPort        port{e.name, ElectrodeCircuit::short_circuit, e.voltage, e.resistance, e.inductance};
          switch (e.circuit)
            {
              case Circuit::open_circuit:
                port.circuit = ElectrodeCircuit::open_circuit;
                break;
              case Circuit::voltage:
                port.circuit = ElectrodeCircuit::voltage;
                break;
              case Circuit::resistor:
                port.circuit = ElectrodeCircuit::resistor;
                break;
              case Circuit::series_rl:
                port.circuit = ElectrodeCircuit::series_rl;
                break;
              case Circuit::parallel_rl:
                port.circuit = ElectrodeCircuit::parallel_rl;
                break;
              default:
                break;
            }
          result.push_back(port);
        }
      return result;
    }

    /** Coordinates of the reduced model: modes plus corrections (at most). */
    unsigned int
    rom_size() const
    {
      return solver.options.rom_modes +
             (solver.options.correction_order > 0 ? 1 + static_cast<unsigned int>(solver.ports.size()) : 0);
    }

    void
    check_modes(const unsigned int n_modes, const std::string &path) const override
    {
      if (n_modes > rom_size())
        input_error(path, "Number of modes", std::to_string(n_modes),
                    "a continuum's response comes from its reduced model ('Analysis/Reduced model'), which has " +
                      std::to_string(solver.options.rom_modes) + " modes" +
                      (solver.options.correction_order > 0 ?
                         " and " + std::to_string(rom_size() - solver.options.rom_modes) + " static correction" +
                           (rom_size() - solver.options.rom_modes == 1 ? "" : "s") :
                         std::string()) +
                      ". Ask for at most " + std::to_string(rom_size()) +
                      " (0 keeps all), or raise 'Analysis/Reduced model/Number of modes'.");
    }

    unsigned int
    n_coordinates(const unsigned int n_modes) const override
    {
      return n_modes == 0 ? rom_size() : n_modes;
    }

    SpectralModel
    spectral_model(const unsigned int n_modes, bool) const override
    {
      ReducedModel kept = solver.rom;
      const auto   n    = n_modes == 0 ? kept.size() : std::min(n_modes, kept.size());
      kept.omega.resize(n);
      kept.damping_ratios.resize(n);
      kept.participation_translation.resize(n);
      for (auto &e : kept.electrodes)
        e.coupling.resize(n);
      for (auto &o : kept.outputs)
        o.displacement.resize(n);
      return SpectralModel(kept, ports(), 0.);
    }

    OutputPoint
    resolve(const OutputPoint &point, const std::string &path, const std::string &entry) const override
    {
      std::string names;
      for (const auto &p : solver.model.output_points)
        {
          if (!point.has_position() && p.name == point.name)
            return point;
          names += (names.empty() ? "'" : ", '") + p.name + "'";
        }
      input_error(path, entry,
                  point.has_position() ? "'" + point.name + ": " + format_number(point.x) + "'" :
                                         "'" + point.name + "'",
                  "a continuum's points are the names of its 'Continuum/Output points' (" +
                    (names.empty() ? std::string("none declared") : names) +
                    "), each a point and a direction. Give one of them, or declare the point there.");
    }

    OutputPoint
    default_point(const std::string &path, const std::string &entry) const override
    {
      if (solver.model.output_points.empty())
        input_error(path, entry, "''",
                    "the continuum has no output points: declare the driving point in 'Continuum/Output points' "
                    "and name it here.");
      return {solver.model.output_points.front().name};
    }

    std::optional<std::pair<double, double>>
    first_mode_frequencies(unsigned int) const override
    {
      // exact only when the open-circuit analysis opened this port alone
      if (solver.ports.size() == 1)
        return solver.first_mode_hz;
      return {};
    }

    bool
    is_reduced() const override
    {
      return true;
    }

    DirectResponse
    direct_response(const double                               omega,
                    const SpectralModel::Excitation           &excitation,
                    const std::vector<SpectralModel::Circuit> &circuits,
                    const std::vector<OutputPoint>            &points) const override
    {
      return solver.harmonic_response(omega, excitation, circuits, points);
    }

  private:
    const Solver<dim> &solver;
  };

  template <int dim>
  void
  Solver<dim>::check_structure_analyses() const
  {
    const AsStructure structure(*this);
    for (const auto &[name, analysis] : options.structure_analyses)
      analysis->check_on(structure);
  }

  template <int dim>
  void
  Solver<dim>::run_structure_analyses(ContinuumResult &continuum)
  {
    const AsStructure structure(*this);
    for (const auto &[name, analysis] : options.structure_analyses)
      {
        const auto start  = std::chrono::steady_clock::now();
        auto       result = analysis->run_on(structure);
        for (const auto &w : result->warnings)
          continuum.warnings.push_back(name + ": " + w);
        continuum.timings_s.emplace_back(name,
                                         std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        outcomes.push_back(std::move(result));
      }
  }

  template <int dim>
  PVector
  Solver<dim>::point_functional(const ContinuumModel::OutputPoint &point,
                                const AffineConstraints<double>   *constraints) const
  {
    Point<dim> p;
    for (unsigned int d = 0; d < dim; ++d)
      p[d] = point.point[d];
    typename DoFHandler<dim>::active_cell_iterator cell;
    Point<dim>                                     unit;
    const bool                                     found = locate(p, cell, unit);
    // a point on a partition boundary is found by several ranks: each adds
    // its share
    const unsigned int count = Utilities::MPI::sum(found ? 1u : 0u, comm);
    if (count == 0)
      input_error("Continuum/Output points/" + point.name, "Point", "(outside)", "lies outside the mesh; give a point of the body (m).");
    PVector g(owned, comm);
    if (found)
      {
        const Quadrature<dim> quadrature(GeometryInfo<dim>::project_to_unit_cell(unit));
        FEValues<dim>         fe_values(fe, quadrature, update_values);
        fe_values.reinit(cell);
        std::vector<types::global_dof_index> dofs(fe.n_dofs_per_cell());
        cell->get_dof_indices(dofs);
        dealii::Vector<double> values(dofs.size());
        for (unsigned int i = 0; i < dofs.size(); ++i)
          {
            const unsigned int c = fe.system_to_component_index(i).first;
            if (c < dim)
              values[i] = fe_values.shape_value(i, 0) * point.direction[c] / count;
          }
        if (constraints != nullptr)
          constraints->distribute_local_to_global(values, dofs, g);
        else
          g.add(dofs, values);
      }
    g.compress(VectorOperation::add);
    return g;
  }

  template <int dim>
  Structure::DirectResponse
  Solver<dim>::harmonic_response(const double                               omega,
                                 const SpectralModel::Excitation           &excitation,
                                 const std::vector<SpectralModel::Circuit> &circuits,
                                 const std::vector<OutputPoint>            &points) const
  {
    AssertDimension(circuits.size(), ports.size());
    // A = K - omega^2 M with the ports by their circuits; `homogeneous` has
    // the same constraints with the prescribed voltages at 0 (for A^-1 e_k)
    const auto constraints = make_constraints(State::harmonic, 0, &circuits);
    auto       zero        = circuits;
    for (auto &c : zero)
      c.value = c.kind == SpectralModel::Circuit::prescribed ? 0. : c.value;
    const auto homogeneous = make_constraints(State::harmonic, 0, &zero);

    PMatrix A;
    A.reinit(owned, owned, sparsity, comm);
    PVector                              f(owned, comm);
    const QGauss<dim>                    quadrature(fe.degree + 1);
    FEValues<dim>                        fe_values(fe, quadrature, update_values | update_gradients | update_quadrature_points | update_JxW_values);
    const unsigned int                   n = fe.n_dofs_per_cell();
    FullMatrix<double>                   Kc(n, n), Mc(n, n);
    dealii::Vector<double>               r(n), fc(n);
    std::vector<types::global_dof_index> dofs(n);
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          local_matrices(cell, fe_values, Kc, Mc);
          // inertia load of the base acceleration: -a M r (relative motion)
          for (unsigned int i = 0; i < n; ++i)
            {
              const unsigned int c = fe.system_to_component_index(i).first;
              r(i)                 = c < dim ? model.base_direction[c] : 0.;
            }
          Mc.vmult(fc, r);
          fc *= -excitation.base_acceleration;
          Kc.add(-omega * omega, Mc);
          cell->get_dof_indices(dofs);
          constraints.distribute_local_to_global(Kc, fc, dofs, A, f);
        }
    A.compress(VectorOperation::add);
    f.compress(VectorOperation::add);
    std::vector<PVector> functionals;
    for (const auto &p : points)
      for (const auto &q : model.output_points)
        if (q.name == p.name)
          functionals.push_back(point_functional(q));
    AssertDimension(functionals.size(), points.size());
    if (excitation.force != 0)
      for (const auto &q : model.output_points)
        if (q.name == excitation.force_point)
          f.add(excitation.force, point_functional(q, &constraints));
    // the loaded ports: their masters and d_k = i Y_k / omega
    std::vector<types::global_dof_index> masters;
    std::vector<complex>                 d;
    for (unsigned int p = 0; p < ports.size(); ++p)
      if (circuits[p].kind == SpectralModel::Circuit::admittance && circuits[p].value != 0.)
        {
          masters.push_back(electrode_dofs[ports[p]].master);
          d.push_back(complex(0., 1.) * circuits[p].value / omega);
        }
    const auto value_at = [&](const PVector &x, const types::global_dof_index dof) {
      return Utilities::MPI::sum(owned.is_element(dof) ? static_cast<double>(x(dof)) : 0., comm);
    };

    DirectSolver solver(A, comm);
    PVector      x0(owned, comm);
    require_solved(solver.solve(f, x0), "harmonic problem at " + format(omega / (2 * M_PI)) + " Hz");
    constraints.distribute(x0);
    std::vector<PVector> z;
    for (const auto m : masters)
      {
        PVector e(owned, comm), y(owned, comm);
        if (owned.is_element(m))
          e(m) = 1.;
        e.compress(VectorOperation::insert);
        require_solved(solver.solve(e, y), "harmonic problem at " + format(omega / (2 * M_PI)) + " Hz");
        homogeneous.distribute(y);
        z.push_back(std::move(y));
      }
    const unsigned int p = masters.size();
    Eigen::MatrixXcd   S = Eigen::MatrixXcd::Identity(p, p);
    Eigen::VectorXcd   b(p);
    for (unsigned int i = 0; i < p; ++i)
      {
        b[i] = d[i] * value_at(x0, masters[i]);
        for (unsigned int j = 0; j < p; ++j)
          S(i, j) += d[i] * value_at(z[j], masters[i]);
      }
    const Eigen::VectorXcd c = p > 0 ? Eigen::VectorXcd(S.partialPivLu().solve(b)) : Eigen::VectorXcd(0);
    const auto             response = [&](const std::function<double(const PVector &)> &functional) {
      complex v = functional(x0);
      for (unsigned int j = 0; j < p; ++j)
        v -= c[j] * functional(z[j]);
      return v;
    };

    Structure::DirectResponse result;
    for (unsigned int q = 0; q < ports.size(); ++q)
      result.V.push_back(
        response([&](const PVector &x) { return value_at(x, electrode_dofs[ports[q]].master); }));
    for (const auto &g : functionals)
      result.points.push_back(response([&](const PVector &x) { return g * x; }));
    return result;
  }

#define HAMILTON_INSTANTIATE(dim)                                                                                  \
  template void Solver<dim>::check_structure_analyses() const;                                                     \
  template void Solver<dim>::run_structure_analyses(ContinuumResult &);                                            \
  template PVector Solver<dim>::point_functional(const ContinuumModel::OutputPoint &,                             \
                                                 const AffineConstraints<double> *) const;                         \
  template Structure::DirectResponse Solver<dim>::harmonic_response(                                               \
    double, const SpectralModel::Excitation &, const std::vector<SpectralModel::Circuit> &,                        \
    const std::vector<OutputPoint> &) const;

  HAMILTON_INSTANTIATE(2)
  HAMILTON_INSTANTIATE(3)
#undef HAMILTON_INSTANTIATE
} // namespace hamilton::continuum
