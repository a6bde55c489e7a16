// The Hunt–Crossley penalty solver (Antunes et al. 2017, eq. 20): the restitution of a single
// impact against its first-order closed form, the contact time and depth against k_p, and the
// static reaction converging to the rigid (Udwadia–Kalaba) one as k_p grows.
#include <vibroimpact/integrators/penalty.h>
#include <vibroimpact/integrators/udwadia_kalaba.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/structure/model_builder.h>

#include <gtest/gtest.h>

#include "test_support.h"

#include <cmath>

using namespace vibroimpact;

namespace
{
  // A unit mass on a spring k to the ground, a stop above it at distance d: g = d − x.
  model::StructuralModel mass_below_stop(const double k, const double d)
  {
    structure::CaseDescription c;
    c.name     = "mass";
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

  struct Response
  {
    integrators::ResponseHistory history;
    integrators::RunSummary      summary;
  };

  template <typename Method, typename Settings>
  Response run(const model::StructuralModel &model, const Settings &s, const double final_time, const double output_interval)
  {
    integrators::RunControl control;
    control.final_time      = final_time;
    control.output_interval = output_interval;
    Response r{integrators::ResponseHistory(model), {}};
    r.summary = Method(model, s).run(control, r.history);
    return r;
  }

  // One impact of a unit mass at speed v0 on a penalty wall (the spring k = 1e-6 that holds the
  // model together acts for 1e-3 of a period over the run: negligible).
  integrators::ContactEvent single_impact(const double kp, const double mu, const double v0, Response *out = nullptr)
  {
    auto model             = mass_below_stop(1e-6, 1e-3);
    model.initial_velocity = Eigen::VectorXd::Constant(1, v0);
    integrators::ModalPenaltySettings s;
    s.stiffness = kp;
    s.damping   = mu;
    s.time_step = 1e-5;
    // To the wall (d / v0), through the contact (about π / √k_p) and away.
    const double T = std::ceil((1e-3 / v0 + 1.5 * M_PI / std::sqrt(kp)) / 1e-3) * 1e-3;
    auto         r = run<integrators::ModalPenalty>(model, s, T, 1e-4);
    const auto   impacts = r.history.impacts();
    EXPECT_EQ(impacts.size(), 1u) << "k_p = " << kp << ", mu_p = " << mu << ", v0 = " << v0;
    const auto event = impacts.empty() ? integrators::ContactEvent{} : impacts[0];
    if (out)
      *out = std::move(r);
    return event;
  }
} // namespace


TEST(ModalPenalty, HuntCrossleyRestitutionIsOneMinusTwoThirdsMuV0ToFirstOrder)
{
  // m δ'' = −k_p δ (1 + μ δ'): over the undamped half-cycle δ = (v0/ω) sin ωt the damping term
  // takes ΔE = (2/3) m μ v0³, so e² = 1 − (4/3) μ v0 and e = 1 − (2/3) μ v0 + O((μ v0)²),
  // whatever k_p and m.
  double worst_second_order = 0;
  for (const double mu : {0.05, 0.1, 0.2})
    for (const double v0 : {0.1, 0.25, 0.5})
      {
        const auto   e_event = single_impact(1e4, mu, v0);
        const double e       = -e_event.post_velocity / e_event.pre_velocity;
        const double x       = mu * v0;
        EXPECT_NEAR(e_event.pre_velocity, -v0, 1e-6);
        const double residual = (e - (1 - 2.0 / 3.0 * x)) / (x * x);
        worst_second_order    = std::max(worst_second_order, std::abs(residual));
        std::printf("[ measured ] mu_p = %.2f, v0 = %.2f: e = %.8f, 1 - 2/3 mu v0 = %.8f, (e - e1)/(mu v0)^2 = %.4f\n",
                    mu, v0, e, 1 - 2.0 / 3.0 * x, residual);
      }
  // The remainder is second order: bounded in units of (μ v0)², over a 10× range of μ v0.
  EXPECT_LT(worst_second_order, 0.5);
  // No damping: elastic, e = 1.
  const auto elastic = single_impact(1e4, 0.0, 0.3);
  EXPECT_NEAR(-elastic.post_velocity / elastic.pre_velocity, 1.0, 1e-6);
}


TEST(ModalPenalty, ContactTimeAndDepthShrinkAsTheInverseSquareRootOfTheStiffness)
{
  // Without damping the contact is half a period of the mass on k_p: t_c = π √(m / k_p), depth
  // v0 √(m / k_p); the rigid stop (k_p → ∞) is approached at the rate k_p^(-1/2).
  const double v0 = 0.2;
  for (const double kp : {1e3, 1e4, 1e5})
    {
      Response        r{integrators::ResponseHistory(mass_below_stop(1e-6, 1e-3)), {}};
      const auto impact = single_impact(kp, 0.0, v0, &r);
      const auto episodes = r.history.events();
      ASSERT_GE(episodes.size(), 1u);
      // The contact ends where the force does: the last row with a force before it is zero again.
      const auto   times = r.history.times(), force = r.history.column("force_stop");
      double       last  = impact.time;
      for (std::size_t n = 0; n < times.size(); ++n)
        if (force[n] > 0)
          last = times[n];
      const double t_c = M_PI / std::sqrt(kp), duration = last - impact.time;
      EXPECT_NEAR(duration, t_c, 1e-4 + 1e-3 * t_c) << "k_p = " << kp; // rows every 1e-4
      const double depth = r.summary.counter("deepest penetration");
      EXPECT_NEAR(depth, v0 / std::sqrt(kp), 1e-4 * v0 / std::sqrt(kp)) << "k_p = " << kp;
      EXPECT_NEAR(impact.impulse, 2 * v0, 1e-4) << "k_p = " << kp; // an elastic rebound: 2 m v0
      std::printf("[ measured ] k_p = %.0e: contact %.6f s (pi/sqrt(k_p) = %.6f), depth %.6e (v0/sqrt(k_p) = %.6e)\n",
                  kp, duration, t_c, depth, v0 / std::sqrt(kp));
    }
}


TEST(ModalPenalty, StaticReactionConvergesToTheRigidUdwadiaKalabaOneAsStiffnessGrows)
{
  // A mass resting on the stop (x = d), pushed by F against the spring k: rigid (U–K) λ = F − k d;
  // the penalty wall settles at δ = (F − k d)/(k_p + k), carrying k_p δ = λ k_p/(k_p + k): the
  // relative error is k/(k_p + k), a first-order approach to the rigid reaction.
  const double k = 4.0, d = 0.3, F = 2.0;
  auto         model           = mass_below_stop(k, d);
  model.initial_displacement   = Eigen::VectorXd::Constant(1, d);
  model::LoadTerm push;
  push.name           = "push";
  push.spatial        = Eigen::VectorXd::Ones(1);
  push.time.kind      = model::TimeFunction::Kind::constant;
  push.time.amplitude = F;
  model.loads.push_back(push);

  integrators::ModalUdwadiaKalabaSettings rigid;
  rigid.time_step    = 1e-3;
  const auto   uk    = run<integrators::ModalUdwadiaKalaba>(model, rigid, 1.0, 0.1);
  const double lambda = uk.history.column("force_stop").back();
  EXPECT_NEAR(lambda, F - k * d, 1e-12);

  double previous_error = 1;
  for (const double kp : {1e3, 1e4, 1e5})
    {
      integrators::ModalPenaltySettings s;
      s.stiffness      = kp;
      s.damping        = 0.0;
      s.damping_ratios = {0.5}; // the modal damping settles the bounce on the wall: decay e^(−t)
      s.time_step      = 1e-4;
      const auto   r     = run<integrators::ModalPenalty>(model, s, 20.0, 0.1);
      const double f     = r.history.column("force_stop").back();
      const double error = (lambda - f) / lambda;
      EXPECT_NEAR(error, k / (kp + k), 0.02 * k / (kp + k)) << "k_p = " << kp;
      EXPECT_LT(error, 0.2 * previous_error);
      previous_error = error;
      std::printf("[ measured ] k_p = %.0e: penalty reaction %.10f vs rigid %.10f, relative error %.3e "
                  "(k/(k_p+k) = %.3e)\n",
                  kp, f, lambda, error, k / (kp + k));
    }
}


TEST(ModalPenalty, BadSettingsOfBothModalSteppersNameTheirParameter)
{
  const std::string file = test_cases::example("two_dof_sticking"); // 2 DoFs, final time 200
  const auto expect_input_error = [&](const std::vector<std::string> &overrides, const std::string &solver,
                                      const std::string &parameter) {
    try
      {
        const auto c = test_cases::load_case(file, overrides);
        c.solver(solver).check(structure::build_model(c.description), c.run, file);
        ADD_FAILURE() << "no error for " << parameter;
      }
    catch (const io::InputError &e)
      {
        EXPECT_EQ(e.parameter(), parameter) << e.what();
      }
  };
  expect_input_error({"Modal penalty/Stiffness=0"}, "modal-penalty", "Modal penalty/Stiffness");
  expect_input_error({"Modal penalty/Damping=-1"}, "modal-penalty", "Modal penalty/Damping");
  expect_input_error({"Modal penalty/Number of modes=3"}, "modal-penalty", "Modal penalty/Number of modes");
  expect_input_error({"Modal Udwadia-Kalaba/Number of modes=3"}, "modal-uk", "Modal Udwadia-Kalaba/Number of modes");
  expect_input_error({"Modal Udwadia-Kalaba/Time step=0.003"}, "modal-uk", "Modal Udwadia-Kalaba/Time step");
  expect_input_error({"Modal Udwadia-Kalaba/Time step=300"}, "modal-uk", "Modal Udwadia-Kalaba/Time step");
  expect_input_error({"Modal Udwadia-Kalaba/Time step=0"}, "modal-uk", "Modal Udwadia-Kalaba/Time step");
  expect_input_error({"Modal Udwadia-Kalaba/Mode shapes=exact"}, "modal-uk", "Modal Udwadia-Kalaba/Mode shapes");
  expect_input_error({"Simulation/Final time=1e6", "Modal penalty/Time step=1e-6"}, "modal-penalty",
                     "Simulation/Final time");
}
