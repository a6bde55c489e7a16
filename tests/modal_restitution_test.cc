// The event-driven modal coefficient-of-restitution solver (seeds 000/002): the CoR map, exact
// single-DOF impacts and release, and the pinned-beam cases of the paper's Section 3.
#include <vibroimpact/integrators/modal_restitution.h>
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/structure/case_description.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/case_file.h>

#include <gtest/gtest.h>

#include "test_support.h"

#include <algorithm>
#include <cmath>

using namespace vibroimpact;
using structure::EndCondition;

namespace
{
  // The settings of a run: the solver's and the run control's.
  struct CorSettings : integrators::ModalRestitutionSettings
  {
    double final_time      = 1.0;
    double output_interval = 1e-2;
  };

  // A run's response history, in arrays indexed [row][contact or probe].
  struct CorRun
  {
    struct Impact
    {
      double       time = 0, pre_velocity = 0, post_velocity = 0, impulse = 0;
      unsigned int contact         = 0;
      bool         starts_sticking = false;
    };
    std::vector<double>                    times, kinetic_energy, potential_energy, impact_dissipation;
    std::vector<std::vector<double>>       probe_displacement, gaps, contact_force;
    std::vector<Impact>                    impacts;
    std::vector<integrators::StickingPhase> sticking;
    unsigned long                          ode_steps = 0;
  };

  CorRun run_cor(const model::StructuralModel &model, const CorSettings &s)
  {
    integrators::RunControl control;
    control.final_time      = s.final_time;
    control.output_interval = s.output_interval;
    const integrators::ModalRestitution solver(model, s);
    integrators::ResponseHistory        h(model);
    const auto                          summary = solver.run(control, h);

    CorRun r;
    r.ode_steps          = summary.steps;
    r.times              = h.times();
    r.kinetic_energy     = h.column("kinetic_energy");
    r.potential_energy   = h.column("potential_energy");
    r.impact_dissipation = h.column("impact_dissipation");
    for (std::size_t k = 0; k < h.n_rows(); ++k)
      {
        std::vector<double> u, g, f;
        for (const auto &p : h.probe_names())
          u.push_back(h.at(k, "u_" + p));
        for (const auto &c : h.contact_names())
          {
            g.push_back(h.at(k, "gap_" + c));
            f.push_back(h.at(k, "force_" + c));
          }
        r.probe_displacement.push_back(u);
        r.gaps.push_back(g);
        r.contact_force.push_back(f);
      }
    r.sticking = h.sticking_phases(s.final_time);
    for (const auto &e : h.impacts())
      {
        CorRun::Impact i;
        i.time            = e.time;
        i.contact         = e.contact;
        i.pre_velocity    = e.pre_velocity;
        i.post_velocity   = e.post_velocity;
        i.impulse         = e.impulse;
        i.starts_sticking = std::any_of(r.sticking.begin(), r.sticking.end(), [&](const auto &p) {
          return p.contact == e.contact && p.start == e.time;
        });
        r.impacts.push_back(i);
      }
    return r;
  }
} // namespace

namespace
{
  structure::CaseDescription pinned_beam(const std::string &w0, const double restitution)
  {
    return test_cases::pinned_beam_on_obstacle(64, restitution, w0);
  }

  // A unit mass on a spring k to the ground, a stop at its equilibrium (gap 0, below).
  model::StructuralModel oscillator(const double k, const double restitution)
  {
    structure::CaseDescription c;
    c.name     = "oscillator";
    c.bodies   = {test_cases::point_mass("m", 1.0)};
    c.elements = {test_cases::spring("k", "m", "", k)};
    structure::ContactDescription stop;
    stop.name        = "stop";
    stop.point       = {"m", 0.0};
    stop.gap         = 0.0;
    stop.side        = structure::ContactSide::below;
    stop.restitution = restitution;
    c.contacts       = {stop};
    c.n_modes        = 1;
    return structure::build_model(c);
  }

  model::LoadTerm load_on_mass(const double amplitude, const double omega,
                               const model::TimeFunction::Kind kind)
  {
    model::LoadTerm term;
    term.name          = "f";
    term.spatial       = Eigen::VectorXd::Ones(1);
    term.time.kind      = kind;
    term.time.amplitude = amplitude;
    term.time.omega     = omega;
    return term;
  }
} // namespace


TEST(ModalRestitution, MapReversesContactVelocityWithMinimalKineticEnergyJump)
{
  const std::vector<double> b = {1.2, -0.7, 0.3, 0.05}, v = {0.4, -1.0, 2.0, 0.3};
  double bb = 0, U = 0, K = 0;
  for (std::size_t j = 0; j < b.size(); ++j)
    {
      bb += b[j] * b[j];
      U += b[j] * v[j];
      K += 0.5 * v[j] * v[j];
    }
  for (const double R : {0.0, 0.6, 1.0})
    {
      const auto w = integrators::restitution_map(b, v, R);
      double     Up = 0, Kp = 0, cross = 0;
      for (std::size_t j = 0; j < b.size(); ++j)
        {
          Up += b[j] * w[j];
          Kp += 0.5 * w[j] * w[j];
        }
      EXPECT_NEAR(Up, -R * U, 1e-14);
      // The jump is parallel to b (mass-weighted minimal): w - v = mu b.
      const double mu = (w[0] - v[0]) / b[0];
      for (std::size_t j = 0; j < b.size(); ++j)
        cross = std::max(cross, std::abs(w[j] - v[j] - mu * b[j]));
      EXPECT_LT(cross, 1e-14);
      // Kinetic energy lost: (1 - R^2) U^2 / (2 b b^T).
      EXPECT_NEAR(K - Kp, 0.5 * (1 - R * R) * U * U / bb, 1e-13);
    }
}


TEST(ModalRestitution, SingleDofReboundVelocitiesAndHalfPeriodsAreExact)
{
  // x'' + k x = 0, x(0) = A, stop at x = 0: impact n at t_n = (n + 1/2) pi / omega with
  // U^- = -R^n A omega exactly.
  const double k = 4.0, omega = 2.0, A = 0.5, R = 0.8;
  auto         model = oscillator(k, R);
  model.initial_displacement = Eigen::VectorXd::Constant(1, A);
  CorSettings s;
  s.n_modes         = 1;
  s.epsilon         = 1e-9;
  s.final_time      = 10.0;
  s.output_interval = 1e-2;
  const auto h = run_cor(model, s);

  const unsigned int expected = static_cast<unsigned int>(std::floor(s.final_time * omega / M_PI - 0.5)) + 1;
  ASSERT_EQ(h.impacts.size(), expected);
  double worst_time = 0, worst_velocity = 0;
  for (std::size_t n = 0; n < h.impacts.size(); ++n)
    {
      const double t_exact = (n + 0.5) * M_PI / omega;
      const double U_exact = -std::pow(R, n) * A * omega;
      worst_time           = std::max(worst_time, std::abs(h.impacts[n].time - t_exact));
      worst_velocity       = std::max(worst_velocity, std::abs(h.impacts[n].pre_velocity - U_exact));
      EXPECT_NEAR(h.impacts[n].post_velocity, -R * h.impacts[n].pre_velocity, 1e-14);
      EXPECT_NEAR(h.impacts[n].impulse, -(1 + R) * h.impacts[n].pre_velocity, 1e-13);
      EXPECT_FALSE(h.impacts[n].starts_sticking);
    }
  EXPECT_LT(worst_time, 1e-9);
  EXPECT_LT(worst_velocity, 1e-9);
  for (const auto &g : h.gaps)
    EXPECT_GE(g[0], -1e-12);
  std::printf("[ measured ] %zu impacts, worst impact-time error %.3g, worst U- error %.3g\n",
              h.impacts.size(), worst_time, worst_velocity);
}


TEST(ModalRestitution, SingleDofChattersSticksAndReleasesWhenTheReactionChangesSign)
{
  // Unit mass, k = 1, pushed onto the stop by -F0 + F1 sin(W t). Released from x = A it bounces
  // (R = 0.5) with geometrically shorter flights, sticks, and is held at x = 0 with lambda =
  // F0 - F1 sin(W t) until lambda = 0: t_r = (pi - asin(F0 / F1)) / W, first root after sticking
  // (with sin rising again: asin(F0/F1)/W + 2 pi / W would be the next).
  const double F0 = 1.0, F1 = 2.0, W = 0.5, A = 0.2;
  auto         model = oscillator(1.0, 0.5);
  model.initial_displacement = Eigen::VectorXd::Constant(1, A);
  model.loads.push_back(load_on_mass(-F0, 0.0, model::TimeFunction::Kind::constant));
  model.loads.push_back(load_on_mass(F1, W, model::TimeFunction::Kind::harmonic));
  // Phase shift so that the load starts near its most negative value: sin(W t + 3 pi / 2).
  model.loads.back().time.phase = 1.5 * M_PI;
  CorSettings s;
  s.n_modes         = 1;
  s.epsilon         = 1e-4;
  s.final_time      = 8.0;
  s.output_interval = 1e-3;
  const auto h = run_cor(model, s);

  ASSERT_GE(h.sticking.size(), 1u);
  const auto &phase = h.sticking.front();
  ASSERT_TRUE(phase.released);
  // Sticking began with the R = 0 impact that ended a chatter sequence.
  ASSERT_GE(h.impacts.size(), 5u);
  const auto last = std::find_if(h.impacts.begin(), h.impacts.end(),
                                 [](const auto &e) { return e.starts_sticking; });
  ASSERT_NE(last, h.impacts.end());
  EXPECT_DOUBLE_EQ(last->time, phase.start);
  EXPECT_LT(last->time - (last - 1)->time, s.epsilon);
  EXPECT_NEAR(last->post_velocity, 0.0, 1e-15);
  // lambda(t) = F0 - F1 sin(W t + 3 pi/2) = F0 + F1 cos(W t) changes sign at cos(W t) = -F0/F1.
  const double t_release = std::acos(-F0 / F1) / W;
  ASSERT_GT(t_release, phase.start);
  EXPECT_NEAR(phase.end, t_release, 1e-9);

  double worst_gap = 0, worst_force = 0;
  bool   lifted    = false;
  for (std::size_t n = 0; n < h.times.size(); ++n)
    {
      const double t = h.times[n];
      EXPECT_GE(h.gaps[n][0], -1e-12) << "penetration at t = " << t;
      if (t > phase.start && t < phase.end)
        {
          worst_gap = std::max(worst_gap, std::abs(h.gaps[n][0]));
          worst_force =
            std::max(worst_force, std::abs(h.contact_force[n][0] - (F0 + F1 * std::cos(W * t))));
          EXPECT_GT(h.contact_force[n][0], 0.0);
        }
      if (t > phase.end + 0.1)
        lifted = lifted || h.gaps[n][0] > 1e-3;
    }
  EXPECT_LT(worst_gap, 1e-9);
  EXPECT_LT(worst_force, 1e-9);
  EXPECT_TRUE(lifted);
  std::printf("[ measured ] %zu impacts before sticking at t = %.6f, release at %.12f (exact "
              "%.12f), worst |gap| while stuck %.3g, worst lambda error %.3g\n",
              static_cast<std::size_t>(last - h.impacts.begin() + 1), phase.start, phase.end,
              t_release, worst_gap, worst_force);
}


TEST(ModalRestitution, PinnedBeamModesAreTheSineModes)
{
  const auto model = structure::build_model(pinned_beam("3*sin(pi*x)", 1.0));
  CorSettings s;
  s.n_modes = 4;
  const integrators::ModalRestitution solver(model, s);
  for (int j = 1; j <= 4; ++j)
    {
      // 64 Hermite elements: frequencies to ~1e-6, mode values to ~1e-5.
      EXPECT_NEAR(solver.omegas()[j - 1] / std::pow(j * M_PI, 2), 1.0, 1e-5);
      EXPECT_NEAR(std::abs(solver.modal_contact_rows()(0, j - 1)),
                  std::sqrt(2.0) * std::abs(std::sin(j * M_PI * 0.4)), 1e-5);
    }
  // w0 = 3 sin(pi x) is 3/sqrt(2) times the first mode.
  EXPECT_NEAR(std::abs(solver.projection().initial_displacement()[0]), 3 / std::sqrt(2.0), 1e-6);
  EXPECT_LT(solver.projection().initial_displacement().tail(3).norm(), 1e-6);
}


TEST(ModalRestitution, ExactPinnedModesAreTheClosedFormAndHitAtTheQuarterPeriod)
{
  // Mode shapes = exact: ω_j = (jπ)² and √2 sin(jπ·0.4) at the contact whatever the mesh, so the
  // first impact of w0 = 3 sin πx (mode 1 alone) comes at T₁/4 = 1/(2π) with U⁻ = −3π² sin 0.4π
  // to the ODE tolerance; the FE modes of the same 20-element mesh miss it by their ω₁ error.
  auto c = test_cases::pinned_beam_on_obstacle(20, 1.0, "3*sin(pi*x)");
  const auto model = structure::build_model(c);
  ASSERT_TRUE(model.exact_modes.available());
  CorSettings s;
  s.n_modes     = 6;
  s.mode_source = integrators::ModeSource::exact;
  s.final_time  = 0.2;
  const integrators::ModalRestitution exact(model, s);
  for (int j = 1; j <= 6; ++j)
    {
      EXPECT_NEAR(exact.omegas()[j - 1] / std::pow(j * M_PI, 2), 1.0, 1e-15);
      EXPECT_NEAR(exact.modal_contact_rows()(0, j - 1), std::sqrt(2.0) * std::sin(j * M_PI * 0.4), 1e-14);
    }
  // The mesh only projects w0: q₁(0) = Φᵀ M w0 of Hermite interpolants is ∫ρA φ₁ w0 to O(h⁴).
  const double q1 = 3 / std::sqrt(2.0);
  const double projection_error_20 = std::abs(exact.projection().initial_displacement()[0] - q1);
  EXPECT_LT(projection_error_20, 5e-6 * q1);
  {
    const auto fine = structure::build_model(test_cases::pinned_beam_on_obstacle(40, 1.0, "3*sin(pi*x)"));
    const double projection_error_40 =
      std::abs(integrators::ModalProjection(fine, 6, {}, integrators::ModeSource::exact).initial_displacement()[0] - q1);
    EXPECT_NEAR(std::log2(projection_error_20 / projection_error_40), 4.0, 0.2);
  }

  const auto exact_run = run_cor(model, s);
  ASSERT_FALSE(exact_run.impacts.empty());
  const double quarter_period = 1 / (2 * M_PI);
  EXPECT_NEAR(exact_run.impacts[0].time, quarter_period, 1e-9);
  EXPECT_NEAR(exact_run.impacts[0].pre_velocity, -3 * M_PI * M_PI * std::sin(0.4 * M_PI), 5e-6 * 28.2);

  s.mode_source = integrators::ModeSource::finite_element;
  const auto fe_run = run_cor(model, s);
  ASSERT_FALSE(fe_run.impacts.empty());
  const double fe_error = std::abs(fe_run.impacts[0].time - quarter_period);
  EXPECT_GT(fe_error, 1e-8); // 20 Hermite elements: ω₁ high by ~4e-7 relative
  EXPECT_GT(fe_error, 100 * std::abs(exact_run.impacts[0].time - quarter_period));

  // A structure without closed-form modes has none to offer.
  c.bodies.front().right = structure::EndCondition::clamped;
  EXPECT_FALSE(structure::build_model(c).exact_modes.available());
}


TEST(ModalRestitution, PinnedBeamFreeVibrationConservesEnergyOverFortyImpacts)
{
  // Section 3 / Figure 3: w0 = 3 sin(pi x), R = 1, obstacle at 0.4, gap 0, four modes.
  const auto model = structure::build_model(pinned_beam("3*sin(pi*x)", 1.0));
  CorSettings s;
  s.n_modes         = 4;
  s.final_time      = 25.0;
  s.output_interval = 1e-3;
  const auto h = run_cor(model, s);

  ASSERT_GE(h.impacts.size(), 40u);
  const double E0 = h.kinetic_energy[0] + h.potential_energy[0];
  EXPECT_NEAR(E0, 0.5 * std::pow(M_PI, 4) * 4.5, 1e-3 * E0);
  double worst_energy = 0, min_gap = 0;
  for (std::size_t n = 0; n < h.times.size(); ++n)
    {
      worst_energy = std::max(worst_energy,
                              std::abs(h.kinetic_energy[n] + h.potential_energy[n] - E0) / E0);
      min_gap = std::min(min_gap, h.gaps[n][0]);
    }
  double worst_rebound = 0;
  for (const auto &e : h.impacts)
    {
      EXPECT_LT(e.pre_velocity, 0.0);
      EXPECT_GT(e.impulse, 0.0);
      worst_rebound = std::max(worst_rebound, std::abs(e.post_velocity + e.pre_velocity));
      EXPECT_FALSE(e.starts_sticking);
    }
  EXPECT_LT(worst_energy, 3e-7);
  EXPECT_GE(min_gap, -1e-10);
  EXPECT_LT(worst_rebound, 1e-12);
  EXPECT_TRUE(h.sticking.empty());
  EXPECT_NEAR(h.impact_dissipation.back(), 0.0, 1e-10 * E0);
  // The drift is the ODE's, not the impacts': it falls with the tolerance.
  s.absolute_tolerance = s.relative_tolerance = 1e-12;
  const auto fine = run_cor(model, s);
  double     worst_fine = 0;
  for (std::size_t n = 0; n < fine.times.size(); ++n)
    worst_fine = std::max(worst_fine,
                          std::abs(fine.kinetic_energy[n] + fine.potential_energy[n] - E0) / E0);
  EXPECT_LT(worst_fine, 0.1 * worst_energy);
  // The impact sequence is sensitive (near-grazing impacts amplify differences ~100x): the
  // first 12 impacts agree between the tolerances to ~1e-9, later ones drift apart (measured:
  // 1e-8 at impact 16, 1.6e-6 at impact 20, 1e-3 by impact 40).
  ASSERT_GE(fine.impacts.size(), 12u);
  double worst_time = 0;
  for (std::size_t i = 0; i < 12; ++i)
    worst_time = std::max(worst_time, std::abs(fine.impacts[i].time - h.impacts[i].time));
  EXPECT_LT(worst_time, 1e-7);
  std::printf("[ measured ] %zu impacts in [0, %.0f], %lu ODE steps, max |E - E0| / E0 = %.3g "
              "(%.3g at tolerance 1e-12), first 12 impact times agree to %.3g, min gap at outputs = %.3g, worst |U+ + U-| = %.3g\n",
              h.impacts.size(), s.final_time, h.ode_steps, worst_energy, worst_fine, worst_time, min_gap,
              worst_rebound);
}


namespace
{
  // Figure 4's data: F = 76.8 uniform, omega = 0.1 omega_1, R = 0.7, d = 0, zeta_j = 0.05.
  model::StructuralModel figure4_beam()
  {
    auto c  = pinned_beam("0", 0.7);
    c.loads = {test_cases::harmonic_load("F", structure::LoadDistribution::uniform, {"beam", 0.0}, 76.8,
                                         0.1 * M_PI * M_PI)};
    return structure::build_model(c);
  }
} // namespace


TEST(ModalRestitution, PinnedBeamEpsilonStudyFewerImpactsSameSticking)
{
  // Section 3.1: a larger epsilon cuts the chatter sequence short (fewer impacts, sticking
  // earlier) without changing the sticking phase's end or the motion after it.
  const auto model = figure4_beam();
  CorSettings s;
  s.n_modes         = 4;
  s.damping_ratios  = {0.05};
  s.final_time      = 7.5;
  s.output_interval = 1e-3;
  std::vector<CorRun> runs;
  for (const double epsilon : {1e-6, 1e-4, 1e-3})
    {
      s.epsilon = epsilon;
      runs.push_back(run_cor(model, s));
    }
  auto longest = [](const CorRun &h) {
    return *std::max_element(h.sticking.begin(), h.sticking.end(), [](const auto &a, const auto &b) {
      return a.end - a.start < b.end - b.start;
    });
  };
  auto before = [](const CorRun &h, double t) {
    return std::count_if(h.impacts.begin(), h.impacts.end(), [t](const auto &e) { return e.time <= t; });
  };
  std::printf("[ measured ]");
  for (std::size_t r = 0; r < runs.size(); ++r)
    {
      ASSERT_FALSE(runs[r].sticking.empty());
      const auto phase = longest(runs[r]);
      std::printf(" eps run %zu: %ld impacts up to the long phase [%.6f, %.10f], final probe u %.10f;", r,
                  static_cast<long>(before(runs[r], phase.start)), phase.start, phase.end,
                  runs[r].probe_displacement.back()[0]);
      if (r == 0)
        continue;
      const auto reference = longest(runs[0]);
      EXPECT_LT(before(runs[r], phase.start), before(runs[r - 1], longest(runs[r - 1]).start));
      EXPECT_LE(phase.start, longest(runs[r - 1]).start + 1e-12);
      // Measured: release times within 2e-9, final contact-point displacement within 1e-10.
      EXPECT_NEAR(phase.end, reference.end, 1e-6);
      EXPECT_NEAR(runs[r].probe_displacement.back()[0], runs[0].probe_displacement.back()[0], 1e-6);
    }
  std::printf("\n");
}


TEST(ModalRestitution, PinnedBeamForcedChatterSticksAndReleases)
{
  // Section 3.1 / Figure 4: F = 76.8 uniform, omega = 0.1 omega_1, R = 0.7, d = 0,
  // zeta_j = 0.05, x_i = 0.4; the beam starts at rest on the stop.
  const auto   model = figure4_beam();
  const double omega = model.loads.front().time.omega; // the load's period ends the long phase
  CorSettings s;
  s.n_modes         = 4;
  s.damping_ratios  = {0.05};
  s.epsilon         = 1e-6;
  s.final_time      = 9.0;
  s.output_interval = 1e-3;
  const integrators::ModalRestitution solver(model, s);
  const auto h = run_cor(model, s);

  // Two phases come out: a short one (the stuck beam's residual vibration pulls the contact
  // point off within ~0.013) and, after a second chatter sequence, a long one that ends near
  // the zero of the load at 2 pi / omega.
  ASSERT_GE(h.sticking.size(), 2u);
  const auto onset = std::find_if(h.impacts.begin(), h.impacts.end(),
                                  [](const auto &e) { return e.starts_sticking; });
  ASSERT_NE(onset, h.impacts.end());
  ASSERT_GE(onset - h.impacts.begin(), 10); // a chatter sequence preceded it
  EXPECT_LT(onset->time - (onset - 1)->time, s.epsilon);
  EXPECT_DOUBLE_EQ(onset->time, h.sticking.front().start);
  const auto longest = *std::max_element(h.sticking.begin(), h.sticking.end(),
                                         [](const auto &a, const auto &b) {
                                           return a.end - a.start < b.end - b.start;
                                         });
  ASSERT_TRUE(longest.released);
  EXPECT_GT(longest.end - longest.start, 2.0);
  EXPECT_NEAR(longest.end, 2 * M_PI / omega, 1e-2);

  double worst_gap = 0, min_gap = 0, worst_release = 0;
  for (const auto &phase : h.sticking)
    {
      ASSERT_TRUE(phase.released);
      std::vector<std::pair<double, double>> lambda; // (t, lambda) while stuck
      for (std::size_t n = 0; n < h.times.size(); ++n)
        if (h.times[n] > phase.start && h.times[n] < phase.end)
          {
            worst_gap = std::max(worst_gap, std::abs(h.gaps[n][0]));
            EXPECT_GT(h.contact_force[n][0], 0.0) << h.times[n];
            lambda.emplace_back(h.times[n], h.contact_force[n][0]);
          }
      // Released where lambda crosses zero: extrapolate the last two outputs while stuck.
      ASSERT_GE(lambda.size(), 2u);
      const auto [t1, l1] = lambda[lambda.size() - 2];
      const auto [t2, l2] = lambda.back();
      const double t_zero = t2 - l2 * (t2 - t1) / (l2 - l1);
      worst_release       = std::max(worst_release, std::abs(t_zero - phase.end));
      // ...and the beam lifts off afterwards (before the next phase, if any).
      double lift = 0;
      for (std::size_t n = 0; n < h.times.size(); ++n)
        if (h.times[n] > phase.end && h.times[n] < phase.end + 0.05)
          lift = std::max(lift, h.gaps[n][0]);
      EXPECT_GT(lift, 1e-6) << "no lift-off after the phase ending at " << phase.end;
    }
  for (std::size_t n = 0; n < h.times.size(); ++n)
    {
      min_gap     = std::min(min_gap, h.gaps[n][0]);
      bool inside = false;
      for (const auto &phase : h.sticking)
        inside = inside || (h.times[n] > phase.start && h.times[n] < phase.end);
      if (!inside)
        {
          EXPECT_EQ(h.contact_force[n][0], 0.0) << h.times[n];
        }
    }
  EXPECT_LT(worst_gap, 1e-9);
  EXPECT_GE(min_gap, -1e-10);
  EXPECT_LT(worst_release, 1e-4);
  const auto &phase = longest;
  const double t_zero = worst_release;
  std::printf("[ measured ] %zu impacts, %zu phases; first sticking at t = %.6f after %zu impacts "
              "(last flight %.3g); longest phase [%.6f, %.6f] (load zero at %.6f); worst |release - "
              "lambda zero by extrapolation| %.3g; worst |gap| while stuck %.3g, min gap %.3g, %lu "
              "ODE steps\n",
              h.impacts.size(), h.sticking.size(), h.sticking.front().start,
              static_cast<std::size_t>(onset - h.impacts.begin() + 1),
              onset->time - (onset - 1)->time, phase.start, phase.end, 2 * M_PI / omega,
              t_zero, worst_gap, min_gap, h.ode_steps);
}


TEST(ModalRestitution, TwoStuckContactsOnStackedMassesHaveExactMultipliersAndRelease)
{
  // wall - k - m1 - k - m2 (unit masses and springs), m1 resting on m2 (two-body contact 0,
  // g0 = u1 - u2) and m2 on a ground stop (contact 1, g1 = u2), both at gap 0, pressed by
  // f_i(t) = -a_i - b_i cos(W_i t) on m_i. Both start stuck; held at u = 0 the springs carry no
  // force and f + H^T lambda = 0 gives lambda_0 = -f_1, lambda_1 = -f_1 - f_2 exactly: the
  // contact rows are coupled (H H^T not diagonal), a test of the multiplier system. Contact 0
  // is released first, at the zero of f_1; m1 then flies and hits m2 again while m2 stays stuck
  // on the ground (the impact map must keep the stuck contact at U = 0).
  structure::CaseDescription c = test_cases::two_dof_chain(1.0, 1.0, 0.0);
  structure::ContactDescription stack;
  stack.name        = "m1_on_m2";
  stack.point       = {"m1", 0.0};
  stack.other       = {"m2", 0.0};
  stack.side        = structure::ContactSide::below;
  stack.restitution = 0.5;
  structure::ContactDescription ground = stack;
  ground.name                          = "m2_on_ground";
  ground.point                         = {"m2", 0.0};
  ground.other                         = {};
  c.contacts                           = {stack, ground};
  auto model = structure::build_model(c);
  const Eigen::VectorXd e2 = Eigen::VectorXd(model.contacts[1].row);
  const Eigen::VectorXd e1 = Eigen::VectorXd(model.contacts[0].row) + e2;
  ASSERT_NEAR(e1.squaredNorm(), 1.0, 1e-15);
  ASSERT_NEAR(e1.dot(e2), 0.0, 1e-15);
  const double a[2] = {1.0, 2.0}, b[2] = {2.0, 2.5}, W[2] = {1.0, 0.5};
  for (int i = 0; i < 2; ++i)
    {
      model::LoadTerm push = load_on_mass(-a[i], 0.0, model::TimeFunction::Kind::constant);
      push.spatial         = i == 0 ? e1 : e2;
      model::LoadTerm wave = load_on_mass(-b[i], W[i], model::TimeFunction::Kind::harmonic);
      wave.spatial         = push.spatial;
      wave.time.phase      = 0.5 * M_PI; // -b cos(W t)
      model.loads.push_back(push);
      model.loads.push_back(wave);
    }
  CorSettings s;
  s.n_modes         = 2;
  s.epsilon         = 1e-5;
  s.final_time      = 6.0;
  s.output_interval = 1e-3;
  const integrators::ModalRestitution solver(model, s);
  const Eigen::MatrixXd &B = solver.modal_contact_rows();
  EXPECT_GT(std::abs((B * B.transpose())(0, 1)), 0.5); // coupled rows
  const auto h = run_cor(model, s);

  ASSERT_GE(h.sticking.size(), 2u);
  const double t_release0 = std::acos(-a[0] / b[0]) / W[0];
  const auto  &p0 = h.sticking[0].contact == 0 ? h.sticking[0] : h.sticking[1];
  const auto  &p1 = h.sticking[0].contact == 0 ? h.sticking[1] : h.sticking[0];
  ASSERT_EQ(p0.contact, 0u);
  ASSERT_EQ(p1.contact, 1u);
  EXPECT_EQ(p0.start, 0.0);
  EXPECT_EQ(p1.start, 0.0);
  ASSERT_TRUE(p0.released);
  EXPECT_NEAR(p0.end, t_release0, 1e-9);
  EXPECT_GT(p1.end, p0.end + 1.0);
  // After both are released they bounce and chatter back to sticking: contact 0 sticks first
  // and contact 1 then chatters while contact 0 is held (the impact map must keep U_0 = 0).
  auto stuck_at = [&](unsigned int i, double t) {
    for (const auto &p : h.sticking)
      if (p.contact == i && t > p.start && t < p.end)
        return true;
    return false;
  };
  auto touching_at = [&](unsigned int i, double t) { // closed intervals
    for (const auto &p : h.sticking)
      if (p.contact == i && t >= p.start && t <= p.end)
        return true;
    return false;
  };
  const auto constrained = std::count_if(h.impacts.begin(), h.impacts.end(), [&](const auto &e) {
    return stuck_at(1 - e.contact, e.time);
  });
  EXPECT_GE(constrained, 3);

  double worst_lambda = 0, worst_gap = 0, min_gap = 0;
  for (std::size_t n = 0; n < h.times.size(); ++n)
    {
      const double t = h.times[n];
      const double lambda0 = a[0] + b[0] * std::cos(W[0] * t);
      const double lambda1 = lambda0 + a[1] + b[1] * std::cos(W[1] * t);
      for (unsigned int i = 0; i < 2; ++i)
        {
          min_gap = std::min(min_gap, h.gaps[n][i]);
          if (stuck_at(i, t))
            {
              worst_gap = std::max(worst_gap, std::abs(h.gaps[n][i]));
              EXPECT_GT(h.contact_force[n][i], 0.0);
            }
          else if (!touching_at(i, t))
            {
              EXPECT_EQ(h.contact_force[n][i], 0.0);
            }
        }
      if (t < p0.end)
        worst_lambda = std::max({worst_lambda, std::abs(h.contact_force[n][0] - lambda0),
                                 std::abs(h.contact_force[n][1] - lambda1)});
    }
  EXPECT_LT(worst_lambda, 1e-12);
  EXPECT_LT(worst_gap, 1e-9);
  EXPECT_GE(min_gap, -1e-10);
  std::printf("[ measured ] release of contact 0 at %.12f (exact %.12f), contact 1 at %.6f%s; "
              "worst lambda error while both stuck %.3g, worst |gap| while stuck %.3g, %zu "
              "impacts (%ld of them while the other contact is stuck), %zu phases\n",
              p0.end, t_release0, p1.end, p1.released ? "" : " (still stuck)", worst_lambda,
              worst_gap, h.impacts.size(), static_cast<long>(constrained), h.sticking.size());
}

// A load far out of range (1e308 on examples/impact_oscillator) overflows the modal state: the
// run ends at once with a numerical failure that says so, where the step control used to shrink
// its steps below the resolution of t and stand still (42 s, then "non-finite kinetic energy").
TEST(ModalRestitution, AnOverflowEndsTheRunAtOnceAndSaysSo)
{
  const auto c = studies::read_case_file(std::string(VIBROIMPACT_SOURCE_DIR) + "/examples/impact_oscillator/case.prm",
                                         {"Load F/Amplitude=1e308", "Simulation/Final time=3"});
  const auto model = structure::build_model(c.description);
  try
    {
      integrators::run_to_history(c.solver(), model, c.run);
      ADD_FAILURE() << "a load of 1e308 ran to its end";
    }
  catch (const integrators::NumericalFailure &e)
    {
      const std::string message = e.what();
      EXPECT_NE(message.find("below the resolution of t"), std::string::npos) << message;
      EXPECT_NE(message.find("overflow"), std::string::npos) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}
