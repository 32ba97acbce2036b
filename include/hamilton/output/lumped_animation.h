#ifndef hamilton_output_lumped_animation_h
#define hamilton_output_lumped_animation_h

#include <hamilton/output/writer.h>

namespace hamilton
{
  /**
   * The ParaView animation of a lumped run with 'Lumped system/Animation/Frame
   * interval' > 0: a frame (animation/frame_NNNNN.vtp) taken from the rows
   * every frame interval while it integrates, and animation.pvd at the end
   * (lumped::Animation). results.json's "lumped"/"animation" says how many
   * frames and how long their writing took.
   */
  class LumpedAnimationWriter : public Writer
  {
  public:
    std::unique_ptr<RowSink>
    open_rows(const AnalysisResult &result, const Destination &destination) const override;
  };
} // namespace hamilton

#endif
