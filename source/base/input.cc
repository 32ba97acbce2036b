#include <hamilton/base/input.h>

#include <deal.II/base/exceptions.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace hamilton
{
  using namespace dealii;

  void
  input_error(const std::string &path,
              const std::string &entry,
              const std::string &value,
              const std::string &requirement)
  {
    std::ostringstream message;
    message << "In subsection '" << path << "': '" << entry << "' = " << value
            << ": " << requirement;
    throw InputError(message.str());
  }

  Section::Section(ParameterHandler &prm)
    : prm(prm)
  {}

  Section::Scope::Scope(Section &section, const std::string &name)
    : section(section)
  {
    section.prm.enter_subsection(name);
    section.stack.push_back(name);
  }

  Section::Scope::~Scope()
  {
    section.stack.pop_back();
    section.prm.leave_subsection();
  }

  std::string
  Section::path() const
  {
    std::string result;
    for (const auto &s : stack)
      result += (result.empty() ? "" : "/") + s;
    return result;
  }

  ParameterHandler &
  Section::handler()
  {
    return prm;
  }

  std::string
  Section::get(const std::string &entry) const
  {
    return prm.get(entry);
  }

  double
  Section::get_double(const std::string &entry) const
  {
    const double value = prm.get_double(entry);
    if (!std::isfinite(value))
      fail(entry, "must be a finite number.");
    return value;
  }

  unsigned int
  Section::get_unsigned(const std::string &entry) const
  {
    return static_cast<unsigned int>(prm.get_integer(entry));
  }

  bool
  Section::get_bool(const std::string &entry) const
  {
    return prm.get_bool(entry);
  }

  double
  Section::get_positive(const std::string &entry, const std::string &unit) const
  {
    const double value = get_double(entry);
    if (!(value > 0))
      fail(entry,
           "must be positive (in " + unit +
             "). Give a value larger than zero.");
    return value;
  }

  double
  Section::get_non_negative(const std::string &entry,
                            const std::string &unit) const
  {
    const double value = get_double(entry);
    if (!(value >= 0))
      fail(entry,
           "must be zero or positive (in " + unit +
             "). Give a value of at least zero.");
    return value;
  }

  std::vector<std::string>
  Section::get_names(const std::string &entry) const
  {
    const std::vector<std::string> names = split_list(prm.get(entry));
    std::set<std::string>          seen;
    for (const auto &name : names)
      if (!seen.insert(name).second)
        fail(entry,
             "the name '" + name +
               "' appears twice. Give every item a different name.");
    return names;
  }

  std::shared_ptr<FunctionParser<1>>
  Section::get_function_of_x(const std::string &entry) const
  {
    const std::string expression = prm.get(entry);
    auto              function   = std::make_shared<FunctionParser<1>>();
    try
      {
        const std::map<std::string, double> constants{{"pi", M_PI},
                                                      {"e", M_E}};
        function->initialize("x", expression, constants);
        // muparser reports some errors (unknown variables) only on evaluation
        const double probe = function->value(Point<1>(0.));
        (void)probe;
      }
    catch (const std::exception &)
      {
        fail(entry,
             "is not a valid expression of x. Use x (m), numbers, pi, e, "
             "+ - * / ^ and functions such as sin, cos, exp, sqrt; "
             "for example '1e3*(1-x)'.");
      }
    return function;
  }

  void
  Section::fail(const std::string &entry, const std::string &requirement) const
  {
    input_error(path(), entry, "'" + prm.get(entry) + "'", requirement);
  }

  std::vector<double>
  parse_number_list(const std::string &text_in)
  {
    const std::string   text = Utilities::trim(text_in);
    std::vector<double> values;
    for (const std::string function : {"linspace(", "logspace("})
      if (text.rfind(function, 0) == 0 && text.back() == ')')
        {
          const auto args =
            split_list(text.substr(function.size(), text.size() - function.size() - 1));
          if (args.size() != 3)
            throw std::invalid_argument(function + " needs start, stop, count");
          const double a = Utilities::string_to_double(args[0]);
          const double b = Utilities::string_to_double(args[1]);
          const int    n = Utilities::string_to_int(args[2]);
          if (n < 1)
            throw std::invalid_argument("count must be positive");
          for (int i = 0; i < n; ++i)
            {
              const double t = (n == 1) ? a : a + (b - a) * i / (n - 1);
              values.push_back(function == "logspace(" ? std::pow(10., t) : t);
            }
          return values;
        }
    for (const auto &item : split_list(text))
      values.push_back(Utilities::string_to_double(item));
    return values;
  }

  std::vector<std::string>
  split_list(const std::string &text)
  {
    std::vector<std::string> result;
    for (const std::string &item : Utilities::split_string_list(text, ','))
      {
        const std::string trimmed = Utilities::trim(item);
        if (!trimmed.empty())
          result.push_back(trimmed);
      }
    return result;
  }

  void
  declare_named_list(ParameterHandler               &prm,
                     const std::string              &names_documentation,
                     const std::vector<std::string> &names,
                     const std::function<void(ParameterHandler &)> &declare_one)
  {
    prm.declare_entry("Names", "", Patterns::Anything(), names_documentation);
    for (const auto &name : names)
      {
        prm.enter_subsection(name);
        declare_one(prm);
        prm.leave_subsection();
      }
  }

  void
  rethrow_parse_error(const std::string &filename, const std::exception &e)
  {
    std::ostringstream message;
    if (const auto *exc = dynamic_cast<const ExceptionBase *>(&e))
      exc->print_info(message);
    else
      message << e.what();
    std::string text = Utilities::trim(message.str());
    throw InputError("Cannot read parameter file '" + filename + "': " + text +
                     " Run 'hamilton --print-parameters' for every allowed "
                     "subsection and entry.");
  }

  void
  read_parameter_file(
    ParameterHandler  &prm,
    const std::string &filename,
    const std::function<void(ParameterHandler &, const ParameterHandler *)>
      &declare)
  {
    {
      std::ifstream test(filename);
      if (!test)
        throw InputError("Cannot open parameter file '" + filename +
                         "'. Check the path and the permissions.");
    }
    // lenient passes: the first learns the lists of names, the second what
    // depends on a named item (e.g. a component's type)
    ParameterHandler first, second;
    const auto       lenient = [&](ParameterHandler &pass, const ParameterHandler *previous) {
      declare(pass, previous);
      try
        {
          pass.parse_input(filename, "", true);
        }
      catch (const std::exception &e)
        {
          rethrow_parse_error(filename, e);
        }
    };
    lenient(first, nullptr);
    lenient(second, &first);
    declare(prm, &second);
    try
      {
        prm.parse_input(filename, "", false);
      }
    catch (const std::exception &e)
      {
        rethrow_parse_error(filename, e);
      }
  }
} // namespace hamilton
