#ifndef hamilton_rom_reduced_model_h
#define hamilton_rom_reduced_model_h

#include <hamilton/analyses/analysis.h>
#include <hamilton/base/rom_file.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace hamilton
{
  /**
   * Reduce a problem to its n lowest short-circuit modes plus, for
   * correction_order k > 0, the correction vectors (K^-1 M)^(j-1) K^-1 f,
   * j = 1..k, of each load f that drives the ROM (base translation M r, the
   * coupling of each electrode, the model's static load): order 1 is the
   * static correction, higher orders add the inertia of the truncated
   * modes. Re-orthogonalized by a Rayleigh-Ritz step on the span, so that
   * the kept modes are exactly those of the full model.
   */
  ReducedModel
  reduce(const Problem                                     &problem,
         unsigned int                                       n_modes,
         unsigned int                                       correction_order,
         const std::vector<std::pair<std::string, double>> &output_points,
         bool                                               include_prestress = true);
} // namespace hamilton

#endif
