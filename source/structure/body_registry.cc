// The registry of body kinds (beam, rod, mass, ...): each kind adds itself from its own .cc;
// make_body builds the kind a description names.
#include <vibroimpact/structure/body.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace vibroimpact::structure
{
  namespace
  {
    // A function-local static: registrations run from static initialisers of other translation
    // units, in an order the language does not fix. A map keeps every kind (and its name, which
    // BodyType values refer to) at one address.
    std::map<std::string, BodyKind> &registered_kinds()
    {
      static std::map<std::string, BodyKind> map;
      return map;
    }
  } // namespace

  std::vector<const BodyKind *> BodyKindRegistry::kinds()
  {
    std::vector<const BodyKind *> out;
    for (const auto &entry : registered_kinds())
      out.push_back(&entry.second);
    std::stable_sort(out.begin(), out.end(), [](const BodyKind *a, const BodyKind *b) { return a->listing < b->listing; });
    return out;
  }

  const BodyKind &BodyKindRegistry::find(const BodyType type)
  {
    const auto it = registered_kinds().find(std::string(type.name()));
    if (it == registered_kinds().end())
      throw std::invalid_argument("no body kind named '" + std::string(type.name()) + "'");
    return it->second;
  }

  BodyType BodyKindRegistry::point_mass()
  {
    for (const auto &[name, kind] : registered_kinds())
      if (kind.traits.point)
        return BodyType(kind.name); // the map's copy: lives as long as the program
    throw std::logic_error("no point-mass body kind registered");
  }

  const BodyKindTraits &Body::kind_traits() const { return BodyKindRegistry::find(description_.type).traits; }

  std::vector<Body::InitialExpressions> Body::initial_expressions() const
  {
    return {{BodyField::primary, description_.initial_displacement, description_.initial_velocity,
             "Initial displacement", "Initial velocity"}};
  }

  std::vector<std::pair<std::string, double>> Body::material_data() const
  {
    const auto &kind = kind_traits();
    if (kind.point)
      return {{"Mass", description_.mass_per_length}};
    return {{"Length", description_.length},
            {kind.bending ? "Bending stiffness" : "Axial stiffness", description_.stiffness},
            {"Mass per unit length", description_.mass_per_length}};
  }

  void BodyKindRegistry::add(BodyKind kind)
  {
    const std::string name = kind.name;
    if (!registered_kinds().emplace(name, std::move(kind)).second)
      throw std::logic_error("two body kinds registered as '" + name + "'");
  }

  std::unique_ptr<Body> make_body(const BodyDescription &description,
                                  const std::string     &case_file,
                                  const std::string     &mesh_directory)
  {
    return BodyKindRegistry::find(description.type).make(description, case_file, mesh_directory);
  }
} // namespace vibroimpact::structure
