#include <hamilton/discretization/finite_elements.h>

#include <deal.II/lac/dynamic_sparsity_pattern.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace hamilton
{
  using namespace dealii;

  void
  FiniteElements::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Finite elements");
    prm.declare_entry("Number of elements",
                      "20",
                      Patterns::Integer(1),
                      "Number of elements along the beam. Each interval "
                      "between key points (segment ends, supports, masses, "
                      "point loads) gets a share proportional to its length, "
                      "at least one.");
    prm.declare_entry("Polynomial degree",
                      "3",
                      Patterns::Integer(),
                      "Degree p >= 3 of the C1 elements: 3 is the Hermite "
                      "cubic, higher degrees add hierarchical bubbles and "
                      "converge faster (eigenvalue error ~ h^(2(p-1))).");
    prm.leave_subsection();
  }

  void
  FiniteElements::parse_parameters(Section &s)
  {
    Section::Scope scope(s, "Finite elements");
    const long     p = s.handler().get_integer("Polynomial degree");
    if (p < 3)
      s.fail("Polynomial degree",
             "C1 beam elements need at least cubic polynomials. Set 3 (Hermite cubic) to 20.");
    if (p > 20)
      s.fail("Polynomial degree",
             "is above the highest degree available, 20. Set 3 to 20; for more accuracy use "
               "more elements ('Number of elements').");
    const unsigned int n_elements = s.get_unsigned("Number of elements");
    // unknowns and the banded sparse operators (M, K, K_g, condensed copies)
    const double n_unknowns = double(n_elements) * (p - 1);
    require_memory(n_unknowns * ((2. * p + 1) * 12 * 6 + 200), s.path(), "Number of elements",
                   std::to_string(n_elements),
                   "the operators of " + std::to_string(n_elements) + " elements of degree " +
                     std::to_string(p));
    set(n_elements, static_cast<unsigned int>(p));
  }

  void
  FiniteElements::set(unsigned int n_elements, unsigned int p)
  {
    requested_elements = n_elements;
    degree             = p;
  }

  void
  FiniteElements::setup(const BeamModel &beam)
  {
    model   = &beam;
    element = std::make_unique<C1BeamElement>(degree);

    // mesh: key points, each interval subdivided in proportion to its length
    const std::vector<double> keys = beam.key_points();
    const double              L    = beam.length();
    nodes.assign(1, keys.front());
    for (unsigned int k = 0; k + 1 < keys.size(); ++k)
      {
        const double       a = keys[k], b = keys[k + 1];
        const unsigned int n = std::max<unsigned int>(
          1, std::lround(requested_elements * (b - a) / L));
        for (unsigned int i = 1; i <= n; ++i)
          nodes.push_back(i == n ? b : a + (b - a) * i / n);
      }
    const unsigned int n_elements = nodes.size() - 1;

    slope_scale.assign(nodes.size(), 0.);
    for (unsigned int e = 0; e < n_elements; ++e)
      {
        const double h = nodes[e + 1] - nodes[e];
        slope_scale[e] += h / 2;
        slope_scale[e + 1] += h / 2;
      }
    slope_scale.front() *= 2;
    slope_scale.back() *= 2;

    // geometric conditions
    std::vector<bool> fixed(n_full_dofs(), false);
    const unsigned int stride = 2 + (degree - 3);
    for (const auto &support : beam.supports)
      {
        const unsigned int node = std::distance(
          nodes.begin(),
          std::min_element(nodes.begin(), nodes.end(), [&](double a, double b) {
            return std::abs(a - support.position) <
                   std::abs(b - support.position);
          }));
        if (support.condition == SupportCondition::clamped ||
            support.condition == SupportCondition::pinned)
          fixed[node * stride] = true;
        if (support.condition == SupportCondition::clamped ||
            support.condition == SupportCondition::guided)
          fixed[node * stride + 1] = true;
      }
    free_index.assign(n_full_dofs(), -1);
    n_free = 0;
    for (unsigned int i = 0; i < n_full_dofs(); ++i)
      if (!fixed[i])
        free_index[i] = n_free++;
  }

  unsigned int
  FiniteElements::n_full_dofs() const
  {
    const unsigned int n_elements = nodes.size() - 1;
    return 2 * nodes.size() + n_elements * (degree - 3);
  }

  unsigned int
  FiniteElements::n_dofs() const
  {
    return n_free;
  }

  std::vector<unsigned int>
  FiniteElements::full_dofs(unsigned int e) const
  {
    // unknowns are numbered node by node, an element's bubbles between its
    // two nodes, which keeps the matrices banded
    const unsigned int        stride = 2 + (degree - 3);
    std::vector<unsigned int> dofs{e * stride,
                                   e * stride + 1,
                                   (e + 1) * stride,
                                   (e + 1) * stride + 1};
    for (unsigned int b = 0; b + 3 < degree; ++b)
      dofs.push_back(e * stride + 2 + b);
    return dofs;
  }

  unsigned int
  FiniteElements::find_element(double x) const
  {
    const auto it = std::upper_bound(nodes.begin(), nodes.end(), x);
    const long e  = std::distance(nodes.begin(), it) - 1;
    return static_cast<unsigned int>(
      std::clamp<long>(e, 0, static_cast<long>(nodes.size()) - 2));
  }

  std::unique_ptr<Operators>
  FiniteElements::assemble() const
  {
    Assert(model != nullptr, ExcMessage("setup() was not called"));
    const unsigned int n_elements = nodes.size() - 1;
    auto               ops        = std::make_unique<Operators>();

    DynamicSparsityPattern dsp(n_free, n_free);
    for (unsigned int e = 0; e < n_elements; ++e)
      for (const unsigned int i : full_dofs(e))
        for (const unsigned int j : full_dofs(e))
          if (free_index[i] >= 0 && free_index[j] >= 0)
            dsp.add(free_index[i], free_index[j]);
    ops->sparsity.copy_from(dsp);
    ops->mass.reinit(ops->sparsity);
    ops->stiffness.reinit(ops->sparsity);
    ops->geometric_stiffness.reinit(ops->sparsity);
    ops->load.reinit(n_free);
    ops->base_translation_load.reinit(n_free);

    // reactions: one per fixed unknown
    const unsigned int stride = 2 + (degree - 3);
    std::vector<int>   reaction_of(n_full_dofs(), -1);
    for (unsigned int node = 0; node < nodes.size(); ++node)
      for (unsigned int c = 0; c < 2; ++c)
        if (free_index[node * stride + c] < 0)
          {
            std::string name;
            for (const auto &s : model->supports)
              if (std::abs(s.position - nodes[node]) <= 1e-12 * model->length())
                name = s.name;
            Operators::Reaction r;
            r.support   = name;
            r.component = (c == 0) ? "force" : "moment";
            r.position  = nodes[node];
            r.row_stiffness.reinit(n_free);
            r.row_geometric.reinit(n_free);
            r.electrode_coupling.assign(model->electrodes.size(), 0.);
            reaction_of[node * stride + c] = ops->reactions.size();
            ops->reactions.push_back(r);
          }

    // rigid unit translation: w = 1 at every node, slopes and bubbles 0;
    // rigid unit rotation about x = 0: w = x, scaled slope s at every node
    Vector<double> rigid(n_full_dofs()), rotation(n_full_dofs());
    for (unsigned int node = 0; node < nodes.size(); ++node)
      {
        rigid[node * stride]        = 1.;
        rotation[node * stride]     = nodes[node];
        rotation[node * stride + 1] = slope_scale[node];
      }
    ops->base_rotation_load.reinit(n_free);

    // Scatter a local matrix (and vector) of full indices `dofs`.
    const auto scatter = [&](const std::vector<unsigned int> &dofs,
                             const FullMatrix<double>        *mass,
                             const FullMatrix<double>        *stiffness,
                             const FullMatrix<double>        *geometric,
                             const Vector<double>            *load) {
      for (unsigned int i = 0; i < dofs.size(); ++i)
        {
          const int fi = free_index[dofs[i]];
          const int ri = reaction_of[dofs[i]];
          if (fi >= 0 && load)
            ops->load(fi) += (*load)(i);
          if (ri >= 0 && load)
            ops->reactions[ri].load += (*load)(i);
          for (unsigned int j = 0; j < dofs.size(); ++j)
            {
              const int fj = free_index[dofs[j]];
              if (mass)
                {
                  if (fi >= 0)
                    {
                      ops->base_translation_load(fi) += (*mass)(i, j) * rigid[dofs[j]];
                      ops->base_rotation_load(fi) += (*mass)(i, j) * rotation[dofs[j]];
                    }
                  ops->rigid_mass += rigid[dofs[i]] * (*mass)(i, j) * rigid[dofs[j]];
                  ops->rigid_first_moment += rigid[dofs[i]] * (*mass)(i, j) * rotation[dofs[j]];
                  ops->rigid_second_moment +=
                    rotation[dofs[i]] * (*mass)(i, j) * rotation[dofs[j]];
                }
              if (fj < 0)
                continue;
              if (fi >= 0)
                {
                  if (mass)
                    ops->mass.add(fi, fj, (*mass)(i, j));
                  if (stiffness)
                    ops->stiffness.add(fi, fj, (*stiffness)(i, j));
                  if (geometric)
                    ops->geometric_stiffness.add(fi, fj, (*geometric)(i, j));
                }
              else if (ri >= 0)
                {
                  if (stiffness)
                    ops->reactions[ri].row_stiffness(fj) += (*stiffness)(i, j);
                  if (geometric)
                    ops->reactions[ri].row_geometric(fj) += (*geometric)(i, j);
                }
            }
        }
    };

    const std::function<double(double)> axial =
      model->has_prestress ?
        std::function<double(double)>(
          [&](double x) { return model->axial_force->value(Point<1>(x)); }) :
        std::function<double(double)>();
    const std::function<double(double)> q =
      model->has_distributed_load ?
        std::function<double(double)>([&](double x) {
          return model->distributed_load->value(Point<1>(x));
        }) :
        std::function<double(double)>();

    for (const auto &electrode : model->electrodes)
      {
        Operators::Electrode operators;
        operators.name = electrode.name;
        operators.coupling.reinit(n_free);
        ops->electrodes.push_back(operators);
      }

    // the round-off scale of an element uses the beam's mean mass per length,
    // so that a stiff, light segment is not taken for a fine mesh
    double mean_rhoA = 0;
    for (const auto &s : model->segments)
      mean_rhoA += s.section.mass_per_length * (s.x_end - s.x_start) / model->length();
    C1BeamElement::LocalOperators local;
    for (unsigned int e = 0; e < n_elements; ++e)
      {
        const double   h       = nodes[e + 1] - nodes[e];
        const Segment &segment = model->segment_at((nodes[e] + nodes[e + 1]) / 2);
        const double   EI      = segment.section.bending_stiffness;
        const double   rhoA    = segment.section.mass_per_length;
        element->local_operators(nodes[e],
                                 h,
                                 slope_scale[e],
                                 slope_scale[e + 1],
                                 EI,
                                 rhoA,
                                 axial,
                                 q,
                                 local);
        scatter(full_dofs(e), &local.mass, &local.stiffness, &local.geometric, &local.load);
        add_electrodes(e, segment, local.curvature, reaction_of, *ops);
        const double h_eff = h * 3. / degree;
        ops->stiffness_scale = std::max(ops->stiffness_scale, EI / (rhoA * std::pow(h_eff, 4)));
        ops->stiffness_scales.push_back(
          {nodes[e], nodes[e + 1], EI / (mean_rhoA * std::pow(h_eff, 4))});
      }

    // Point contributions: a 2x2 operator on (w, w') at a vertex, expressed
    // in the element's unknowns through the shape functions.
    const auto add_point = [&](double x,
                               double translational_mass,
                               double rotary_mass,
                               double translational_spring,
                               double rotational_spring,
                               double force,
                               double moment) {
      const unsigned int e  = find_element(x);
      const double       h  = nodes[e + 1] - nodes[e];
      const double       xi = std::clamp((x - nodes[e]) / h, 0., 1.);
      Vector<double>     N, dN, d2N;
      element->shape(xi, h, slope_scale[e], slope_scale[e + 1], N, dN, d2N);
      const unsigned int n = N.size();
      FullMatrix<double> mass(n, n), stiffness(n, n);
      Vector<double>     load(n);
      for (unsigned int i = 0; i < n; ++i)
        {
          load(i) = force * N[i] + moment * dN[i];
          for (unsigned int j = 0; j < n; ++j)
            {
              mass(i, j) =
                translational_mass * N[i] * N[j] + rotary_mass * dN[i] * dN[j];
              stiffness(i, j) = translational_spring * N[i] * N[j] +
                                rotational_spring * dN[i] * dN[j];
            }
        }
      scatter(full_dofs(e), &mass, &stiffness, nullptr, &load);
    };
    for (const auto &m : model->point_masses)
      add_point(m.position, m.mass, m.rotary_inertia, 0, 0, 0, 0);
    for (const auto &s : model->supports)
      if (s.translational_stiffness > 0 || s.rotational_stiffness > 0)
        add_point(s.position,
                  0,
                  0,
                  s.translational_stiffness,
                  s.rotational_stiffness,
                  0,
                  0);
    for (const auto &p : model->point_loads)
      add_point(p.position, 0, 0, 0, 0, p.force, p.moment);

    // a reaction conjugate to a scaled slope s w' is a moment divided by s
    for (auto &r : ops->reactions)
      if (r.component == "moment")
        {
          const unsigned int node = std::distance(
            nodes.begin(), std::find(nodes.begin(), nodes.end(), r.position));
          r.row_stiffness *= slope_scale[node];
          r.row_geometric *= slope_scale[node];
          r.load *= slope_scale[node];
          for (double &c : r.electrode_coupling)
            c *= slope_scale[node];
        }
    return ops;
  }

  void
  FiniteElements::add_electrodes(unsigned int            e,
                                 const Segment          &segment,
                                 const Vector<double>   &curvature,
                                 const std::vector<int> &reaction_of,
                                 Operators              &ops) const
  {
    const double middle = (nodes[e] + nodes[e + 1]) / 2;
    const double h      = nodes[e + 1] - nodes[e];
    const auto   dofs   = full_dofs(e);
    for (unsigned int k = 0; k < model->electrodes.size(); ++k)
      {
        const Electrode &electrode = model->electrodes[k];
        if (middle < electrode.x_start || middle > electrode.x_end)
          continue;
        const ElectrodeTerms terms = electrode_terms(electrode, segment);
        for (unsigned int j = 0; j < dofs.size(); ++j)
          if (free_index[dofs[j]] >= 0)
            ops.electrodes[k].coupling(free_index[dofs[j]]) +=
              terms.coupling_per_curvature * curvature(j);
          else if (reaction_of[dofs[j]] >= 0)
            ops.reactions[reaction_of[dofs[j]]].electrode_coupling[k] +=
              terms.coupling_per_curvature * curvature(j);
        ops.electrodes[k].capacitance += terms.capacitance_per_length * h;
      }
  }

  void
  FiniteElements::assemble_geometric_stiffness(const std::function<double(double)> &axial_force,
                                               SparseMatrix<double>                &matrix) const
  {
    const std::function<double(double)> none;
    C1BeamElement::LocalOperators       local;
    matrix = 0;
    for (unsigned int e = 0; e + 1 < nodes.size(); ++e)
      {
        const double h = nodes[e + 1] - nodes[e];
        element->local_operators(nodes[e], h, slope_scale[e], slope_scale[e + 1], 0., 0., axial_force, none, local);
        const auto dofs = full_dofs(e);
        for (unsigned int i = 0; i < dofs.size(); ++i)
          for (unsigned int j = 0; j < dofs.size(); ++j)
            if (free_index[dofs[i]] >= 0 && free_index[dofs[j]] >= 0)
              matrix.add(free_index[dofs[i]], free_index[dofs[j]], local.geometric(i, j));
      }
  }

  void
  FiniteElements::evaluate(const Vector<double> &u,
                           double                x,
                           double               &w,
                           double               &slope,
                           double               &curvature) const
  {
    const unsigned int e  = find_element(x);
    const double       h  = nodes[e + 1] - nodes[e];
    const double       xi = std::clamp((x - nodes[e]) / h, 0., 1.);
    Vector<double>     N, dN, d2N;
    element->shape(xi, h, slope_scale[e], slope_scale[e + 1], N, dN, d2N);
    w = slope = curvature = 0;
    const auto dofs       = full_dofs(e);
    for (unsigned int i = 0; i < dofs.size(); ++i)
      {
        const int f = free_index[dofs[i]];
        if (f < 0)
          continue;
        w += u(f) * N[i];
        slope += u(f) * dN[i];
        curvature += u(f) * d2N[i];
      }
  }

  std::vector<double>
  FiniteElements::sample_points(unsigned int per_element) const
  {
    std::vector<double> points{nodes.front()};
    for (unsigned int e = 0; e + 1 < nodes.size(); ++e)
      for (unsigned int i = 1; i <= per_element; ++i)
        points.push_back(i == per_element ?
                           nodes[e + 1] :
                           nodes[e] + (nodes[e + 1] - nodes[e]) * i / per_element);
    return points;
  }

  std::string
  FiniteElements::description() const
  {
    std::ostringstream s;
    s << nodes.size() - 1 << " C1 elements of degree " << degree << ", "
      << n_free << " unknowns";
    return s.str();
  }
HAMILTON_REGISTER_PLUGIN(Discretization,
                         FiniteElements,
                         "finite elements",
                         "C1 finite elements of degree p >= 3 (Hermite cubic "
                         "plus hierarchical bubbles), subsection 'Finite "
                         "elements'.")
} // namespace hamilton
