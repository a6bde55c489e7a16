// Free (conservative) families (continuation.h): from near a grazing linear mode or from a guess,
// continued by the driver with restarts, past internal-resonance tongues where asked, or scanned
// in energy on maps whose periods are whole steps.
#include "branch_switching.h"
#include "continuation_driver.h"
#include "family_starts.h"
#include "restarts.h"
#include "shooting_problem.h"
#include "tongue_families.h"

#include <vibroimpact/io/interrupt.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace vibroimpact::periodic
{
  namespace
  {
    // A family of a map whose periods are whole steps (scanned_in_energy): its orbit at each of
    // max_points energies log-spaced from `from` to the energy bound, each found by the map
    // without Newton (the reversible start and its return), no LOCA. Its monodromy is a signed
    // permutation (orthogonal): every multiplier has modulus 1, reported as such.
    Branch scan_free_family(const PeriodicFlowMap &flow, const ContinuationSettings &settings, const double from,
                            const ProgressCallback &progress)
    {
      Branch branch;
      branch.family = family_name(settings);
      if (!(from > 0))
        throw std::invalid_argument("a family scanned in energy needs a start of positive energy (the start state "
                                    "has E = " + std::to_string(from) + ")");
      if (!std::isfinite(settings.max_energy) || !(settings.max_energy > from))
        throw std::invalid_argument("a family scanned in energy runs from its start (E = " + std::to_string(from) +
                                    ") up to the energy bound (Maximum energy, or Maximum energy factor × the "
                                    "grazing energy), which must lie above it");
      const unsigned int n = std::max(2u, settings.max_points);
      for (unsigned int k = 0; k < n; ++k)
        {
          if (const int signal = io::interrupt_signal(); signal != 0)
            {
              branch.stop_reason = "interrupted by signal " + std::to_string(signal);
              return branch;
            }
          const double energy = from * std::pow(settings.max_energy / from, double(k) / (n - 1));
          const auto   orbit  = flow.one_impact_orbit(settings.mode, energy, settings.cycles);
          if (!orbit)
            {
              branch.failed      = true;
              branch.stop_reason = "no orbit returns from the state of rest at E = " + std::to_string(energy);
              return branch;
            }
          const FlowResult result = flow.flow(orbit->first, orbit->second, 0.0, false);
          ++branch.flow_evaluations;
          BranchPoint p;
          p.state          = orbit->first;
          p.period         = orbit->second;
          p.frequency      = 2 * M_PI / p.period;
          p.energy         = flow.energy(p.state);
          p.residual       = (result.x - p.state).norm() / std::max(p.state.norm(), 1e-300);
          p.max_multiplier = 1.0;
          p.stable         = true;
          p.min_gap        = result.min_gap;
          p.grazing_gap    = result.grazing_gap;
          count_contact_events(p, result.events);
          // No penetration (the map holds a contact on or short of its stop, Signorini each step).
          p.admissible = result.min_gap >= -1e-12 * std::max(1.0, std::abs(result.min_gap));
          branch.points.push_back(p);
          if (progress)
            progress(branch.points.back(), k);
        }
      branch.stop_reason = "energy bound (scanned)";
      return branch;
    }

    // A family from a guess (x0, period): the driver with restarts, or the scan of a map whose
    // periods are whole steps.
    Branch traced_free_family(const PeriodicFlowMap &flow, const ContinuationSettings &settings, const Vector &x0,
                              const double period, const ProgressCallback &progress)
    {
      if (flow.scanned_in_energy()) // only the guess's energy matters: the map finds its orbits
        return scan_free_family(flow, settings, flow.energy(x0), progress);
      Branch branch = run_with_restarts(flow, nullptr, settings, x0, period, flow.energy(x0), settings.min_energy,
                                        settings.max_energy, progress);
      branch.family = family_name(settings);
      return branch;
    }

    // The family leaving linear mode settings.mode, past its tongues where asked.
    Branch family_from_mode(const PeriodicFlowMap &flow, const ContinuationSettings &settings,
                            const ProgressCallback &progress)
    {
      if (flow.scanned_in_energy())
        return scan_free_family(flow, settings, settings.start_energy_factor * flow.grazing_energy(settings.mode),
                                progress);
      const double graze = flow.grazing_energy(settings.mode);
      if (!std::isfinite(graze))
        throw std::invalid_argument("linear mode " + std::to_string(settings.mode) + " never reaches a contact");
      // Above grazing, start on the impacting orbit itself where the map knows it: Newton from the
      // linear mode does not cross the grazing point (the map's Jacobian grows like 1/U− there).
      // Below grazing, a fundamental family that first dips in energy (the 2-DOF chain's mode 1, by
      // 0.14 %) starts on its impacting orbit there, before its fold; otherwise on the linear mode.
      const double energy = settings.start_energy_factor * graze;
      std::string  carried_failure;
      if (settings.start_energy_factor != 1 || settings.cycles > 1)
        if (const auto start = start_orbit(flow, settings, energy, &carried_failure);
            start && (settings.start_energy_factor > 1 || settings.cycles > 1 || flow.energy(start->first) < graze))
          {
            ContinuationSettings away = settings;
            away.direction            = flow.energy(start->first) >= graze ? 1.0 : -1.0;
            if (auto refused = inadmissible_start(flow, away, start->first, start->second))
              return *refused;
            Branch branch = traced_free_family(flow, away, start->first, start->second, progress);
            if (settings.tongue_jump > 0 && settings.cycles == 1)
              {
                const auto tongues = continue_past_tongues(flow, away, energy, branch, progress);
                if (settings.tongue_family_points > 0)
                  trace_tongue_families(flow, away, energy, tongues, branch, progress);
              }
            return branch;
          }
      if (!carried_failure.empty())
        {
          Branch branch;
          branch.family      = family_name(settings);
          branch.failed      = true;
          branch.stop_reason = carried_failure;
          return branch;
        }
      if (settings.cycles > 1)
        throw std::invalid_argument("mode " + std::to_string(settings.mode) + " with " +
                                    std::to_string(settings.cycles) +
                                    " cycles: the map knows no one-impact orbit to start from (e = 1, undamped, rigid "
                                    "contacts only)");
      return traced_free_family(flow, settings, flow.linear_mode_state(settings.mode, energy),
                                flow.linear_period(settings.mode), progress);
    }
  } // namespace

  Branch continue_free_family(const PeriodicFlowMap &flow, const ContinuationSettings &settings,
                              const ProgressCallback &progress)
  {
    Branch branch = family_from_mode(flow, settings, progress);
    switch_branches(flow, nullptr, settings, branch, progress_after(progress, branch.points.size()));
    return branch;
  }

  Branch continue_free_family(const PeriodicFlowMap &flow, const ContinuationSettings &settings,
                              const Vector &x0, const double period, const ProgressCallback &progress)
  {
    Branch branch = traced_free_family(flow, settings, x0, period, progress);
    switch_branches(flow, nullptr, settings, branch, progress_after(progress, branch.points.size()));
    return branch;
  }
} // namespace vibroimpact::periodic
