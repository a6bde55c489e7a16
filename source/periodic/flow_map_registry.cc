// The registry of period maps by name (flow_map_registry.h), and the one way the continuation
// builds the map a case file names.
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/periodic/continuation_parameters.h>
#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/periodic/flow_map_registry.h>

#include <map>
#include <stdexcept>

namespace vibroimpact::periodic
{
  namespace
  {
    struct Entry
    {
      std::string               description;
      FlowMapRegistry::Factory factory;
      FlowMapProperties         properties;
    };

    // Filled by the registrations while the library loads (a function-local static, so that it
    // exists before the first of them, whatever the order of the files).
    std::map<std::string, Entry> &entries()
    {
      static std::map<std::string, Entry> map;
      return map;
    }
  } // namespace

  std::vector<std::string> FlowMapRegistry::names()
  {
    std::vector<std::string> names;
    for (const auto &[name, entry] : entries())
      names.push_back(name);
    return names;
  }

  bool FlowMapRegistry::contains(const std::string &name) { return entries().count(name) > 0; }

  std::string FlowMapRegistry::documentation()
  {
    std::string text;
    for (const auto &[name, entry] : entries())
      text += (text.empty() ? "" : "; ") + name + ": " + entry.description;
    return text + ".";
  }

  std::unique_ptr<PeriodicFlowMap> FlowMapRegistry::create(const std::string &name, const FlowMapInput &input)
  {
    const auto it = entries().find(name);
    if (it == entries().end())
      throw std::invalid_argument("no flow map named '" + name + "'");
    return it->second.factory(input);
  }

  const FlowMapProperties &FlowMapRegistry::properties(const std::string &name)
  {
    const auto it = entries().find(name);
    if (it == entries().end())
      throw std::invalid_argument("no flow map named '" + name + "'");
    return it->second.properties;
  }

  std::string FlowMapRegistry::default_name()
  {
    for (const auto &[name, entry] : entries())
      if (entry.properties.is_default)
        return name;
    throw std::logic_error("no flow map registered as the default");
  }

  void FlowMapRegistry::add(const std::string &name, const std::string &description, Factory factory,
                            const FlowMapProperties properties)
  {
    if (!entries().emplace(name, Entry{description, std::move(factory), properties}).second)
      throw std::logic_error("two flow maps registered as '" + name + "'");
  }

  std::unique_ptr<PeriodicFlowMap> make_flow_map(const FlowMapInput &input)
  {
    const auto &c = input.continuation;
    // No period map follows tubes in space yet: one line, before any work.
    if (!input.model.spatial_supports.empty())
      throw io::InputError(c.filename, "Continuation/Flow map",
                           "'" + c.flow_map + "' cannot take spatial supports (Support " +
                             input.model.spatial_supports.front().name + "): no period map handles them yet");
    if (c.event_driven.massless_contact_nodes && !FlowMapRegistry::properties(c.flow_map).massless_contact_nodes)
      {
        std::string condensing;
        for (const auto &[name, entry] : entries())
          if (entry.properties.massless_contact_nodes)
            condensing += (condensing.empty() ? "" : " or ") + name;
        throw io::InputError(c.filename, "Continuation/Massless contact nodes", "needs Flow map = " + condensing);
      }
    try
      {
        return FlowMapRegistry::create(c.flow_map, input);
      }
    catch (const std::invalid_argument &e)
      {
        // The condensation's refusals (their text starts with the parameter's name) belong to it.
        const std::string prefix = "massless contact nodes: ", what = e.what();
        if (what.rfind(prefix, 0) == 0)
          throw io::InputError(c.filename, "Continuation/Massless contact nodes", what.substr(prefix.size()));
        // A Continuation entry a map refuses ("Continuation/<Entry>: ...") is named as such.
        const auto colon = what.find(": ");
        if (what.rfind("Continuation/", 0) == 0 && colon != std::string::npos)
          throw io::InputError(c.filename, what.substr(0, colon), what.substr(colon + 2));
        // A contact's own entry ("Contact <name>/Stiffness: ...") is named as such.
        const auto entry_end = what.find("/Stiffness: ");
        if (what.rfind("Contact ", 0) == 0 && entry_end != std::string::npos)
          throw io::InputError(c.filename, what.substr(0, entry_end + 10), what.substr(entry_end + 12));
        throw io::InputError(c.filename, "Continuation/Flow map", what);
      }
  }
} // namespace vibroimpact::periodic
