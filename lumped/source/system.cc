#include <hamilton/base/columns.h>
#include <hamilton/lumped/canonical.h>
#include <hamilton/lumped/component.h>
#include <hamilton/lumped/system.h>

#include <deal.II/base/utilities.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <optional>
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

    /** The units a 'Units' entry accepts, for messages and the documentation. */
    std::string
    units_list()
    {
      std::string list;
      for (const auto &u : known_units())
        list += (list.empty() ? "" : ", ") + u;
      return list;
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

    /** Functions an expression may call (those that compile to C); sqrt and pow become powers. */
    const std::set<std::string> allowed_function_names{"sin",  "cos",  "tan",  "asin", "acos", "atan", "atan2", "sinh",
                                                       "cosh", "tanh", "exp",  "log",  "abs",  "sqrt", "pow"};

    /** Names GiNaC's lexer reads as its constants whatever the symbol table says. */
    const std::set<std::string> ginac_literals{"I", "Pi", "Euler", "Catalan"};

    /** Deepest nesting of parentheses and signs an expression may have (GiNaC's parser recurses). */
    constexpr unsigned int maximal_nesting = 200;

    /** Longest expression text accepted (characters). */
    constexpr std::size_t maximal_length = 100000;

    /** The text for a message: long texts shortened to their start and length. */
    std::string
    shown(const std::string &text)
    {
      return text.size() <= 120 ? "'" + text + "'" :
                                  "'" + text.substr(0, 100) + "...' (" + std::to_string(text.size()) + " characters)";
    }

    /** The component types, "a, b, c". */
    std::string
    component_types()
    {
      std::string result;
      for (const auto &name : ComponentRegistry::instance().names())
        result += (result.empty() ? "" : ", ") + ("'" + name + "'");
      return result;
    }

    /** Whether `name` is an identifier as GiNaC's lexer reads one: [A-Za-z][A-Za-z0-9_]*. */
    bool
    is_identifier(const std::string &name)
    {
      if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0])))
        return false;
      return std::all_of(name.begin(), name.end(),
                         [](const char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    }

    /**
     * Tokens of an expression as GiNaC's lexer splits it (identifiers, numbers,
     * one character otherwise); computes the deepest nesting of brackets and
     * unary signs (each of which is a level of GiNaC's recursive parser).
     */
    struct Scan
    {
      struct Token
      {
        std::size_t begin, end;
        bool        identifier;
      };
      std::vector<Token> tokens;
      unsigned int       depth = 0;
      /** Position of the first sign right after a binary operator (npos: none). */
      std::size_t sign_after_operator = std::string::npos;

      explicit Scan(const std::string &text)
      {
        // per open bracket level, the unary signs still open in it
        std::vector<unsigned int> signs{0};
        unsigned int              open_signs = 0;
        bool                      operand_expected = true; // at the start, after '(', ',' or an operator
        bool                      after_operator   = false;
        const auto                is_digit = [&](std::size_t i) {
          return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]));
        };
        for (std::size_t i = 0; i < text.size();)
          {
            const char c = text[i];
            if (std::isspace(static_cast<unsigned char>(c)))
              {
                ++i;
                continue;
              }
            const std::size_t begin = i;
            if (std::isalpha(static_cast<unsigned char>(c)))
              {
                while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_'))
                  ++i;
                tokens.push_back({begin, i, true});
                operand_expected = false;
                continue;
              }
            if (std::isdigit(static_cast<unsigned char>(c)) || c == '.')
              {
                while (is_digit(i) || (i < text.size() && text[i] == '.'))
                  ++i;
                if (i < text.size() && (text[i] == 'e' || text[i] == 'E'))
                  {
                    i += 2; // GiNaC's lexer takes the character after the E whatever it is
                    while (is_digit(i))
                      ++i;
                    i = std::min(i, text.size());
                  }
                tokens.push_back({begin, i, false});
                operand_expected = false;
                continue;
              }
            ++i;
            tokens.push_back({begin, i, false});
            const bool was_after_operator = after_operator;
            after_operator                = false;
            if (c == '(' || c == '{' || c == '[')
              {
                signs.push_back(0);
                operand_expected = true;
              }
            else if (c == ')' || c == '}' || c == ']')
              {
                if (signs.size() > 1)
                  {
                    open_signs -= signs.back();
                    signs.pop_back();
                  }
                operand_expected = false;
              }
            else if ((c == '+' || c == '-') && operand_expected)
              {
                ++signs.back();
                ++open_signs;
                if (was_after_operator && sign_after_operator == std::string::npos)
                  sign_after_operator = begin;
                after_operator = true; // a second sign is as ambiguous
              }
            else
              {
                operand_expected = true; // ',' or an operator
                after_operator   = c != ',';
              }
            depth = std::max<unsigned int>(depth, signs.size() - 1 + open_signs);
          }
      }
    };

    /** Whether e calls only functions that compile to C; `bad` the first other one. */
    bool
    allowed_functions(const GiNaC::ex &e, std::string &bad)
    {
      for (GiNaC::const_preorder_iterator i = e.preorder_begin(); i != e.preorder_end(); ++i)
        if (GiNaC::is_a<GiNaC::function>(*i))
          {
            const std::string name = GiNaC::ex_to<GiNaC::function>(*i).get_name();
            if (!allowed_function_names.count(name))
              {
                bad = name;
                return false;
              }
          }
      return true;
    }

    /** A number for a message, with 10 significant digits. */
    std::string
    number_text(double x)
    {
      std::ostringstream out;
      out << std::setprecision(10) << x;
      return out.str();
    }

    /** A whole field as a finite number (no trailing text); nothing otherwise. */
    std::optional<double>
    finite_number(const std::string &field)
    {
      const std::string text = Utilities::trim(field);
      if (text.empty())
        return {};
      char        *end   = nullptr;
      errno              = 0;
      const double value = std::strtod(text.c_str(), &end);
      if (end != text.c_str() + text.size() || !std::isfinite(value) || (errno == ERANGE && std::abs(value) > 1))
        return {};
      return value;
    }

    /**
     * The rows 't, value' of the CSV file of a table time function (entry
     * 'File' of the current subsection): every field a finite number, the
     * times increasing, at least two rows; one header line allowed as the
     * first line, blank lines skipped. Fails naming the file and line.
     */
    std::pair<std::vector<double>, std::vector<double>>
    read_table(const Section &s, const std::string &directory)
    {
      const std::string name = Utilities::trim(s.get("File"));
      const std::string file = (std::filesystem::path(directory) / name).string();
      std::ifstream     in(file);
      if (name.empty() || !in || std::filesystem::is_directory(file))
        s.fail("File", "cannot open '" + file + "'. Give a CSV file with columns t, value.");
      std::vector<double> times, values;
      std::string         line;
      unsigned int        number = 0;
      bool                first  = true;
      const auto          bad    = [&](const std::string &why) {
        s.fail("File", "'" + file + "', line " + std::to_string(number) + ": " + shown(line) + " " + why +
                         " Write each row as 't, value' (s and the function's unit), both finite numbers such as "
                         "'0.5, 2' or '1e-3, -4.2e2'; only the first line may be a header.");
      };
      while (std::getline(in, line))
        {
          ++number;
          if (Utilities::trim(line).empty())
            continue;
          const auto fields = Utilities::split_string_list(line, ',');
          std::optional<double> t, v;
          if (fields.size() == 2)
            {
              t = finite_number(fields[0]);
              v = finite_number(fields[1]);
            }
          const bool was_first = first;
          first                = false;
          if (!t || !v)
            {
              if (was_first)
                continue; // a header
              bad(fields.size() != 2 ? "has " + std::to_string(fields.size()) + " fields, not 2." :
                                       "is not two finite numbers.");
            }
          if (!times.empty() && !(*t > times.back()))
            bad("has a time that does not increase (the row before has t = " + number_text(times.back()) + ").");
          times.push_back(*t);
          values.push_back(*v);
        }
      if (in.bad())
        s.fail("File", "reading '" + file + "' failed after line " + std::to_string(number) + ".");
      if (times.size() < 2)
        s.fail("File", "'" + file + "' holds fewer than two rows 't, value'.");
      return {times, values};
    }
  } // namespace

  std::optional<double>
  finite_value(const GiNaC::ex &e)
  {
    const GiNaC::ex value = GiNaC::evalf(e);
    if (!GiNaC::is_a<GiNaC::numeric>(value))
      return {};
    const GiNaC::numeric &n = GiNaC::ex_to<GiNaC::numeric>(value);
    if (!n.is_real() || GiNaC::abs(n) > GiNaC::numeric(std::numeric_limits<double>::max()))
      return {};
    // the value itself in canonical order (evalf sums in GiNaC's run-dependent order)
    const auto x = numeric_value(e);
    if (!x || !std::isfinite(*x))
      return {};
    return x;
  }


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
            if (cumulative.size() != times.size()) // times and values set directly, not by set_table
              {
                TimeFunction tabulated = *this;
                tabulated.set_table(times, values);
                return tabulated.integral(t);
              }
            // F(s) = integral of u from times[0] to s (u constant outside the table)
            const auto F = [&](double s) {
              if (s <= times.front())
                return (s - times.front()) * values.front();
              if (s >= times.back())
                return cumulative.back() + (s - times.back()) * values.back();
              const auto k = std::upper_bound(times.begin(), times.end(), s) - times.begin() - 1;
              return cumulative[k] + (s - times[k]) * (values[k] + (*this)(s)) / 2;
            };
            return F(t) - F(0);
          }
      }
    return 0;
  }

  void
  TimeFunction::set_table(std::vector<double> t, std::vector<double> v)
  {
    AssertThrow(t.size() >= 2 && t.size() == v.size(), ExcMessage("a table needs two or more rows (t, value)"));
    for (unsigned int k = 1; k < t.size(); ++k)
      AssertThrow(t[k] > t[k - 1], ExcMessage("the times of a table must increase"));
    kind   = table;
    times  = std::move(t);
    values = std::move(v);
    cumulative.assign(times.size(), 0.);
    for (unsigned int k = 1; k < times.size(); ++k)
      cumulative[k] = cumulative[k - 1] + (times[k] - times[k - 1]) * (values[k] + values[k - 1]) / 2;
  }

  GiNaC::exmap
  System::neglected_values() const
  {
    GiNaC::exmap values;
    for (const auto &name : neglected)
      for (const auto &p : parameters)
        if (p.first.get_name() == name)
          values[p.first] = 0;
    return values;
  }

  std::string
  System::neglected_note() const
  {
    std::string note;
    for (const auto &name : neglected)
      note += " " + name;
    return note.empty() ? "" : "; simplified model:" + note + " = 0";
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
    prm.declare_entry("Velocity constraints", "", Patterns::Anything(),
                      "Velocity (non-holonomic) constraints A(q) q_dot + b(q, t) = 0, linear in the "
                      "velocities, expressions separated by ';' (e.g. a knife edge 'x_dot*sin(theta) - "
                      "y_dot*cos(theta)'). Each adds a multiplier lambda_k (after those of 'Constraints') "
                      "with the generalized force -A^T lambda; its column constraint_k is A q_dot + b.");
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
    prm.declare_entry("Units", "", Patterns::Anything(),
                      "SI units of coordinates and outputs, 'name: unit' separated by ';' (e.g. 'alpha: rad; "
                      "x: m; power: W'), written to lumped.csv.columns.json and used by the plots; a velocity "
                      "x_dot gets the unit of x per s. Defaults: a component's coordinates their own (rad, m, "
                      "C), electrical coordinates C. Units: " + units_list() + ".");
    declare_hamiltonian_parameters(prm);

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
                        "Names of library components; each gets a subsection with its 'Type', one of:" +
                          ComponentRegistry::instance().documentation());
      for (const auto &name : names)
        {
          prm.enter_subsection(name);
          prm.declare_entry("Type", "", Patterns::Anything(),
                            "The component's type: one of " + component_types() +
                              " (each described under 'Components/Names').");
          // the first lenient pass does not know the component's subsection yet
          std::string type;
          if (previous->subsection_path_exists({path, "Components", name}))
            type = Utilities::trim(previous->get({path, "Components", name}, "Type"));
          if (!type.empty() && !ComponentRegistry::instance().has(type))
            input_error(path + "/Components/" + name, "Type", "'" + type + "'",
                        "'" + type + "' is not a component type; allowed: " + component_types() + ".");
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
    prm.declare_entry("Linearize at", "none", Patterns::Selection("none|initial|final|equilibrium"),
                      "Linearize the equations at the consistent initial state, at the final "
                      "state (an equilibrium the run has settled to), or at rest at the static "
                      "equilibrium of 'Statics' (Analysis = equilibrium and simulation): eigenvalues "
                      "and the descriptor state space E x' = A x + B u, y = C x + D u (inputs: the "
                      "time functions; outputs: the named outputs) in linearization.json.");
    prm.declare_entry("Evaluation", "compiled", Patterns::Selection("compiled|automatic|interpreted"),
                      "How the derived equations are evaluated: compiled by the C compiler "
                      "(35 ms and more, then the fastest), interpreted (their canonical program "
                      "run directly: no compiler needed, a few microseconds per evaluation, the "
                      "same numbers bit for bit), or automatic: interpreted until that has taken "
                      "as long as compiling is estimated to take, then compiled (never more than "
                      "twice the cost of the better choice).");
    prm.declare_entry("Harmonic frequency", "automatic", Patterns::Anything(),
                      "Steady-state harmonic analysis: a frequency f > 0 (Hz), 'automatic' "
                      "(f detected from the run: the dominant period of 'Steady-state signal' "
                      "over the last half of the run) or 'none' (0 also means none). Every CSV "
                      "column is fitted by least squares with its mean and harmonics 1 to 3 of f "
                      "over the last 'Harmonic periods' periods; the mean, the fundamental's "
                      "amplitude and phase (against sin(2 pi f t)) and the fit's residual go to "
                      "results.json ('harmonic'); detected, also how steady the run was (the "
                      "change from the periods before) or why no period was found.");
    prm.declare_entry("Steady-state signal", "", Patterns::Anything(),
                      "The lumped.csv column whose dominant period 'Harmonic frequency = "
                      "automatic' detects (empty: the first named output, else the first "
                      "coordinate).");
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

  std::string
  System::name_problem(const std::string &name)
  {
    if (!is_identifier(name))
      return "'" + name + "' is not a name: a name starts with a letter (A-Z, a-z) and goes on with letters, "
             "digits and '_' (no blanks or other signs; e.g. 'x', 'x_1', 'theta2')";
    if (name == "t")
      return "'t' is the time, which expressions use as such; choose another name (e.g. 't0', 'tau')";
    if (name == "pi")
      return "'pi' is the constant 3.14159..., which expressions use as such; choose another name (e.g. 'p')";
    if (allowed_function_names.count(name))
      return "'" + name + "' is the function " + name + "(...) of expressions; choose another name (e.g. '" +
             name + "_0')";
    for (const std::string prefix : {"lambda_", "constraint_"})
      if (name.rfind(prefix, 0) == 0 && name.size() > prefix.size() &&
          std::all_of(name.begin() + prefix.size(), name.end(),
                      [](const char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        return "'" + name + "' is the name of a constraint's " + (prefix == "lambda_" ? "multiplier" : "residual") +
               " (" + prefix + "1, " + prefix + "2, ... in the CSV); choose another name";
    for (const char *column : {"t_s", "stored_energy_change_J", "supplied_work_J", "source_work_J",
                               "dissipated_energy_J", "audit_residual_J"})
      if (name == column)
        return "'" + name + "' is a column of the CSV (the time or the energy audit); choose another name";
    return "";
  }

  void
  System::claim(const std::string &name, const std::string &use, const std::string &where, const std::string &entry)
  {
    const std::string problem = name_problem(name);
    if (!problem.empty())
      input_error(where, entry, "'" + name + "'", problem + ".");
    const auto known = names.find(name);
    if (known != names.end())
      input_error(where, entry, "'" + name + "'",
                  "the name '" + name + "' is already " + known->second + "; here it would be " + use + " (in '" +
                    where + "': '" + entry + "'). Each name must be unique across coordinates, velocities (x_dot, "
                    "x_ddot), parameters (also those components make), time functions (and their u_rate, u_rate2, "
                    "u_integral): rename one of them.");
    names[name] = use + " (in '" + where + "': '" + entry + "')";
  }

  GiNaC::ex
  System::coordinate(const std::string &name, bool electrical, const std::string &where, const std::string &entry)
  {
    for (const auto &c : coordinates)
      if (c.name == name)
        {
          if (c.electrical != electrical)
            input_error(where, entry, "'" + name + "'",
                        "the name '" + name + "' is already " +
                          (c.electrical ? "an electrical" : "a mechanical") + " coordinate; here it would be " +
                          (electrical ? "an electrical" : "a mechanical") + " one. Rename one of them.");
          return c.position;
        }
    const std::string kind = electrical ? "an electrical coordinate" : "a mechanical coordinate";
    claim(name, kind, where, entry);
    claim(name + "_dot", "the velocity of the coordinate '" + name + "'", where, entry);
    claim(name + "_ddot", "the acceleration of the coordinate '" + name + "'", where, entry);
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
    resistive_forces.push_back(0);
    return c.position;
  }

  GiNaC::ex
  System::parameter(const std::string &name, double value, const std::string &where, const std::string &entry)
  {
    claim(name, "a parameter", where, entry);
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
    GiNaC::symtab symbols = table(energy);
    const auto    unknown = [&](const std::string &name) {
      std::string known;
      for (const auto &c : coordinates)
        known += c.name + ", " + c.name + "_dot, ";
      for (const auto &p : parameters)
        known += p.first.get_name() + ", ";
      input_error(where, entry, shown(text),
                  "unknown symbol '" + name + "'. " +
                    (energy && (name == "t" || std::any_of(time_functions.begin(), time_functions.end(),
                                                           [&](const auto &f) { return f.second.name == name; })) ?
                       "Energies and dissipation must not depend on time explicitly: "
                       "put time-dependent inputs in 'Generalized forces'. " :
                       "") +
                    (ginac_literals.count(name) ? "The constant pi is written 'pi'; '" + name +
                                                    "' is a name like any other (declare it, e.g. as a parameter). " :
                                                  "") +
                    "Known symbols: " + known + "pi" + (energy ? "" : ", t and the time functions") + ".");
    };
    if (text.size() > maximal_length)
      input_error(where, entry, shown(text),
                  "the expression is longer than " + std::to_string(maximal_length) +
                    " characters. Name its parts as parameters or outputs, or split it into components.");
    // GiNaC's lexer reads I, Pi, Euler and Catalan as its constants before it
    // looks at the symbol table: give the user's symbols of these names
    // other spellings that it reads as identifiers
    const Scan  scan(text);
    std::string prepared;
    std::size_t copied = 0;
    for (unsigned int k = 0; k < scan.tokens.size(); ++k)
      {
        const auto &token = scan.tokens[k];
        if (!token.identifier)
          continue;
        const std::string name = text.substr(token.begin, token.end - token.begin);
        if (!ginac_literals.count(name))
          continue;
        if (!symbols.count(name))
          unknown(name);
        std::string alias = name + "_";
        while (symbols.count(alias) && !symbols[alias].is_equal(symbols[name]))
          alias += "_";
        symbols[alias] = symbols[name];
        prepared += text.substr(copied, token.begin - copied) + alias;
        copied = token.end;
      }
    prepared += text.substr(copied);
    if (scan.depth > maximal_nesting)
      input_error(where, entry, shown(text),
                  "nests parentheses and signs " + std::to_string(scan.depth) + " levels deep; at most " +
                    std::to_string(maximal_nesting) + " are allowed. Name inner parts as parameters or simplify it.");
    if (scan.sign_after_operator != std::string::npos)
      {
        const std::size_t at = scan.sign_after_operator;
        input_error(where, entry, shown(text),
                    "has the sign '" + text.substr(at, 1) + "' right after an operator (character " +
                      std::to_string(at + 1) + ": '..." + text.substr(at > 10 ? at - 10 : 0, std::min<std::size_t>(at, 10) + 6) +
                      "...'). The expression library (GiNaC) reads such a sign as applying to everything after it "
                      "(2*-x + k as 2*(-x + k), x^-2*k as x^(-2*k), a - -b + c as a - (-b + c)): put the signed "
                      "operand in parentheses, e.g. '2*(-x) + k', 'x^(-2)*k', 'a - (-b) + c'.");
      }

    GiNaC::parser reader(symbols);
    reader.strict = true;
    GiNaC::ex result;
    try
      {
        result = reader(Utilities::trim(prepared).empty() ? "0" : prepared);
      }
    catch (const std::exception &e)
      {
        const std::string what = e.what();
        const auto        q1 = what.find('"'), q2 = what.find('"', q1 + 1);
        if (what.find("not found") != std::string::npos && q1 != std::string::npos)
          unknown(what.substr(q1 + 1, q2 - q1 - 1));
        input_error(where, entry, shown(text),
                    "does not parse (" + Utilities::trim(what.substr(0, what.find('\n'))) +
                      "). Write it like '0.5*m*x_dot^2 + k*sin(x)'.");
      }
    std::string bad;
    if (!allowed_functions(result, bad))
      input_error(where, entry, shown(text),
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
  System::add_time_function(TimeFunction f, const std::string &where, const std::string &entry)
  {
    claim(f.name, "a time function", where, entry);
    claim(f.name + "_rate", "the rate of the time function '" + f.name + "'", where, entry);
    claim(f.name + "_rate2", "the second rate of the time function '" + f.name + "'", where, entry);
    claim(f.name + "_integral", "the integral of the time function '" + f.name + "'", where, entry);
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
    for (const auto *entry : {"Coordinates", "Electrical coordinates"})
      for (const auto &name : s.get_names(entry))
        {
          if (names.count(name)) // listed in both entries: a clash, not a reuse
            claim(name, "a coordinate", where, entry);
          coordinate(name, std::string(entry) != "Coordinates", where, entry);
        }

    // parameters, each a number or an expression of earlier ones
    for (const auto &item : split_expressions(s.get("Parameters")))
      {
        const auto equal = item.find('=');
        if (equal == std::string::npos)
          s.fail("Parameters", "the item '" + item + "' is not 'name = value'. Separate items with ';'.");
        const std::string name = Utilities::trim(item.substr(0, equal));
        claim(name, "a parameter", where, "Parameters"); // before its value: a clear message for 'x = 2'
        names.erase(name);
        const auto value = finite_value(parse(item.substr(equal + 1), where, "Parameters", true).subs(parameter_values()));
        if (!value)
          s.fail("Parameters", "the value of '" + name + "' (" + Utilities::trim(item.substr(equal + 1)) +
                                 ") is not a finite real number: it may use only numbers, earlier parameters and pi.");
        parameter(name, *value, where, "Parameters");
      }

    {
      Section::Scope    functions(s, "Time functions");
      const std::string functions_path = s.path();
      for (const auto &name : s.get_names("Names"))
        {
          Section::Scope one(s, name);
          TimeFunction   f;
          f.name                 = name;
          const std::string type = s.get("Type");
          f.kind = type == "constant" ? TimeFunction::constant :
                   type == "step"     ? TimeFunction::step :
                   type == "ramp"     ? TimeFunction::ramp :
                   type == "sine"     ? TimeFunction::sine :
                                        TimeFunction::table;
          for (const auto &[entry, value] : std::vector<std::pair<std::string, double *>>{{"Value", &f.value},
                                                                                         {"Initial value", &f.initial},
                                                                                         {"Start", &f.start},
                                                                                         {"Amplitude", &f.amplitude},
                                                                                         {"Frequency", &f.frequency},
                                                                                         {"Phase", &f.phase}})
            {
              *value = s.get_double(entry);
              if (!std::isfinite(*value))
                s.fail(entry, "is not a finite number.");
            }
          if (f.kind == TimeFunction::table)
            {
              const auto [times, values] = read_table(s, directory);
              f.set_table(times, values);
            }
          add_time_function(f, functions_path, "Names");
        }
    }

    {
      Section::Scope components(s, "Components");
      for (const auto &name : s.get_names("Names"))
        {
          if (!is_identifier(name))
            s.fail("Names", "'" + name + "' is not a name: components make names from it (e.g. '<name>_q'), so it "
                            "starts with a letter (A-Z, a-z) and goes on with letters, digits and '_'.");
          Section::Scope    one(s, name);
          const std::string type = s.get("Type");
          if (!ComponentRegistry::instance().has(type))
            s.fail("Type", "'" + type + "' is not a component type; allowed: " + component_types() + ".");
          const Element before = terms();
          ComponentRegistry::instance().create(type)->add_to(*this, s, name);
          record_element(name, before);
        }
    }
    const Element before_entries = terms();

    parse_hamiltonian(*this, s);
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
      {
        const GiNaC::ex c = parse(text, where, "Constraints", false);
        for (const auto &q : coordinates)
          if (c.has(q.velocity))
            input_error(where, "Constraints", shown(text),
                        "uses the velocity " + q.name + "_dot. 'Constraints' are holonomic, Phi(q, t) = 0 (positions "
                        "and time only). Move a constraint on velocities (non-holonomic, A(q) q_dot + b(q, t) = 0) "
                        "to the entry 'Velocity constraints' of subsection 'Lumped system', or write it on "
                        "positions if it is integrable (e.g. x - r*theta instead of x_dot - r*theta_dot).");
        constraints.push_back(c);
      }
    for (const auto &text : split_expressions(s.get("Velocity constraints")))
      {
        const GiNaC::ex c = parse(text, where, "Velocity constraints", false).expand();
        bool            velocity = false;
        for (const auto &q : coordinates)
          {
            velocity = velocity || !c.diff(q.velocity).is_zero();
            for (const auto &r : coordinates)
              if (!c.diff(q.velocity).diff(r.velocity).expand().is_zero())
                input_error(where, "Velocity constraints", shown(text),
                            "is not linear in the velocities (it holds a product or a function of " + q.name +
                              "_dot and " + r.name + "_dot). Write it as A(q) q_dot + b(q, t): each velocity "
                              "multiplied by an expression of the positions and time, e.g. "
                              "'x_dot*sin(theta) - y_dot*cos(theta)'.");
          }
        if (!velocity)
          input_error(where, "Velocity constraints", shown(text),
                      "uses no velocity: it is a holonomic constraint Phi(q, t) = 0. Move it to the entry "
                      "'Constraints'.");
        velocity_constraints.push_back(c);
      }
    record_element("entries", before_entries);
    for (const auto *entry : {"Initial positions", "Initial velocities"})
      for (const auto &item : split_expressions(s.get(entry)))
        {
          const auto [name, text] = named_item(s, entry, item);
          const auto value = finite_value(parse(text, where, entry, true).subs(parameter_values()));
          if (!value)
            s.fail(entry, "the value of '" + name + "' (" + text +
                            ") is not a finite real number: write a number or an expression of the parameters.");
          auto &c = coordinates[coordinate_index(entry, name)];
          (std::string(entry) == "Initial positions" ? c.initial_position : c.initial_velocity) = *value;
        }
    for (const auto &item : split_expressions(s.get("Outputs")))
      {
        const auto [name, text] = named_item(s, "Outputs", item);
        outputs.emplace_back(name, parse(text, where, "Outputs", false));
      }
    for (const auto &item : split_expressions(s.get("Units")))
      {
        const auto [name, unit] = named_item(s, "Units", item);
        const bool output = std::any_of(outputs.begin(), outputs.end(), [&](const auto &o) { return o.first == name; });
        if (!output && std::none_of(coordinates.begin(), coordinates.end(), [&](const auto &c) { return c.name == name; }))
          input_error(where, "Units", shown(item),
                      "'" + name + "' is neither a coordinate nor an output of the system. Give units of coordinates "
                      "(their velocities follow) and of the names in 'Outputs'.");
        if (!is_known_unit(unit))
          input_error(where, "Units", shown(item),
                      "'" + unit + "' is not a unit Hamilton knows. Allowed (SI, as written): " + units_list() +
                        ". Write the quantity in SI and give its unit, e.g. 'alpha: rad'.");
        units[name] = unit;
      }
    for (const auto &c : coordinates)
      if (c.electrical)
        units.emplace(c.name, "C");
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
    finish_hamiltonian(*this, s);
    check_outputs(where);
  }

  void
  System::check_outputs(const std::string &where) const
  {
    // the columns the CSV has anyway
    std::map<std::string, std::string> columns{{"t_s", "the time column"}};
    for (const auto &c : coordinates)
      {
        columns[c.name]          = "the column of the coordinate '" + c.name + "'";
        columns[c.name + "_dot"] = "the column of the velocity of '" + c.name + "'";
      }
    for (const char *name : {"stored_energy_change_J", "supplied_work_J", "source_work_J", "dissipated_energy_J",
                             "audit_residual_J", "kinetic_energy_change_J", "potential_energy_change_J",
                             "magnetic_energy_change_J", "electric_energy_change_J"})
      columns[name] = "a column of the energy audit";
    for (const auto &element : elements)
      for (const char *part : {"supplied_work_", "source_work_", "dissipated_energy_", "coupling_work_"})
        columns[part + element.name + "_J"] = "a column of the energy audit per element";
    for (const auto &[name, e] : outputs)
      {
        (void)e;
        const auto value = "'" + name + "'";
        if (!is_identifier(name))
          input_error(where, "Outputs", value,
                      value + " is not a name for a CSV column: it starts with a letter (A-Z, a-z) and goes on with "
                              "letters, digits and '_' (no blanks, commas or quotes; e.g. 'tip_x', 'power_W').");
        for (const char *prefix : {"lambda_", "constraint_"})
          if (name.rfind(prefix, 0) == 0 && name.size() > std::string(prefix).size() &&
              std::all_of(name.begin() + std::string(prefix).size(), name.end(),
                          [](const char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            input_error(where, "Outputs", value,
                        value + " is the name of a column the CSV has for each constraint (" + prefix + "1, " +
                          prefix + "2, ...). Choose another name.");
        const auto known = columns.find(name);
        if (known != columns.end())
          input_error(where, "Outputs", value,
                      value + " is already " + known->second +
                        " of the CSV (an output made by a component or listed twice, or a column the CSV has "
                        "anyway: t_s, the coordinates, their _dot, lambda_k, constraint_k, the energy audit). "
                        "Choose another name.");
        columns[name] = "an output";
      }
  }
} // namespace hamilton::lumped
