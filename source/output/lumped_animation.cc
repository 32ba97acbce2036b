#include <hamilton/analyses/lumped_result.h>
#include <hamilton/base/format.h>
#include <hamilton/lumped/animation.h>
#include <hamilton/lumped/lumped_run.h>
#include <hamilton/output/lumped_animation.h>

#include <memory>

namespace hamilton
{
  namespace
  {
    class AnimationSink : public RowSink
    {
    public:
      AnimationSink(const lumped::LumpedRun &run, const std::string &directory)
        : run(run)
        , directory(directory)
      {}

      void
      begin(const std::vector<std::string> &, const std::vector<ColumnDescription> &) override
      {
        animation = std::make_unique<lumped::Animation>(run.system, directory, run.frame_interval);
      }

      void
      row(const std::vector<double> &values) override
      {
        animation->add(values);
      }

      nlohmann::json
      end(std::ostream &out) override
      {
        if (!animation)
          return nullptr;
        nlohmann::json summary = animation->finish();
        out << "  animation: " << summary["frames"].get<unsigned int>() << " frames in animation.pvd (written in "
            << format_seconds(summary["writing_s"].get<double>()) << ", included in the integration time)\n";
        return summary;
      }

      std::string
      name() const override
      {
        return "animation";
      }

    private:
      const lumped::LumpedRun           &run;
      std::string                        directory;
      std::unique_ptr<lumped::Animation> animation; ///< made by begin()
    };
  } // namespace

  std::unique_ptr<RowSink>
  LumpedAnimationWriter::open_rows(const AnalysisResult &result, const Destination &destination) const
  {
    const auto *lumped = dynamic_cast<const LumpedResult *>(&result);
    if (lumped == nullptr || lumped->run == nullptr || !(lumped->run->frame_interval > 0) || destination.scratch)
      return nullptr;
    return std::make_unique<AnimationSink>(*lumped->run, destination.directory);
  }

  HAMILTON_REGISTER_WRITER(LumpedAnimationWriter, "lumped animation",
                           "the ParaView animation of a lumped run (frames taken while it integrates, animation.pvd).")
} // namespace hamilton
