#ifndef hamilton_tests_test_helpers_h
#define hamilton_tests_test_helpers_h

#include <hamilton/analyses/modal.h>
#include <hamilton/beam/beam_model.h>
#include <hamilton/discretization/finite_elements.h>
#include <hamilton/run.h>

#include <functional>
#include <memory>
#include <string>

namespace hamilton::testing
{
  /**
   * A uniform beam of length L with bending stiffness EI and mass per length
   * rhoA (one layer of unit width and thickness), given end conditions.
   */
  BeamModel
  uniform_beam(double           L,
               double           EI,
               double           rhoA,
               SupportCondition left,
               SupportCondition right);

  /** Constant axial force N0 (N) on the model. */
  void
  set_axial_force(BeamModel &model, double N0);

  /** A discretized model with its operators, kept together. */
  struct Solved
  {
    FiniteElements             discretization;
    std::unique_ptr<Operators> operators;
    Problem                    problem(const BeamModel &model) const
    {
      return {model, discretization, *operators};
    }
  };

  std::unique_ptr<Solved>
  discretize(const BeamModel &model, unsigned int n_elements, unsigned int degree);

  /** Modes of the model (n modes, given eigensolver). */
  std::unique_ptr<ModalResult>
  modes(const BeamModel   &model,
        unsigned int       n_elements,
        unsigned int       degree,
        unsigned int       n_modes,
        EigensolverBackend backend = EigensolverBackend::dense);

  /** A root of f in [a, b] by bisection (f(a) f(b) < 0), to machine precision. */
  double
  bisect(const std::function<double(double)> &f, double a, double b);

  /** All roots of f in (a, b) found by scanning n intervals then bisection. */
  std::vector<double>
  roots(const std::function<double(double)> &f, double a, double b, unsigned int n);

  /** A model read from a parameter file (path relative to the source tree). */
  using Loaded = LoadedBeam;
  std::unique_ptr<Loaded>
  load(const std::string                                      &source_file,
       const std::vector<std::pair<std::string, std::string>> &changes = {});

  /** Write `text` to a fresh file in the test's working directory. */
  std::string
  write_file(const std::string &name, const std::string &text);
} // namespace hamilton::testing

#endif
