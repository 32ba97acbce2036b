#include <hamilton/beam/beam_model.h>

#include <deal.II/base/utilities.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>

namespace hamilton
{
  using namespace dealii;

  namespace
  {
    std::vector<std::string>
    names_from(const ParameterHandler         *first_pass,
               const std::vector<std::string> &path)
    {
      if (first_pass == nullptr)
        return {};
      return split_list(first_pass->get(path, "Names"));
    }

    std::string
    format(double value)
    {
      return format_number(value);
    }

    // A position on the beam, 0 <= x <= L (m), from entry `entry`, snapped
    // onto the beam's end points and joints within the position tolerance.
    double
    get_position(const Section &s, const std::string &entry, const BeamModel &model)
    {
      const double x = s.get_double(entry);
      if (!model.on_beam(x))
        s.fail(entry,
               "lies outside the beam, which spans 0 <= x <= " +
                 format(model.length()) + " m. Give a position on the beam.");
      return model.snap(x);
    }

    // Refuse a function of x that is not finite somewhere on the beam: at the
    // ends, the joints and 256 points along it (a singular prestress 1/x at
    // the root, a load 'nan').
    void
    check_finite_on_beam(const Section &s, const std::string &entry, const Function<1> &f, const BeamModel &model)
    {
      std::vector<double> xs{0., model.length()};
      for (const auto &segment : model.segments)
        xs.push_back(segment.x_end);
      for (unsigned int i = 1; i < 256; ++i)
        xs.push_back(model.length() * i / 256.);
      for (const double x : xs)
        {
          const double value = f.value(Point<1>(x));
          if (!std::isfinite(value))
            s.fail(entry, "is " + format(value) + " at x = " + format(x) +
                            " m, not a finite number. Give an expression that is finite on the whole beam, "
                            "0 <= x <= " + format(model.length()) + " m.");
        }
    }

    // True if a user expression is the constant zero, so that an analysis can
    // skip an operator or report that a required input is missing.
    bool
    is_zero_expression(const std::string &expression)
    {
      const std::string e = Utilities::trim(expression);
      return e == "0" || e == "0.0" || e == "0." || e.empty();
    }

    /**
     * The function of x of an entry, checked finite on the beam; the entry's
     * default 0 without the expression parser (a sweep or study reads the
     * entry again at every point).
     */
    std::shared_ptr<Function<1>>
    function_of_x(Section &s, const std::string &entry, const BeamModel &model)
    {
      if (is_zero_expression(s.get(entry)))
        return std::make_shared<Functions::ZeroFunction<1>>();
      const auto f = s.get_function_of_x(entry);
      check_finite_on_beam(s, entry, *f, model);
      return f;
    }
  } // namespace

  std::string
  format_number(double value)
  {
    std::ostringstream s;
    for (int digits = 6; digits <= 17; ++digits)
      {
        s.str("");
        s << std::setprecision(digits) << value;
        if (!std::isfinite(value) || std::stod(s.str()) == value)
          break;
      }
    return s.str();
  }

  BeamPiezoConstants
  from_d_form(double d31, double s11E, double eps33T)
  {
    return {1. / s11E, d31 / s11E, eps33T - d31 * d31 / s11E};
  }

  CrossSection::CrossSection(const std::vector<Layer> &layers)
    : layers(layers)
  {
    // Neutral axis: sum E b h z_mid / sum E b h, measured from the bottom.
    double z = 0, EA = 0, ES = 0;
    for (const auto &layer : layers)
      {
        const double Eb = layer.material.youngs_modulus * layer.width;
        EA += Eb * layer.thickness;
        ES += Eb * layer.thickness * (z + layer.thickness / 2);
        mass_per_length +=
          layer.material.density * layer.width * layer.thickness;
        z += layer.thickness;
      }
    thickness    = z;
    neutral_axis = (EA > 0) ? ES / EA : 0;

    z = -neutral_axis;
    for (const auto &layer : layers)
      {
        const double bottom = z, top = z + layer.thickness;
        layer_bounds.emplace_back(bottom, top);
        bending_stiffness += layer.material.youngs_modulus * layer.width *
                             (top * top * top - bottom * bottom * bottom) / 3;
        z = top;
      }
  }

  ElectrodeTerms
  electrode_terms(const Electrode &electrode, const Segment &segment)
  {
    std::vector<unsigned int> in_stack;
    for (const auto &name : electrode.layers)
      for (unsigned int l = 0; l < segment.section.layers.size(); ++l)
        if (segment.section.layers[l].name == name)
          in_stack.push_back(l);
    ElectrodeTerms terms;
    for (unsigned int i = 0; i < in_stack.size(); ++i)
      {
        const unsigned int l     = in_stack[i];
        const Layer       &layer = segment.section.layers[l];
        const auto [bottom, top] = segment.section.layer_bounds[l];
        double a                 = 1.;
        if (electrode.connection == Connection::series)
          a = 0.5;
        else if (electrode.connection == Connection::parallel)
          // +V in the upper layer, -V in the lower one
          a = (segment.section.layer_bounds[in_stack[1 - i]].first > bottom) ? -1. : 1.;
        terms.coupling_per_curvature +=
          a * layer.poling * layer.material.e31 * layer.width * (bottom + top) / 2;
        terms.coupling_magnitude_per_curvature +=
          std::abs(a * layer.material.e31 * layer.width) * std::max(std::abs(bottom), std::abs(top));
        terms.capacitance_per_length +=
          a * a * layer.material.permittivity * layer.width / layer.thickness;
      }
    return terms;
  }

  SupportCondition
  support_condition_from_string(const std::string &name)
  {
    if (name == "clamped")
      return SupportCondition::clamped;
    if (name == "pinned")
      return SupportCondition::pinned;
    if (name == "guided")
      return SupportCondition::guided;
    return SupportCondition::free;
  }

  std::string
  to_string(SupportCondition condition)
  {
    switch (condition)
      {
        case SupportCondition::clamped:
          return "clamped";
        case SupportCondition::pinned:
          return "pinned";
        case SupportCondition::guided:
          return "guided";
        default:
          return "free";
      }
  }

  std::vector<std::vector<std::string>>
  BeamModel::named_lists()
  {
    return {{"Beam", "Materials"},
            {"Beam", "Layers"},
            {"Beam", "Segments"},
            {"Beam", "Supports"},
            {"Beam", "Point masses"},
            {"Beam", "Electrodes"},
            {"Loads", "Point loads"}};
  }

  void
  BeamModel::declare_parameters(ParameterHandler       &prm,
                                const ParameterHandler *first_pass)
  {
    const std::string conditions = "clamped|pinned|guided|free";

    prm.enter_subsection("Beam");
    {
      prm.enter_subsection("Materials");
      declare_named_list(
        prm,
        "Names of the elastic materials; each gets a subsection of that name.",
        names_from(first_pass, {"Beam", "Materials"}),
        [](ParameterHandler &p) {
          p.declare_entry("Young's modulus",
                          "0",
                          Patterns::Double(),
                          "Young's modulus E (Pa). For a piezoelectric layer "
                          "in bending of a narrow beam, 1/s11^E.");
          p.declare_entry("Density", "0", Patterns::Double(), "Density (kg/m^3).");
          p.declare_entry("Piezoelectric form",
                          "none",
                          Patterns::Selection("none|d-form|e-form"),
                          "'none' for an elastic material. 'd-form': give d31, "
                          "s11E and eps33T (converted once for the plane-stress "
                          "beam: c11 = 1/s11E, e31 = d31/s11E, eps33S = eps33T - "
                          "d31^2/s11E; 'Young's modulus' may be left 0). "
                          "'e-form': give e31 and eps33S of the beam directly "
                          "and 'Young's modulus' = c11^E.");
          p.declare_entry("d31", "0", Patterns::Double(), "Piezoelectric strain constant d31 (m/V), d-form.");
          p.declare_entry("s11E", "0", Patterns::Double(), "Compliance s11^E at constant field (1/Pa), d-form.");
          p.declare_entry("eps33T", "0", Patterns::Double(), "Permittivity eps33^T at constant stress (F/m), d-form.");
          p.declare_entry("e31", "0", Patterns::Double(), "Piezoelectric stress constant of the beam e31 (C/m^2), e-form.");
          p.declare_entry("eps33S", "0", Patterns::Double(), "Permittivity of the beam eps33^S (F/m), e-form.");
        });
      prm.leave_subsection();

      prm.enter_subsection("Layers");
      declare_named_list(
        prm,
        "Names of the layers; each gets a subsection of that name.",
        names_from(first_pass, {"Beam", "Layers"}),
        [](ParameterHandler &p) {
          p.declare_entry("Material",
                          "",
                          Patterns::Anything(),
                          "Name of a material from subsection Beam/Materials.");
          p.declare_entry("Thickness", "0", Patterns::Double(), "Thickness (m).");
          p.declare_entry("Width", "0", Patterns::Double(), "Width (m).");
          p.declare_entry("Poling",
                          "+z",
                          Patterns::Selection("+z|-z"),
                          "Poling direction of a piezoelectric layer.");
        });
      prm.leave_subsection();

      prm.enter_subsection("Segments");
      declare_named_list(
        prm,
        "Names of the segments, in order from x = 0 (the left end) to the "
        "right end; each gets a subsection of that name.",
        names_from(first_pass, {"Beam", "Segments"}),
        [](ParameterHandler &p) {
          p.declare_entry("Length", "0", Patterns::Double(), "Length of the segment (m).");
          p.declare_entry("Layers",
                          "",
                          Patterns::Anything(),
                          "Names of the layers of the cross-section, from "
                          "bottom to top, from subsection Beam/Layers.");
        });
      prm.leave_subsection();

      prm.enter_subsection("Supports");
      prm.declare_entry("Left end",
                        "clamped",
                        Patterns::Selection(conditions),
                        "Condition at x = 0.");
      prm.declare_entry("Right end",
                        "free",
                        Patterns::Selection(conditions),
                        "Condition at x = L.");
      declare_named_list(
        prm,
        "Names of further supports and springs anywhere on the beam; each "
        "gets a subsection of that name.",
        names_from(first_pass, {"Beam", "Supports"}),
        [&conditions](ParameterHandler &p) {
          p.declare_entry("Position", "0", Patterns::Double(), "x of the support (m).");
          p.declare_entry("Condition",
                          "free",
                          Patterns::Selection(conditions),
                          "Kinematic condition at the point.");
          p.declare_entry("Translational stiffness",
                          "0",
                          Patterns::Double(),
                          "Stiffness of a transverse spring to ground (N/m).");
          p.declare_entry("Rotational stiffness",
                          "0",
                          Patterns::Double(),
                          "Stiffness of a rotational spring to ground (N m/rad).");
        });
      prm.leave_subsection();

      prm.enter_subsection("Point masses");
      declare_named_list(prm,
                         "Names of rigid point masses (tip masses); each gets "
                         "a subsection of that name.",
                         names_from(first_pass, {"Beam", "Point masses"}),
                         [](ParameterHandler &p) {
                           p.declare_entry("Position", "0", Patterns::Double(), "x of the mass (m).");
                           p.declare_entry("Mass", "0", Patterns::Double(), "Mass (kg).");
                           p.declare_entry("Rotary inertia",
                                           "0",
                                           Patterns::Double(),
                                           "Rotary inertia about the "
                                           "width axis through the point (kg m^2).");
                         });
      prm.leave_subsection();

      prm.enter_subsection("Electrodes");
      declare_named_list(
        prm,
        "Names of electrodes; each gets a subsection of that name.",
        names_from(first_pass, {"Beam", "Electrodes"}),
        [](ParameterHandler &p) {
          p.declare_entry("Layers",
                          "",
                          Patterns::Anything(),
                          "The piezoelectric layer the electrode covers, or "
                          "the two layers of a bimorph.");
          p.declare_entry("Start", "0", Patterns::Double(), "x where the electrode begins (m).");
          p.declare_entry("End", "0", Patterns::Double(), "x where the electrode ends (m).");
          p.declare_entry("Connection",
                          "single",
                          Patterns::Selection("single|series|parallel"),
                          "'single' for one layer; for two layers 'series' "
                          "(outer electrodes, each layer sees V/2, layers "
                          "poled oppositely) or 'parallel' (centre electrode, "
                          "each layer sees V, layers poled alike).");
          p.declare_entry("Circuit",
                          "short circuit",
                          Patterns::Selection("short circuit|open circuit|voltage|resistor|series RL|parallel RL"),
                          "What is connected: 'short circuit' (V = 0), 'open "
                          "circuit' (no net charge), 'voltage' (V prescribed; "
                          "the amplitude in frequency responses), 'resistor' "
                          "(R), 'series RL' or 'parallel RL' (shunts). Static "
                          "analyses treat resistor and RL shunts as short "
                          "circuits (DC steady state). Modal analysis reports "
                          "both short and open circuit.");
          p.declare_entry("Voltage", "0", Patterns::Double(), "Prescribed voltage (V) for 'Circuit = voltage'.");
          p.declare_entry("Resistance", "0", Patterns::Double(), "Load or shunt resistance R (Ohm).");
          p.declare_entry("Inductance", "0", Patterns::Double(), "Shunt inductance L (H).");
        });
      prm.leave_subsection();

      prm.enter_subsection("Damping");
      prm.declare_entry("Model",
                        "modal",
                        Patterns::Selection("modal|rayleigh"),
                        "'modal': damping ratios of the short-circuit modes; "
                        "'rayleigh': D = alpha M + beta K.");
      prm.declare_entry("Modal damping ratios",
                        "0",
                        Patterns::Anything(),
                        "Damping ratios of modes 1, 2, ... (dimensionless); the "
                        "last one applies to all higher modes.");
      prm.declare_entry("Rayleigh alpha", "0", Patterns::Double(), "Mass-proportional coefficient alpha (1/s).");
      prm.declare_entry("Rayleigh beta", "0", Patterns::Double(), "Stiffness-proportional coefficient beta (s).");
      prm.leave_subsection();

      prm.enter_subsection("Prestress");
      prm.declare_entry("Axial force",
                        "0",
                        Patterns::Anything(),
                        "Axial force N0(x) (N), tension positive, as an "
                        "expression of x (m). It stiffens (tension) or softens "
                        "(compression) the beam through the geometric "
                        "stiffness; the buckling analysis uses it as the "
                        "reference load.");
      prm.leave_subsection();
    }
    prm.leave_subsection();

    prm.enter_subsection("Loads");
    {
      prm.declare_entry("Distributed load",
                        "0",
                        Patterns::Anything(),
                        "Transverse load per length q(x) (N/m), positive in "
                        "+w, as an expression of x (m).");
      prm.enter_subsection("Point loads");
      declare_named_list(prm,
                         "Names of point loads; each gets a subsection of that name.",
                         names_from(first_pass, {"Loads", "Point loads"}),
                         [](ParameterHandler &p) {
                           p.declare_entry("Position", "0", Patterns::Double(), "x of the load (m).");
                           p.declare_entry("Force", "0", Patterns::Double(), "Transverse force (N), positive in +w.");
                           p.declare_entry("Moment", "0", Patterns::Double(), "Moment (N m), positive turning +w'.");
                         });
      prm.leave_subsection();
    }
    prm.leave_subsection();
  }

  void
  BeamModel::parse_parameters(Section &s)
  {
    *this = BeamModel();
    {
      Section::Scope beam(s, "Beam");

      std::map<std::string, Material> materials;
      {
        Section::Scope scope(s, "Materials");
        for (const auto &name : s.get_names("Names"))
          {
            Section::Scope one(s, name);
            Material       m;
            m.name           = name;
            m.density        = s.get_positive("Density", "kg/m^3");
            const std::string form = s.get("Piezoelectric form");
            if (form == "d-form")
              {
                const double s11E = s.get_positive("s11E", "1/Pa");
                const double eps33T = s.get_positive("eps33T", "F/m");
                const BeamPiezoConstants c =
                  from_d_form(s.get_double("d31"), s11E, eps33T);
                const double E = s.get_double("Young's modulus");
                if (E != 0 && std::abs(E * s11E - 1) > 1e-6)
                  s.fail("Young's modulus",
                         "disagrees with 1/s11E = " + format(c.c11) +
                           " Pa from the d-form data. Leave it 0 (it is "
                           "computed) or make the two agree.");
                if (!(c.eps33 > 0))
                  s.fail("eps33T",
                         "gives eps33S = eps33T - d31^2/s11E = " +
                           format(c.eps33) +
                           " F/m, which must be positive. Check d31, s11E "
                           "and eps33T and their units.");
                m.youngs_modulus = c.c11;
                m.piezoelectric  = true;
                m.e31            = c.e31;
                m.permittivity   = c.eps33;
              }
            else
              {
                m.youngs_modulus = s.get_positive("Young's modulus", "Pa");
                if (form == "e-form")
                  {
                    m.piezoelectric = true;
                    m.e31           = s.get_double("e31");
                    m.permittivity  = s.get_positive("eps33S", "F/m");
                  }
              }
            materials[name]  = m;
          }
      }

      std::map<std::string, Layer> layers;
      {
        Section::Scope scope(s, "Layers");
        for (const auto &name : s.get_names("Names"))
          {
            Section::Scope one(s, name);
            Layer          layer;
            layer.name               = name;
            const std::string mname  = Utilities::trim(s.get("Material"));
            const auto        found  = materials.find(mname);
            if (found == materials.end())
              s.fail("Material",
                     "no material of that name is declared. Add it to "
                     "'Beam/Materials/Names' and give it a subsection.");
            layer.material  = found->second;
            layer.thickness = s.get_positive("Thickness", "m");
            layer.width     = s.get_positive("Width", "m");
            layer.poling    = (s.get("Poling") == "-z") ? -1 : 1;
            layers[name]    = layer;
          }
      }

      {
        Section::Scope scope(s, "Segments");
        const auto     names = s.get_names("Names");
        if (names.empty())
          s.fail("Names",
                 "a beam needs at least one segment. Name it here and give it "
                 "a subsection with 'Length' and 'Layers'.");
        double x = 0;
        for (const auto &name : names)
          {
            Section::Scope one(s, name);
            Segment        segment;
            segment.name    = name;
            segment.x_start = x;
            segment.x_end   = x + s.get_positive("Length", "m");
            x               = segment.x_end;
            std::vector<Layer> stack;
            const auto         layer_names = s.get_names("Layers");
            if (layer_names.empty())
              s.fail("Layers",
                     "a segment needs at least one layer. Give layer names "
                     "from 'Beam/Layers/Names', bottom to top.");
            for (const auto &lname : layer_names)
              {
                const auto found = layers.find(lname);
                if (found == layers.end())
                  s.fail("Layers",
                         "the layer '" + lname +
                           "' is not declared. Add it to 'Beam/Layers/Names' "
                           "and give it a subsection.");
                stack.push_back(found->second);
              }
            segment.section = CrossSection(stack);
            segments.push_back(segment);
          }
      }
      const double L = length();

      {
        Section::Scope scope(s, "Supports");
        supports.push_back({"left end",
                            0.,
                            support_condition_from_string(s.get("Left end")),
                            0.,
                            0.});
        supports.push_back({"right end",
                            L,
                            support_condition_from_string(s.get("Right end")),
                            0.,
                            0.});
        for (const auto &name : s.get_names("Names"))
          {
            Section::Scope one(s, name);
            Support        support;
            support.name     = name;
            support.position = get_position(s, "Position", *this);
            support.condition =
              support_condition_from_string(s.get("Condition"));
            support.translational_stiffness =
              s.get_non_negative("Translational stiffness", "N/m");
            support.rotational_stiffness =
              s.get_non_negative("Rotational stiffness", "N m/rad");
            supports.push_back(support);
          }
      }

      {
        Section::Scope scope(s, "Point masses");
        for (const auto &name : s.get_names("Names"))
          {
            Section::Scope one(s, name);
            PointMass      mass;
            mass.name     = name;
            mass.position = get_position(s, "Position", *this);
            mass.mass           = s.get_non_negative("Mass", "kg");
            mass.rotary_inertia = s.get_non_negative("Rotary inertia", "kg m^2");
            point_masses.push_back(mass);
          }
      }

      {
        Section::Scope scope(s, "Electrodes");
        for (const auto &name : s.get_names("Names"))
          {
            Section::Scope one(s, name);
            Electrode      e;
            e.name    = name;
            e.layers  = s.get_names("Layers");
            e.x_start = get_position(s, "Start", *this);
            e.x_end   = get_position(s, "End", *this);
            if (!(e.x_end > e.x_start + position_tolerance()))
              s.fail("End",
                     "must be larger than 'Start' (" + format(e.x_start) +
                       " m): an electrode covers x in [Start, End].");
            const std::string connection = s.get("Connection");
            e.connection = connection == "series"   ? Connection::series :
                           connection == "parallel" ? Connection::parallel :
                                                      Connection::single;
            const std::size_t wanted = (e.connection == Connection::single) ? 1 : 2;
            if (e.layers.size() != wanted)
              s.fail("Layers",
                     "names " + std::to_string(e.layers.size()) +
                       " layer(s), but 'Connection' = " + connection +
                       " needs " + std::to_string(wanted) +
                       ". Give one layer for 'single', two for 'series' or "
                       "'parallel'.");
            for (const auto &lname : e.layers)
              {
                const auto found = layers.find(lname);
                if (found == layers.end())
                  s.fail("Layers",
                         "the layer '" + lname +
                           "' is not declared in 'Beam/Layers'.");
                if (!found->second.material.piezoelectric)
                  s.fail("Layers",
                         "the layer '" + lname + "' is of material '" +
                           found->second.material.name +
                           "', which is not piezoelectric. Electrodes need a "
                           "material with 'Piezoelectric form' d-form or e-form.");
                for (const auto &segment : segments)
                  if (segment.x_start < e.x_end - position_tolerance() &&
                      segment.x_end > e.x_start + position_tolerance())
                    {
                      bool present = false;
                      for (const auto &l : segment.section.layers)
                        present = present || l.name == lname;
                      if (!present)
                        s.fail("Layers",
                               "the layer '" + lname +
                                 "' is not part of segment '" + segment.name +
                                 "', which the electrode covers. Limit "
                                 "'Start'/'End' to segments with that layer.");
                    }
                for (const auto &other : electrodes)
                  for (const auto &olayer : other.layers)
                    if (olayer == lname &&
                        other.x_start < e.x_end - position_tolerance() &&
                        other.x_end > e.x_start + position_tolerance())
                      s.fail("Start",
                             "the electrode overlaps electrode '" + other.name +
                               "' on layer '" + lname +
                               "'. Electrodes on one layer must not overlap.");
              }
            const std::string circuit = s.get("Circuit");
            e.circuit = circuit == "open circuit" ? ElectrodeCircuit::open_circuit :
                        circuit == "voltage"      ? ElectrodeCircuit::voltage :
                        circuit == "resistor"     ? ElectrodeCircuit::resistor :
                        circuit == "series RL"    ? ElectrodeCircuit::series_rl :
                        circuit == "parallel RL"  ? ElectrodeCircuit::parallel_rl :
                                                    ElectrodeCircuit::short_circuit;
            e.voltage = s.get_double("Voltage");
            if (e.circuit == ElectrodeCircuit::resistor ||
                e.circuit == ElectrodeCircuit::series_rl ||
                e.circuit == ElectrodeCircuit::parallel_rl)
              e.resistance = s.get_positive("Resistance", "Ohm");
            if (e.circuit == ElectrodeCircuit::series_rl ||
                e.circuit == ElectrodeCircuit::parallel_rl)
              e.inductance = s.get_positive("Inductance", "H");
            electrodes.push_back(e);
          }
      }

      {
        Section::Scope scope(s, "Damping");
        damping.rayleigh = s.get("Model") == "rayleigh";
        if (damping.rayleigh)
          {
            damping.alpha = s.get_non_negative("Rayleigh alpha", "1/s");
            damping.beta  = s.get_non_negative("Rayleigh beta", "s");
          }
        else
          {
            damping.ratios.clear();
            for (const auto &item : split_list(s.get("Modal damping ratios")))
              {
                double zeta = -1;
                try
                  {
                    zeta = Utilities::string_to_double(item);
                  }
                catch (...)
                  {
                  }
                if (!(zeta >= 0 && zeta < 1))
                  s.fail("Modal damping ratios",
                         "'" + item + "' is not a damping ratio. Give numbers "
                         "0 <= zeta < 1, e.g. '0.01, 0.013'.");
                damping.ratios.push_back(zeta);
              }
            if (damping.ratios.empty())
              damping.ratios.push_back(0.);
          }
      }

      {
        Section::Scope scope(s, "Prestress");
        axial_force   = function_of_x(s, "Axial force", *this);
        has_prestress = !is_zero_expression(s.get("Axial force"));
      }
    }

    {
      Section::Scope loads(s, "Loads");
      distributed_load     = function_of_x(s, "Distributed load", *this);
      has_distributed_load = !is_zero_expression(s.get("Distributed load"));
      Section::Scope scope(s, "Point loads");
      for (const auto &name : s.get_names("Names"))
        {
          Section::Scope one(s, name);
          PointLoad      load;
          load.name     = name;
          load.position = get_position(s, "Position", *this);
          load.force  = s.get_double("Force");
          load.moment = s.get_double("Moment");
          point_loads.push_back(load);
        }
    }
  }

  double
  BeamModel::length() const
  {
    return segments.empty() ? 0. : segments.back().x_end;
  }

  double
  BeamModel::position_tolerance() const
  {
    return 1e-12 * length();
  }

  bool
  BeamModel::on_beam(double x) const
  {
    return x >= -position_tolerance() && x <= length() + position_tolerance();
  }

  double
  BeamModel::snap(double x) const
  {
    const double tolerance = position_tolerance();
    if (std::abs(x) <= tolerance)
      return 0.;
    for (const auto &segment : segments)
      if (std::abs(x - segment.x_end) <= tolerance)
        return segment.x_end;
    return x;
  }

  const Segment &
  BeamModel::segment_at(double x) const
  {
    for (const auto &segment : segments)
      if (x < segment.x_end)
        return segment;
    return segments.back();
  }

  std::vector<double>
  BeamModel::key_points() const
  {
    std::vector<double> points{0.};
    for (const auto &s : segments)
      points.push_back(s.x_end);
    for (const auto &s : supports)
      points.push_back(s.position);
    for (const auto &m : point_masses)
      points.push_back(m.position);
    for (const auto &p : point_loads)
      points.push_back(p.position);
    for (const auto &e : electrodes)
      {
        points.push_back(e.x_start);
        points.push_back(e.x_end);
      }
    std::sort(points.begin(), points.end());
    // merge points closer than a relative 1e-12 of the length
    const double        tolerance = 1e-12 * length();
    std::vector<double> unique;
    for (const double x : points)
      if (unique.empty() || x - unique.back() > tolerance)
        unique.push_back(x);
    return unique;
  }

  unsigned int
  BeamModel::rigid_body_restraint_rank() const
  {
    // Rows act on (a, b) of w = a + b x: a displacement restraint at x_s
    // gives (1, x_s), a slope restraint gives (0, 1).
    std::vector<std::array<double, 2>> rows;
    const double                       L = length();
    for (const auto &s : supports)
      {
        const bool w_fixed = s.condition == SupportCondition::clamped ||
                             s.condition == SupportCondition::pinned ||
                             s.translational_stiffness > 0;
        const bool slope_fixed = s.condition == SupportCondition::clamped ||
                                 s.condition == SupportCondition::guided ||
                                 s.rotational_stiffness > 0;
        if (w_fixed)
          rows.push_back({1., s.position / L});
        if (slope_fixed)
          rows.push_back({0., 1.});
      }
    if (rows.empty())
      return 0;
    // rank of an n x 2 matrix: 2 if any 2x2 minor is non-zero
    for (std::size_t i = 0; i < rows.size(); ++i)
      for (std::size_t j = i + 1; j < rows.size(); ++j)
        if (std::abs(rows[i][0] * rows[j][1] - rows[i][1] * rows[j][0]) > 1e-12)
          return 2;
    return 1;
  }

  bool
  BeamModel::coupling_cancels(const std::string &name) const
  {
    for (const auto &e : electrodes)
      if (e.name == name)
        {
          double coupling = 0, magnitude = 0;
          for (const auto &segment : segments)
            {
              const double covered =
                std::min(segment.x_end, e.x_end) - std::max(segment.x_start, e.x_start);
              if (covered <= 0)
                continue;
              const ElectrodeTerms terms = electrode_terms(e, segment);
              coupling += std::abs(terms.coupling_per_curvature) * covered;
              magnitude += terms.coupling_magnitude_per_curvature * covered;
            }
          return !(coupling > 1e-8 * magnitude);
        }
    return false;
  }

  std::vector<std::string>
  BeamModel::electrode_warnings() const
  {
    std::vector<std::string> warnings;
    for (const auto &e : electrodes)
      if (coupling_cancels(e.name))
        {
          std::string layers;
          for (const auto &l : e.layers)
            layers += (layers.empty() ? "" : ", ") + l;
          warnings.push_back(
            "Electrode '" + e.name + "' (layers " + layers +
            ") has no bending coupling: the contributions of its layers cancel or vanish (coupling "
            "below 1e-8 of the layers' magnitudes), so its voltage is zero and no load on it "
            "harvests power. A series bimorph needs its layers poled oppositely ('Poling'), a "
            "parallel one alike; a layer on the neutral axis does not couple in bending.");
        }
    return warnings;
  }

  double
  BeamModel::total_mass() const
  {
    double m = 0;
    for (const auto &s : segments)
      m += s.section.mass_per_length * (s.x_end - s.x_start);
    for (const auto &p : point_masses)
      m += p.mass;
    return m;
  }
} // namespace hamilton
