// Restarts past where LOCA fails (restarts.h).
#include "restarts.h"

#include "back_traces.h"
#include "branch_tests.h"
#include "continuation_driver.h"
#include "orbit_solver.h"
#include "special_points.h"

#include <vibroimpact/io/interrupt.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace vibroimpact::periodic
{
  namespace
  {
    // One way past the point where LOCA failed: LOCA from a guess (the last orbit, or one through
    // the located grazing) at a parameter value, kept going while its first orbit is accepted.
    struct RestartAttempt
    {
      Vector state;
      double period, parameter, direction;
      // Its first orbit has to differ from the stretch just traced in impacts or sticking phases
      // (a start that is the other side of a grazing, not the way back).
      bool other_side;
    };

    // The ways past the end of a stretch (`stretch`, its points in order) at `end` (its located
    // grazing, or its last orbit): onward by Restart jump from it; from the stretch's orbit at
    // 10⁻⁴, 10⁻³ and 10⁻² of the parameter before it (Newton from the grazing orbit itself, where
    // the map's Jacobian is unbounded, can fail), onward the same, and that orbit reflected through
    // the end (2 x_end − x),
    // at the parameter continued (the other side going on: an impact gained) and at the parameter
    // turned back (a nonsmooth fold: the orbit with one impact fewer or more leaves the way the
    // branch came, as the unstable one-impact orbit of a forced oscillator meeting the orbit
    // without impacts); turned back by Restart jump; onward by 10× and 100× that.
    std::vector<RestartAttempt> restart_attempts(const std::vector<BranchPoint> &stretch, const BranchPoint &end,
                                                 const bool free, const double onward, const double jump)
    {
      const double                pe = branch_parameter(end, free);
      std::vector<RestartAttempt> attempts{{end.state, end.period, pe * (1 + onward * jump), onward, false}};
      for (const double distance : {1e-4, 1e-3, 1e-2})
        {
          // The stretch's point nearest that far before the end.
          const BranchPoint *before = nullptr;
          for (const auto &p : stretch)
            if (std::abs(branch_parameter(p, free) - pe) >= distance * std::abs(pe))
              before = &p;
          if (before == nullptr)
            continue;
          const double pb      = branch_parameter(*before, free);
          const Vector through = 2 * end.state - before->state;
          const double period  = 2 * end.period - before->period;
          attempts.push_back({before->state, before->period, pe * (1 + onward * jump), onward, false});
          attempts.push_back({through, period, 2 * pe - pb, onward, true});
          attempts.push_back({through, period, pb, -onward, true});
        }
      attempts.push_back({end.state, end.period, pe * (1 - onward * jump), -onward, true});
      // Further on, from the end and from the stretch's orbit farthest before it.
      const BranchPoint &first = stretch.front();
      for (const double factor : {10.0, 100.0})
        for (const BranchPoint *start : {&end, &first})
          attempts.push_back({start->state, start->period, pe * (1 + factor * onward * jump), onward, false});
      return attempts;
    }

    // A free family's ways past where LOCA failed: onward from its last orbit by Restart jump,
    // 10× and 100× that (its grazings gain an impact going on; the forced response's turns of
    // restart_attempts are not needed there, and its restarts keep to what the tests of the
    // conservative families measured).
    std::vector<RestartAttempt> onward_attempts(const BranchPoint &last, const double onward, const double jump)
    {
      std::vector<RestartAttempt> attempts;
      for (const double factor : {1.0, 10.0, 100.0})
        attempts.push_back({last.state, last.period, last.energy * (1 + factor * onward * jump), onward, false});
      return attempts;
    }

    // A located grazing that was located before (same contacts, parameter to 1e-8): the branch
    // has come round (a closed loop of chatter orbits) and would go round again.
    bool closes_on_itself(const std::vector<BranchPoint> &points, const BranchPoint &grazing, const bool free)
    {
      const double here = branch_parameter(grazing, free);
      return std::any_of(points.begin(), points.end(), [&](const BranchPoint &p) {
        return (p.special == SpecialPoint::grazing || p.special == SpecialPoint::chatter_sticking) && same_contacts(p, grazing) &&
               std::abs(branch_parameter(p, free) - here) <= 1e-8 * std::abs(here);
      });
    }

    // The stretch the last LOCA run ended on: its points back to the last change of contacts or
    // restart. A last point across a change of contacts (LOCA stepped over the kink on a step
    // shorter than Grazing step and failed after it) is dropped: the located kink replaces it.
    std::vector<BranchPoint> last_stretch(Branch &branch, const bool free)
    {
      auto &points = branch.points;
      if (!free && points.size() >= 2 && !same_contacts(points[points.size() - 2], points.back()) && !points.back().restarted)
        points.pop_back();
      std::size_t first = points.size() - 1;
      while (first > 0 && same_contacts(points[first - 1], points.back()) && !points[first].restarted)
        --first;
      return {points.begin() + static_cast<std::ptrdiff_t>(first), points.end()};
    }

    // The first restart attempt whose first orbit is accepted (near the end, on the other side
    // where asked), continued by LOCA; else, for a forced response, the first that converged
    // anywhere, marked `jumped` (a visible break), where the settings allow jumps.
    std::optional<Branch> restart_past(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                                       const ContinuationSettings &settings, const std::vector<RestartAttempt> &attempts,
                                       const BranchPoint &end, const std::size_t offset, const double parameter_min,
                                       const double parameter_max, unsigned long &evaluations,
                                       const ProgressCallback &progress)
    {
      const bool free = forced_flow == nullptr;
      for (const bool allow_far : {false, true})
        for (const auto &attempt : attempts)
          {
            if (attempt.parameter > parameter_max || attempt.parameter < parameter_min || io::interrupt_signal() != 0 ||
                (allow_far && (free || attempt.other_side || !settings.jump_past_failures)))
              continue;
            ContinuationSettings here = settings;
            here.direction            = attempt.direction;
            here.max_points           = settings.max_points - static_cast<unsigned int>(offset);
            const auto shifted        = [&](const BranchPoint &p, unsigned int k) {
              if (k == 0)
                {
                  const bool far = !near_last(end, p);
                  if ((far && !allow_far) || (attempt.other_side && same_contacts(p, end)))
                    throw StopContinuation{"restart rejected", false, true};
                }
              if (progress)
                progress(p, static_cast<unsigned int>(offset + k));
            };
            Branch part = run_loca(flow, forced_flow, here, attempt.state, attempt.period, attempt.parameter,
                                   parameter_min, parameter_max, shifted);
            evaluations += part.flow_evaluations;
            if (part.points.empty())
              continue;
            if (!free)
              trace_start_back(flow, forced_flow, settings, attempt.direction, end, part, offset, evaluations,
                               progress);
            part.points.front().restarted = true;
            part.points.front().jumped    = allow_far;
            return part;
          }
      return std::nullopt;
    }

  } // namespace

  Branch run_with_restarts(const PeriodicFlowMap &flow, PeriodicFlowMap *forced_flow,
                           const ContinuationSettings &settings, Vector x0, double period, double parameter,
                           const double parameter_min, const double parameter_max, const ProgressCallback &progress)
  {
    const bool free  = forced_flow == nullptr;
    Branch     total = run_loca(flow, forced_flow, settings, x0, period, parameter, parameter_min, parameter_max,
                                progress);
    for (unsigned int restart = 0; total.failed && !total.points.empty() && restart < settings.max_restarts &&
                                   total.points.size() < settings.max_points && io::interrupt_signal() == 0;
         ++restart)
      {
        total.restarts.push_back(total.stop_reason);
        const auto         stretch = last_stretch(total, free);
        const BranchPoint &last    = stretch.back();
        const double onward = stretch.size() >= 2 ? (branch_parameter(last, free) >=
                                                     branch_parameter(stretch[stretch.size() - 2], free) ? 1.0 : -1.0)
                                                  : settings.direction;
        BranchPoint end = last;
        std::optional<std::size_t> located_at; // index of the located end in total.points
        if (!free && stretch.size() >= 2)
          {
            OrbitSolver solver(flow, forced_flow, settings, last);
            if (auto located = locate_stretch_end(solver, stretch[stretch.size() - 2], last))
              {
                end         = *located;
                end.special = SpecialPoint::grazing;
                if (closes_on_itself(total.points, end, free))
                  {
                    total.stop_reason = "the branch closes on itself: the grazing at " +
                                        std::to_string(branch_parameter(end, free)) + " was passed before";
                    break;
                  }
                located_at = total.points.size();
                total.points.push_back(end);
                if (progress)
                  progress(end, static_cast<unsigned int>(total.points.size() - 1));
              }
          }
        auto found = restart_past(flow, forced_flow, settings,
                                  free ? onward_attempts(last, onward, settings.restart_jump)
                                       : restart_attempts(stretch, end, free, onward, settings.restart_jump),
                                  end, total.points.size(), parameter_min, parameter_max, total.flow_evaluations,
                                  progress);
        if (!found)
          {
            total.stop_reason = "no orbit beyond the last point (" + total.restarts.back() + ")";
            break;
          }
        // A located end past which the orbits gain or lose a sticking phase (impacting orbits) is
        // where the chatter time of the impact law turns a chatter sequence into sticking (or
        // back): marked so (contact_change).
        if (located_at && !found->points.empty() && !found->points.front().jumped)
          total.points[*located_at].special = contact_change(total.points[*located_at], found->points.front());
        total.points.insert(total.points.end(), found->points.begin(), found->points.end());
        total.failed         = found->failed;
        total.stop_reason    = found->stop_reason;
        total.entered_tongue = found->entered_tongue;
      }
    locate_special_points(flow, forced_flow, settings, total);
    return total;
  }
} // namespace vibroimpact::periodic
