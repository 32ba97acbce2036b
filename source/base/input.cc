#include <hamilton/base/input.h>

#include <deal.II/base/exceptions.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
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
    const std::string text = Utilities::trim(prm.get(entry));
    double            value;
    try
      {
        value = parse_number(text);
      }
    catch (const std::invalid_argument &e)
      {
        fail(entry, e.what());
      }
    return value;
  }

  unsigned int
  Section::get_unsigned(const std::string &entry) const
  {
    const std::string text = Utilities::trim(prm.get(entry));
    char             *end  = nullptr;
    errno                  = 0;
    const long long value  = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0')
      fail(entry, "is not a whole number. Give a count such as 4.");
    if (errno == ERANGE || value < 0 || value > std::numeric_limits<int>::max())
      fail(entry, "is out of range: give a whole number from 0 to " +
                    std::to_string(std::numeric_limits<int>::max()) + ".");
    return static_cast<unsigned int>(value);
  }

  bool
  Section::get_bool(const std::string &entry) const
  {
    const std::string text = Utilities::trim(prm.get(entry));
    if (text == "true" || text == "yes")
      return true;
    if (text == "false" || text == "no")
      return false;
    fail(entry, "is not a yes/no value. Give 'true' or 'false'.");
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

  double
  parse_number(const std::string &text_in)
  {
    const std::string text = Utilities::trim(text_in);
    char             *end  = nullptr;
    errno                  = 0;
    const double value     = std::strtod(text.c_str(), &end);
    if (text.empty() || end == text.c_str() || *end != '\0')
      throw std::invalid_argument("is not a number. Give a number such as 2, 0.5 or 1.5e-3 (SI units).");
    if (!std::isfinite(value) || std::abs(value) > largest_number ||
        (errno == ERANGE && std::abs(value) > 1))
      throw std::invalid_argument("must be a finite number of magnitude at most 1e300. Give a value in the "
                                  "entry's SI unit within that range.");
    if ((value != 0 && std::abs(value) < smallest_number) || errno == ERANGE)
      throw std::invalid_argument("has a magnitude below 1e-300 (a subnormal or nearly so), which no physical "
                                  "quantity in SI units has and which calculations cannot resolve. Give 0 or a "
                                  "value of magnitude at least 1e-300.");
    return value;
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
          const double a = parse_number(args[0]);
          const double b = parse_number(args[1]);
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
      values.push_back(parse_number(item));
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

  namespace
  {
    /** "a   b " -> "a b" */
    std::string
    collapse_blanks(const std::string &text)
    {
      std::string result;
      for (const char c : Utilities::trim(text))
        if (!(std::isspace(static_cast<unsigned char>(c)) && !result.empty() && result.back() == ' '))
          result += std::isspace(static_cast<unsigned char>(c)) ? ' ' : c;
      return result;
    }

    /** "Beam / Layers/x" -> {"Beam", "Layers", "x"}, each part with its blanks collapsed. */
    std::vector<std::string>
    split_path(const std::string &path)
    {
      std::vector<std::string> parts;
      for (const auto &part : Utilities::split_string_list(path, '/'))
        parts.push_back(collapse_blanks(part));
      return parts;
    }
  } // namespace

  bool
  entry_declared(const ParameterHandler &prm, const std::vector<std::string> &path, const std::string &entry)
  {
    std::ostringstream text;
    prm.print_parameters(text, ParameterHandler::OutputStyle(ParameterHandler::JSON | ParameterHandler::Short));
    const nlohmann::json  tree = nlohmann::json::parse(text.str());
    const nlohmann::json *node = &tree;
    for (const auto &name : path)
      {
        if (!node->is_object() || !node->contains(name))
          return false;
        node = &(*node)[name];
      }
    return node->is_object() && node->contains(entry) && (*node)[entry].is_string();
  }

  namespace
  {
    /** One 'set' line of a parameter file. */
    struct SetLine
    {
      unsigned int line;
      std::string  path, name, value;
      /** The last line of the statement (after '\\' continuation lines). */
      unsigned int last_line;
    };

    /**
     * Walk the statements of a parameter file in the syntax
     * ParameterHandler::parse_input reads: '#' comments, '\\' continuation
     * lines, subsection NAME / end / set NAME = VALUE. `on_subsection` gets
     * the line number and the path of each subsection entered (its name
     * last), `on_set` each 'set' line.
     */
    void
    walk_statements(std::istream                                                         &in,
                    const std::function<void(unsigned int, const std::vector<std::string> &)> &on_subsection,
                    const std::function<void(const SetLine &)>                           &on_set)
    {
      std::vector<std::string> stack;
      std::string              line, joined;
      unsigned int             number = 0, first_line = 0;
      while (std::getline(in, line))
        {
          ++number;
          if (joined.empty())
            first_line = number;
          line                      = line.substr(0, line.find('#'));
          const std::string trimmed = Utilities::trim(line);
          if (!trimmed.empty() && trimmed.back() == '\\')
            {
              joined += trimmed.substr(0, trimmed.size() - 1) + " ";
              continue;
            }
          const std::string text = Utilities::trim(joined + trimmed);
          joined.clear();
          const auto keyword = [&](const std::string &lower, const std::string &upper) {
            return text.size() > lower.size() &&
                   (text.compare(0, lower.size(), lower) == 0 || text.compare(0, upper.size(), upper) == 0);
          };
          if (keyword("subsection ", "SUBSECTION "))
            {
              stack.push_back(collapse_blanks(text.substr(11)));
              on_subsection(first_line, stack);
            }
          else if ((text == "end" || text == "END") && !stack.empty())
            stack.pop_back();
          else if (keyword("set ", "SET ") && text.find('=') != std::string::npos)
            {
              std::string path;
              for (const auto &s : stack)
                path += (path.empty() ? "" : "/") + s;
              on_set({first_line, path, collapse_blanks(text.substr(4, text.find('=') - 4)),
                      Utilities::trim(text.substr(text.find('=') + 1)), number});
            }
        }
    }

    /** The 'set' lines of a parameter file (see walk_statements). */
    std::vector<SetLine>
    scan_set_lines(std::istream &in)
    {
      std::vector<SetLine> result;
      walk_statements(
        in, [](unsigned int, const std::vector<std::string> &) {}, [&](const SetLine &set) { result.push_back(set); });
      return result;
    }
  } // namespace

  void
  check_duplicate_entries(std::istream &in, const std::string &filename)
  {
    std::map<std::string, SetLine> seen;
    for (const auto &set : scan_set_lines(in))
      {
        const auto [previous, inserted] = seen.insert({set.path + "\n" + set.name, set});
        if (!inserted)
          throw InputError("In subsection '" + set.path + "': '" + set.name + "' is set twice in '" + filename +
                           "', on line " + std::to_string(previous->second.line) + " (= " +
                           previous->second.value + ") and on line " + std::to_string(set.line) + " (= " +
                           set.value + "). Each entry may be set once (the last would silently win): delete one.");
      }
  }

  namespace
  {
    /**
     * What a value that ParameterHandler refused must be: a number's own
     * problem (parse_number) for Double patterns, else the pattern.
     */
    std::string
    value_requirement(const std::string &allowed, const std::string &value)
    {
      if (allowed.rfind("[Double", 0) == 0)
        try
          {
            parse_number(value);
          }
        catch (const std::invalid_argument &reason)
          {
            return reason.what();
          }
      return "does not match the values the entry allows: " + allowed +
             ". Run 'hamilton --print-parameters' for what each entry allows.";
    }

    /** "A/B/C" from {"A", "B", "C"}. */
    std::string
    join_path(const std::vector<std::string> &parts)
    {
      std::string path;
      for (const auto &p : parts)
        path += (path.empty() ? "" : "/") + p;
      return path;
    }

    /**
     * The message for the first subsection or entry of the parameter file
     * `text` that `prm` does not declare (a misspelt name), as --set gives
     * it: where (subsection, line), the name, the closest existing entries
     * (closest_entries) and how to list the allowed ones; "" if every name
     * is declared.
     */
    std::string
    undeclared_name_message(const ParameterHandler &prm, const std::string &filename, const std::string &text)
    {
      std::ostringstream printed;
      prm.print_parameters(printed, ParameterHandler::OutputStyle(ParameterHandler::JSON | ParameterHandler::Short));
      const nlohmann::json tree = nlohmann::json::parse(printed.str());
      // the node of a subsection path, or nullptr if it is not declared
      const auto node_of = [&](const std::vector<std::string> &path) -> const nlohmann::json * {
        const nlohmann::json *node = &tree;
        for (const auto &name : path)
          {
            if (!node->is_object() || !node->contains(name) || !(*node)[name].is_object())
              return nullptr;
            node = &(*node)[name];
          }
        return node;
      };
      const auto closest = [&](const std::string &path) {
        std::string names;
        for (const auto &c : closest_entries(prm, path, 3))
          names += (names.empty() ? "'" : ", '") + c + "'";
        return names;
      };
      const auto where = [&](const std::string &path) {
        return path.empty() ? std::string("At the top level of the file") : "In subsection '" + path + "'";
      };
      const auto listing = [&](const std::string &path) {
        return path.empty() ? std::string(" Run hamilton --print-parameters for every subsection and entry.") :
                              " Run hamilton --print-parameters '" + path + "' for the entries of '" + path + "'.";
      };
      // the first undeclared subsection (its line, path), then the first set line inside it
      std::optional<std::pair<unsigned int, std::vector<std::string>>> subsection;
      std::optional<SetLine>                                           inside, entry;
      std::istringstream                                               in(text);
      walk_statements(
        in,
        [&](const unsigned int line, const std::vector<std::string> &path) {
          if (!subsection && !entry && node_of(path) == nullptr)
            subsection.emplace(line, path);
        },
        [&](const SetLine &set) {
          if (subsection)
            {
              if (!inside && (set.path + "/").rfind(join_path(subsection->second) + "/", 0) == 0)
                inside = set;
              return;
            }
          if (entry)
            return;
          const nlohmann::json *node = node_of(split_path(set.path));
          if (node != nullptr && !(node->contains(set.name) && (*node)[set.name].is_string()))
            entry = set;
        });
      const std::string at = " (line ";
      if (subsection)
        {
          const auto       &path   = subsection->second;
          const std::string parent = join_path(std::vector<std::string>(path.begin(), path.end() - 1));
          const std::string wanted = inside ? inside->path + "/" + inside->name : join_path(path);
          return where(parent) + ": there is no subsection '" + path.back() + "'" + at +
                 std::to_string(subsection->first) + " of '" + filename +
                 "'). The closest existing entries are " + closest(wanted) +
                 ". Correct the subsection's name (a subsection of a list is named in the list's 'Names')." +
                 listing(parent);
        }
      if (entry)
        return where(entry->path) + ": there is no entry '" + entry->name + "'" + at + std::to_string(entry->line) +
               " of '" + filename + "'). The closest existing entries are " +
               closest((entry->path.empty() ? "" : entry->path + "/") + entry->name) + ". Correct its name." +
               listing(entry->path);
      return "";
    }
  } // namespace

  void
  rethrow_parse_error(const ParameterHandler &prm,
                      const std::string      &filename,
                      const std::string      &file_text,
                      const std::exception   &e)
  {
    std::ostringstream message;
    if (const auto *exc = dynamic_cast<const ExceptionBase *>(&e))
      exc->print_info(message);
    else
      message << e.what();
    const std::string text = Utilities::trim(message.str());
    // a value that does not match its entry's pattern: name the subsection
    // (from the line), the entry, the value and what is allowed
    static const std::regex pattern_error(
      "Line <([0-9]+)> of file <[^>]*>:\\s*The entry value\\s*\n\\s*(.*)\n\\s*for the entry named\\s*\n"
      "\\s*(.*)\n\\s*does not match the given pattern:\\s*\n\\s*(.*)");
    std::smatch match;
    if (std::regex_search(text, match, pattern_error))
      {
        const unsigned int line    = std::stoul(match[1]);
        const std::string  value   = Utilities::trim(match[2]);
        const std::string  entry   = Utilities::trim(match[3]);
        const std::string  allowed = Utilities::trim(match[4]);
        std::string        path;
        std::istringstream in(file_text);
        for (const auto &set : scan_set_lines(in))
          if (set.line <= line && set.name == entry)
            path = set.path;
        const std::string requirement = value_requirement(allowed, value);
        input_error(path, entry, "'" + value + "' (line " + std::to_string(line) + " of '" + filename + "')",
                    requirement);
      }
    // a misspelt subsection or entry: where, and the closest names, as for --set
    if (const std::string misspelt = undeclared_name_message(prm, filename, file_text); !misspelt.empty())
      throw InputError(misspelt);
    throw InputError("Cannot read parameter file '" + filename + "': " + text +
                     " Run 'hamilton --print-parameters' for every allowed "
                     "subsection and entry.");
  }

  namespace
  {
    /** Every entry of `node` (a tree printed as JSON), as paths 'A/B/entry'. */
    void
    collect_entries(const nlohmann::json &node, const std::string &prefix, std::vector<std::string> &paths)
    {
      for (auto item = node.begin(); item != node.end(); ++item)
        {
          // entries are objects with a "value", subsections objects without
          const std::string name = item.key();
          if (item->is_object() && item->contains("value") && (*item)["value"].is_string())
            paths.push_back(prefix + name);
          else if (item->is_object())
            collect_entries(*item, prefix + name + "/", paths);
        }
    }

  } // namespace

  std::size_t
  edit_distance(const std::string &a, const std::string &b)
  {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
      row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
      {
        std::size_t diagonal = row[0];
        row[0]               = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
          {
            const std::size_t above = row[j];
            const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                              std::tolower(static_cast<unsigned char>(b[j - 1]));
            row[j]   = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
            diagonal = above;
          }
      }
    return row[b.size()];
  }

  std::optional<std::string>
  list_item(const std::string &entry_value, const std::string &name)
  {
    for (const auto &item : Utilities::split_string_list(entry_value, ';'))
      if (const auto equals = item.find('='); equals != std::string::npos &&
                                              Utilities::trim(item.substr(0, equals)) == Utilities::trim(name))
        return Utilities::trim(item.substr(equals + 1));
    return std::nullopt;
  }

  namespace
  {
    /** `entry_value` with the item NAME of its 'name = expression; ...' list set to `value`. */
    std::string
    replace_list_item(const std::string &entry_value, const std::string &name, const std::string &value)
    {
      std::string result;
      for (const auto &item : Utilities::split_string_list(entry_value, ';'))
        {
          const auto equals = item.find('=');
          const bool match  = equals != std::string::npos && Utilities::trim(item.substr(0, equals)) == name;
          result += (result.empty() ? "" : "; ") + (match ? name + " = " + value : Utilities::trim(item));
        }
      return result;
    }

    /** "A/B/Entry/NAME" -> the path of Entry, if it is declared and its value lists NAME. */
    std::optional<std::vector<std::string>>
    list_entry_of_item(const ParameterHandler &prm, const ParameterHandler &values, std::vector<std::string> parts)
    {
      if (parts.size() < 2)
        return std::nullopt;
      const std::string name = parts.back();
      parts.pop_back();
      const std::vector<std::string> subsection(parts.begin(), parts.end() - 1);
      if (!entry_declared(prm, subsection, parts.back()) || !entry_declared(values, subsection, parts.back()) ||
          !list_item(values.get(subsection, parts.back()), name))
        return std::nullopt;
      return parts;
    }
  } // namespace

  void
  check_distinct_changes(const std::vector<std::pair<std::string, std::string>> &changes)
  {
    for (std::size_t i = 0; i < changes.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (split_path(changes[j].first) == split_path(changes[i].first))
          throw InputError("--set '" + changes[j].first + "=" + changes[j].second + "' and --set '" +
                           changes[i].first + "=" + changes[i].second +
                           "' change the same entry (the last would silently win). Give each entry once.");
  }

  std::string
  check_entry_value_text(const std::string &value)
  {
    if (value.find_first_of("#\n\r\\") != std::string::npos)
      return "a value may not contain '#', '\\' or a line break (comment and line syntax of a parameter "
             "file). Give the value alone, e.g. 'Path/Entry=0.002'.";
    return "";
  }

  std::vector<std::string>
  closest_entries(const ParameterHandler &prm, const std::string &path, const unsigned int n)
  {
    std::ostringstream text;
    prm.print_parameters(text, ParameterHandler::OutputStyle(ParameterHandler::JSON));
    std::vector<std::string> paths;
    collect_entries(nlohmann::json::parse(text.str()), "", paths);
    std::string wanted;
    for (const auto &part : split_path(path))
      wanted += (wanted.empty() ? "" : "/") + part;
    std::stable_sort(paths.begin(), paths.end(), [&](const std::string &a, const std::string &b) {
      return edit_distance(a, wanted) < edit_distance(b, wanted);
    });
    paths.resize(std::min<std::size_t>(paths.size(), n));
    return paths;
  }

  std::string
  check_entry_path(const ParameterHandler &prm, const std::string &path, const ParameterHandler *values)
  {
    const auto parts = split_path(path);
    if (parts.size() >= 1 && !parts.back().empty() &&
        entry_declared(prm, std::vector<std::string>(parts.begin(), parts.end() - 1), parts.back()))
      return "";
    if (list_entry_of_item(prm, values ? *values : prm, parts))
      return "";
    std::string closest;
    for (const auto &c : closest_entries(prm, path, 3))
      closest += (closest.empty() ? "'" : ", '") + c + "'";
    // the parent is a list 'name = expression; ...': name its items
    if (parts.size() >= 2)
      {
        const std::vector<std::string> subsection(parts.begin(), parts.end() - 2);
        const ParameterHandler        &read = values ? *values : prm;
        if (entry_declared(read, subsection, parts[parts.size() - 2]))
          {
            std::string items;
            for (const auto &item : Utilities::split_string_list(read.get(subsection, parts[parts.size() - 2]), ';'))
              if (item.find('=') != std::string::npos)
                items += (items.empty() ? "'" : ", '") + Utilities::trim(item.substr(0, item.find('='))) + "'";
            if (!items.empty())
              return "'" + parts[parts.size() - 2] + "' has no item '" + parts.back() + "'; its items are " + items +
                     ". Give one of them, e.g. '" + path.substr(0, path.rfind('/') + 1) +
                     Utilities::trim(items.substr(1, items.find('\'', 1) - 1)) + "'.";
          }
      }
    return "no entry of the parameter file has this path. The closest existing entries are " + closest +
           ". Give the subsections and the entry joined by '/', as 'hamilton --print-parameters' lists them "
           "(e.g. 'Beam/Layers/substrate/Thickness').";
  }

  std::string
  check_entry_value(ParameterHandler &prm, const std::string &path, const std::string &value)
  {
    if (const std::string problem = check_entry_value_text(value); !problem.empty())
      return problem;
    auto parts = split_path(path);
    if (!entry_declared(prm, std::vector<std::string>(parts.begin(), parts.end() - 1), parts.back()))
      {
        // an item of a list 'name = expression; ...' (lumped parameters): a number
        try
          {
            parse_number(value);
          }
        catch (const std::invalid_argument &reason)
          {
            return reason.what();
          }
        return "";
      }
    const std::string entry = parts.back();
    parts.pop_back();
    const std::string original = prm.get(parts, entry);
    for (const auto &p : parts)
      prm.enter_subsection(p);
    std::string requirement;
    try
      {
        prm.set(entry, value);
        prm.set(entry, original);
      }
    catch (const std::exception &)
      {
        std::ostringstream text;
        prm.print_parameters(text, ParameterHandler::OutputStyle(ParameterHandler::JSON));
        const nlohmann::json *node = nullptr;
        const nlohmann::json  tree = nlohmann::json::parse(text.str());
        node                       = &tree;
        for (const auto &p : parts)
          node = &node->at(p);
        const std::string allowed = node->at(entry).value("pattern_description", std::string("?"));
        requirement = value_requirement(allowed, value);
      }
    for (std::size_t i = 0; i < parts.size(); ++i)
      prm.leave_subsection();
    return requirement;
  }

  std::string
  apply_changes(const std::string &text, const std::vector<std::pair<std::string, std::string>> &changes)
  {
    std::vector<std::string> lines;
    {
      std::istringstream in(text);
      std::string        line;
      while (std::getline(in, line))
        lines.push_back(line);
    }
    std::istringstream in(text);
    auto               sets = scan_set_lines(in); // each value as changed so far
    std::string        appended;
    for (const auto &[path, value] : changes)
      {
        auto              parts = split_path(path);
        const std::string entry = parts.back();
        parts.pop_back();
        std::string subsection;
        for (const auto &p : parts)
          subsection += (subsection.empty() ? "" : "/") + p;
        bool replaced = false;
        // the same line numbers: later messages name lines of the file
        const auto replace = [&](SetLine &set, const std::string &name, const std::string &new_value) {
          lines[set.line - 1] = "set " + name + " = " + new_value;
          for (unsigned int l = set.line; l < set.last_line; ++l)
            lines[l].clear();
          set.value = new_value; // a later change of another item of a list starts from this one
          replaced  = true;
        };
        for (auto &set : sets)
          if (set.path == subsection && set.name == entry)
            replace(set, entry, value);
        // an item of a list 'name = expression; ...' (e.g. 'Lumped system/Parameters/R')
        if (!replaced && !parts.empty())
          {
            const std::string list = parts.back();
            const std::string parent =
              subsection.size() > list.size() ? subsection.substr(0, subsection.size() - list.size() - 1) : "";
            for (auto &set : sets)
              if (set.path == parent && set.name == list && list_item(set.value, entry))
                replace(set, list, replace_list_item(set.value, entry, value));
          }
        if (!replaced)
          {
            for (const auto &p : parts)
              appended += "subsection " + p + "\n";
            appended += "set " + entry + " = " + value + "\n";
            for (std::size_t i = 0; i < parts.size(); ++i)
              appended += "end\n";
          }
      }
    std::string result;
    for (const auto &line : lines)
      result += line + "\n";
    return result + appended;
  }

  void
  read_parameter_file(
    ParameterHandler                                                         &prm,
    const std::string                                                        &filename,
    const std::function<void(ParameterHandler &, const ParameterHandler *)> &declare,
    const std::vector<std::pair<std::string, std::string>>                  &changes)
  {
    std::string text;
    {
      std::error_code error;
      if (std::filesystem::is_directory(filename, error))
        throw InputError("The parameter file '" + filename +
                         "' is a directory. Give the path of a .prm file (e.g. '" + filename +
                         "/NAME.prm'); the examples are in prm/.");
      std::ifstream test(filename);
      if (!test)
        throw InputError("Cannot open parameter file '" + filename +
                         "'. Check the path and the permissions.");
      std::ostringstream contents;
      contents << test.rdbuf();
      text = contents.str();
      std::istringstream in(text);
      check_duplicate_entries(in, filename);
    }
    for (const auto &[path, value] : changes)
      if (const std::string problem = check_entry_value_text(value); !problem.empty())
        throw InputError("--set '" + path + "=" + value + "': " + problem);
    text = apply_changes(text, changes);
    // each change names an entry that exists and a value it allows, checked
    // before the file's own messages (a change appended to the text has no
    // line of the file to name); on a lenient pass only the entries declared
    // so far
    const auto check_changes = [&](ParameterHandler &pass, const ParameterHandler *values, const bool strict) {
      for (const auto &[path, value] : changes)
        {
          std::string problem = check_entry_path(pass, path, values);
          if (problem.empty())
            problem = check_entry_value(pass, path, value);
          else if (!strict)
            continue;
          if (!problem.empty())
            throw InputError("--set '" + path + "=" + value + "': " + problem);
        }
    };
    const auto parse = [&](ParameterHandler &pass, const bool skip_undefined) {
      std::istringstream in(text);
      try
        {
          pass.parse_input(in, filename, "", skip_undefined);
        }
      catch (const std::exception &e)
        {
          check_changes(pass, nullptr, false);
          rethrow_parse_error(pass, filename, text, e);
        }
    };
    // lenient passes: the first learns the lists of names, the second what
    // depends on a named item (e.g. a component's type)
    ParameterHandler first, second;
    declare(first, nullptr);
    parse(first, true);
    declare(second, &first);
    parse(second, true);
    declare(prm, &second);
    check_changes(prm, &second, true);
    parse(prm, false);
  }
} // namespace hamilton
