#include <hamilton/lumped/canonical.h>
#include <hamilton/lumped/component.h>
#include <hamilton/lumped/system.h>

#include <deal.II/base/utilities.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace hamilton::lumped
{
  using namespace dealii;

  namespace
  {
    const std::string path = "Lumped system";

    /** "\alpha" for Greek names, the name otherwise (for LaTeX). */
    std::string
    tex(const std::string &name)
    {
      static const std::set<std::string> greek{
        "alpha", "beta",  "gamma", "delta", "epsilon", "zeta", "eta",   "theta", "iota", "kappa",
        "lambda", "mu",   "nu",    "xi",    "pi",      "rho",  "sigma", "tau",   "phi",  "chi",
        "psi",   "omega", "Gamma", "Delta", "Theta",   "Phi",  "Psi",   "Omega"};
      const auto underscore = name.find('_');
      const std::string stem = name.substr(0, underscore);
      std::string       result = greek.count(stem) ? "\\" + stem : stem;
      if (underscore != std::string::npos)
        result += "_{" + name.substr(underscore + 1) + "}";
      return result;
    }

    /** Split "a; b; c" (top-level ';'), trimming blanks; empty items removed. */
    std::vector<std::string>
    split_expressions(const std::string &text)
    {
      std::vector<std::string> items;
      for (const auto &item : Utilities::split_string_list(text, ';'))
        if (!Utilities::trim(item).empty())
          items.push_back(Utilities::trim(item));
      return items;
    }

    /** "name: text" -> (name, text); fails with the entry's message. */
    std::pair<std::string, std::string>
    named_item(const Section &s, const std::string &entry, const std::string &item)
    {
      const auto colon = item.find(':');
      if (colon == std::string::npos)
        s.fail(entry, "the item '" + item + "' is not 'name: expression'. Separate items with ';'.");
      return {Utilities::trim(item.substr(0, colon)), Utilities::trim(item.substr(colon + 1))};
    }

    /** Functions an expression may use (those that compile to C). */
    bool
    allowed_functions(const GiNaC::ex &e, std::string &bad)
    {
      static const std::set<std::string> allowed{"sin",  "cos",  "tan",  "asin", "acos", "atan", "atan2",
                                                 "sinh", "cosh", "tanh", "exp",  "log",  "abs"};
      for (GiNaC::const_preorder_iterator i = e.preorder_begin(); i != e.preorder_end(); ++i)
        if (GiNaC::is_a<GiNaC::function>(*i))
          {
            const std::string name = GiNaC::ex_to<GiNaC::function>(*i).get_name();
            if (!allowed.count(name))
              {
                bad = name;
                return false;
              }
          }
      return true;
    }
  } // namespace

  double
  TimeFunction::operator()(double t) const
  {
    switch (kind)
      {
        case constant:
          return value;
        case step:
          return t < start ? initial : initial + value;
        case ramp:
          return t < start ? initial : initial + value * (t - start);
        case sine:
          return initial + amplitude * std::sin(2 * M_PI * frequency * t + phase);
        case table:
          {
            if (t <= times.front())
              return values.front();
            if (t >= times.back())
              return values.back();
            const auto k = std::upper_bound(times.begin(), times.end(), t) - times.begin();
            const double s = (t - times[k - 1]) / (times[k] - times[k - 1]);
            return values[k - 1] + s * (values[k] - values[k - 1]);
          }
      }
    return 0;
  }

  double
  TimeFunction::rate(double t) const
  {
    switch (kind)
      {
        case ramp:
          return t < start ? 0 : value;
        case sine:
          return 2 * M_PI * frequency * amplitude * std::cos(2 * M_PI * frequency * t + phase);
        case table:
          {
            if (t < times.front() || t >= times.back())
              return 0;
            const auto k = std::upper_bound(times.begin(), times.end(), t) - times.begin();
            return (values[k] - values[k - 1]) / (times[k] - times[k - 1]);
          }
        default:
          return 0;
      }
  }

  double
  TimeFunction::second_rate(double t) const
  {
    const double w = 2 * M_PI * frequency;
    return kind == sine ? -w * w * amplitude * std::sin(w * t + phase) : 0;
  }

  double
  TimeFunction::integral(double t) const
  {
    const auto after = [&](double s) { return std::max(s - start, 0.); }; // time since start
    switch (kind)
      {
        case constant:
          return value * t;
        case step:
          return initial * t + value * (after(t) - after(0));
        case ramp:
          return initial * t + value * (after(t) * after(t) - after(0) * after(0)) / 2;
        case sine:
          {
            const double w = 2 * M_PI * frequency;
            return initial * t + (frequency > 0 ? amplitude * (std::cos(phase) - std::cos(w * t + phase)) / w :
                                                  amplitude * std::sin(phase) * t);
          }
        case table:
          {
            // trapezoids over the pieces of [0, t] (constant outside the table)
            double sum = 0, from = 0;
            for (const double knot : times)
              if (knot > from && knot < t)
                {
                  sum += (knot - from) * ((*this)(from) + (*this)(knot)) / 2;
                  from = knot;
                }
            return sum + (t - from) * ((*this)(from) + (*this)(t)) / 2;
          }
      }
    return 0;
  }

  void
  System::declare_parameters(ParameterHandler &prm, const ParameterHandler *previous)
  {
    prm.enter_subsection(path);
    prm.declare_entry("Coordinates", "", Patterns::Anything(),
                      "Names of the mechanical generalized coordinates (m or rad), comma "
                      "separated. In expressions the velocity of coordinate x is "
                      "written x_dot. Components add their own coordinates.");
    prm.declare_entry("Electrical coordinates", "", Patterns::Anything(),
                      "Names of the electrical coordinates: charges (C), whose x_dot "
                      "is a current (A), or flux linkages (V s).");
    prm.declare_entry("Parameters", "", Patterns::Anything(),
                      "Named parameters, 'name = value' separated by ';'; a value may "
                      "be an expression of earlier parameters and pi (SI units).");
    prm.declare_entry("Kinetic coenergy", "0", Patterns::Anything(),
                      "T*(q, q_dot) (J), e.g. '0.5*J*alpha_dot^2'.");
    prm.declare_entry("Potential energy", "0", Patterns::Anything(), "V(q) (J): springs, gravity.");
    prm.declare_entry("Magnetic coenergy", "0", Patterns::Anything(),
                      "W_m*(q, q_dot) (J): inductors 0.5*L*i_dot^2 and magnetic "
                      "couplings, e.g. 'ke*q_dot*alpha' for a DC motor.");
    prm.declare_entry("Electric energy", "0", Patterns::Anything(),
                      "W_e(q) (J): capacitors q^2/(2 C), electrostatic couplings.");
    prm.declare_entry("Dissipation", "0", Patterns::Anything(),
                      "Rayleigh dissipation function D(q, q_dot) (W/2 for linear "
                      "dampers): 0.5*R*q_dot^2 + 0.5*b*alpha_dot^2.");
    prm.declare_entry("Generalized forces", "", Patterns::Anything(),
                      "Supplied generalized forces 'coordinate: expression' separated "
                      "by ';' (N, N m or V); expressions may use t and the time functions.");
    prm.declare_entry("Constraints", "", Patterns::Anything(),
                      "Holonomic constraints Phi(q, t) = 0, expressions separated by ';'. A "
                      "constraint may depend on t and the time functions (a prescribed "
                      "motion, e.g. 'x - 0.01*sin(2*pi*50*t)'); it then does work, booked "
                      "as supplied. Prescribed motions should start smoothly: a step or a "
                      "kink of a table is a jump of position or velocity.");
    prm.declare_entry("Initial positions", "", Patterns::Anything(),
                      "'coordinate: value' separated by ';' (default 0). With "
                      "constraints, the coordinates listed here are kept and the "
                      "others are solved for.");
    prm.declare_entry("Initial velocities", "", Patterns::Anything(),
                      "'coordinate: value' separated by ';' (default 0), projected "
                      "onto the constraints the same way.");
    prm.declare_entry("Outputs", "", Patterns::Anything(),
                      "Named output expressions 'name: expression' separated by ';', "
                      "written to the CSV (e.g. 'torque: kt*i_dot; x: d*cos(alpha)').");

    prm.enter_subsection("Time functions");
    {
      std::vector<std::string> names;
      if (previous)
        names = split_list(previous->get({path, "Time functions"}, "Names"));
      declare_named_list(prm, "Names of time functions, usable in generalized forces.", names,
                         [](ParameterHandler &p) {
                           p.declare_entry("Type", "constant", Patterns::Selection("constant|step|ramp|sine|table"),
                                           "constant: Value; step: Initial value, then Initial value + "
                                           "Value from Start; ramp: Initial value + Value (t - Start) "
                                           "from Start; sine: Initial value + Amplitude sin(2 pi "
                                           "Frequency t + Phase); table: linear interpolation of File.");
                           p.declare_entry("Value", "0", Patterns::Double(), "Value, step height or ramp slope (per s).");
                           p.declare_entry("Initial value", "0", Patterns::Double(), "Value before Start; offset of a sine.");
                           p.declare_entry("Start", "0", Patterns::Double(), "Start of a step or ramp (s).");
                           p.declare_entry("Amplitude", "0", Patterns::Double(), "Sine amplitude.");
                           p.declare_entry("Frequency", "0", Patterns::Double(), "Sine frequency (Hz).");
                           p.declare_entry("Phase", "0", Patterns::Double(), "Sine phase (rad).");
                           p.declare_entry("File", "", Patterns::Anything(),
                                           "CSV file with columns t (s) and value, a header line "
                                           "allowed; relative to the parameter file.");
                         });
    }
    prm.leave_subsection();

    prm.enter_subsection("Components");
    {
      std::vector<std::string> names;
      if (previous)
        names = split_list(previous->get({path, "Components"}, "Names"));
      prm.declare_entry("Names", "", Patterns::Anything(),
                        "Names of library components; each gets a subsection with its 'Type'.");
      for (const auto &name : names)
        {
          prm.enter_subsection(name);
          prm.declare_entry("Type", "", Patterns::Anything(),
                            "One of:" + ComponentRegistry::instance().documentation());
          std::string type;
          try
            {
              type = previous->get({path, "Components", name}, "Type");
            }
          catch (...)
            {
            }
          ComponentRegistry::instance().declare_parameters_of(type, prm);
          prm.leave_subsection();
        }
    }
    prm.leave_subsection();

    prm.enter_subsection("Animation");
    prm.declare_entry("Frame interval", "0", Patterns::Double(0),
                      "Time between frames of the ParaView animation (s; 0: none): "
                      "animation.pvd with one polyline drawing per frame (animation/frame_*.vtp) "
                      "of the components that draw themselves and of 'Polylines'. Frames are "
                      "taken at the CSV rows, so make it a multiple of 'Output interval'.");
    prm.declare_entry("Polylines", "", Patterns::Anything(),
                      "More parts to draw, 'name: (x1, y1), (x2, y2), ...' separated by ';', "
                      "the points expressions of the coordinates (m), t and the time functions, "
                      "e.g. 'crank: (0, 0), (d*cos(alpha), d*sin(alpha))'.");
    prm.leave_subsection();

    prm.enter_subsection("Simulation");
    prm.declare_entry("Final time", "1", Patterns::Double(), "End of the simulation (s), from t = 0.");
    prm.declare_entry("Output interval", "0.01", Patterns::Double(), "Time between CSV rows (s).");
    prm.declare_entry("Relative tolerance", "1e-8", Patterns::Double(), "IDA relative error tolerance.");
    prm.declare_entry("Absolute tolerance", "1e-10", Patterns::Double(),
                      "IDA absolute error tolerance (in the units of each unknown).");
    prm.declare_entry("Linearize at", "none", Patterns::Selection("none|initial|final"),
                      "Linearize the equations at the consistent initial state or at the final "
                      "state (an equilibrium the run has settled to): eigenvalues and the "
                      "descriptor state space E x' = A x + B u, y = C x + D u (inputs: the time "
                      "functions; outputs: the named outputs) in linearization.json.");
    prm.declare_entry("Evaluation", "compiled", Patterns::Selection("compiled|automatic|interpreted"),
                      "How the derived equations are evaluated: compiled by the C compiler "
                      "(35 ms and more, then the fastest), interpreted (their canonical program "
                      "run directly: no compiler needed, a few microseconds per evaluation, the "
                      "same numbers bit for bit), or automatic: interpreted until that has taken "
                      "as long as compiling is estimated to take, then compiled (never more than "
                      "twice the cost of the better choice).");
    prm.declare_entry("Harmonic frequency", "0", Patterns::Double(0),
                      "Steady-state harmonic analysis (Hz; 0: none): every CSV column is fitted "
                      "by least squares with its mean and harmonics 1 to 3 of f over the last "
                      "'Harmonic periods' periods; the mean, the fundamental's amplitude and "
                      "phase (against sin(2 pi f t)) and the fit's residual (how steady the run "
                      "was) go to results.json.");
    prm.declare_entry("Harmonic periods", "10", Patterns::Integer(1),
                      "Number of periods at the end of the run used by the harmonic analysis.");
    prm.declare_entry("Neglected parameters", "", Patterns::Anything(),
                      "Parameters set to zero for the simplified model, e.g. the "
                      "armature inductance: the current then becomes algebraic (L di/dt = 0).");
    prm.leave_subsection();
    prm.leave_subsection();
  }

  bool
  System::described_in(ParameterHandler &prm)
  {
    prm.enter_subsection(path);
    bool any = !split_list(prm.get("Coordinates")).empty() || !split_list(prm.get("Electrical coordinates")).empty();
    prm.enter_subsection("Components");
    any = any || !split_list(prm.get("Names")).empty();
    prm.leave_subsection();
    prm.leave_subsection();
    return any;
  }

  GiNaC::ex
  System::coordinate(const std::string &name, bool electrical)
  {
    for (const auto &c : coordinates)
      if (c.name == name)
        return c.position;
    Coordinate c{name,
                 electrical,
                 GiNaC::symbol(name, tex(name)),
                 GiNaC::symbol(name + "_dot", "\\dot{" + tex(name) + "}"),
                 GiNaC::symbol(name + "_ddot", "\\ddot{" + tex(name) + "}"),
                 {},
                 {}};
    coordinates.push_back(c);
    forces.push_back(0);
    non_reciprocal_forces.push_back(0);
    return c.position;
  }

  GiNaC::ex
  System::parameter(const std::string &name, double value)
  {
    for (auto &p : parameters)
      if (p.first.get_name() == name)
        {
          p.second = value;
          return p.first;
        }
    parameters.emplace_back(GiNaC::symbol(name, tex(name)), value);
    return parameters.back().first;
  }

  GiNaC::symtab
  System::table(bool energy) const
  {
    GiNaC::symtab t;
    for (const auto &c : coordinates)
      {
        t[c.name]          = c.position;
        t[c.name + "_dot"] = c.velocity;
      }
    for (const auto &p : parameters)
      t[p.first.get_name()] = p.first;
    t["pi"] = GiNaC::Pi;
    if (!energy)
      {
        t["t"] = time;
        for (const auto &f : time_functions)
          t[f.second.name] = f.first;
      }
    return t;
  }

  GiNaC::ex
  System::parse(const std::string &text, const std::string &where, const std::string &entry, bool energy) const
  {
    GiNaC::parser reader(table(energy));
    reader.strict = true;
    GiNaC::ex result;
    try
      {
        result = reader(text.empty() ? "0" : text);
      }
    catch (const std::exception &e)
      {
        const std::string what = e.what();
        const auto        q1 = what.find('"'), q2 = what.find('"', q1 + 1);
        if (what.find("not found") != std::string::npos && q1 != std::string::npos)
          {
            const std::string name = what.substr(q1 + 1, q2 - q1 - 1);
            std::string       known;
            for (const auto &c : coordinates)
              known += c.name + ", " + c.name + "_dot, ";
            for (const auto &p : parameters)
              known += p.first.get_name() + ", ";
            input_error(where, entry, "'" + text + "'",
                        "unknown symbol '" + name + "'. " +
                          (energy && (name == "t" || std::any_of(time_functions.begin(), time_functions.end(),
                                                                 [&](const auto &f) { return f.second.name == name; })) ?
                             "Energies and dissipation must not depend on time explicitly: "
                             "put time-dependent inputs in 'Generalized forces'. " :
                             "") +
                          "Known symbols: " + known + "pi" + (energy ? "" : ", t and the time functions") + ".");
          }
        input_error(where, entry, "'" + text + "'",
                    "does not parse (" + Utilities::trim(what.substr(0, what.find('\n'))) +
                      "). Write it like '0.5*m*x_dot^2 + k*sin(x)'.");
      }
    std::string bad;
    if (!allowed_functions(result, bad))
      input_error(where, entry, "'" + text + "'",
                  "uses the function '" + bad + "', which cannot be compiled. Allowed: sin, cos, tan, "
                  "asin, acos, atan, atan2, sinh, cosh, tanh, exp, log, abs, sqrt, ^. Steps, ramps, "
                  "sines and tables of time are 'Time functions'.");
    return result;
  }

  GiNaC::ex
  System::time_derivative(const GiNaC::ex &e) const
  {
    GiNaC::ex d = 0;
    for (const auto &c : coordinates)
      d += e.diff(c.position) * c.velocity;
    return d;
  }

  void
  System::add_force(const GiNaC::ex &f, const GiNaC::ex &along, bool non_reciprocal)
  {
    for (unsigned int k = 0; k < coordinates.size(); ++k)
      {
        const GiNaC::ex share = along.diff(coordinates[k].position);
        if (!share.is_zero())
          (non_reciprocal ? non_reciprocal_forces : forces)[k] += f * share;
      }
  }

  GiNaC::ex
  System::add_time_function(TimeFunction f)
  {
    f.rate_symbol        = GiNaC::symbol(f.name + "_rate", "\\dot{" + tex(f.name) + "}");
    f.second_rate_symbol = GiNaC::symbol(f.name + "_rate2", "\\ddot{" + tex(f.name) + "}");
    f.integral_symbol    = GiNaC::symbol(f.name + "_integral", "\\int " + tex(f.name) + "\\,dt");
    time_functions.emplace_back(GiNaC::symbol(f.name, tex(f.name)), f);
    return time_functions.back().first;
  }

  GiNaC::symbol
  System::multiplier(unsigned int k) const
  {
    while (multipliers.size() <= k)
      {
        const std::string number = std::to_string(multipliers.size() + 1);
        multipliers.emplace_back("lambda_" + number, "\\lambda_{" + number + "}");
      }
    return multipliers[k];
  }

  GiNaC::ex
  System::partial_time_derivative(const GiNaC::ex &e) const
  {
    GiNaC::ex d = e.diff(time);
    for (const auto &[u, f] : time_functions)
      d += e.diff(u) * f.rate_symbol + e.diff(f.rate_symbol) * f.second_rate_symbol + e.diff(f.integral_symbol) * u;
    return d;
  }

  GiNaC::exmap
  System::parameter_values() const
  {
    GiNaC::exmap values;
    for (const auto &p : parameters)
      values[p.first] = exact(p.second); // exact: GiNaC's arithmetic then does not depend on term order
    for (const auto &name : neglected)
      for (const auto &p : parameters)
        if (p.first.get_name() == name)
          values[p.first] = 0;
    return values;
  }

  void
  System::parse_parameters(Section &s, const std::string &directory)
  {
    Section::Scope scope(s, path);
    const std::string where = s.path();
    search_directories.push_back(directory);
    for (const auto &name : split_list(s.get("Coordinates")))
      coordinate(name, false);
    for (const auto &name : split_list(s.get("Electrical coordinates")))
      coordinate(name, true);

    // parameters, each a number or an expression of earlier ones
    for (const auto &item : split_expressions(s.get("Parameters")))
      {
        const auto equal = item.find('=');
        if (equal == std::string::npos)
          s.fail("Parameters", "the item '" + item + "' is not 'name = value'. Separate items with ';'.");
        const std::string name = Utilities::trim(item.substr(0, equal));
        const auto value = numeric_value(parse(item.substr(equal + 1), where, "Parameters", true).subs(parameter_values()));
        if (!value)
          s.fail("Parameters", "the value of '" + name + "' (" + Utilities::trim(item.substr(equal + 1)) +
                                 ") is not a number: it may use only earlier parameters and pi.");
        parameter(name, *value);
      }

    {
      Section::Scope functions(s, "Time functions");
      for (const auto &name : s.get_names("Names"))
        {
          Section::Scope one(s, name);
          TimeFunction   f;
          f.name              = name;
          const std::string type = s.get("Type");
          f.kind = type == "constant" ? TimeFunction::constant :
                   type == "step"     ? TimeFunction::step :
                   type == "ramp"     ? TimeFunction::ramp :
                   type == "sine"     ? TimeFunction::sine :
                                        TimeFunction::table;
          f.value     = s.get_double("Value");
          f.initial   = s.get_double("Initial value");
          f.start     = s.get_double("Start");
          f.amplitude = s.get_double("Amplitude");
          f.frequency = s.get_double("Frequency");
          f.phase     = s.get_double("Phase");
          if (f.kind == TimeFunction::table)
            {
              const std::string file = (std::filesystem::path(directory) / s.get("File")).string();
              std::ifstream     in(file);
              if (s.get("File").empty() || !in)
                s.fail("File", "cannot open '" + file + "'. Give a CSV file with columns t, value.");
              std::string line;
              while (std::getline(in, line))
                {
                  const auto items = Utilities::split_string_list(line, ',');
                  if (items.size() < 2)
                    continue;
                  try
                    {
                      const double t = std::stod(items[0]), v = std::stod(items[1]);
                      if (!f.times.empty() && !(t > f.times.back()))
                        s.fail("File", "'" + file + "': times must increase (t = " + items[0] + ").");
                      f.times.push_back(t);
                      f.values.push_back(v);
                    }
                  catch (const std::invalid_argument &)
                    {
                      if (!f.times.empty())
                        s.fail("File", "'" + file + "': the line '" + line + "' is not 't, value'.");
                    }
                }
              if (f.times.size() < 2)
                s.fail("File", "'" + file + "' holds fewer than two rows 't, value'.");
            }
          add_time_function(f);
        }
    }

    {
      Section::Scope components(s, "Components");
      for (const auto &name : s.get_names("Names"))
        {
          Section::Scope    one(s, name);
          const std::string type = s.get("Type");
          if (!ComponentRegistry::instance().has(type))
            s.fail("Type", "'" + type + "' is not a component type; allowed: " +
                             ComponentRegistry::instance().pattern() + ".");
          ComponentRegistry::instance().create(type)->add_to(*this, s, name);
        }
    }

    kinetic += parse(s.get("Kinetic coenergy"), where, "Kinetic coenergy", true);
    potential += parse(s.get("Potential energy"), where, "Potential energy", true);
    magnetic += parse(s.get("Magnetic coenergy"), where, "Magnetic coenergy", true);
    electric += parse(s.get("Electric energy"), where, "Electric energy", true);
    dissipation += parse(s.get("Dissipation"), where, "Dissipation", true);

    const auto coordinate_index = [&](const std::string &entry, const std::string &name) {
      for (unsigned int k = 0; k < coordinates.size(); ++k)
        if (coordinates[k].name == name)
          return k;
      std::string known;
      for (const auto &c : coordinates)
        known += (known.empty() ? "" : ", ") + c.name;
      s.fail(entry, "'" + name + "' is not a coordinate; coordinates: " + known + ".");
    };
    for (const auto &item : split_expressions(s.get("Generalized forces")))
      {
        const auto [name, text] = named_item(s, "Generalized forces", item);
        forces[coordinate_index("Generalized forces", name)] += parse(text, where, "Generalized forces", false);
      }
    for (const auto &text : split_expressions(s.get("Constraints")))
      constraints.push_back(parse(text, where, "Constraints", false));
    for (const auto *entry : {"Initial positions", "Initial velocities"})
      for (const auto &item : split_expressions(s.get(entry)))
        {
          const auto [name, text] = named_item(s, entry, item);
          const auto value        = numeric_value(parse(text, where, entry, true).subs(parameter_values()));
          if (!value)
            s.fail(entry, "the value of '" + name + "' is not a number.");
          auto &c = coordinates[coordinate_index(entry, name)];
          (std::string(entry) == "Initial positions" ? c.initial_position : c.initial_velocity) = *value;
        }
    for (const auto &item : split_expressions(s.get("Outputs")))
      {
        const auto [name, text] = named_item(s, "Outputs", item);
        outputs.emplace_back(name, parse(text, where, "Outputs", false));
      }
    {
      Section::Scope animation(s, "Animation");
      for (const auto &item : split_expressions(s.get("Polylines")))
        {
          const auto [name, text] = named_item(s, "Polylines", item);
          Polyline   line{name, {}};
          // points '(x, y)': the parenthesis at depth 0 opens a point
          int         depth = 0;
          std::string point;
          for (const char c : text)
            {
              if (c == ')' && --depth == 0)
                {
                  // split at the comma outside parentheses (not the one of atan2(y, x))
                  std::vector<std::string> parts{""};
                  int                      d = 0;
                  for (const char p : point)
                    {
                      d += p == '(' ? 1 : p == ')' ? -1 : 0;
                      if (p == ',' && d == 0)
                        parts.emplace_back();
                      else
                        parts.back() += p;
                    }
                  if (parts.size() != 2)
                    s.fail("Polylines", "the point '(" + point + ")' of '" + name + "' is not '(x, y)'.");
                  const GiNaC::ex x = parse(parts[0], s.path(), "Polylines", false),
                                  y = parse(parts[1], s.path(), "Polylines", false);
                  for (const auto &c : coordinates)
                    if (x.has(c.velocity) || y.has(c.velocity))
                      s.fail("Polylines", "the point '(" + point + ")' of '" + name + "' uses the velocity " +
                                            c.name + "_dot: a drawing depends on positions only.");
                  line.points.emplace_back(x, y);
                  point.clear();
                  continue;
                }
              if (depth > 0)
                point += c;
              else if (c != '(' && c != ',' && !std::isspace(static_cast<unsigned char>(c)))
                s.fail("Polylines", "'" + item + "': write the points of '" + name + "' as '(x1, y1), (x2, y2), ...'.");
              if (c == '(')
                ++depth;
            }
          if (depth != 0 || line.points.size() < 2)
            s.fail("Polylines", "'" + item + "' needs at least two points '(x, y)' with balanced parentheses.");
          drawing.push_back(line);
        }
    }
    {
      Section::Scope simulation(s, "Simulation");
      for (const auto &name : split_list(s.get("Neglected parameters")))
        {
          if (std::none_of(parameters.begin(), parameters.end(),
                           [&](const auto &p) { return p.first.get_name() == name; }))
            s.fail("Neglected parameters", "'" + name + "' is not a parameter of the system.");
          neglected.push_back(name);
        }
    }
    if (coordinates.empty())
      s.fail("Coordinates", "the system has no coordinates: name them here or add components.");
  }
} // namespace hamilton::lumped
