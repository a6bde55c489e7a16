// Forced response curves: the impact oscillator of examples/impact_oscillator against
// its closed form (periodic/closed_forms.h, checked here first by a Runge–Kutta integration of
// the oscillator that does not use the formula), the branch followed across its fold and its
// grazing without a jump, and its special points located.
#include <vibroimpact/periodic/closed_forms.h>
#include <vibroimpact/periodic/continuation.h>
#include <vibroimpact/studies/continuation_study.h>

#include "impact_oscillator_integration.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <iomanip>
#include <iostream>
#include <set>

using namespace vibroimpact;

namespace
{
  const periodic::ImpactOscillator oscillator; // the example's data: m = k = F = g = 1, ζ = 0.05, e = 0.8

  // The forced response of an example's case, with parameter-file overrides.
  // The example's forced response (without the families switched to at its special points).
  periodic::Branch forced_branch(const std::string &example, std::vector<std::string> overrides = {})
  {
    overrides.insert(overrides.begin(), "Continuation/Switch branches=none");
    auto setup = studies::prepare_continuation(test_cases::load_case(test_cases::example(example), overrides));
    return studies::trace_families(setup.continuation, *setup.flow, true).front();
  }
} // namespace

// The closed form's orbit is an orbit: from just after its impact, the oscillator integrated by
// Runge–Kutta reaches the stop again after exactly one forcing period with the impact velocity of
// the formula; the product of its multipliers is e² exp(−2ζωn T) (det of the saltation matrix and
// of the damped flow); the fold is where the two roots meet.
TEST(ForcedResponse, ImpactOscillatorClosedFormIsAnOrbit)
{
  unsigned int checked = 0;
  for (const double omega : {0.5, 0.8, 1.0, 1.2, 1.45, 1.55})
    for (const auto &orbit : periodic::forced_one_impact_orbits(oscillator, omega))
      {
        if (!orbit.admissible)
          continue;
        const double    T = 2 * M_PI / omega, ti = orbit.phase / omega;
        Eigen::Vector2d state(oscillator.gap, -oscillator.restitution * orbit.impact_velocity);
        const double    taken = oscillator_integration::integrate_to_stop(oscillator, omega, ti, state, 1.5 * T);
        EXPECT_NEAR(taken, T, 1e-9 * T) << "omega " << omega;
        EXPECT_NEAR(state[1], orbit.impact_velocity, 1e-9) << "omega " << omega;
        const double e = oscillator.restitution, zeta = oscillator.damping_ratio;
        EXPECT_NEAR(std::abs(orbit.multipliers[0] * orbit.multipliers[1]), e * e * std::exp(-2 * zeta * T), 1e-12);
        // The state at t = 0 lies on the same orbit: integrated from 0 it reaches the stop at t_i.
        Eigen::Vector2d from_zero = orbit.state_at_zero;
        if (ti > 1e-3)
          {
            EXPECT_NEAR(oscillator_integration::integrate_to_stop(oscillator, omega, 0.0, from_zero, T), ti, 1e-9);
            EXPECT_NEAR(from_zero[1], orbit.impact_velocity, 1e-9);
          }
        ++checked;
      }
  EXPECT_GE(checked, 6u);
  for (double omega = 0.5; omega <= 2.5; omega += 0.05)
    for (const auto &o : periodic::forced_one_impact_orbits(oscillator, omega))
      std::cout << "  omega " << omega << " phase " << o.phase << " V " << o.impact_velocity << " |mu| "
                << std::abs(o.multipliers[0]) << " admissible " << o.admissible << " amplitude " << o.amplitude
                << " x0 " << o.state_at_zero.transpose() << "\n";
  const double fold = periodic::forced_one_impact_fold(oscillator, 1.7, 1.8);
  const auto   near = periodic::forced_one_impact_orbits(oscillator, fold - 1e-7);
  ASSERT_EQ(near.size(), 2u);
  EXPECT_NEAR(near[0].phase, near[1].phase, 1e-2);
  EXPECT_TRUE(periodic::forced_one_impact_orbits(oscillator, fold + 1e-7).empty());
  const auto grazing = periodic::forced_grazing_frequencies(oscillator);
  ASSERT_EQ(grazing.size(), 1u);
  EXPECT_NEAR(periodic::forced_linear_amplitude(oscillator, grazing[0]), oscillator.gap, 1e-12);
  std::cout << std::setprecision(12) << "impact oscillator: fold at " << fold << " rad/s, grazing at " << grazing[0]
            << " rad/s\n";
}

namespace
{
  // The example's branch, traced once for the tests below.
  const periodic::Branch &impact_oscillator_branch()
  {
    static const periodic::Branch branch = [] {
      return forced_branch("impact_oscillator");
    }();
    return branch;
  }

  // The closed-form one-impact orbit at the point's frequency nearest its state (of the two roots).
  periodic::ForcedImpactOrbit nearest_closed_form(const periodic::BranchPoint &p)
  {
    const auto roots = periodic::forced_one_impact_orbits(oscillator, p.frequency);
    EXPECT_FALSE(roots.empty()) << "omega " << p.frequency;
    if (roots.empty())
      return {};
    const auto distance = [&](const periodic::ForcedImpactOrbit &o) { return (o.state_at_zero - p.state).norm(); };
    return distance(roots[0]) < distance(roots[1]) ? roots[0] : roots[1];
  }
} // namespace

// The example's forced response from 0.5 to 2 rad/s is one branch without a jump: every step
// keeps to its orbit (no `jumped` point), it ends at the upper bound, and every orbit with one
// impact a period is the closed form's (state at t = 0, impact velocity and stability), on both
// sides of the fold. The grazings where the number of impacts changes are located, the last one
// where the closed form's impact velocity vanishes (the orbit without impacts touches the stop).
TEST(ForcedResponse, ImpactOscillatorBranchIsTheClosedFormWithoutJumps)
{
  const auto &branch = impact_oscillator_branch();
  ASSERT_FALSE(branch.points.empty()) << branch.stop_reason;
  EXPECT_NEAR(branch.points.back().frequency, 2.0, 1e-12) << branch.stop_reason;
  unsigned int one_impact = 0, stable = 0, unstable = 0;
  for (const auto &p : branch.points)
    {
      EXPECT_FALSE(p.jumped) << "omega " << p.frequency;
      if (p.impacts != 1 || p.sticking_phases != 0 || !p.admissible || p.special == periodic::SpecialPoint::fold)
        continue; // at the fold the state moves like the square root of Ω: checked by its Ω below
      const auto closed = nearest_closed_form(p);
      EXPECT_LT((closed.state_at_zero - p.state).norm(), 1e-8 * (1 + p.state.norm())) << "omega " << p.frequency;
      EXPECT_NEAR(p.min_impact_velocity, closed.impact_velocity, 1e-8 * (1 + closed.impact_velocity))
        << "omega " << p.frequency;
      EXPECT_NEAR(p.max_multiplier, std::abs(closed.multipliers[0]), 1e-6 * (1 + p.max_multiplier))
        << "omega " << p.frequency;
      ++one_impact;
      (p.stable ? stable : unstable) += 1;
    }
  EXPECT_GE(one_impact, 40u);
  EXPECT_GE(stable, 10u);
  EXPECT_GE(unstable, 10u);
  // The fold of the one-impact orbits, located on the branch (a multiplier at +1) where the
  // closed form's two roots meet.
  const double closed_fold = periodic::forced_one_impact_fold(oscillator, 1.7, 1.8);
  unsigned int folds       = 0;
  for (const auto &p : branch.points)
    if (p.special == periodic::SpecialPoint::fold && p.impacts == 1)
      {
        EXPECT_NEAR(p.frequency, closed_fold, 1e-8 * closed_fold);
        ++folds;
      }
  EXPECT_EQ(folds, 1u);
  // The grazing where the unstable one-impact orbit meets the orbit without impacts: its impact
  // velocity vanishes there, located (by the orbits' extrapolation to V = 0) to 1e-8 of the
  // closed form's frequency, where the linear response's amplitude is the gap.
  const double closed_grazing = periodic::forced_grazing_frequencies(oscillator).at(0);
  unsigned int vanishing      = 0;
  for (const auto &p : branch.points)
    if (p.special == periodic::SpecialPoint::grazing && p.impacts == 1 && p.min_impact_velocity < 1e-3)
      {
        EXPECT_NEAR(p.frequency, closed_grazing, 1e-8 * closed_grazing);
        ++vanishing;
      }
  EXPECT_EQ(vanishing, 1u);
  std::cout << std::setprecision(12) << "impact oscillator branch: " << branch.points.size() << " points, "
            << one_impact << " with one impact (" << stable << " stable)\n";
  for (const auto &p : branch.points)
    if (p.special != periodic::SpecialPoint::none)
      {
        std::cout << "  " << periodic::name(p.special) << " at omega " << p.frequency << ", impacts " << p.impacts
                  << ", impact velocity " << p.min_impact_velocity;
        if (p.impacts == 1)
          std::cout << " (closed form " << nearest_closed_form(p).impact_velocity << ")";
        std::cout << "\n";
      }
}

// Continuation/Direction = down: the same example from 2 rad/s down to 0.5, as a sweep down
// meets it. The orbit without impacts reaches the stop at the closed form's grazing frequency
// (located from that side by its open gap, to 1e-8); below it that orbit does not exist, and the
// branch goes on to the stable one-impact orbit with a visible break (`jumped`), where a sweep
// down jumps. Every one-impact orbit on the way down is the closed form's.
TEST(ForcedResponse, ImpactOscillatorDownwardBranchMeetsTheGrazingAndTheClosedForm)
{
  const auto branch = forced_branch("impact_oscillator", {"Continuation/Direction=down"});
  ASSERT_FALSE(branch.points.empty()) << branch.stop_reason;
  EXPECT_NEAR(branch.points.front().frequency, 2.0, 1e-12);
  EXPECT_NEAR(branch.points.back().frequency, 0.5, 1e-3) << branch.stop_reason;
  const double closed_grazing = periodic::forced_grazing_frequencies(oscillator).at(0);
  unsigned int grazings = 0, one_impact = 0;
  for (const auto &p : branch.points)
    {
      if (p.special == periodic::SpecialPoint::grazing && p.impacts == 0)
        {
          EXPECT_NEAR(p.frequency, closed_grazing, 1e-8 * closed_grazing);
          ++grazings;
        }
      if (p.impacts != 1 || p.sticking_phases != 0 || !p.admissible || p.special != periodic::SpecialPoint::none)
        continue;
      const auto closed = nearest_closed_form(p);
      EXPECT_LT((closed.state_at_zero - p.state).norm(), 1e-8 * (1 + p.state.norm())) << "omega " << p.frequency;
      ++one_impact;
    }
  EXPECT_EQ(grazings, 1u);
  EXPECT_GE(one_impact, 10u);
  // The restart past the grazing finds only the stable one-impact orbit, far from it (a sweep
  // down jumps there, at 1.2696 rad/s): that orbit's stretch is traced back over the frequencies
  // the restart skipped, so the break lands within 0.5 % of the grazing (at 1.4069; 10 % without).
  for (std::size_t k = 1; k < branch.points.size(); ++k)
    if (branch.points[k].jumped && branch.points[k - 1].special == periodic::SpecialPoint::grazing && branch.points[k - 1].impacts == 0)
      {
        EXPECT_TRUE(branch.points[k].restarted);
        EXPECT_EQ(branch.points[k].impacts, 1u);
        EXPECT_TRUE(branch.points[k].stable);
        EXPECT_LT(std::abs(branch.points[k].frequency / closed_grazing - 1), 5e-3)
          << "the break lands at " << branch.points[k].frequency;
      }
  // What the break still skips (1.4069 - 1.4107 rad/s) is filled by a sweep step into it: the
  // continued steps span the whole range but for slivers below Restart jump (1e-3).
  std::vector<std::pair<double, double>> steps;
  for (std::size_t k = 1; k < branch.points.size(); ++k)
    if (!branch.points[k].restarted)
      steps.push_back(std::minmax(branch.points[k - 1].frequency, branch.points[k].frequency));
  std::sort(steps.begin(), steps.end());
  double reached = 0.5, widest = 0;
  for (const auto &[a, b] : steps)
    {
      widest  = std::max(widest, (a - reached) / a);
      reached = std::max(reached, b);
    }
  EXPECT_LT(widest, 1e-3) << "a frequency band of the range has no orbit";
  EXPECT_GE(reached, 2.0 - 1e-9);
}

// A Neimark–Sacker point of the pinned beam's forced response (examples/pinned_beam_frequency_sweep,
// 14 impacts a period, 4 modes): between 8.95 and 9.1 rad/s a complex pair of Floquet multipliers
// leaves the unit circle; the point is located where the pair's modulus is 1 (to 1e-8), the
// orbits before it stable and after it unstable through that pair.
TEST(ForcedResponse, BeamNeimarkSackerIsLocatedWhereAComplexPairCrossesTheUnitCircle)
{
  const auto branch = forced_branch("pinned_beam_frequency_sweep",
    {"Continuation/Minimum frequency=8.95", "Continuation/Maximum frequency=9.1"});
  const auto largest = [](const periodic::BranchPoint &p) {
    std::complex<double> mu = 0;
    for (const auto &m : p.multipliers)
      if (std::abs(m) > std::abs(mu))
        mu = m;
    return mu;
  };
  unsigned int located = 0;
  for (std::size_t k = 1; k + 1 < branch.points.size(); ++k)
    if (branch.points[k].special == periodic::SpecialPoint::neimark_sacker)
      {
        const auto mu = largest(branch.points[k]);
        EXPECT_NEAR(std::abs(mu), 1.0, 1e-8) << "omega " << branch.points[k].frequency;
        EXPECT_GT(std::abs(mu.imag()), 1e-3) << "a complex pair, not a real multiplier at +1 or -1";
        const double before = std::abs(largest(branch.points[k - 1])), after = std::abs(largest(branch.points[k + 1]));
        EXPECT_LT((before - 1) * (after - 1), 0) << "the pair crosses the unit circle between the neighbours";
        std::cout << std::setprecision(12) << "Neimark-Sacker at omega " << branch.points[k].frequency << ", mu " << mu
                  << " (neighbours' |mu| " << before << ", " << after << ")\n";
        ++located;
      }
  EXPECT_EQ(located, 1u) << branch.stop_reason;
}

// A chatter-sticking transition of the pinned beam's forced response: going back down from its
// turn at 5.66 rad/s, the orbit with 33 impacts and 2 sticking phases a period ends at 5.10657
// rad/s, where the chatter time of the impact law turns a chatter sequence into a third sticking
// phase (34 impacts, 3 sticking phases after it). The end is located (bisection of the stretch's
// kind) and marked `chatter-sticking`, not `grazing`, and the branch goes on past it without a
// break.
TEST(ForcedResponse, BeamChatterStickingTransitionIsMarked)
{
  const auto branch = forced_branch("pinned_beam_frequency_sweep",
    {"Continuation/Minimum frequency=5.08", "Continuation/Maximum frequency=5.2", "Continuation/Direction=down",
     "Continuation/Maximum points=50"});
  unsigned int marked = 0;
  for (std::size_t k = 1; k + 1 < branch.points.size(); ++k)
    if (branch.points[k].special == periodic::SpecialPoint::chatter_sticking)
      {
        const auto &before = branch.points[k - 1], &at = branch.points[k], &after = branch.points[k + 1];
        EXPECT_EQ(at.sticking_phases, before.sticking_phases) << "the end of the stretch is of the stretch's kind";
        EXPECT_NE(after.sticking_phases, at.sticking_phases) << "past it, a sticking phase more or fewer";
        EXPECT_FALSE(after.jumped) << "omega " << after.frequency;
        EXPECT_LT(std::abs(after.frequency - at.frequency), 1e-2 * at.frequency) << "the branch goes on nearby";
        std::cout << std::setprecision(12) << "chatter-sticking at omega " << at.frequency << ": " << at.impacts
                  << " impacts, " << at.sticking_phases << " sticking phases -> " << after.impacts << ", "
                  << after.sticking_phases << "\n";
        ++marked;
      }
  EXPECT_GE(marked, 1u) << branch.stop_reason;
}

// Every step keeps to its orbit: between points that are not a restart the forcing frequency
// moves by less than 3 % (regular steps move it by < 1 %). Before the corrector bound held for
// steps across grazings too, two steps of this stretch slid along the arc-length plane to other
// orbits, unmarked: 5.05 -> 5.64 rad/s (32 -> 42 impacts) and 5.65 -> 5.21 (38 -> 31).
TEST(ForcedResponse, BeamStepsAcrossGrazingsKeepToTheirOrbit)
{
  const auto branch = forced_branch("pinned_beam_frequency_sweep",
    {"Continuation/Maximum frequency=5.7", "Continuation/Maximum points=60"});
  ASSERT_GE(branch.points.size(), 50u) << branch.stop_reason;
  unsigned int contacts_changed = 0;
  for (std::size_t k = 1; k < branch.points.size(); ++k)
    if (!branch.points[k].restarted)
      {
        const auto &before = branch.points[k - 1], &after = branch.points[k];
        EXPECT_LT(std::abs(after.frequency / before.frequency - 1), 0.03)
          << "point " << k << ": " << before.impacts << " -> " << after.impacts << " impacts";
        EXPECT_FALSE(after.jumped) << "point " << k;
        contacts_changed += after.impacts != before.impacts ? 1 : 0;
      }
  EXPECT_GE(contacts_changed, 3u) << "the stretch crosses grazings on ordinary steps";
}

// After a fold LOCA's secant predictor may lie far beyond its short arc-length step, and the
// corrector, kept within 10 predictor lengths, then slid to another orbit: from 11.4 rad/s up,
// the step after the fold at 11.5227 rad/s went to 11.92 (9 -> 7 impacts a period), kept and
// marked `jumped`. A corrector whose contacts and forcing period both change by more than 3 % is
// refused and retried shorter, so no kept step is such a jump.
TEST(ForcedResponse, BeamStepAfterAFoldKeepsToItsOrbit)
{
  const auto branch = forced_branch("pinned_beam_frequency_sweep",
    {"Continuation/Minimum frequency=11.4", "Continuation/Maximum frequency=12.2", "Continuation/Maximum points=70",
     "Continuation/Restarts=100"});
  ASSERT_GE(branch.points.size(), 60u) << branch.stop_reason;
  unsigned int folds = 0;
  for (std::size_t k = 1; k < branch.points.size(); ++k)
    {
      folds += branch.points[k].special == periodic::SpecialPoint::fold ? 1 : 0;
      if (branch.points[k].restarted)
        continue;
      const auto &before = branch.points[k - 1], &after = branch.points[k];
      EXPECT_FALSE(after.jumped) << "point " << k << ": " << before.frequency << " -> " << after.frequency << " rad/s, "
                                 << before.impacts << " -> " << after.impacts << " impacts";
      EXPECT_LT(std::abs(after.frequency / before.frequency - 1), 0.03) << "point " << k;
    }
  EXPECT_GE(folds, 1u) << "the stretch passes a fold";
}

// A branch that ends short of the range goes on by sweep steps: from 13.6 rad/s down, the pinned
// beam's branch closes on itself at a grazing at 13.325 rad/s (it did stop there); a sweep step
// 1 % below its lowest orbit starts a new stretch, marked as a visible break (`restarted` and
// `jumped`), and every other step keeps to its orbit.
TEST(ForcedResponse, BeamBranchEndingShortOfTheRangeGoesOnBySweepSteps)
{
  const auto branch = forced_branch("pinned_beam_frequency_sweep",
    {"Continuation/Direction=down", "Continuation/Maximum frequency=13.6", "Continuation/Minimum frequency=13.0",
     "Continuation/Maximum points=120"});
  double     lowest = branch.points.front().frequency;
  for (std::size_t k = 1; k < branch.points.size(); ++k)
    {
      const auto &before = branch.points[k - 1], &after = branch.points[k];
      lowest             = std::min(lowest, after.frequency);
      if (!after.restarted)
        {
          EXPECT_LT(std::abs(after.frequency / before.frequency - 1), 0.03) << "point " << k;
        }
      else if (std::abs(after.frequency / before.frequency - 1) > 0.005)
        {
          EXPECT_TRUE(after.jumped) << "a far restart is a visible break, point " << k;
        }
    }
  EXPECT_LT(lowest, 13.3) << "past the grazing where the branch closes on itself (" << branch.stop_reason << ")";
}

// Continuation/Locate crossed grazings: a grazing that an ordinary step crosses (its impacts or
// sticking phases a period change on a step no longer than Grazing step) is located too, as a
// special point between the step's two orbits (or beyond them by at most the step, where the
// branch turns there), of the first orbit's contacts. On the pinned beam from 11.0 to 11.6 rad/s
// ordinary steps cross 19 grazings without the setting, none located; with it (the default) 20
// are, none left (a bisection that ends farther, or finds no orbit of the kind, is dropped).
TEST(ForcedResponse, BeamGrazingsCrossedByOrdinaryStepsAreLocated)
{
  const auto crossings = [](const bool locate) {
    const auto branch = forced_branch("pinned_beam_frequency_sweep",
      {"Continuation/Minimum frequency=11.0", "Continuation/Maximum frequency=11.6",
       "Continuation/Maximum points=300", "Continuation/Restarts=100",
       std::string("Continuation/Locate crossed grazings=") + (locate ? "true" : "false")});
    std::pair<unsigned int, unsigned int> located_and_not{0, 0};
    const auto kind_of = [](const periodic::BranchPoint &p) { return std::make_pair(p.impacts, p.sticking_phases); };
    for (std::size_t k = 1; k + 1 < branch.points.size(); ++k)
      {
        const auto &a = branch.points[k - 1], &g = branch.points[k], &b = branch.points[k + 1];
        if (b.restarted || g.restarted)
          continue;
        if ((g.special == periodic::SpecialPoint::grazing || g.special == periodic::SpecialPoint::chatter_sticking) && kind_of(a) == kind_of(g) &&
            kind_of(g) != kind_of(b))
          {
            ++located_and_not.first;
            // Between them, or beyond by at most the step where the branch turns at the grazing.
            const double span = std::abs(b.frequency - a.frequency);
            EXPECT_GE(g.frequency, std::min(a.frequency, b.frequency) - span) << "point " << k;
            EXPECT_LE(g.frequency, std::max(a.frequency, b.frequency) + span) << "point " << k;
          }
        else if (kind_of(g) != kind_of(b) && g.special == periodic::SpecialPoint::none && b.special == periodic::SpecialPoint::none)
          ++located_and_not.second;
      }
    return located_and_not;
  };
  const auto with = crossings(true), without = crossings(false);
  std::cerr << "located " << with.first << ", not " << with.second << "; without: " << without.first << ", "
            << without.second << "\n";
  EXPECT_GE(with.first, 15u) << with.second << " crossed grazings not located";
  EXPECT_LE(with.second, 3u);
  EXPECT_GE(without.second, 15u) << "ordinary steps crossing grazings without the setting";
}

// Continuation/Direction = both: the way up, then the way down from the upper end, in one branch.
// Its first part is the upward branch and its second the downward one, point for point; the way
// down starts with a visible break (`restarted`, `jumped`) at Maximum frequency; together they
// trace the whole range.
TEST(ForcedResponse, ImpactOscillatorBothWaysIsTheWayUpThenTheWayDown)
{
  const auto branch_of = [](const std::string &direction) {
    return forced_branch("impact_oscillator", {"Continuation/Direction=" + direction});
  };
  const auto up = branch_of("up"), down = branch_of("down"), both = branch_of("both");
  ASSERT_EQ(both.points.size(), up.points.size() + down.points.size());
  ASSERT_EQ(both.way_down, up.points.size());
  for (std::size_t k = 0; k < both.points.size(); ++k)
    {
      const auto &expected = k < up.points.size() ? up.points[k] : down.points[k - up.points.size()];
      EXPECT_NEAR(both.points[k].frequency, expected.frequency, 1e-12 * expected.frequency) << "point " << k;
      EXPECT_EQ(both.points[k].impacts, expected.impacts) << "point " << k;
    }
  const auto &first_down = both.points[both.way_down];
  EXPECT_TRUE(first_down.restarted && first_down.jumped);
  EXPECT_DOUBLE_EQ(first_down.frequency, 2.0);
  double low = 2.0, high = 0.5;
  for (std::size_t k = 1; k < both.points.size(); ++k)
    if (!both.points[k].restarted)
      {
        low  = std::min({low, both.points[k - 1].frequency, both.points[k].frequency});
        high = std::max({high, both.points[k - 1].frequency, both.points[k].frequency});
      }
  EXPECT_LE(low, 0.5 + 1e-9);
  EXPECT_GE(high, 2.0 - 1e-9);
}

// Continuation/Report frequencies: the branch's orbits solved at given frequencies, one per
// stretch passing each. At 1.5, 1.6 and 1.7 rad/s the impact oscillator's branch passes three
// times (the stable one-impact orbit, the unstable one back from the fold, the orbit without
// impacts above the grazing); each one-impact orbit there is one of the closed form's two roots
// at exactly that frequency, both found; at 1.0 rad/s the branch passes once.
TEST(ForcedResponse, ImpactOscillatorOrbitsAtReportFrequenciesAreTheClosedForms)
{
  const auto branch = forced_branch("impact_oscillator", {"Continuation/Report frequencies=1.0, 1.5, 1.6, 1.7"});
  for (const double w : {1.0, 1.5, 1.6, 1.7})
    {
      std::vector<const periodic::BranchPoint *> at;
      for (const auto &a : branch.at_frequencies)
        if (a.orbit.frequency == w)
          at.push_back(&a.orbit);
      ASSERT_EQ(at.size(), w == 1.0 ? 1u : 3u) << "omega " << w;
      const auto       roots = periodic::forced_one_impact_orbits(oscillator, w);
      std::set<std::size_t> matched; // the closed form's roots the one-impact orbits are
      for (const auto *p : at)
        if (p->impacts == 1)
          for (std::size_t r = 0; r < roots.size(); ++r)
            if ((roots[r].state_at_zero - p->state).norm() < 1e-8 * (1 + p->state.norm()))
              {
                EXPECT_NEAR(p->min_impact_velocity, roots[r].impact_velocity, 1e-8 * (1 + roots[r].impact_velocity));
                matched.insert(r);
              }
      EXPECT_EQ(matched.size(), w == 1.0 ? 1u : 2u) << "omega " << w << ": the stable root alone at 1.0, both above";
    }
}

// An elastic stop (Contact stop/Stiffness, no impact law): the orbit without contact starts to
// touch where its amplitude F / √((k − mΩ²)² + (cΩ)²) equals the gap, Ω² = 2 − 4ζ² for F = k = m =
// g = 1 (the example's data): the step that crosses it (the branch turns there, a nonsmooth fold
// between the orbits with and without the contact) has it located, by default, to 1e-8 and marked
// a grazing, not a chatter–sticking transition (no impacts on either side).
TEST(ForcedResponse, ImpactOscillatorElasticContactOnsetIsLocatedAtTheClosedForm)
{
  const auto branch = forced_branch("impact_oscillator", {"Contact stop/Stiffness=100", "Contact stop/Restitution=1",
                                                          "Continuation/Switch branches=none"});
  const double onset = std::sqrt(2 - 4 * oscillator.damping_ratio * oscillator.damping_ratio);
  const auto   at    = std::find_if(branch.points.begin(), branch.points.end(), [&](const auto &p) {
    return p.special != periodic::SpecialPoint::none && std::abs(p.frequency - onset) < 1e-4;
  });
  ASSERT_NE(at, branch.points.end()) << "a special point at the onset " << onset;
  EXPECT_EQ(at->special, periodic::SpecialPoint::grazing);
  EXPECT_NEAR(at->frequency, onset, 1e-8 * onset);
  for (const auto &p : branch.points)
    EXPECT_NE(p.special, periodic::SpecialPoint::chatter_sticking) << "no impacts: at " << p.frequency;
}
