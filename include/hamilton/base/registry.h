#ifndef hamilton_base_registry_h
#define hamilton_base_registry_h

#include <deal.II/base/parameter_handler.h>

#include <cctype>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace hamilton
{
  /**
   * A registry of named plugins of one kind (discretizations, analyses, ...).
   * A plugin registers itself with HAMILTON_REGISTER_PLUGIN in its own source
   * file; the registry then yields the prm Selection pattern, the
   * documentation of the choices, the declaration of each plugin's own
   * parameters, and new instances by name. A choice is spelt in one place.
   */
  template <class Base>
  class Registry
  {
  public:
    struct Entry
    {
      std::string                                     description;
      std::function<std::unique_ptr<Base>()>          create;
      std::function<void(dealii::ParameterHandler &)> declare_parameters;
      /** The plugin's own subsection; empty: the name, capitalized. */
      std::string subsection = {};
    };

    static Registry &
    instance()
    {
      static Registry registry;
      return registry;
    }

    /**
     * Register plugin `name`. A second registration under the same name is a
     * programming error (two plugins, or one linked twice) and throws
     * std::logic_error rather than replacing the first silently.
     */
    bool
    add(const std::string &name, const Entry &entry)
    {
      if (!entries.emplace(name, entry).second)
        throw std::logic_error("Two plugins are registered under the name '" + name +
                               "': give each plugin its own name.");
      return true;
    }

    std::vector<std::string>
    names() const
    {
      std::vector<std::string> result;
      for (const auto &e : entries)
        result.push_back(e.first);
      return result;
    }

    /** "name1|name2|..." for Patterns::Selection / MultipleSelection. */
    std::string
    pattern() const
    {
      std::string result;
      for (const auto &e : entries)
        result += (result.empty() ? "" : "|") + e.first;
      return result;
    }

    /** One line per choice: "'name': description". */
    std::string
    documentation() const
    {
      std::string result;
      for (const auto &e : entries)
        result += " '" + e.first + "': " + e.second.description;
      return result;
    }

    /** Declare every plugin's parameters (each in its own subsection). */
    void
    declare_parameters(dealii::ParameterHandler &prm) const
    {
      for (const auto &e : entries)
        if (e.second.declare_parameters)
          e.second.declare_parameters(prm);
    }

    /** Declare the parameters of plugin `name` only (in the current subsection). */
    void
    declare_parameters_of(const std::string &name, dealii::ParameterHandler &prm) const
    {
      const auto found = entries.find(name);
      if (found != entries.end() && found->second.declare_parameters)
        found->second.declare_parameters(prm);
    }

    bool
    has(const std::string &name) const
    {
      return entries.count(name) > 0;
    }

    /** The subsection that holds the parameters of plugin `name`. */
    std::string
    subsection(const std::string &name) const
    {
      const auto found = entries.find(name);
      if (found != entries.end() && !found->second.subsection.empty())
        return found->second.subsection;
      std::string result = name;
      if (!result.empty())
        result[0] = static_cast<char>(std::toupper(result[0]));
      return result;
    }

    std::unique_ptr<Base>
    create(const std::string &name) const
    {
      const auto found = entries.find(name);
      if (found == entries.end())
        throw std::logic_error("No plugin named '" + name +
                               "' is registered (choices: " + pattern() + ").");
      return found->second.create();
    }

  private:
    std::map<std::string, Entry> entries;
  };
} // namespace hamilton

/**
 * Register class `Class`, derived from `Base`, under `name`. `Class` must have
 * a static `declare_parameters(dealii::ParameterHandler &)`.
 */
#define HAMILTON_REGISTER_PLUGIN(Base, Class, name, description)           \
  HAMILTON_REGISTER_PLUGIN_IN(Base, Class, name, "", description)

/** As HAMILTON_REGISTER_PLUGIN, with the subsection of its parameters. */
#define HAMILTON_REGISTER_PLUGIN_IN(Base, Class, name, subsection, description) \
  namespace                                                               \
  {                                                                       \
    const bool hamilton_registered_##Class =                              \
      ::hamilton::Registry<Base>::instance().add(                         \
        name,                                                             \
        {description,                                                     \
         []() -> std::unique_ptr<Base> { return std::make_unique<Class>(); }, \
         &Class::declare_parameters,                                      \
         subsection});                                                    \
  }

#endif
