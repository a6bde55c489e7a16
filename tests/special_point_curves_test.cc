// Curves of special points in two parameters on the impact oscillator of
// examples/impact_oscillator (m = k = 1, ζ = 0.05, a rigid stop at gap 1, e = 0.8, force F sin Ωt),
// each against its closed form (include/vibroimpact/periodic/closed_forms.h, doc/closed-forms.md):
//   grazing of the orbit without impacts    F = g √((1 − Ω²)² + (2ζΩ)²)   (its amplitude is the gap)
//   fold of the one-impact orbit            the two roots of the phase equation meet
//   period doubling of the one-impact orbit a multiplier of its saltation-matrix monodromy at −1
// continued in the forcing amplitude F (Continuation/Second parameter = Load F/Amplitude).
#include <vibroimpact/periodic/closed_forms.h>
#include <vibroimpact/periodic/special_point_curves.h>
#include <vibroimpact/studies/continuation_curves.h>
#include <vibroimpact/studies/continuation_study.h>

#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace vibroimpact;

namespace
{
  // The example's forced response with the curves of `follow` continued in F over [low, high].
  std::vector<periodic::SpecialPointCurve> curves_of(const std::string &follow, const std::vector<std::string> &more)
  {
    std::vector<std::string> overrides{"Continuation/Follow=" + follow, "Continuation/Second parameter=Load F/Amplitude",
                                       "Continuation/Switch branches=none"};
    overrides.insert(overrides.end(), more.begin(), more.end());
    auto setup    = studies::prepare_continuation(test_cases::load_case(test_cases::example("impact_oscillator"), overrides));
    auto branches = studies::trace_families(setup.continuation, *setup.flow, true);
    return studies::trace_curves(branches, setup.continuation, setup.curves, true);
  }

  periodic::ImpactOscillator with_force(const double force)
  {
    periodic::ImpactOscillator o;
    o.force = force;
    return o;
  }
} // namespace

// The grazing of the orbit without impacts at 1.4107 rad/s (F = 1), continued in F over [0.5, 2]:
// every point on the closed-form curve to 1e-8, over the whole range.
TEST(SpecialPointCurves, ImpactOscillatorGrazingCurveIsTheLinearResponseTouchingTheStop)
{
  const auto curves = curves_of("grazing", {"Continuation/Second parameter range=0.5, 2",
                                            "Continuation/Minimum frequency=1.2"});
  const periodic::SpecialPointCurve *grazing = nullptr;
  for (const auto &c : curves)
    if (c.kind == periodic::SpecialPoint::grazing && c.start.impacts == 0)
      grazing = &c;
  ASSERT_NE(grazing, nullptr) << "a curve from the grazing of the orbit without impacts";
  ASSERT_GE(grazing->points.size(), 10u) << grazing->stop_reason;
  const double zeta = 0.05, gap = 1.0;
  for (const auto &p : grazing->points)
    {
      const double w = p.frequency;
      EXPECT_NEAR(p.parameter, gap * std::hypot(1 - w * w, 2 * zeta * w), 1e-8) << "at " << w << " rad/s";
    }
  EXPECT_NEAR(grazing->points.front().parameter, 0.5, 1e-9) << grazing->stop_reason;
  EXPECT_NEAR(grazing->points.back().parameter, 2.0, 1e-9) << grazing->stop_reason;
}

// The one-impact orbit's fold (1.7501 rad/s at F = 1) continued in F over [0.8, 1.25]: every
// point where the closed form's two one-impact orbits meet, to 1e-8 in Ω.
TEST(SpecialPointCurves, ImpactOscillatorFoldCurveIsWhereTheOneImpactOrbitsMeet)
{
  const auto curves = curves_of("fold", {"Continuation/Second parameter range=0.8, 1.25"});
  const periodic::SpecialPointCurve *fold = nullptr;
  for (const auto &c : curves)
    if (c.kind == periodic::SpecialPoint::fold && c.start.impacts == 1)
      fold = &c;
  ASSERT_NE(fold, nullptr) << "a curve from the one-impact orbit's fold";
  ASSERT_GE(fold->points.size(), 10u) << fold->stop_reason;
  for (const auto &p : fold->points)
    {
      const double closed_form = periodic::forced_one_impact_fold(with_force(p.parameter), p.frequency - 0.05,
                                                                  p.frequency + 0.05);
      EXPECT_NEAR(p.frequency, closed_form, 1e-8) << "at F = " << p.parameter;
    }
  EXPECT_NEAR(fold->points.front().parameter, 0.8, 1e-9) << fold->stop_reason;
  EXPECT_NEAR(fold->points.back().parameter, 1.25, 1e-9) << fold->stop_reason;
}

namespace
{
  // The real multiplier nearest −1 among the closed form's one-impact orbits at Ω, plus one: it
  // changes sign at the period doubling.
  double doubling_test(const periodic::ImpactOscillator &o, const double omega)
  {
    double nearest = 1e300;
    for (const auto &orbit : periodic::forced_one_impact_orbits(o, omega))
      for (const auto &mu : orbit.multipliers)
        if (std::abs(mu.imag()) < 1e-12 && std::abs(mu.real() + 1) < std::abs(nearest))
          nearest = mu.real() + 1;
    return nearest;
  }

} // namespace

// At F = 0.5 the one-impact orbit doubles its period at 0.9606 rad/s; continued in F over
// [0.4, 0.6] (the curve turns at F = 0.573 and runs down to 0.7 rad/s): at every point the closed
// form's saltation-matrix monodromy has a multiplier at −1, to 1e-8.
TEST(SpecialPointCurves, ImpactOscillatorPeriodDoublingCurveIsWhereAMultiplierIsMinusOne)
{
  const auto curves = curves_of("period doubling", {"Load F/Amplitude=0.5", "Continuation/Minimum frequency=0.7",
                                                    "Continuation/Maximum frequency=1.3",
                                                    "Continuation/Second parameter range=0.4, 0.6"});
  const periodic::SpecialPointCurve *doubling = nullptr;
  for (const auto &c : curves)
    if (c.kind == periodic::SpecialPoint::period_doubling && c.start.impacts == 1)
      doubling = &c;
  ASSERT_NE(doubling, nullptr) << "a curve from the one-impact orbit's period doubling";
  ASSERT_GE(doubling->points.size(), 5u) << doubling->stop_reason;
  double highest = 0;
  for (const auto &p : doubling->points)
    {
      EXPECT_NEAR(doubling_test(with_force(p.parameter), p.frequency), 0.0, 1e-8)
        << "at F = " << p.parameter << ", " << p.frequency << " rad/s";
      highest = std::max(highest, p.parameter);
    }
  EXPECT_NEAR(doubling->points.front().parameter, 0.4, 1e-9) << doubling->stop_reason;
  EXPECT_GT(highest, 0.57) << "the curve turns back in F at 0.573";
}

// The pinned beam of examples/pinned_beam_frequency_sweep touches its obstacle at zero gap: the
// model is homogeneous (the orbits at force λF are λ times those at F), so its Neimark-Sacker
// point at 9.0332 rad/s stays at that frequency, with the same multipliers e^{±iθ}, for every F.
// The curve continued in F over [70, 74] is that vertical line, to 1e-9.
TEST(SpecialPointCurves, ZeroGapBeamNeimarkSackerCurveIsAtOneFrequency)
{
  std::vector<std::string> overrides{"Continuation/Follow=Neimark-Sacker", "Continuation/Second parameter=Load F/Amplitude",
                                     "Continuation/Second parameter range=70, 74", "Continuation/Switch branches=none",
                                     "Continuation/Minimum frequency=8.95", "Continuation/Maximum frequency=9.1"};
  auto setup = studies::prepare_continuation(
    test_cases::load_case(test_cases::example("pinned_beam_frequency_sweep"), overrides));
  const auto branches = studies::trace_families(setup.continuation, *setup.flow, true);
  const auto curves   = studies::trace_curves(branches, setup.continuation, setup.curves, true);
  ASSERT_EQ(curves.size(), 1u) << "the branch's one Neimark-Sacker point";
  const auto &curve = curves.front();
  ASSERT_GE(curve.points.size(), 3u) << curve.stop_reason;
  EXPECT_NEAR(curve.points.front().parameter, 70, 1e-9);
  EXPECT_NEAR(curve.points.back().parameter, 74, 1e-9);
  for (const auto &p : curve.points)
    {
      EXPECT_NEAR(p.frequency, curve.start.frequency, 1e-9 * curve.start.frequency) << "at F = " << p.parameter;
      EXPECT_NEAR(p.kappa, curve.points.front().kappa, 1e-8) << "at F = " << p.parameter;
      EXPECT_GT(std::abs(p.kappa), 0.1) << "a complex pair, not at ±1";
      EXPECT_LT(std::abs(p.kappa), 0.99);
      // Its energy scales as F².
      EXPECT_NEAR(p.energy / (p.parameter * p.parameter), curve.points.front().energy / (70.0 * 70.0),
                  1e-7 * curve.points.front().energy / (70.0 * 70.0));
    }
}
