// Branch switching at a period doubling: the impact oscillator of examples/impact_oscillator has a
// period doubling on its two-impact branch at 0.6420 rad/s; the family switched to there is born
// at it, and its orbits are of period 2T by an independent Runge–Kutta integration with Newton's
// impact law (not the event-driven map that found them), and the stable ones attract.
#include <vibroimpact/periodic/closed_forms.h>
#include <vibroimpact/periodic/continuation.h>
#include <vibroimpact/studies/continuation_study.h>

#include "impact_oscillator_integration.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace vibroimpact;

namespace
{
  const periodic::ImpactOscillator oscillator; // the example's data: m = k = F = g = 1, ζ = 0.05, e = 0.8

  // The forced response of the example (first) and the families switched to on it.
  std::vector<periodic::Branch> switched_branches(const std::vector<std::string> &overrides)
  {
    auto setup = studies::prepare_continuation(
      test_cases::load_case(test_cases::example("impact_oscillator"), overrides));
    auto branches = studies::trace_families(setup.continuation, *setup.flow, true);
    std::vector<periodic::Branch> all{branches.front()};
    for (const auto &child : branches.front().children)
      all.push_back(child);
    return all;
  }

  Eigen::Vector2d simulate(const periodic::ImpactOscillator &o, const double omega, const Eigen::Vector2d &state,
                           const double duration)
  {
    return oscillator_integration::simulate_with_impacts(o, omega, state, duration);
  }

  const periodic::Branch *child_born_at(const std::vector<periodic::Branch> &branches, const periodic::SpecialPoint kind)
  {
    for (const auto &b : branches)
      if (b.born_at == kind)
        return &b;
    return nullptr;
  }
} // namespace

// The period-2 family starts at the located period doubling (its first orbit within 1e-4 of the
// frequency and near the period-1 orbit there) and is named after its parent; each of its orbits
// spans two forcing periods and is one of period 2T and not T by the independent integration.
TEST(BranchSwitching, ImpactOscillatorPeriodDoublingLeadsToOrbitsOfTwicePeriod)
{
  const auto branches = switched_branches({"Continuation/Switch branches=period doubling"});
  const auto &parent  = branches.front();
  const auto  doubling = std::find_if(parent.points.begin(), parent.points.end(), [](const auto &p) {
    return p.special == periodic::SpecialPoint::period_doubling;
  });
  ASSERT_NE(doubling, parent.points.end()) << "the two-impact branch's period doubling is located";
  EXPECT_NEAR(doubling->frequency, 0.642, 1e-3);
  const periodic::Branch *family = child_born_at(branches, periodic::SpecialPoint::period_doubling);
  ASSERT_NE(family, nullptr) << "a family is switched to at the period doubling";
  EXPECT_EQ(family->parent, parent.family);
  EXPECT_EQ(family->born_at_parameter, doubling->frequency);
  ASSERT_GE(family->points.size(), 10u);
  const auto &first = family->points.front();
  EXPECT_NEAR(first.frequency, doubling->frequency, 1e-4) << "the family is born at the period doubling";
  EXPECT_LT((first.state - doubling->state).norm(), 0.1 * doubling->state.norm());
  // Over 2T the multiplier −1 of the period doubling is squared: the family leaves with one at +1.
  EXPECT_NEAR(first.max_multiplier, 1.0, 1e-3);

  unsigned int checked = 0;
  for (const auto &p : family->points)
    {
      EXPECT_NEAR(p.period * p.frequency / (2 * M_PI), 2.0, 1e-12) << "an orbit over two forcing periods";
      if (p.impacts == 0 || p.restarted || !p.admissible || p.min_impact_velocity < 1e-2)
        continue;
      const Eigen::Vector2d x0   = p.state;
      const double          T    = 2 * M_PI / p.frequency;
      const Eigen::Vector2d once = simulate(oscillator, p.frequency, x0, T), twice = simulate(oscillator, p.frequency, x0, 2 * T);
      EXPECT_LT((twice - x0).norm(), 1e-5 * x0.norm()) << "back after 2T at omega " << p.frequency;
      EXPECT_GT((once - x0).norm(), 1e-3 * x0.norm()) << "not after T at omega " << p.frequency;
      ++checked;
    }
  EXPECT_GE(checked, 10u);
}

// Where the period-2 family is stable, the oscillator settles on it: from its state 2 % off, after
// 400 forcing periods of the independent integration its Poincaré points (every T) alternate
// between the family's x0 and x(T) at that frequency (the stability the map's multipliers say).
TEST(BranchSwitching, ImpactOscillatorSettlesOnTheStablePeriodTwoOrbits)
{
  const auto branches = switched_branches({"Continuation/Switch branches=period doubling"});
  const periodic::Branch *family = child_born_at(branches, periodic::SpecialPoint::period_doubling);
  ASSERT_NE(family, nullptr);
  unsigned int settled = 0;
  for (std::size_t k = 0; k < family->points.size() && settled < 3; k += 4)
    {
      const auto &p = family->points[k];
      // Near a grazing (an open gap's minimum under 0.01) a 2 % push crosses it: not such orbits.
      if (!p.stable || p.max_multiplier > 0.9 || p.impacts == 0 || !p.admissible ||
          p.special != periodic::SpecialPoint::none || p.grazing_gap < 0.01)
        continue;
      const double    T    = 2 * M_PI / p.frequency;
      Eigen::Vector2d x    = simulate(oscillator, p.frequency, 1.02 * p.state, 400 * T);
      const double    a    = (x - p.state).norm();
      const double    b    = (simulate(oscillator, p.frequency, x, T) - p.state).norm();
      EXPECT_LT(std::min(a, b), 1e-5 * p.state.norm()) << "settled on the period-2 orbit at omega " << p.frequency;
      EXPECT_GT(std::max(a, b), 1e-3 * p.state.norm()) << "its two Poincaré points differ";
      ++settled;
    }
  EXPECT_GE(settled, 1u) << "a stable orbit of the family checked";
}

namespace
{
  // Where the symmetric orbits of the two-stop oscillator lose their symmetry, found without the
  // continuation: a symmetric orbit (x ↦ −x with t ↦ t + T/2) solves G(x0) = φ_{T/2}(x0) + x0 = 0,
  // and its monodromy is A² with A = ∂φ_{T/2}/∂x0 (the second half-period's map is the first's,
  // mirrored), so M − I = (A − I)(A + I): G's Jacobian A + I stays regular where A has the
  // eigenvalue +1, the multiplier +1 of a symmetry-breaking branch point. Newton on G at each
  // frequency, then secant iterations on det(A − I) in ω from `omega`.
  double symmetry_breaking_frequency(periodic::PeriodicFlowMap &flow, periodic::Vector x0, const double omega)
  {
    const Eigen::Index n = x0.size();
    const auto det_A_minus_I = [&](const double w) {
      flow.set_forcing_frequency(w);
      for (int k = 0; k < 30; ++k)
        {
          const auto half = flow.flow(x0, M_PI / w, 0.0, true);
          const periodic::Vector G = half.x + x0;
          if (G.norm() < 1e-14 * x0.norm())
            return (half.jacobian - periodic::Matrix::Identity(n, n)).determinant();
          x0 -= (half.jacobian + periodic::Matrix::Identity(n, n)).lu().solve(G);
        }
      ADD_FAILURE() << "no symmetric orbit at " << w;
      return std::nan("");
    };
    double w0 = omega, w1 = omega * (1 + 1e-6), d0 = det_A_minus_I(w0), d1 = det_A_minus_I(w1);
    for (int k = 0; k < 40 && std::abs(w1 - w0) > 1e-14 * omega && d1 != d0; ++k)
      {
        const double w2 = w1 - d1 * (w1 - w0) / (d1 - d0);
        w0 = w1, d0 = d1, w1 = w2, d1 = det_A_minus_I(w1);
      }
    return w1;
  }
} // namespace

// tests/two_stops_oscillator.prm: the oscillator between two stops at ±1 is symmetric, and its
// symmetric orbits lose their symmetry at branch points, where a pair of asymmetric families (one
// the mirror image of the other) is born. Each branch point is located at the frequency the
// symmetric orbits give independently (to 1e-9), switched at once, and the secondary family
// switched to there is the asymmetric one: its orbits near the point asymmetric, by more the
// farther they are from it, each an orbit of the map, and the family one curve (no jump to another
// family past a failure).
TEST(BranchSwitching, SymmetricOscillatorBreaksSymmetryAtItsBranchPoints)
{
  auto setup = studies::prepare_continuation(
    test_cases::load_case(std::string(VIBROIMPACT_SOURCE_DIR) + "/tests/two_stops_oscillator.prm"));
  const auto branches = studies::trace_families(setup.continuation, *setup.flow, true);
  const auto &parent  = branches.front();
  auto       &flow    = *setup.flow;
  // ‖x(T/2) + x0‖ / ‖x0‖: zero for a symmetric orbit.
  const auto asymmetry = [&](const periodic::BranchPoint &p) {
    flow.set_forcing_frequency(p.frequency);
    return (flow.flow(p.state, p.period / 2, 0.0, false).x + p.state).norm() / p.state.norm();
  };
  unsigned int checked = 0, families = 0;
  std::vector<double> born_at;
  for (const auto &child : parent.children)
    {
      if (child.born_at != periodic::SpecialPoint::branch_point)
        continue;
      ++families;
      for (const double w : born_at)
        EXPECT_GT(std::abs(w - child.born_at_parameter), 1e-6) << "switched once at each branch point";
      born_at.push_back(child.born_at_parameter);
      const auto point = std::find_if(parent.points.begin(), parent.points.end(), [&](const auto &p) {
        return p.special == periodic::SpecialPoint::branch_point && p.frequency == child.born_at_parameter;
      });
      ASSERT_NE(point, parent.points.end());
      // The located point's state lies on either family, a share of the bisection off the
      // symmetric one (the families cross there); its frequency is the symmetric orbits' own.
      EXPECT_LT(asymmetry(*point), 1e-6) << "the parent is symmetric at its branch point " << point->frequency;
      EXPECT_NEAR(point->frequency, symmetry_breaking_frequency(flow, point->state, point->frequency),
                  1e-9 * point->frequency);
      for (const auto &p : child.points)
        {
          EXPECT_FALSE(p.jumped) << "the secondary family is one curve: a break at " << p.frequency;
          const double distance = (p.state - point->state).norm() / point->state.norm();
          if (distance < 1e-2 || distance > 0.1)
            continue; // at the point itself both families meet
          flow.set_forcing_frequency(p.frequency);
          EXPECT_LT((flow.flow(p.state, p.period, 0.0, false).x - p.state).norm(), 1e-7 * p.state.norm());
          EXPECT_GT(asymmetry(p), 0.1 * distance) << "an asymmetric orbit at " << p.frequency << ", " << distance
                                                  << " from the point";
          ++checked;
        }
    }
  EXPECT_GE(families, 2u) << "secondary families at the symmetric orbits' branch points";
  EXPECT_GE(checked, 6u) << "orbits of secondary families checked";
}
