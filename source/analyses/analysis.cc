#include <hamilton/analyses/analysis.h>

#include <cmath>
#include <iomanip>
#include <sstream>

namespace hamilton
{
  using namespace dealii;

  void
  Analysis::declare_parameters_of_all(ParameterHandler &prm)
  {
    const auto &registry = AnalysisRegistry::instance();
    prm.enter_subsection("Analysis");
    prm.declare_entry("Analyses",
                      "modal",
                      Patterns::MultipleSelection(registry.pattern()),
                      "Comma-separated list of the analyses to run, in this "
                      "order. Choices:" +
                        registry.documentation());
    registry.declare_parameters(prm);
    prm.leave_subsection();
  }

  std::vector<std::pair<std::string, std::unique_ptr<Analysis>>>
  Analysis::create_selected(Section &section)
  {
    Section::Scope scope(section, "Analysis");
    std::vector<std::pair<std::string, std::unique_ptr<Analysis>>> result;
    for (const auto &name : section.get_names("Analyses"))
      {
        auto analysis = AnalysisRegistry::instance().create(name);
        Section::Scope own(section, AnalysisRegistry::instance().subsection(name));
        analysis->parse_parameters(section);
        result.emplace_back(name, std::move(analysis));
      }
    return result;
  }

  std::vector<double>
  get_number_list(const Section &s, const std::string &entry, std::size_t max_count)
  {
    const std::string text = Utilities::trim(s.get(entry));
    const std::string forms =
      "Give numbers 'a, b, c', 'linspace(start, stop, count)' or 'logspace(e1, e2, count)'.";
    for (const std::string function : {"linspace(", "logspace("})
      if (text.rfind(function, 0) == 0 && !text.empty() && text.back() == ')')
        {
          const auto args = split_list(text.substr(function.size(), text.size() - function.size() - 1));
          if (args.size() != 3)
            s.fail(entry, function + "...) takes three arguments (start, stop, count). " + forms);
          double count = 0;
          try
            {
              count = Utilities::string_to_double(args[2]);
            }
          catch (...)
            {
              s.fail(entry, "the count '" + args[2] + "' is not a number. " + forms);
            }
          if (!(count >= 1) || count != std::floor(count))
            s.fail(entry, "the count '" + args[2] + "' must be a whole number >= 1.");
          if (count > double(max_count))
            s.fail(entry, "asks for " + format_number(count) + " values, more than the " +
                            std::to_string(max_count) + " allowed here. Give fewer values.");
        }
    std::vector<double> values;
    try
      {
        values = parse_number_list(text);
      }
    catch (const std::exception &)
      {
        s.fail(entry, "is not a list of numbers. " + forms);
      }
    if (values.size() > max_count)
      s.fail(entry, "has " + std::to_string(values.size()) + " values, more than the " + std::to_string(max_count) +
                      " allowed here. Give fewer values.");
    for (const double v : values)
      if (!std::isfinite(v))
        s.fail(entry, "gives the value " + format_number(v) +
                        ", which is not a finite number (10^e overflows for e > 308). Give finite values.");
    return values;
  }

  double
  get_bounded_double(const Section &s, const std::string &entry, double bound, const std::string &unit)
  {
    const double value = s.get_double(entry);
    if (!std::isfinite(value) || std::abs(value) > bound)
      s.fail(entry, "is out of range: its magnitude must be at most " +
                      format_number(bound) + " " + unit + " (larger values overflow the results).");
    return value;
  }

  namespace
  {
    // The first non-finite number in a JSON document, as a path; empty if none.
    std::string
    first_non_finite(const nlohmann::json &j, const std::string &where)
    {
      if (j.is_number_float() && !std::isfinite(j.get<double>()))
        return where;
      if (j.is_object())
        for (auto it = j.begin(); it != j.end(); ++it)
          {
            const std::string found = first_non_finite(it.value(), where + "/" + it.key());
            if (!found.empty())
              return found;
          }
      if (j.is_array())
        for (std::size_t i = 0; i < j.size(); ++i)
          {
            const std::string found = first_non_finite(j[i], where + "[" + std::to_string(i) + "]");
            if (!found.empty())
              return found;
          }
      return "";
    }
  } // namespace

  void
  require_finite(const AnalysisResult &result, const std::string &path, const std::string &cause)
  {
    const auto stop = [&](const std::string &where, double value) {
      throw InputError("In subsection '" + path + "': the result " + where + " is " +
                       (std::isnan(value) ? std::string("not a number") : format_number(value)) +
                       ", not a finite number, so nothing is written. " + cause);
    };
    for (const auto &table : result.tables())
      for (std::size_t r = 0; r < table.rows.size(); ++r)
        for (std::size_t c = 0; c < table.rows[r].size(); ++c)
          if (!std::isfinite(table.rows[r][c]))
            stop("'" + (c < table.columns.size() ? table.columns[c] : std::to_string(c)) + "' in row " +
                   std::to_string(r + 1) + " of table '" + table.name + "'" +
                   (c > 0 && !table.rows[r].empty() && !table.columns.empty() ?
                      " (" + table.columns[0] + " = " + format_number(table.rows[r][0]) + ")" :
                      ""),
                 table.rows[r][c]);
    for (const auto &[group, fields] : result.fields())
      for (const auto &field : fields)
        for (const double v : field.values)
          if (!std::isfinite(v))
            stop("field '" + field.name + "'", v);
    nlohmann::json j;
    result.add_to_json(j);
    const std::string where = first_non_finite(j, "");
    if (!where.empty())
      stop("'" + where + "' of results.json", std::nan(""));
    for (const auto &[name, document] : result.documents())
      {
        const std::string in_document = first_non_finite(document, "");
        if (!in_document.empty())
          stop("'" + in_document + "' of " + name, std::nan(""));
      }
  }
} // namespace hamilton
