#include "test_helpers.h"

#include <hamilton/run.h>

#include <cmath>
#include <fstream>

namespace hamilton::testing
{
  using namespace dealii;

  BeamModel
  uniform_beam(double L, double EI, double rhoA, SupportCondition left, SupportCondition right)
  {
    BeamModel model;
    Layer     layer;
    layer.name                    = "layer";
    layer.material.name           = "material";
    // b = 1, h = 1e-3 L: EI = E h^3/12, rhoA = rho h; a slender beam, so
    // that no mode of interest is flagged as beyond Euler-Bernoulli theory
    // (the modal analysis warns below 10 thicknesses per bending wavelength)
    const double h                = 1e-3 * L;
    layer.material.youngs_modulus = 12 * EI / (h * h * h);
    layer.material.density        = rhoA / h;
    layer.thickness               = h;
    layer.width                   = 1;
    Segment segment;
    segment.name    = "beam";
    segment.x_start = 0;
    segment.x_end   = L;
    segment.section = CrossSection({layer});
    model.segments.push_back(segment);
    model.supports.push_back({"left end", 0., left, 0., 0.});
    model.supports.push_back({"right end", L, right, 0., 0.});
    model.axial_force      = std::make_shared<Functions::ConstantFunction<1>>(0.);
    model.distributed_load = std::make_shared<Functions::ConstantFunction<1>>(0.);
    return model;
  }

  void
  set_axial_force(BeamModel &model, double N0)
  {
    model.axial_force   = std::make_shared<Functions::ConstantFunction<1>>(N0);
    model.has_prestress = (N0 != 0);
  }

  std::unique_ptr<Solved>
  discretize(const BeamModel &model, unsigned int n_elements, unsigned int degree)
  {
    auto solved = std::make_unique<Solved>();
    solved->discretization.set(n_elements, degree);
    solved->discretization.setup(model);
    solved->operators = solved->discretization.assemble();
    return solved;
  }

  std::unique_ptr<ModalResult>
  modes(const BeamModel   &model,
        unsigned int       n_elements,
        unsigned int       degree,
        unsigned int       n_modes,
        EigensolverBackend backend)
  {
    const auto   solved = discretize(model, n_elements, degree);
    ModalOptions options;
    options.n_modes             = n_modes;
    options.backend             = backend;
    options.samples_per_element = 0;
    return compute_modes(solved->problem(model), options);
  }

  double
  bisect(const std::function<double(double)> &f, double a, double b)
  {
    double fa = f(a);
    for (int i = 0; i < 200 && b - a > 1e-15 * std::abs(a + b); ++i)
      {
        const double m  = (a + b) / 2;
        const double fm = f(m);
        if ((fm < 0) == (fa < 0))
          {
            a  = m;
            fa = fm;
          }
        else
          b = m;
      }
    return (a + b) / 2;
  }

  std::vector<double>
  roots(const std::function<double(double)> &f, double a, double b, unsigned int n)
  {
    std::vector<double> result;
    double              x0 = a, f0 = f(a);
    for (unsigned int i = 1; i <= n; ++i)
      {
        const double x1 = a + (b - a) * i / n, f1 = f(x1);
        if ((f0 < 0) != (f1 < 0))
          result.push_back(bisect(f, x0, x1));
        x0 = x1;
        f0 = f1;
      }
    return result;
  }

  std::unique_ptr<Loaded>
  load(const std::string                                      &source_file,
       const std::vector<std::pair<std::string, std::string>> &changes)
  {
    return load_beam(std::string(HAMILTON_SOURCE_DIR) + "/" + source_file, changes);
  }

  std::string
  write_file(const std::string &name, const std::string &text)
  {
    std::ofstream out(name);
    out << text;
    return name;
  }
} // namespace hamilton::testing
