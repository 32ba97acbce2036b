// Plausibility of a beam's geometry (see BeamModel::plausibility_warnings).

#include <hamilton/base/format.h>
#include <hamilton/beam/beam_model.h>

#include <algorithm>

namespace hamilton
{
  std::vector<std::string>
  BeamModel::plausibility_warnings() const
  {
    // Euler-Bernoulli theory: slender beams (its shear and rotary-inertia
    // corrections of the first frequency grow as (h/L)^2, a few per cent at
    // L/h = 10); sizes beyond these come from millimetres read as metres
    const double smallest_slenderness = 10, longest = 10, thickest = 0.1, widest = 1;
    std::vector<std::string> warnings;
    if (segments.empty())
      return warnings;
    const Segment *thick = &segments.front();
    double         width = 0;
    for (const auto &segment : segments)
      {
        if (segment.section.thickness > thick->section.thickness)
          thick = &segment;
        for (const auto &layer : segment.section.layers)
          width = std::max(width, layer.width);
      }
    const double L = length(), h = thick->section.thickness;
    const std::string sizes = "length " + format_significant(L) + " m, segment '" + thick->name + "' " +
                              format_significant(h) + " m thick";
    const std::string metres =
      "Every size is in metres: a 0.4 mm layer is 'Thickness = 0.4e-3', a 100 mm beam 'Length = 0.1'.";
    if (L / h < smallest_slenderness)
      warnings.push_back("the beam is not slender: length/thickness = " + format_significant(L / h, 3) + " (" +
                         sizes + "), below the " + format_significant(smallest_slenderness) +
                         " Euler-Bernoulli theory needs. Shear deformation and rotary inertia, which it neglects, "
                         "make its frequencies too high and its deflections too small. " + metres +
                         " A thick body needs a continuum model ('Continuum/Mesh').");
    if (L > longest || h > thickest || width > widest)
      warnings.push_back("the sizes look like millimetres: " + sizes + ", widest layer " + format_significant(width) +
                         " m (beyond a length of " + format_significant(longest) + " m, a thickness of " +
                         format_significant(thickest) + " m or a width of " + format_significant(widest) +
                         " m). " + metres);
    return warnings;
  }
} // namespace hamilton
