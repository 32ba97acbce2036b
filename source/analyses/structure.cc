#include <hamilton/analyses/frequency_response.h>
#include <hamilton/analyses/modal.h>
#include <hamilton/analyses/structure.h>
#include <hamilton/base/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace hamilton
{
  using namespace dealii;

  Structure::DirectResponse
  Structure::direct_response(double,
                             const SpectralModel::Excitation &,
                             const std::vector<SpectralModel::Circuit> &,
                             const std::vector<OutputPoint> &) const
  {
    AssertThrow(false, ExcMessage("direct_response() is only for reduced structures"));
    return {};
  }

  namespace
  {
    /** A beam: its complete modal basis is exact for the discretization. */
    class BeamStructure : public Structure
    {
    public:
      explicit BeamStructure(const Problem &problem)
        : problem(problem)
      {}

      std::string
      noun() const override
      {
        return "beam";
      }

      std::string
      electrodes_path() const override
      {
        return "Beam/Electrodes";
      }

      std::vector<ElectricalPort>
      ports() const override
      {
        std::vector<ElectricalPort> result;
        for (const auto &e : problem.model.electrodes)
          result.push_back(port_of(e));
        return result;
      }

      void
      check_modes(const unsigned int n_modes, const std::string &path) const override
      {
        check_number_of_modes(n_modes, problem, path);
        if (n_modes == 0)
          require_full_modal_basis(problem, path);
      }

      unsigned int
      n_coordinates(const unsigned int n_modes) const override
      {
        return n_modes == 0 ? problem.discretization.n_dofs() : n_modes;
      }

      SpectralModel
      spectral_model(const unsigned int n_modes, const bool include_prestress) const override
      {
        return SpectralModel(problem, n_modes, include_prestress);
      }

      OutputPoint
      resolve(const OutputPoint &point, const std::string &path, const std::string &entry) const override
      {
        if (!point.has_position())
          input_error(path, entry, "'" + point.name + "'",
                      "is a name without a position; a beam's points are 'name: x' or x (m), e.g. 'tip: " +
                        format_number(problem.model.length()) + "'.");
        return {point.name, points_on_beam({{point.name, point.x}}, problem.model, path, entry)[0].second};
      }

      OutputPoint
      default_point(const std::string &, const std::string &) const override
      {
        return {"end", problem.model.length()};
      }

      std::vector<std::string>
      warnings() const override
      {
        return problem.model.electrode_warnings();
      }

      bool
      coupling_cancels(const std::string &name) const override
      {
        return problem.model.coupling_cancels(name);
      }

      std::optional<std::pair<double, double>>
      first_mode_frequencies(const unsigned int port) const override
      {
        // the exact open-circuit frequency (condensed electrode, as in the
        // modal analysis), not the modal-basis eigenvalues, which lose it to
        // round-off when the model's highest modes are many orders of
        // magnitude above it
        ModalOptions options;
        options.n_modes             = 1;
        options.samples_per_element = 0;
        const auto modal            = compute_modes(problem, options);
        return std::make_pair(modal->modes[0].frequency_hz, modal->modes[0].electrodes[port].frequency_open_circuit_hz);
      }

    private:
      const Problem problem;
    };
  } // namespace

  std::unique_ptr<Structure>
  beam_structure(const Problem &problem)
  {
    return std::make_unique<BeamStructure>(problem);
  }

  void
  StructureAnalysis::check(const Problem &problem) const
  {
    check_on(*beam_structure(problem));
  }

  std::unique_ptr<AnalysisResult>
  StructureAnalysis::run(const Problem &problem) const
  {
    return run_on(*beam_structure(problem));
  }

  namespace
  {
    /** One point of entry `entry`: 'name: x', 'x' or a name. */
    OutputPoint
    point_from_text(const Section &s, const std::string &entry, const std::string &item)
    {
      const auto  colon = item.find(':');
      OutputPoint point;
      point.name = colon == std::string::npos ? item : Utilities::trim(item.substr(0, colon));
      const std::string number = Utilities::trim(colon == std::string::npos ? item : item.substr(colon + 1));
      try
        {
          std::size_t used = 0;
          point.x          = std::stod(number, &used);
          if (used != number.size())
            throw std::invalid_argument(number);
        }
      catch (const std::exception &)
        {
          if (colon != std::string::npos)
            s.fail(entry, "'" + item + "' is not 'name: position' (m), a position or a name.");
          const bool identifier =
            !point.name.empty() && !std::isdigit(static_cast<unsigned char>(point.name[0])) &&
            std::all_of(point.name.begin(), point.name.end(),
                        [](const char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
          if (!identifier)
            s.fail(entry, "'" + item +
                            "' is neither a position (m) nor a name of letters, digits and '_' (a continuum's "
                            "output point).");
          point.x = std::numeric_limits<double>::quiet_NaN(); // a named point
          return point;
        }
      if (!std::isfinite(point.x) || point.x < 0)
        s.fail(entry, "the point '" + item + "' lies outside the beam (x must be >= 0 m).");
      return point;
    }
  } // namespace

  std::optional<OutputPoint>
  parse_point(Section &s, const std::string &entry)
  {
    const std::string item = Utilities::trim(s.get(entry));
    if (item.empty())
      return {};
    return point_from_text(s, entry, item);
  }

  std::vector<OutputPoint>
  parse_points(Section &s, const std::string &entry)
  {
    std::vector<OutputPoint> points;
    for (const auto &item : split_list(s.get(entry)))
      points.push_back(point_from_text(s, entry, item));
    return points;
  }
} // namespace hamilton
