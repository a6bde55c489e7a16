// The modal Udwadia–Kalaba solver (Antunes et al. 2017): an inelastic impact on a rigid stop loses
// exactly the approach kinetic energy, a stuck oscillator carries the static reaction and is
// released when it turns tensile, and the geometric projection keeps a beam on its stops (without
// it the constraint drifts).
#include <vibroimpact/integrators/udwadia_kalaba.h>
#include <vibroimpact/structure/model_builder.h>

#include <gtest/gtest.h>

#include "test_support.h"

#include <cmath>

using namespace vibroimpact;

namespace
{
  // A unit mass on a spring k to the ground, a rigid stop above it at distance d: g = d − x.
  model::StructuralModel oscillator_below_stop(const double k, const double d)
  {
    structure::CaseDescription c;
    c.name     = "oscillator";
    c.bodies   = {test_cases::point_mass("m", 1.0)};
    c.elements = {test_cases::spring("k", "m", "", k)};
    structure::ContactDescription stop;
    stop.name  = "stop";
    stop.point = {"m", 0.0};
    stop.gap   = d;
    stop.side  = structure::ContactSide::above;
    c.contacts = {stop};
    c.n_modes  = 1;
    return structure::build_model(c);
  }

  model::LoadTerm load_on_mass(const double amplitude, const double omega, const double phase,
                               const model::TimeFunction::Kind kind)
  {
    model::LoadTerm term;
    term.name           = "f";
    term.spatial        = Eigen::VectorXd::Ones(1);
    term.time.kind      = kind;
    term.time.amplitude = amplitude;
    term.time.omega     = omega;
    term.time.phase     = phase;
    return term;
  }

  struct Run
  {
    integrators::ResponseHistory history;
    integrators::RunSummary      summary;
  };

  Run run_uk(const model::StructuralModel &model, const integrators::ModalUdwadiaKalabaSettings &s,
             const double final_time, const double output_interval)
  {
    integrators::RunControl control;
    control.final_time      = final_time;
    control.output_interval = output_interval;
    Run r{integrators::ResponseHistory(model), {}};
    r.summary         = integrators::ModalUdwadiaKalaba(model, s).run(control, r.history);
    return r;
  }
} // namespace


TEST(ModalUdwadiaKalaba, InelasticImpactOnARigidStopLosesExactlyTheApproachEnergy)
{
  // x'' + 4 x = 0, x(0) = 0, x'(0) = 1: x = sin(2t)/2 reaches the stop d = 0.3 at
  // t1 = asin(0.6)/2 with x' = cos(2 t1) = 0.8. An e = 0 impact removes ½ 0.8² = 0.32 of the
  // 0.5 and leaves ½ k d² = 0.18 (at rest on the stop, the spring pulls it off: no sticking).
  const double k = 4.0, d = 0.3, v0 = 1.0;
  auto         model = oscillator_below_stop(k, d);
  model.initial_velocity = Eigen::VectorXd::Constant(1, v0);
  integrators::ModalUdwadiaKalabaSettings s;
  s.time_step = 1e-5;
  const auto r = run_uk(model, s, 3.0, 1e-3);

  const double t1 = std::asin(0.6) / 2, U = 0.8;
  const auto   impacts = r.history.impacts();
  ASSERT_EQ(impacts.size(), 1u);
  EXPECT_NEAR(impacts[0].time, t1, s.time_step);
  EXPECT_NEAR(impacts[0].pre_velocity, -U, 2 * k * d * s.time_step); // within one step of deceleration
  EXPECT_NEAR(impacts[0].post_velocity, 0.0, 1e-14);
  EXPECT_NEAR(impacts[0].impulse, U, 2 * k * d * s.time_step);
  EXPECT_TRUE(r.history.sticking_phases(3.0).empty());

  const auto times = r.history.times(), energy = r.history.column("total_energy"),
             gap = r.history.column("gap_stop"), lost = r.history.column("impact_dissipation");
  double worst_before = 0, worst_after = 0, deepest = 0;
  for (std::size_t n = 0; n < times.size(); ++n)
    {
      deepest = std::min(deepest, gap[n]);
      if (times[n] < t1 - s.time_step)
        worst_before = std::max(worst_before, std::abs(energy[n] - 0.5 * v0 * v0));
      else if (times[n] > t1 + s.time_step)
        worst_after = std::max(worst_after, std::abs(energy[n] - 0.5 * k * d * d));
    }
  EXPECT_LT(worst_before, 1e-9);    // Verlet at ω h = 2e-5: O((ω h)²) oscillation
  EXPECT_LT(worst_after, 1e-9);     // the projection puts it exactly on the stop, at rest
  EXPECT_GE(deepest, -1e-12);       // no penetration at any row
  EXPECT_NEAR(lost.back(), 0.5 * U * U, 2 * U * k * d * s.time_step);
  EXPECT_LT(r.summary.counter("largest |gap| of a closed contact"), 1e-12);
  std::printf("[ measured ] impact at %.8f (exact %.8f), U- = %.8f, energy drift before %.3g, after %.3g "
              "(E = %.12f vs 0.18), impact loss %.8f vs 0.32\n",
              impacts[0].time, t1, impacts[0].pre_velocity, worst_before, worst_after, energy.back(), lost.back());
}


TEST(ModalUdwadiaKalaba, StuckOscillatorCarriesTheStaticReactionUntilItTurnsTensile)
{
  // Resting on the stop (x = d) and pushed onto it by F(t) = F0 + F1 cos(W t): held, the mass
  // has x'' = 0 and the stop carries λ = F(t) − k d; it lets go when λ = 0, at
  // cos(W t_r) = (k d − F0)/F1, and then the gap opens.
  const double k = 4.0, d = 0.3, F0 = 2.0, F1 = 1.5, W = 1.0;
  auto         model = oscillator_below_stop(k, d);
  model.initial_displacement = Eigen::VectorXd::Constant(1, d);
  model.loads.push_back(load_on_mass(F0, 0.0, 0.0, model::TimeFunction::Kind::constant));
  model.loads.push_back(load_on_mass(F1, W, 0.5 * M_PI, model::TimeFunction::Kind::harmonic));
  integrators::ModalUdwadiaKalabaSettings s;
  s.time_step = 1e-4;
  const double T = 3.0;
  const auto   r = run_uk(model, s, T, 1e-3);

  const double t_release = std::acos((k * d - F0) / F1) / W;
  const auto   phases    = r.history.sticking_phases(T);
  ASSERT_EQ(phases.size(), 1u);
  EXPECT_EQ(phases[0].start, 0.0);
  ASSERT_TRUE(phases[0].released);
  EXPECT_NEAR(phases[0].end, t_release, s.time_step);
  EXPECT_TRUE(r.history.impacts().empty()); // it rested on the stop from the start: no impact

  const auto times = r.history.times(), force = r.history.column("force_stop"), gap = r.history.column("gap_stop");
  double worst_force = 0, worst_gap = 0, widest = 0;
  for (std::size_t n = 0; n < times.size(); ++n)
    if (times[n] < phases[0].end)
      {
        worst_force = std::max(worst_force, std::abs(force[n] - (F0 + F1 * std::cos(W * times[n]) - k * d)));
        worst_gap   = std::max(worst_gap, std::abs(gap[n]));
      }
    else
      {
        EXPECT_EQ(force[n], 0.0);
        widest = std::max(widest, gap[n]);
      }
  EXPECT_LT(worst_force, 1e-12);
  EXPECT_LT(worst_gap, 1e-12);
  EXPECT_GT(widest, 1e-3); // it left the stop
  std::printf("[ measured ] release at %.6f (exact %.6f), worst |lambda - (F - k d)| %.3g, worst |gap| while "
              "stuck %.3g\n",
              phases[0].end, t_release, worst_force, worst_gap);
}


TEST(ModalUdwadiaKalaba, ProjectionKeepsABeamOnItsClearanceStopsWithoutDrift)
{
  // The pinned unit beam (exact sine modes) thrown upwards through a two-sided clearance
  // support at mid-span (two contacts, ±0.01): with the projection of eqs. (18)–(19) no closed
  // contact ever leaves its stop by more than rounding and the unforced, undamped beam loses
  // energy only at its impacts; with constraints at the acceleration level only, the approach
  // velocity is never removed and the beam drifts through the stop (the paper's Fig. 3, left).
  structure::CaseDescription c = test_cases::pinned_beam_on_obstacle(16, 0.0, "0");
  c.bodies[0].initial_velocity = "sin(pi*x)";
  structure::ContactDescription below = c.contacts[0], above = c.contacts[0];
  below.name = "below";
  below.point = {"beam", 0.5};
  below.gap   = 0.01;
  above       = below;
  above.name  = "above";
  above.side  = structure::ContactSide::above;
  c.contacts  = {below, above};
  const auto model = structure::build_model(c);

  integrators::ModalUdwadiaKalabaSettings s;
  s.n_modes     = 8;
  s.mode_source = integrators::ModeSource::exact;
  s.time_step   = 1e-5;
  const double T = 0.5;
  const auto   r = run_uk(model, s, T, 1e-4);

  unsigned int on_each[2] = {0, 0};
  for (const auto &e : r.history.impacts())
    ++on_each[e.contact];
  EXPECT_GE(on_each[0], 2u);
  EXPECT_GE(on_each[1], 2u);
  EXPECT_LT(r.summary.counter("largest |gap| of a closed contact"), 1e-12);
  EXPECT_LE(r.summary.counter("contact states visited"), 3.0); // open, below closed, above closed
  double deepest = 0;
  for (const auto &name : {"gap_below", "gap_above"})
    for (const double g : r.history.column(name))
      deepest = std::min(deepest, g);
  EXPECT_GE(deepest, -1e-12);
  // Energy: what the impacts took, no more (Verlet's own error is O(h) at the impact steps).
  EXPECT_LT(std::abs(r.summary.relative_balance_error), 1e-2);
  EXPECT_LT(r.summary.final_energy, r.summary.initial_energy);

  auto drifting       = s;
  drifting.projection = false;
  const auto d        = run_uk(model, drifting, T, 1e-4);
  double     drift    = 0;
  for (const auto &name : {"gap_below", "gap_above"})
    for (const double g : d.history.column(name))
      drift = std::min(drift, g);
  EXPECT_LT(drift, -1e-3);
  std::printf("[ measured ] impacts below/above %u/%u, contact states visited %g, largest closed |gap| %.3g, "
              "energy %.6f -> %.6f (balance %.3g); without projection: deepest penetration %.4g\n",
              on_each[0], on_each[1], r.summary.counter("contact states visited"),
              r.summary.counter("largest |gap| of a closed contact"), r.summary.initial_energy,
              r.summary.final_energy, r.summary.relative_balance_error, -drift);
}

