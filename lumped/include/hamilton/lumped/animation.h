#ifndef hamilton_lumped_animation_h
#define hamilton_lumped_animation_h

#include <hamilton/lumped/canonical.h>
#include <hamilton/lumped/simulation.h>
#include <hamilton/lumped/system.h>

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace hamilton::lumped
{
  /**
   * The ParaView animation of a lumped run: the System's drawing (polylines
   * of the components and of 'Animation/Polylines') evaluated at the CSV
   * rows every frame interval, one VTK PolyData file per frame
   * (animation/frame_NNNNN.vtp, cell data 'part') and the time series
   * animation.pvd. The points are interpreted in canonical form (no C compiler).
   */
  class Animation
  {
  public:
    Animation(const System &system, const std::string &directory, double frame_interval);

    /** A CSV row [t, q, ...]: writes a frame when one is due. */
    void
    add(const std::vector<double> &row);

    /** Write animation.pvd; what results.json says about it. */
    nlohmann::json
    finish() const;

  private:
    const System                              &system;
    std::string                                directory;
    double                                     interval, next_time = 0;
    double                                     seconds = 0; ///< spent writing frames
    std::unique_ptr<CanonicalLists>            points;
    std::vector<double>                        arguments, values;
    std::vector<std::pair<double, std::string>> frames;
  };
} // namespace hamilton::lumped

#endif
