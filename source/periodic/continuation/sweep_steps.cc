// Sweep steps into a forced response's untraced frequencies (sweep_steps.h).
#include "sweep_steps.h"

#include "back_traces.h"
#include "branch_tests.h"
#include "continuation_driver.h"
#include "restarts.h"

#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/progress_bar.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace vibroimpact::periodic
{
  Vector settled(const PeriodicFlowMap &flow, Vector x, const double period, const int periods,
                 const std::string &what, const bool quiet)
  {
    io::ProgressBar bar(what, periods, quiet);
    for (int k = 0; k < periods && io::interrupt_signal() == 0; ++k)
      {
        x = flow.flow(x, period, 0.0, false).x;
        bar.update(k + 1);
      }
    bar.finish();
    return x;
  }

  void insert_behind_break(Branch &branch, Branch &part, const std::size_t at, const std::string &why)
  {
    part.points.front().restarted = part.points.front().jumped = true;
    branch.restarts.push_back(why);
    branch.restarts.insert(branch.restarts.end(), part.restarts.begin(), part.restarts.end());
    branch.points.insert(branch.points.begin() + static_cast<std::ptrdiff_t>(at), part.points.begin(),
                         part.points.end());
  }

  namespace
  {
    // One sweep step to `next`: the response settled over 200 forcing periods from each of the
    // branch's orbits in `carried` (a sweep's carried state; the orbits on both sides of a break)
    // until Newton converges from one, else from rest (where a sweep value starts), continued
    // onward by LOCA and traced back toward `frontier` (the frequency the step skipped from; it
    // stops there or, turning at a fold, where the onward part starts), in the branch's order
    // (`what` names the step on the terminal). Empty where nothing converges.
    Branch sweep_step(PeriodicFlowMap &flow, const ContinuationSettings &settings, std::vector<Vector> carried,
                      const double frontier, const double next, const std::size_t used, const ProgressCallback &progress,
                      const std::string &what)
    {
      const double         d    = settings.direction < 0 ? -1.0 : 1.0;
      ContinuationSettings here = settings;
      here.max_points           = settings.max_points - static_cast<unsigned int>(used);
      Branch        part;
      Vector        start;
      unsigned long evaluations = 0;
      carried.push_back(Vector::Zero(flow.dimension()));
      for (const Vector &from : carried)
        {
          flow.set_forcing_frequency(next);
          start = settled(flow, from, 2 * M_PI / next, settling_periods, "forced response: a sweep step " + what,
                          settings.quiet);
          if (io::interrupt_signal() != 0)
            return part;
          part = run_with_restarts(flow, &flow, here, start, 2 * M_PI / next, next, settings.min_frequency,
                                   settings.max_frequency, progress_after(progress, used));
          evaluations += part.flow_evaluations;
          if (!part.points.empty())
            break;
        }
      part.flow_evaluations = evaluations;
      // Located special points come on top of Maximum points: the budget may be spent.
      const std::size_t spent = used + part.points.size();
      if (part.points.empty() || spent >= settings.max_points)
        return part;
      here.direction  = -d;
      here.max_points = settings.max_points - static_cast<unsigned int>(spent);
      Branch back     = run_with_restarts(flow, &flow, here, start, 2 * M_PI / next, next,
                                          std::min(frontier, next), std::max(frontier, next),
                                          progress_after(progress, spent));
      part.flow_evaluations += back.flow_evaluations;
      if (back.points.size() > 1)
        {
          in_branch_order(back.points);
          // Its last is now the start orbit, part's first: a break before it stays there.
          part.points.front().restarted = back.points.back().restarted;
          part.points.front().jumped    = back.points.back().jumped;
          back.points.pop_back();
          const std::size_t joint = back.points.size();
          part.points.insert(part.points.begin(), back.points.begin(), back.points.end());
          for (std::size_t k = joint; k < std::min(joint + 2, part.points.size()); ++k)
            set_step_flags(part.points[k], part.points[k - 1], k >= 2 ? &part.points[k - 2] : nullptr, false);
          part.restarts.insert(part.restarts.end(), back.restarts.begin(), back.restarts.end());
        }
      return part;
    }

    // Whether sweep steps go into the frequencies from..to: wider than half of Restart jump.
    bool worth_a_sweep_step(const double from, const double to, const double jump)
    {
      return to - from > 0.5 * jump * to;
    }

    // The frequencies inside a visible break (every restart: past a grazing by Restart jump, or a
    // far one) that no stretch traced (the restart's own stretch, traced back, ended short of the
    // break's other side): uncovered pieces of each break wider than half of Restart jump, each as
    // the continued steps leave it, with the index of the point before the break.
    std::vector<std::pair<std::size_t, std::pair<double, double>>> untraced_breaks(const Branch &branch,
                                                                                  const double jump)
    {
      const auto &points = branch.points;
      std::vector<std::pair<double, double>> steps;
      for (std::size_t k = 1; k < points.size(); ++k)
        if (!points[k].restarted)
          steps.push_back(std::minmax(points[k - 1].frequency, points[k].frequency));
      std::sort(steps.begin(), steps.end());
      std::vector<std::pair<std::size_t, std::pair<double, double>>> pieces;
      for (std::size_t k = 1; k < points.size(); ++k)
        if (points[k].restarted)
          {
            double       low  = std::min(points[k - 1].frequency, points[k].frequency);
            const double high = std::max(points[k - 1].frequency, points[k].frequency);
            for (const auto &[a, b] : steps)
              {
                if (b <= low || a >= high)
                  continue;
                if (a > low && worth_a_sweep_step(low, a, jump))
                  pieces.push_back({k - 1, {low, a}});
                low = std::max(low, b);
              }
            if (worth_a_sweep_step(low, high, jump))
              pieces.push_back({k - 1, {low, high}});
          }
      return pieces;
    }

    // The ends of the range the branch does not reach (the sweep steps past its ends found
    // nothing there): from the range's bound to its lowest or highest orbit, when wider than half
    // of Restart jump, with the index of that orbit.
    std::vector<std::pair<std::size_t, std::pair<double, double>>> untraced_ends(const Branch                &branch,
                                                                                const ContinuationSettings &settings)
    {
      std::vector<std::pair<std::size_t, std::pair<double, double>>> pieces;
      const auto &points = branch.points;
      if (points.empty())
        return pieces;
      const auto [low, high] = std::minmax_element(points.begin(), points.end(), [](const auto &a, const auto &b) {
        return a.frequency < b.frequency;
      });
      const double jump = settings.restart_jump;
      if (worth_a_sweep_step(settings.min_frequency, low->frequency, jump))
        pieces.push_back({static_cast<std::size_t>(low - points.begin()), {settings.min_frequency, low->frequency}});
      if (worth_a_sweep_step(high->frequency, settings.max_frequency, jump))
        pieces.push_back({static_cast<std::size_t>(high - points.begin()), {high->frequency, settings.max_frequency}});
      return pieces;
    }

    // Where in `piece` the next sweep step goes: the middle of its widest part between the
    // frequencies sweep steps went to before (`tried`), as a sweep refines; NaN when that part is
    // no wider than half of Restart jump.
    double next_sweep_frequency(const std::pair<double, double> &piece, const std::vector<double> &tried,
                                const double jump)
    {
      std::vector<double> cuts{piece.first, piece.second};
      for (const double w : tried)
        if (w > piece.first && w < piece.second)
          cuts.push_back(w);
      std::sort(cuts.begin(), cuts.end());
      std::size_t widest = 0;
      for (std::size_t k = 1; k + 1 < cuts.size(); ++k)
        if (cuts[k + 1] - cuts[k] > cuts[widest + 1] - cuts[widest])
          widest = k;
      if (!worth_a_sweep_step(cuts[widest], cuts[widest + 1], jump))
        return std::numeric_limits<double>::quiet_NaN();
      return 0.5 * (cuts[widest] + cuts[widest + 1]);
    }

  } // namespace

  // A forced response whose branch ends (it closes on itself, or no orbit near its end
  // converges) short of the far end of the frequency range goes on as a slow sweep does, by
  // sweep steps 10 × Restart jump beyond the farthest frequency reached (further each time
  // nothing new is reached, the last one at the end of the range; Restarts steps in a row that
  // converge on nothing end it), each new stretch marked `restarted` and `jumped`, a visible
  // break. An interrupt keeps what was found.
  void sweep_past_ends(PeriodicFlowMap &flow, const ContinuationSettings &settings, Branch &branch,
                       const ProgressCallback &progress)
  {
    const double d        = settings.direction < 0 ? -1.0 : 1.0;
    double       next     = std::numeric_limits<double>::quiet_NaN(); // the last sweep step's frequency
    const double bound    = d > 0 ? settings.max_frequency : settings.min_frequency;
    unsigned int failures = 0;
    while (!branch.points.empty() && branch.points.size() < settings.max_points && io::interrupt_signal() == 0 &&
           failures <= settings.max_restarts)
      {
        const BranchPoint farthest = *std::max_element(branch.points.begin(), branch.points.end(),
                                                       [&](const auto &a, const auto &b) { return d * a.frequency < d * b.frequency; });
        if (next == bound)
          return;
        next = (d * farthest.frequency <= d * next ? next : farthest.frequency) * (1 + d * 10 * settings.restart_jump);
        if (d * (next - bound) > 0)
          {
            if (!(d * (bound - farthest.frequency) > settings.restart_jump * std::abs(bound)))
              return;
            next = bound; // the last step, at the end of the range
          }
        Branch part;
        try
          {
            part = sweep_step(flow, settings, {farthest.state}, farthest.frequency, next, branch.points.size(), progress,
                              "past the branch's end");
          }
        catch (const io::Interrupted &)
          {
            return;
          }
        branch.flow_evaluations += part.flow_evaluations;
        if (part.points.empty())
          {
            ++failures;
            continue;
          }
        failures = 0;
        insert_behind_break(branch, part, branch.points.size(), branch.stop_reason);
        branch.failed      = part.failed;
        branch.stop_reason = part.stop_reason;
      }
  }

  // Sweep steps into the untraced pieces of the breaks and the ends of the range the branch does
  // not reach, each bounded by its piece, from the orbit before the break (or the branch's
  // farthest), else the one after it, else from rest: a new stretch where the response settles
  // on a periodic orbit there (what a slow sweep shows inside the gap), put inside the break (a
  // break before it and after it). Pass after pass, as a sweep refines: a piece that a step
  // traced part of is looked at again in what is left, one where it found nothing in its
  // halves, down to half of Restart jump.
  void sweep_into_gaps(PeriodicFlowMap &flow, const ContinuationSettings &settings, Branch &branch,
                       const ProgressCallback &progress)
  {
    std::vector<double> tried; // the sweep steps' frequencies
    for (bool stepped = true; stepped;)
      {
        stepped     = false;
        auto       pieces = untraced_breaks(branch, settings.restart_jump);
        const auto ends   = untraced_ends(branch, settings);
        pieces.insert(pieces.end(), ends.begin(), ends.end());
        // Inserted from the last, the indices stay valid.
        std::stable_sort(pieces.begin(), pieces.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
        for (const auto &[before, piece] : pieces)
          {
            const double next = next_sweep_frequency(piece, tried, settings.restart_jump);
            if (std::isnan(next))
              continue;
            if (branch.points.size() >= settings.max_points || io::interrupt_signal() != 0)
              return;
            stepped = true;
            tried.push_back(next);
            ContinuationSettings here = settings;
            here.min_frequency        = piece.first;
            here.max_frequency        = piece.second;
            here.direction            = 1.0;
            Branch part;
            try
              {
                std::vector<Vector> sides{branch.points[before].state};
                if (before + 1 < branch.points.size())
                  sides.push_back(branch.points[before + 1].state);
                const bool end = piece.first == settings.min_frequency || piece.second == settings.max_frequency;
                part = sweep_step(flow, here, sides, piece.first, next, branch.points.size(), progress,
                                  end ? "into the range's untraced end" : "into a break");
              }
            catch (const io::Interrupted &)
              {
                return;
              }
            branch.flow_evaluations += part.flow_evaluations;
            if (part.points.empty())
              continue;
            insert_behind_break(branch, part, before + 1, "a sweep step into untraced frequencies");
          }
      }
  }
} // namespace vibroimpact::periodic
