#ifndef hamilton_benchmarks_unit_cantilever_h
#define hamilton_benchmarks_unit_cantilever_h

#include <hamilton/beam/beam_model.h>

namespace hamilton::benchmarks
{
  /** Clamped-free beam with EI = rhoA = L = 1 (omega_n = (beta_n L)^2). */
  inline BeamModel
  unit_cantilever()
  {
    BeamModel model;
    Layer     layer;
    layer.material  = {"unit", 12., 1.};
    layer.thickness = layer.width = 1.;
    model.segments.push_back({"beam", 0., 1., CrossSection({layer})});
    model.supports.push_back({"left end", 0., SupportCondition::clamped, 0., 0.});
    model.supports.push_back({"right end", 1., SupportCondition::free, 0., 0.});
    return model;
  }

  /** (beta_n L) of the clamped-free beam, Case 4a. */
  constexpr double cantilever_beta[6] = {1.87510406871196, 4.69409113297417,
                                         7.85475743823761, 10.9955407348755,
                                         14.1371683910465, 17.2787595320882};
} // namespace hamilton::benchmarks

#endif
