// Where a free family starts and what it is called (family_starts.h).
#include "family_starts.h"

#include "orbit_solver.h"

#include <vibroimpact/io/interrupt.h>

#include <sstream>

namespace vibroimpact::periodic
{
  std::string family_name(const ContinuationSettings &settings)
  {
    return "mode " + std::to_string(settings.mode) +
           (settings.cycles > 1 ? ", " + std::to_string(settings.cycles) + " cycles" : std::string());
  }

  // Unilateral springs (elastic contacts, massless nodes' condensed stops): the map's start is
  // mode j alone on the spring, exact for one mode. With
  // every FE mode, Newton from it fails where the spring excites the others much (k = 1e3 at 20
  // elements; 160 elements at k = 100). So the start climbs Galerkin subspaces: Newton at the
  // start's energy on the first 2j, 4j, 8j, ... modes, each level from the last one's orbit with
  // the new modes at rest; the full map's Newton (LOCA's first step) from the last. A level
  // Newton fails on ends the climb there, with the orbit of the level below. Maps without
  // subspaces keep their start.
  std::optional<std::pair<Vector, double>> start_orbit(const PeriodicFlowMap &flow,
                                                       const ContinuationSettings &settings, const double energy)
  {
    auto start = flow.one_impact_orbit(settings.mode, energy, settings.cycles);
    unsigned int modes = 2 * settings.mode;
    auto         level = start && settings.cycles == 1 ? flow.on_first_modes(modes) : nullptr;
    if (!level)
      return start;
    auto orbit = level->one_impact_orbit(settings.mode, energy, 1);
    while (level && orbit && io::interrupt_signal() == 0)
      {
        BranchPoint reference;
        reference.state  = orbit->first;
        reference.period = orbit->second;
        reference.energy = level->energy(orbit->first);
        OrbitSolver  solver(*level, nullptr, settings, reference);
        const Vector z0     = solver.z(reference);
        const auto   solved = solver.on_plane(z0, Vector::Unit(z0.size(), z0.size() - 1), z0[z0.size() - 1], true);
        if (!solved)
          break;
        start = std::make_pair(flow.from_first_modes(solved->state), solved->period);
        modes *= 2;
        auto next = flow.on_first_modes(modes);
        orbit     = next ? std::make_optional(std::make_pair(next->from_first_modes(solved->state), solved->period))
                         : std::nullopt;
        level     = std::move(next);
      }
    return start;
  }

  // The symmetric orbit near a grazing linear mode is an orbit of the impact system only if the
  // flow from it meets the stop once, at T/2: one that meets it again inside (a subharmonic one
  // can, like mode 1 of the 2-DOF chain over two periods) means no family leaves there. One that
  // meets it once but does not return (its two conditions have no exact solution with many
  // modes, e.g. the beam with all FE modes) is still Newton's start.
  std::optional<Branch> inadmissible_start(const PeriodicFlowMap &flow, const ContinuationSettings &settings,
                                           const Vector &x0, const double period)
  {
    const FlowResult once    = flow.flow(x0, period, 0.0, false);
    unsigned int     impacts = 0;
    for (const auto &event : once.events)
      impacts += event.kind == ContactEvent::Kind::impact ? 1 : 0;
    const double return_error = (once.x - x0).norm() / std::max(x0.norm(), 1e-300);
    if (impacts <= 1)
      return std::nullopt;
    Branch branch;
    branch.family           = family_name(settings);
    branch.failed           = true;
    branch.flow_evaluations = once.evaluations;
    std::ostringstream reason;
    reason << "no family: the symmetric one-impact orbit of period " << period << " near the grazing mode meets the "
           << "stop " << impacts << " times (returns to " << return_error << "), it penetrates inside its period";
    branch.stop_reason = reason.str();
    return branch;
  }
} // namespace vibroimpact::periodic
