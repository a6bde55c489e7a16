// The time-stepping examples, read from their case files as the program reads them and checked
// against physics:
//   pinned_beam_obstacle  e = 1, θ = 1/2: energy conserved to 1e-10 over 1e5 steps, and the
//                         impact law and the contact constraint hold at every impact;
//   bar_on_rigid_wall     a free–free bar hitting a wall: contact duration 2L/c, impulse 2ρALV,
//                         rebound velocity −V (d'Alembert, doc/time_stepping.md §6), with errors
//                         that shrink under mesh and time-step refinement;
//   cantilever_on_rod     Yin et al. (2007): first impact of the beam tip on the rod at 7.648 ms.
#include "test_support.h"

#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/convergence.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <string>

using namespace vibroimpact;

namespace
{
  unsigned long steps_of(const test_cases::LoadedCase &c)
  {
    return static_cast<unsigned long>(std::llround(c.run.final_time / test_cases::moreau_jean(c).time_step));
  }

  unsigned int probe_index(const model::StructuralModel &m, const std::string &name)
  {
    for (unsigned int i = 0; i < m.probes.size(); ++i)
      if (m.probes[i].name == name)
        return i;
    ADD_FAILURE() << "no probe " << name;
    return 0;
  }

  // Newton's law at the velocity level on every active contact of a step:
  // w = U+ + eU− >= −1e-12·scale, p >= 0, |w| p ≈ 0 (|w| <= 1e-12·scale where p > 0). The scale
  // is that of the round-off in U = Hv.
  struct ContactChecks
  {
    unsigned long impacts = 0;         // steps where p becomes positive
    unsigned long steps_with_impulse = 0;
    double        worst_w = 0.0, worst_w_at_impulse = 0.0, min_impulse = 0.0;
    double        min_gap = 0.0;       // most negative end-of-step gap (penetration)
    double        max_approach = 0.0;  // largest −U− over active steps
    double        worst_rebound = 0.0; // max over impacts of |U+ + e U−| / |U−|
  };

  void check_contacts(const model::StructuralModel &m, const integrators::State &state,
                      const integrators::StepReport &report, const Eigen::VectorXd &previous_impulse,
                      ContactChecks &c)
  {
    for (unsigned int i = 0; i < m.contacts.size(); ++i)
      c.min_gap = std::min(c.min_gap, report.gap[i]);
    for (const auto i : report.active)
      {
        const double scale = std::max({std::abs(report.velocity_before[i]), std::abs(report.velocity_after[i]),
                                       std::abs(report.velocity_free[i]),
                                       m.contacts[i].row.cwiseAbs().sum() * state.v.lpNorm<Eigen::Infinity>(),
                                       1e-300});
        const double w = report.complementarity[i], p = report.impulse[i];
        c.min_impulse  = std::min(c.min_impulse, p);
        c.worst_w      = std::min(c.worst_w, w / scale);
        c.max_approach = std::max(c.max_approach, -report.velocity_before[i]);
        if (p > 0)
          {
            ++c.steps_with_impulse;
            c.worst_w_at_impulse = std::max(c.worst_w_at_impulse, std::abs(w) / scale);
            if (previous_impulse[i] <= 0)
              {
                ++c.impacts;
                c.worst_rebound = std::max(c.worst_rebound,
                                           std::abs(w) / std::max(std::abs(report.velocity_before[i]), 1e-300));
              }
          }
      }
  }
} // namespace

// ---------------------------------------------------------------------------------------------
// 1. pinned_beam_obstacle
// ---------------------------------------------------------------------------------------------
TEST(ExamplesTimeStepping, PinnedBeamObstacleConservesEnergyAndHoldsTheContact)
{
  const auto loaded = test_cases::load_case(test_cases::example("pinned_beam_obstacle"));
  const auto m      = structure::build_model(loaded.description);
  const auto &s     = test_cases::moreau_jean(loaded);
  ASSERT_EQ(s.theta, 0.5);
  ASSERT_EQ(m.contacts.size(), 1u);
  ASSERT_EQ(m.contacts[0].restitution, 1.0);
  const unsigned long n_steps = steps_of(loaded);
  ASSERT_EQ(n_steps, 100000u);

  const integrators::MoreauJean osi(m, s);
  auto                          state = osi.initial_state();
  const double E0 = osi.kinetic_energy(state.v) + osi.potential_energy(state.u);
  ASSERT_NEAR(E0, 0.25 * 9.0 * std::pow(M_PI, 4), 1e-3 * E0); // ½ EI ∫ w0''² = (9/4) π⁴

  double        drift = 0.0;
  ContactChecks checks;
  Eigen::VectorXd previous = Eigen::VectorXd::Zero(1);
  for (unsigned long k = 0; k < n_steps; ++k)
    {
      const auto report = osi.step(state);
      ASSERT_FALSE(report.lcp_failed) << "step " << k << ": " << report.lcp_message;
      check_contacts(m, state, report, previous, checks);
      previous = report.impulse;
      drift    = std::max(drift, std::abs(osi.kinetic_energy(state.v) + osi.potential_energy(state.u) - E0) / E0);
    }
  // Penetration: with the velocity-level law the gap can only go negative within the step in
  // which the contact closes, by at most one step of approach.
  const double penetration_bound = s.time_step * checks.max_approach;
  std::cout << "pinned_beam_obstacle: " << n_steps << " steps, energy drift " << drift << ", impacts "
            << checks.impacts << " (steps with p > 0: " << checks.steps_with_impulse << "), worst w/scale "
            << checks.worst_w << ", worst |w|/scale at p > 0 " << checks.worst_w_at_impulse
            << ", worst |U+ + eU-|/|U-| at impacts " << checks.worst_rebound << ", min gap " << checks.min_gap
            << " (bound h max|U-| = " << penetration_bound << ")\n";
  EXPECT_GT(checks.impacts, 10u);
  EXPECT_LT(drift, 1e-10);
  EXPECT_GE(checks.min_impulse, 0.0);
  EXPECT_GE(checks.worst_w, -1e-12);
  EXPECT_LE(checks.worst_w_at_impulse, 1e-12);
  EXPECT_LE(checks.worst_rebound, 1e-10); // e = 1: the contact point leaves as fast as it came
  EXPECT_GE(checks.min_gap, -penetration_bound);
}

// ---------------------------------------------------------------------------------------------
// 2. bar_on_rigid_wall
// ---------------------------------------------------------------------------------------------
namespace
{
  struct BarResult
  {
    double duration = 0.0, impulse = 0.0, rebound = 0.0, relative_energy_loss = 0.0;
    double mean_force = 0.0; // p/h averaged over 0.25 ... 1.75 (exact: rho A c V = 1)
    unsigned long impacts = 0; // contact phases (exact: one, the contact point at rest throughout)
  };

  // The case file with n elements and h = Courant·dx/c; run to t = 4L/c (the bar has left).
  BarResult run_bar(const unsigned int n_elements, const double courant)
  {
    const double L = 1.0, c = 1.0, V = 1.0;
    const auto   loaded = test_cases::load_case(
      test_cases::example("bar_on_rigid_wall"),
      {"Body bar/Number of elements=" + std::to_string(n_elements),
       "Moreau-Jean/Time step=" + std::to_string(courant * L / n_elements / c)});
    const auto m = structure::build_model(loaded.description);
    const auto &s = test_cases::moreau_jean(loaded);
    const integrators::MoreauJean osi(m, s);
    auto                          state = osi.initial_state();
    const Eigen::VectorXd ones  = Eigen::VectorXd::Ones(state.v.size());
    const double          mass  = ones.dot(m.mass * ones);
    EXPECT_NEAR(mass, 1.0, 1e-12);
    EXPECT_NEAR(ones.dot(m.mass * state.v) / mass, V, 1e-12); // uniform initial velocity V
    const double E0 = osi.kinetic_energy(state.v);

    BarResult       r;
    double          first = -1.0, last = -1.0, force_sum = 0.0;
    unsigned long   force_steps = 0;
    ContactChecks   checks;
    Eigen::VectorXd previous = Eigen::VectorXd::Zero(1);
    const unsigned long n_steps = static_cast<unsigned long>(std::llround(4.0 * L / c / s.time_step));
    for (unsigned long k = 0; k < n_steps; ++k)
      {
        const double t0     = state.t;
        const auto   report = osi.step(state);
        EXPECT_FALSE(report.lcp_failed) << report.lcp_message;
        check_contacts(m, state, report, previous, checks);
        previous = report.impulse;
        if (report.impulse[0] > 0)
          {
            if (first < 0)
              first = t0; // the contact closes during this step (gap 0 at t = 0)
            last = state.t;
            r.impulse += report.impulse[0];
          }
        if (t0 >= 0.25 * L / c && state.t <= 1.75 * L / c)
          {
            force_sum += report.impulse[0] / s.time_step;
            ++force_steps;
          }
      }
    EXPECT_GE(checks.min_impulse, 0.0);
    EXPECT_GE(checks.worst_w, -1e-12);
    EXPECT_LE(checks.worst_w_at_impulse, 1e-12);
    r.duration             = last - first;
    r.mean_force           = force_sum / std::max(force_steps, 1ul);
    r.impacts              = checks.impacts;
    r.rebound              = ones.dot(m.mass * state.v) / mass; // velocity of the centre of mass
    r.relative_energy_loss = 1.0 - (osi.kinetic_energy(state.v) + osi.potential_energy(state.u)) / E0;
    std::cout << "bar_on_rigid_wall: " << n_elements << " elements, h = " << s.time_step << ": contact "
              << first << " .. " << last << " (duration " << r.duration << ", exact 2), impulse " << r.impulse
              << " (exact 2), mean force " << r.mean_force << " (exact 1), rebound velocity " << r.rebound << " (exact -1), energy lost "
              << r.relative_energy_loss << ", impacts " << checks.impacts << "\n";
    return r;
  }
} // namespace

TEST(ExamplesTimeStepping, BarOnRigidWallMatchesDAlembert)
{
  // Every step at the example's own mesh (200 elements, Courant number 1): the contact law,
  // one contact phase, the exact momentum balance.
  const BarResult r = run_bar(200, 1.0);
  // Momentum balance is exact in the scheme (1ᵀK = 0): rebound = V − impulse / m.
  EXPECT_NEAR(r.rebound, 1.0 - r.impulse, 1e-9);
  // The contact force during the impact is ρAcV: the compressive wave, not restitution.
  EXPECT_NEAR(r.mean_force, 1.0, 0.02);
  // One contact phase: the contact point stays at rest on the wall for the whole 2L/c
  // (with e = 1 the end node would chatter instead: n + 1 impacts).
  EXPECT_EQ(r.impacts, 1u);

  // Convergence to d'Alembert: the example's own `converge` study (mesh and step together at
  // Courant number 1, 25 … 1600 elements) as `vibroimpact converge` runs it.
  const auto c = test_cases::load_case(test_cases::example("bar_on_rigid_wall"),
                                       {"Body bar/Number of elements=25", "Moreau-Jean/Time step=0.04"});
  ASSERT_EQ(c.convergence.study, studies::ConvergenceStudy::response);
  const auto study = studies::run_response_convergence(c.description, c.solver(), c.run, c.convergence, nullptr);
  study.write_table(std::cout);
  ASSERT_EQ(study.rows.size(), 7u);
  ASSERT_EQ(study.reference_values, (std::vector<double>{2.0, 2.0, 1.0}));
  // The largest of the relative duration error, the rebound velocity error (|Δp| / ρAL: the
  // rebound is V − p / ρAL exactly, see above) and the mean-force error.
  const auto err = [&](const studies::ResponseConvergenceRow &row) {
    return std::max({row.errors[0] / 2.0, row.errors[1], row.errors[2]});
  };
  for (const auto &row : study.rows)
    EXPECT_LT(row.errors[2], 0.02) << "mean force at " << row.n_elements << " elements";
  // Every doubling cuts the largest error by a factor > 1.4 (observed 1.6: the duration error is
  // h, the impulse error falls like dx^(2/3), the width of the dispersive FE wave front that
  // arrives back at the wall), and the finest mesh is within 0.3 %.
  for (std::size_t k = 1; k < study.rows.size(); ++k)
    EXPECT_LT(err(study.rows[k]), err(study.rows[k - 1]) / 1.4) << "n = " << study.rows[k].n_elements;
  EXPECT_LT(err(study.rows.back()), 3e-3);
  EXPECT_EQ(study.rows.back().n_elements, 1600u);
}

// ---------------------------------------------------------------------------------------------
// 3. cantilever_on_rod
// ---------------------------------------------------------------------------------------------
TEST(ExamplesTimeStepping, CantileverOnRodFirstImpactAt7648Microseconds)
{
  const auto loaded = test_cases::load_case(test_cases::example("cantilever_on_rod"));
  const auto m      = structure::build_model(loaded.description);
  const auto &s     = test_cases::moreau_jean(loaded);
  ASSERT_EQ(m.contacts.size(), 1u);
  const integrators::MoreauJean osi(m, s);
  auto                          state = osi.initial_state();
  const unsigned int tip = probe_index(m, "beam_tip");
  ASSERT_NEAR(m.probes[tip].row.dot(state.u), 0.01, 1e-12); // released from 10 mm uplift
  ASSERT_NEAR(m.contacts[0].gap0 + m.contacts[0].row.dot(state.u), 0.01, 1e-12);

  // Step until the contact first takes an impulse; the impact instant is where the gap, moving
  // with the contact velocity at the start of that step, reaches zero (linear in the step:
  // error O(h² ẅ) ≈ 1e-12 s here).
  double       gap    = m.contacts[0].gap0 + m.contacts[0].row.dot(state.u);
  double       t_impact = -1.0;
  const double t_max  = 0.009;
  while (state.t < t_max && t_impact < 0)
    {
      const double t0 = state.t, g0 = gap;
      const auto   report = osi.step(state);
      ASSERT_FALSE(report.lcp_failed) << report.lcp_message;
      if (report.impulse[0] > 0)
        {
          const double U = report.velocity_before[0];
          ASSERT_LT(U, 0.0);
          // The gap may already be slightly negative at t0: activation (g + γhU <= 0) looks half
          // a step ahead, so the crossing lies in this step or in the one before.
          t_impact = t0 + g0 / (-U);
          EXPECT_LE(t_impact, state.t + 1e-15);
          EXPECT_GE(t_impact, t0 - s.time_step - 1e-15);
          // e = 0 on a two-body contact: the beam tip and the rod top leave the impact together,
          // the rod top pushed downwards (compressed) and momentum handed over, not lost.
          const double rod_v = m.probes[probe_index(m, "rod_top")].row.dot(state.v);
          const double tip_v = m.probes[tip].row.dot(state.v);
          EXPECT_LT(rod_v, 0.0);
          EXPECT_NEAR(tip_v, rod_v, 1e-12 * std::abs(U));
          EXPECT_NEAR(report.velocity_after[0], 0.0, 1e-12 * std::abs(U));
        }
      gap = report.gap[0];
    }
  // References: Yin et al. 7.64833 ms (2000 wave modes, the beam and the rod); the exact
  // Euler–Bernoulli modal series of the tip-load shape (clamped–free modes; the tip is at rest
  // on the rod when Σ_j cos(β_j² a t)/β_j⁴ = 0, a = √(EI/ρAL⁴), 2000 modes) gives 7.6480338 ms
  // (doc/validation.md). The rod does not move before the first impact, so only the beam matters.
  // Tolerances: 1 µs against the paper (1.3e-4 relative, one time step: it covers the 0.3 µs
  // between the paper and the exact series); 0.1 µs against the exact series: the FE result
  // stays within 0.06 µs of it for 16 to 64 elements and h = 1e-7 … 3e-6 s (the impact
  // time is set by the first ~100 modes, the θ = 1/2 phase error of mode 1 is (ω₁h)²/12 ≈ 3e-9),
  // while 8 elements are 1.2 µs off and h = 1e-5 s is 0.3 µs off.
  std::cout << std::setprecision(9) << "cantilever_on_rod: first impact at " << t_impact * 1e3
            << " ms (Yin et al. 7.64833 ms, exact Euler-Bernoulli series 7.6480338 ms), h = " << s.time_step << "\n";
  EXPECT_NEAR(t_impact, 7.64833e-3, 1e-6);
  EXPECT_NEAR(t_impact, 7.6480338e-3, 1e-7);
}
