#include <hamilton/elements/c1_beam_element.h>

#include <deal.II/base/exceptions.h>

namespace hamilton
{
  using namespace dealii;

  C1BeamElement::C1BeamElement(unsigned int degree)
    : p(degree)
    , quadrature(degree + 3)
  {
    AssertThrow(degree >= 3, ExcMessage("C1BeamElement needs degree >= 3."));
    for (unsigned int j = 2; j + 2 <= degree; ++j)
      bubbles.push_back(
        Polynomials::Legendre(j).primitive().primitive());
    reference.resize(quadrature.size());
    for (unsigned int q = 0; q < quadrature.size(); ++q)
      reference_shape(quadrature.point(q)[0], reference[q]);
  }

  void
  C1BeamElement::reference_shape(double                              xi,
                                 std::array<std::vector<double>, 3> &out) const
  {
    for (auto &v : out)
      v.assign(n_dofs(), 0.);
    const double x2 = xi * xi, x3 = x2 * xi;
    out[0][0] = 1 - 3 * x2 + 2 * x3;
    out[1][0] = -6 * xi + 6 * x2;
    out[2][0] = -6 + 12 * xi;
    out[0][1] = xi - 2 * x2 + x3;
    out[1][1] = 1 - 4 * xi + 3 * x2;
    out[2][1] = -4 + 6 * xi;
    out[0][2] = 3 * x2 - 2 * x3;
    out[1][2] = 6 * xi - 6 * x2;
    out[2][2] = 6 - 12 * xi;
    out[0][3] = -x2 + x3;
    out[1][3] = -2 * xi + 3 * x2;
    out[2][3] = -2 + 6 * xi;
    std::vector<double> values(3);
    for (unsigned int b = 0; b < bubbles.size(); ++b)
      {
        bubbles[b].value(xi, values);
        for (unsigned int d = 0; d < 3; ++d)
          out[d][4 + b] = values[d];
      }
  }

  namespace
  {
    // Map reference derivatives (d/dxi) to physical ones (d/dx) and apply the
    // slope scaling of the two nodal slope unknowns.
    void
    to_physical(const std::array<std::vector<double>, 3> &ref,
                double                                    h,
                double                                    s0,
                double                                    s1,
                Vector<double>                           &value,
                Vector<double>                           &first,
                Vector<double>                           &second)
    {
      const unsigned int n = ref[0].size();
      value.reinit(n, true);
      first.reinit(n, true);
      second.reinit(n, true);
      for (unsigned int i = 0; i < n; ++i)
        {
          const double scale = (i == 1) ? h / s0 : (i == 3) ? h / s1 : 1.;
          value[i]           = scale * ref[0][i];
          first[i]           = scale * ref[1][i] / h;
          second[i]          = scale * ref[2][i] / (h * h);
        }
    }
  } // namespace

  void
  C1BeamElement::shape(double          xi,
                       double          h,
                       double          s0,
                       double          s1,
                       Vector<double> &value,
                       Vector<double> &first,
                       Vector<double> &second) const
  {
    std::array<std::vector<double>, 3> ref;
    reference_shape(xi, ref);
    to_physical(ref, h, s0, s1, value, first, second);
  }

  void
  C1BeamElement::local_operators(
    double                               x0,
    double                               h,
    double                               s0,
    double                               s1,
    double                               EI,
    double                               rhoA,
    const std::function<double(double)> &axial_force,
    const std::function<double(double)> &load,
    LocalOperators                      &out) const
  {
    const unsigned int n = n_dofs();
    out.mass.reinit(n, n);
    out.stiffness.reinit(n, n);
    out.geometric.reinit(n, n);
    out.load.reinit(n);
    out.curvature.reinit(n);
    Vector<double> N, dN, d2N;
    for (unsigned int q = 0; q < quadrature.size(); ++q)
      {
        to_physical(reference[q], h, s0, s1, N, dN, d2N);
        const double xi = quadrature.point(q)[0];
        const double JxW = quadrature.weight(q) * h;
        const double x   = x0 + xi * h;
        const double N0  = axial_force ? axial_force(x) : 0.;
        const double f   = load ? load(x) : 0.;
        for (unsigned int i = 0; i < n; ++i)
          {
            for (unsigned int j = 0; j < n; ++j)
              {
                out.mass(i, j) += rhoA * N[i] * N[j] * JxW;
                out.stiffness(i, j) += EI * d2N[i] * d2N[j] * JxW;
                out.geometric(i, j) += N0 * dN[i] * dN[j] * JxW;
              }
            out.load(i) += f * N[i] * JxW;
            out.curvature(i) += d2N[i] * JxW;
          }
      }
  }
} // namespace hamilton
