// The "Continuation" subsection of a case file: which period map (by its name in
// FlowMapRegistry) and its settings, which families, the bounds and the Newton and step settings
// of `vibroimpact continue`, bound through io::ParameterSection.
#pragma once

#include <vibroimpact/periodic/continuation.h>
#include <vibroimpact/periodic/flow_map_registry.h>
#include <vibroimpact/periodic/linear_impact_flow.h>

#include <algorithm>
#include <string>
#include <vector>

namespace vibroimpact::io
{
  class ParameterSection;
}
namespace vibroimpact::model
{
  struct StructuralModel;
}

namespace vibroimpact::periodic
{
  enum class OrbitKind
  {
    free,  // autonomous families leaving linear modes, continued in energy
    forced // periodic response to the harmonic load, continued in its frequency
  };

  enum class StartKind
  {
    linear_mode, // from grazing of the family's linear mode (free families)
    simulation,  // from the orbit a simulation of the model's initial state settles on
    simulated_mode, // from the orbit a simulation of each family's linear mode settles on
    initial_state   // Newton from the model's initial state with Start period (a closed-form guess)
  };

  struct ContinuationCase
  {
    std::string               filename;
    bool                      section_given = true; // false: the case file has no Continuation section
    std::string               flow_map = FlowMapRegistry::default_name();
    OrbitKind                 kind = OrbitKind::free;
    std::vector<double>       families{1}; // linear modes the free families leave
    // Per family (the last repeats): one impact every this many periods of its linear mode.
    std::vector<double>       cycles{1};

    // Family f's number of cycles.
    unsigned int cycles_of(std::size_t f) const
    {
      return cycles.empty() ? 1u : static_cast<unsigned int>(cycles[std::min(f, cycles.size() - 1)]);
    }
    LinearImpactFlowSettings  event_driven;
    unsigned int              steps_per_period = 512; // Moreau–Jean map; 0: T / Moreau-Jean/Time step
    StartKind                 start = StartKind::linear_mode;
    double                    simulation_time = 200;
    double                    start_period    = 0.0; // Start = initial state
    ContinuationSettings      settings;
    double                    max_energy_factor = 100; // × the family's grazing energy, when Maximum energy = 0
    std::vector<double>       orbit_points;            // branch points whose orbit is written
    unsigned int              orbit_samples = 200;
    double                    sampling_phase = 0.0; // branch.csv's probe columns at t = phase T
    // Curves of special points in two parameters (special_point_curves.h): the kinds followed,
    // the case entry continued in ("Load F/Amplitude") and its lowest and highest value.
    std::vector<SpecialPoint> follow;
    std::string               second_parameter;
    std::vector<double>       second_parameter_range;

    static constexpr unsigned int min_steps_per_period = 16;
  };

  void bind_continuation_parameters(io::ParameterSection &section, ContinuationCase &c);
  // What needs the model: a contact, a load for forced orbits, families among the modes.
  void check_continuation(const ContinuationCase &c, const model::StructuralModel &model);
} // namespace vibroimpact::periodic
