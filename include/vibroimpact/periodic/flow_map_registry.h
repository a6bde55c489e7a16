// The period maps that `vibroimpact continue` shoots on, by the name a case file gives as
// Continuation/Flow map. A map registers itself at the end of its own .cc, as solvers do
// (integrators/solver.h):
//
//   namespace
//   {
//     const periodic::FlowMapRegistration registration{
//       "my-map", "one line for the documentation of Continuation/Flow map",
//       [](const periodic::FlowMapInput &in) { return std::make_unique<MyMap>(in.model, ...); }};
//   }
//
// and the parameter's choices, its documentation and make_flow_map then find it, with no other
// file changed. Registered: event-driven (LinearImpactFlow), moreau-jean (MoreauJeanFlow).
#pragma once

#include <vibroimpact/periodic/flow_map.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace vibroimpact::model
{
  struct StructuralModel;
}
namespace vibroimpact::integrators
{
  struct MoreauJeanSettings;
}

namespace vibroimpact::periodic
{
  struct ContinuationCase;

  // What a map is built from: the model, the Continuation subsection (each map reads its own
  // entries there) and the Moreau-Jean subsection (its time step, and the energy correction that
  // every map with impacts shares).
  struct FlowMapInput
  {
    const model::StructuralModel          &model;
    const ContinuationCase                &continuation;
    const integrators::MoreauJeanSettings &moreau_jean;
  };

  // What a map takes beyond the model, for the checks made before it is built (no code outside
  // a map's own file names it).
  struct FlowMapProperties
  {
    // Condenses massless contact nodes (Continuation/Massless contact nodes).
    bool massless_contact_nodes = false;
    // The map Continuation/Flow map names when a case does not (one map says so).
    bool is_default = false;
  };

  class FlowMapRegistry
  {
  public:
    using Factory = std::function<std::unique_ptr<PeriodicFlowMap>(const FlowMapInput &)>;

    // Registered names, in alphabetical order.
    static std::vector<std::string> names();
    static bool                     contains(const std::string &name);
    // "name: description; ..." over every map, for the documentation of Continuation/Flow map.
    static std::string documentation();
    // Throws std::invalid_argument for an unknown name, and whatever the map's constructor throws
    // (std::invalid_argument for a model it cannot represent).
    static std::unique_ptr<PeriodicFlowMap> create(const std::string &name, const FlowMapInput &input);
    static void add(const std::string &name, const std::string &description, Factory factory,
                    FlowMapProperties properties = {});
    // Throws std::invalid_argument for an unknown name.
    static const FlowMapProperties &properties(const std::string &name);
    // The map registered with FlowMapProperties::is_default (std::logic_error if none).
    static std::string default_name();
  };

  // Registers a map when the library (or program) that holds it loads.
  struct FlowMapRegistration
  {
    FlowMapRegistration(const std::string &name, const std::string &description, FlowMapRegistry::Factory factory,
                        FlowMapProperties properties = {})
    {
      FlowMapRegistry::add(name, description, std::move(factory), properties);
    }
  };

  // The map input.continuation.flow_map names, built from the input. A model the map cannot
  // represent throws io::InputError naming Continuation/Flow map, or the entry a map's refusal
  // begins with ("Continuation/<Entry>: reason", "Contact <name>/Stiffness: reason"), or
  // Continuation/Massless contact nodes for the condensation's refusals.
  std::unique_ptr<PeriodicFlowMap> make_flow_map(const FlowMapInput &input);
} // namespace vibroimpact::periodic
