// The 2-DOF chain of seed 001 (m1 = m2 = 1, k1 = k2 = 1, gap 0.1, h = 1/500, θ = 1/2, e = 0):
// the energy correction keeps the energy through impacts and sticking phases; without it the
// inelastic impacts drain it. Complementarity is checked after every step.
#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/structure/case_description.h>
#include <vibroimpact/structure/model_builder.h>

#include <gtest/gtest.h>

#include "test_support.h"

#include <algorithm>
#include <cmath>

using namespace vibroimpact;

namespace
{
  model::StructuralModel two_dof_chain(const double restitution)
  {
    structure::CaseDescription c;
    c.name = "two_dof";
    for (const char *name : {"m1", "m2"})
      {
        structure::BodyDescription body;
        body.name            = name;
        body.type            = structure::BodyType("mass");
        body.mass_per_length = 1.0;
        body.initial_velocity = "1";
        c.bodies.push_back(body);
      }
    structure::ElementDescription k1;
    k1.name  = "k1";
    k1.type  = structure::ElementType::spring;
    k1.point = {"m1", 0.0};
    k1.value = 1.0;
    structure::ElementDescription k2 = k1;
    k2.name  = "k2";
    k2.point = {"m2", 0.0};
    k2.other = {"m1", 0.0};
    c.elements = {k1, k2};
    structure::ContactDescription stop;
    stop.name        = "stop";
    stop.point       = {"m2", 0.0};
    stop.gap         = 0.1;
    stop.side        = structure::ContactSide::above; // g = 0.1 − u2
    stop.restitution = restitution;
    c.contacts       = {stop};
    return structure::build_model(c);
  }

  struct RunResult
  {
    double       max_relative_drift = 0.0; // max |E − E0| / E0
    double       final_relative     = 0.0; // E_end / E0
    unsigned int impacts = 0, sticking_steps = 0, corrections = 0;
    double       worst_complementarity = 0.0; // most negative (U+ + eU−)/scale
    double       worst_product         = 0.0; // max |w p| / (scale |p|)
    // The most negative impact dissipation of a step, over p·scale (≥ 0 by the
    // law U+ + max(eU−, U−) ⊥ p), and how many impulses met a separating contact (U− > 0).
    double       worst_impact_dissipation = 0.0;
    unsigned int separating_impulses      = 0;
  };

  RunResult run(const bool correction, const unsigned int n_steps)
  {
    const auto                      m = two_dof_chain(0.0);
    integrators::MoreauJeanSettings s;
    s.theta             = 0.5;
    s.time_step         = 1.0 / 500.0;
    s.energy_correction = correction;
    s.correction_direction = integrators::CorrectionDirection::non_contact; // the seed's I = (1, 0)
    const integrators::MoreauJean osi(m, s);
    auto                          state = osi.initial_state();
    const double E0 = osi.kinetic_energy(state.v) + osi.potential_energy(state.u);
    RunResult    r;
    bool         was_closed = false;
    for (unsigned int k = 0; k < n_steps; ++k)
      {
        const auto report = osi.step(state);
        EXPECT_FALSE(report.lcp_failed) << report.lcp_message;
        const double E = osi.kinetic_energy(state.v) + osi.potential_energy(state.u);
        r.max_relative_drift = std::max(r.max_relative_drift, std::abs(E - E0) / E0);
        const bool closed = report.impulse[0] > 0;
        r.impacts += (closed && !was_closed);
        r.sticking_steps += (closed && was_closed);
        r.corrections += report.corrected;
        was_closed = closed;
        for (const auto i : report.active)
          {
            const double scale = std::max({std::abs(report.velocity_before[i]),
                                           std::abs(report.velocity_after[i]),
                                       std::abs(report.velocity_free[i]), 1e-300});
            const double w = report.complementarity[i], p = report.impulse[i];
            EXPECT_GE(p, 0.0);
            r.worst_complementarity = std::min(r.worst_complementarity, w / scale);
            if (p > 0)
              {
                r.worst_product = std::max(r.worst_product, std::abs(w) / scale);
                r.worst_impact_dissipation =
                  std::min(r.worst_impact_dissipation, -0.5 * (report.velocity_after[i] + report.velocity_before[i]) / scale);
                r.separating_impulses += report.velocity_before[i] > 0;
              }
          }
      }
    r.final_relative = (osi.kinetic_energy(state.v) + osi.potential_energy(state.u)) / E0;
    return r;
  }
} // namespace

TEST(IntegratorsTwoDof, ModelIsTheSeedChain)
{
  const auto m = two_dof_chain(0.0);
  ASSERT_EQ(m.n_dofs(), 2);
  ASSERT_EQ(m.contacts.size(), 1u);
  // g = 0.1 − u2: the stop lies ahead of m2.
  EXPECT_DOUBLE_EQ(m.contacts[0].gap0, 0.1);
  EXPECT_DOUBLE_EQ(m.contacts[0].row.coeff(1), -1.0);
}

TEST(IntegratorsTwoDof, CorrectionConservesEnergyThroughSticking)
{
  const auto r = run(true, 100000); // t = 200: about 20 periods of the slow mode
  std::cout << "with correction: drift " << r.max_relative_drift << ", impacts " << r.impacts
            << ", sticking steps " << r.sticking_steps << ", corrections " << r.corrections
            << ", worst w/scale " << r.worst_complementarity << ", worst |w| at p>0 "
            << r.worst_product << "\n";
  EXPECT_LT(r.max_relative_drift, 1e-9);
  EXPECT_GT(r.impacts, 10u);
  EXPECT_GT(r.sticking_steps, 100u); // sticking phases are crossed, not avoided
  EXPECT_GT(r.corrections, 0u);
  EXPECT_GE(r.worst_complementarity, -1e-12);
  EXPECT_LE(r.worst_product, 1e-12);
  EXPECT_GE(r.worst_impact_dissipation, -1e-12);
}

TEST(IntegratorsTwoDof, WithoutCorrectionInelasticImpactsDrainEnergy)
{
  const auto r = run(false, 100000);
  std::cout << "without correction: E_end/E0 " << r.final_relative << ", impacts " << r.impacts
            << ", sticking steps " << r.sticking_steps << "\n";
  EXPECT_LT(r.final_relative, 0.9);
  EXPECT_EQ(r.corrections, 0u);
  EXPECT_GE(r.worst_complementarity, -1e-12);
  EXPECT_LE(r.worst_product, 1e-12);
  EXPECT_GE(r.worst_impact_dissipation, -1e-12);
  std::cout << "chattering 2-DOF: " << r.separating_impulses << " impulses on a separating contact, worst D_imp/(p scale) "
            << r.worst_impact_dissipation << "\n";
}

TEST(IntegratorsTwoDof, CorrectionTakesTheSmallerRoot)
{
  using integrators::energy_correction_root;
  // β² + 3β − 4 = (β − 1)(β + 4): the smaller |β| is 1.
  EXPECT_NEAR(energy_correction_root(1.0, 3.0, -4.0), 1.0, 1e-15);
  EXPECT_NEAR(energy_correction_root(1.0, -3.0, -4.0), -1.0, 1e-15);
  // Tiny dissipation, large b: no cancellation, β ≈ −c/b.
  EXPECT_NEAR(energy_correction_root(0.5, 2.0, -1e-14), 5e-15, 1e-28);
  EXPECT_DOUBLE_EQ(energy_correction_root(2.0, 0.0, -8.0), 2.0);
  EXPECT_EQ(energy_correction_root(1.0, 1.0, 0.0), 0.0);
}

TEST(IntegratorsTwoDof, FlowMapAndFixedActiveSetStep)
{
  const auto                      m = two_dof_chain(0.0);
  integrators::MoreauJeanSettings s;
  s.time_step = 1.0 / 500.0;
  const integrators::MoreauJean osi(m, s);

  // advance() is the same flow as repeated steps (no hidden state between calls).
  auto a = osi.initial_state(), b = a;
  osi.advance(a, 700);
  osi.advance(a, 300);
  for (unsigned int k = 0; k < 1000; ++k)
    osi.step(b);
  EXPECT_EQ((a.u - b.u).norm(), 0.0);
  EXPECT_EQ((a.v - b.v).norm(), 0.0);
  EXPECT_NEAR(a.t, 2.0, 1e-12);

  // At the first step with an impulse, the fixed-active-set step reproduces the LCP step, and it
  // is affine in (u, v).
  auto state = osi.initial_state();
  for (unsigned int k = 0; k < 5000; ++k)
    {
      const auto before = state;
      const auto report = osi.step(state);
      if (report.impulse[0] > 0)
        {
          const auto fixed = osi.step_with_active_set(before, report.active);
          EXPECT_LT((fixed.v - state.v).norm(), 1e-13);
          EXPECT_LT((fixed.u - state.u).norm(), 1e-13);
          auto other = before;
          other.u *= -0.3;
          other.v += Eigen::Vector2d(0.2, -0.7);
          auto mid = before;
          mid.u = 0.25 * before.u + 0.75 * other.u;
          mid.v = 0.25 * before.v + 0.75 * other.v;
          const auto f1 = osi.step_with_active_set(before, report.active);
          const auto f2 = osi.step_with_active_set(other, report.active);
          const auto fm = osi.step_with_active_set(mid, report.active);
          EXPECT_LT((fm.u - (0.25 * f1.u + 0.75 * f2.u)).norm(), 1e-13);
          EXPECT_LT((fm.v - (0.25 * f1.v + 0.75 * f2.v)).norm(), 1e-13);
          return;
        }
    }
  FAIL() << "no impact within 5000 steps";
}

TEST(IntegratorsTwoDof, ForcedOscillatorConvergesAtSecondOrder)
{
  // u'' + u = sin(2t), u(0) = u'(0) = 0: u = (sin 2t − 2 sin t)/(1 − 4). θ = 1/2 is second order
  // (the load enters as f_θ = (f(t) + f(t+h))/2); no contact is reached.
  structure::CaseDescription c;
  structure::BodyDescription body;
  body.name = "m";
  body.type = structure::BodyType("mass");
  c.bodies  = {body};
  c.elements.resize(1);
  c.elements[0] = {"k", structure::ElementType::spring, {"m", 0.0}, {}, 1.0};
  c.loads = {test_cases::harmonic_load("F", structure::LoadDistribution::point, {"m", 0.0}, 1.0, 2.0)};
  const auto   m     = structure::build_model(c);
  const double T     = 10.0;
  const double exact = (std::sin(2 * T) - 2 * std::sin(T)) / (1.0 - 4.0);
  double       errors[2];
  for (int level = 0; level < 2; ++level)
    {
      integrators::MoreauJeanSettings s;
      s.time_step = (level == 0 ? 1e-2 : 5e-3);
      const integrators::MoreauJean osi(m, s);
      auto                          state = osi.initial_state();
      osi.advance(state, static_cast<unsigned int>(std::lround(T / s.time_step)));
      errors[level] = std::abs(state.u[0] - exact);
    }
  const double rate = std::log2(errors[0] / errors[1]);
  std::cout << "forced oscillator: errors " << errors[0] << ", " << errors[1] << ", rate " << rate << "\n";
  EXPECT_NEAR(rate, 2.0, 0.1);
  EXPECT_LT(errors[1], 1e-4);
}
