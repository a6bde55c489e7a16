// Where a free family starts and what it is called (family_starts.h).
#include "family_starts.h"

#include "continuation_driver.h"
#include "defining_systems.h"
#include "orbit_solver.h"

#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/number_text.h>

#include <algorithm>
#include <limits>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace vibroimpact::periodic
{
  std::string family_name(const ContinuationSettings &settings)
  {
    return "mode " + std::to_string(settings.mode) +
           (settings.cycles > 1 ? ", " + std::to_string(settings.cycles) + " cycles" : std::string());
  }

  namespace
  {
    // The orbit of `flow` at `energy` nearest (x, T): Newton with the energy held.
    std::optional<BranchPoint> at_energy(const PeriodicFlowMap &flow, const ContinuationSettings &settings,
                                         const Vector &x, const double period, const double energy)
    {
      BranchPoint reference;
      reference.state  = x;
      reference.period = period;
      reference.energy = energy;
      OrbitSolver  solver(flow, nullptr, settings, reference);
      const Vector z0 = solver.z(reference);
      return solver.on_plane(z0, Vector::Unit(z0.size(), z0.size() - 1), z0[z0.size() - 1], true);
    }

    // Unilateral springs (elastic contacts, massless nodes' condensed stops): the map's start is
    // mode j alone on the spring, exact for one mode. With
    // every FE mode, Newton from it fails where the spring excites the others much (k = 1e3 at 20
    // elements; 160 elements at k = 100). So the start climbs Galerkin subspaces: Newton at the
    // start's energy on the first 2j, 4j, 8j, ... modes, each level from the last one's orbit with
    // the new modes at rest; the full map's Newton (LOCA's first step) from the last. A level
    // Newton fails on ends the climb there, with the orbit of the level below. Maps without
    // subspaces keep their start.
    std::optional<std::pair<Vector, double>> galerkin_start(const PeriodicFlowMap &flow,
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
          const auto solved = at_energy(*level, settings, orbit->first, orbit->second, level->energy(orbit->first));
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

    // How far a map of softer contacts is below `flow`: the largest relative shortfall of its
    // held-contact frequencies (each grows with the contacts' stiffness, toward the rigid stops'
    // on massless nodes); ≤ 0 once it is as stiff.
    double held_shortfall(const PeriodicFlowMap &softer, const std::vector<double> &target)
    {
      const auto f = softer.held_contact_frequencies();
      double     shortfall = 0.0;
      for (std::size_t i = 0; i < f.size() && i < target.size(); ++i)
        shortfall = std::max(shortfall, 1 - f[i] / target[i]);
      return shortfall;
    }

    // The map with every contact of stiffness e^λ: the maps a start is carried through in λ = ln k.
    class StiffnessMaps : public MapFamily
    {
    public:
      explicit StiffnessMaps(const PeriodicFlowMap &flow)
        : flow_(flow)
      {}
      std::shared_ptr<PeriodicFlowMap> at(const double lambda, bool) override
      {
        ++built_;
        return flow_.with_contact_stiffness(std::exp(lambda));
      }
      unsigned int              n_contacts() const override { return 0; }
      std::pair<double, Vector> contact_gap(double, unsigned int) override
      {
        throw std::logic_error("a start carried in stiffness follows no grazing");
      }
      unsigned long maps_built() const override { return built_; }

    private:
      const PeriodicFlowMap &flow_;
      unsigned long          built_ = 0;
    };

    // The smallest stiffness (to 1 % in ln k) above k whose map's held-contact frequencies reach
    // the case's to 1e-3: the end of the path in stiffness. Infinite where none does below 1e15 k.
    double stiffness_reaching(const PeriodicFlowMap &flow, const double k)
    {
      const auto target  = flow.held_contact_frequencies();
      const auto reaches = [&](double s) { return held_shortfall(*flow.with_contact_stiffness(s), target) < 1e-3; };
      double     low = k, high = 2 * k;
      while (!reaches(high))
        if ((low = high, high *= 2) > 1e15 * k)
          return std::numeric_limits<double>::infinity();
      while (std::log(high / low) > 0.01)
        (reaches(std::sqrt(low * high)) ? high : low) = std::sqrt(low * high);
      return high;
    }

    // The start at settings.start_stiffness, carried at `energy` to the case's contacts: the orbit
    // continued in λ = ln k with its energy held (DefiningSystem of an ordinary orbit, pseudo-arc
    // length by the driver), up to the stiffness whose map is the case's to 1e-3, then Newton
    // onto the case's map itself. It follows the orbit's own curve (the driver refuses correctors
    // that leave it for another orbit of the same energy: stiff contacts have many, in
    // internal-resonance tongues), and stops where the curve turns back in k (a fold: no orbit of
    // this curve on stiffer contacts) or after 200 orbits.
    std::optional<std::pair<Vector, double>> carried_start(const PeriodicFlowMap &flow,
                                                           const ContinuationSettings &settings, const double energy,
                                                           std::string &why)
    {
      const double k0   = settings.start_stiffness;
      const auto   soft = flow.with_contact_stiffness(k0);
      if (!soft)
        throw std::invalid_argument("Continuation/Start stiffness: the " + flow.name() +
                                    " map cannot change its contacts' stiffness");
      const auto say = [&](const std::string &what) {
        if (settings.status)
          settings.status(what);
      };
      const std::string from = "the start carried from contact stiffness " + io::number_text(k0, 3);
      say("start at contact stiffness " + io::number_text(k0, 3));
      // The path is shot on the map (its defining system is shooting's); only the last orbit, on
      // the case's contacts, is solved by the case's method.
      ContinuationSettings way = settings;
      way.method               = PeriodicMethod::shooting;
      way.direction            = 1.0;
      way.max_points           = 200;
      const auto guess = galerkin_start(*soft, way, energy);
      const auto start = guess ? at_energy(*soft, way, guess->first, guess->second, energy) : std::nullopt;
      if (!start)
        return why = "no orbit at Start stiffness " + io::number_text(k0, 3) + " (Newton did not converge)", std::nullopt;
      const double k_end = stiffness_reaching(flow, k0);
      if (!std::isfinite(k_end))
        return why = from + ": no stiffness below 1e15 k gives the case's held-contact frequencies", std::nullopt;
      StiffnessMaps         maps(flow);
      const SecondParameter second{"ln contact stiffness", std::log(k0), std::log(k0), std::log(k_end)};
      DefiningSystem system(*start, true, maps, second, way);
      const double   scale    = system.parameter_scale();
      const auto     progress = [&](const BranchPoint &, unsigned int) {
        say("start carried to contact stiffness " + io::number_text(std::exp(system.points().back().parameter), 3));
      };
      const Branch run  = run_loca(system, way, start->period, 1.0, 1 + (second.max - second.value) / scale, progress);
      const auto  &path = system.points();
      double       k_max = k0;
      for (const auto &p : path)
        k_max = std::max(k_max, std::exp(p.parameter));
      if (path.empty() || path.back().parameter < second.max - 1e-9 * std::abs(second.max))
        return why = from + " reached k = " + io::number_text(k_max, 3) + " of " + io::number_text(k_end, 3) +
                     (!path.empty() && std::exp(path.back().parameter) < k_max
                        ? " and turned back there (a fold in k: at this energy the orbit goes on to no stiffer contact)"
                        : ": " + run.stop_reason),
               std::nullopt;
      say("start carried to the case's contacts");
      const auto reached = at_energy(flow, settings, path.back().state, path.back().period, energy);
      if (!reached)
        return why = from + " reached k = " + io::number_text(k_end, 3) +
                     ", but Newton did not converge on the case's contacts from there",
               std::nullopt;
      // The case's map is the last one's to 1e-3: its orbit lies as near (another method's
      // truncation included); one farther is another orbit of the energy.
      if (std::abs(reached->period / path.back().period - 1) > 0.01)
        return why = from + " reached k = " + io::number_text(k_end, 3) + ", but on the case's contacts Newton " +
                     "landed on another orbit (period " + io::number_text(reached->period, 6) + " against " +
                     io::number_text(path.back().period, 6) + ")",
               std::nullopt;
      return std::make_pair(reached->state, reached->period);
    }
  } // namespace

  std::optional<std::pair<Vector, double>> start_orbit(const PeriodicFlowMap &flow,
                                                       const ContinuationSettings &settings, const double energy,
                                                       std::string *why)
  {
    std::string reason;
    auto        start = settings.start_stiffness > 0 ? carried_start(flow, settings, energy, reason)
                                                     : galerkin_start(flow, settings, energy);
    if (why)
      *why = reason;
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
