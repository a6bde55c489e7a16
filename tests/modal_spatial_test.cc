// The modal solvers with spatial supports: the modal penalty with regularised Coulomb
// friction (stick under a small load, the sliding whirl's closed form, the energy ledger, and its
// convergence towards Moreau–Jean as k_p and k_t grow), and the modal Udwadia–Kalaba with annular
// supports in their frictionless form (the whirl's contact force, the radius held, one plane
// equal to the planar two-stop model). Hand-built point masses, as tests/spatial_friction_test.cc:
// a mass m with DoFs (r1, r2) on an isotropic spring k in a support at the point (doc/theory.md
// §9, doc/udwadia_kalaba.md "Spatial supports").
#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/integrators/penalty.h>
#include <vibroimpact/integrators/udwadia_kalaba.h>
#include <vibroimpact/io/input_error.h>

#include <gtest/gtest.h>

#include "point_mass_in_clearance.h"
#include "test_support.h"

#include <cmath>

#include "../source/integrators/modal_supports.h"

using namespace vibroimpact;
using integrators::ContactEvent;
using model::SpatialSupport;

namespace
{
  // A point mass m with DoFs (r1, r2) on an isotropic spring k, one support of clearance c
  // (point_mass_in_clearance.h).
  model::StructuralModel point_mass(const double m, const double k, const double c, const SpatialSupport::Shape shape,
                                    const double mu, const double e = 0.0)
  {
    test_cases::PointMass p;
    p.m = m, p.k = k, p.c = c;
    return p.model(shape, mu, e);
  }

  void add_load(model::StructuralModel &mdl, const Eigen::Vector2d &f, const double omega = 0.0, const double phase = 0.0)
  {
    model::LoadTerm load;
    load.name           = "push";
    load.spatial        = f;
    load.time.kind      = omega > 0 ? model::TimeFunction::Kind::harmonic : model::TimeFunction::Kind::constant;
    load.time.amplitude = 1.0;
    load.time.omega     = omega;
    load.time.phase     = phase;
    mdl.loads.push_back(load);
  }

  // What a run reported: every sample's support columns and energies, and the support events.
  struct Recorder : integrators::ResponseObserver
  {
    std::vector<double>                     times;
    std::vector<integrators::SupportSample> supports; // of support 0
    std::vector<integrators::EnergyTerms>   energies;
    std::vector<Eigen::Vector2d>            u, v;     // at the first and final samples
    std::vector<integrators::SupportEvent>  events;

    void sample(const integrators::ResponseSample &s) override
    {
      times.push_back(s.time);
      supports.push_back(s.supports ? (*s.supports)[0] : integrators::SupportSample{});
      energies.push_back(s.energy);
      if (s.u)
        u.push_back(s.u->head<2>()), v.push_back(s.v->head<2>());
    }
    void support_event(const integrators::SupportEvent &e) override { events.push_back(e); }

    double first(const ContactEvent::Kind kind) const
    {
      for (const auto &e : events)
        if (e.kind == kind)
          return e.time;
      return std::nan("");
    }
  };

  integrators::ModalPenaltySettings penalty(const double h, const double kp, const double kt)
  {
    integrators::ModalPenaltySettings s;
    s.time_step            = h;
    s.stiffness            = kp;
    s.damping              = 0.0;
    s.tangential_stiffness = kt;
    return s;
  }

  Recorder run_penalty(const model::StructuralModel &mdl, const integrators::ModalPenaltySettings &s, const double T,
                       const double output_interval = 0.0)
  {
    integrators::RunControl control;
    control.final_time      = T;
    control.output_interval = output_interval;
    Recorder recorder;
    integrators::ModalPenalty(mdl, s).run(control, recorder);
    return recorder;
  }
} // namespace

// The modal rows give the gaps and frames of model::contact_frames (the one geometry rule).
TEST(ModalSpatialSupports, FramesOnTheModesAreThoseOfContactFrames)
{
  auto mdl = point_mass(2.0, 3.0, 0.5, SpatialSupport::Shape::polygonal, 0.3);
  mdl.spatial_supports.push_back(point_mass(2.0, 3.0, 0.5, SpatialSupport::Shape::annular, 0.3).spatial_supports[0]);
  mdl.spatial_supports[1].centre = {{0.05, -0.02}};
  const integrators::ModalProjection P(mdl, 0, {});
  const auto                         supports = integrators::project_supports(mdl.spatial_supports, P);
  const Eigen::Vector2d              u(0.4, -0.3), v(1.5, 0.7);
  const Eigen::VectorXd              q = P.shapes().transpose() * (mdl.mass * u), w = P.shapes().transpose() * (mdl.mass * v);
  for (std::size_t s = 0; s < 2; ++s)
    {
      const auto frames = model::contact_frames(mdl.spatial_supports[s], u);
      const auto r      = supports[s].position(q);
      for (unsigned int k = 0; k < frames.size(); ++k)
        {
          const auto f = supports[s].candidate(k, r);
          EXPECT_NEAR(f.gap, frames[k].gap, 1e-14);
          EXPECT_NEAR(f.angle, frames[k].angle, 1e-14);
          const Eigen::Vector3d U = f.frame * (supports[s].rows * w);
          EXPECT_NEAR(U[0], frames[k].normal.dot(v), 1e-14);
          EXPECT_NEAR(U[1], frames[k].tangent.dot(v), 1e-14);
        }
    }
}

// Stick under a small load: pressed on a flat wall by P with a tangential load T < μP, the stick
// spring holds T with an elastic drift of order T / k_t. The suddenly applied T overshoots to 2T
// > μP in the first oscillation and slips a little; after that no slip at all: the friction work
// from t = 1 to t = 2 is exactly zero, where a tanh or viscous regularisation would creep at
// v = ε artanh(T/μP) for ever. With T > μP it slides at (T − μP)/m, short of it by the loading
// of the stick spring (an impulse ~ μP (m/k_t)^½).
TEST(ModalPenaltyFriction, StaysStuckUnderASmallTangentialLoadAndSlidesAbove)
{
  const double mu = 0.3, P = 2.0, kp = 1e5, kt = 1e5, h = 1e-4;
  for (const double T : {0.9 * mu * P, 1.5 * mu * P})
    {
      auto mdl                    = point_mass(1.0, 1e-8, 1.0, SpatialSupport::Shape::polygonal, mu); // k > 0: the modal analysis shifts by it
      mdl.initial_displacement[0] = 1.0 + P / kp; // pressed at the static penetration
      add_load(mdl, Eigen::Vector2d(P, T));
      const Recorder half = run_penalty(mdl, penalty(h, kp, kt), 1.0, 0.5);
      const Recorder r    = run_penalty(mdl, penalty(h, kp, kt), 2.0, 0.5);
      if (T < mu * P)
        {
          // Slid by the overshoot (friction work / μP), then held within the stick spring's
          // elastic oscillation (±2T/k_t about T/k_t): no creep from t = 1 to t = 2.
          const double slid = r.supports.back().friction_work / (mu * P);
          EXPECT_LT(slid, 6 * T / kt); // of order T / k_t (measured 4.4 T / k_t)
          EXPECT_LT(std::abs(r.u.back()[1]), slid + 3 * T / kt);
          EXPECT_LT(std::abs(r.u.back()[1] - half.u.back()[1]), 4 * T / kt);
          EXPECT_LT(r.supports.back().friction_work - half.supports.back().friction_work,
                    1e-9 * half.supports.back().friction_work)
            << r.supports.back().friction_work - half.supports.back().friction_work;
          EXPECT_FALSE(std::isnan(r.first(ContactEvent::Kind::sticking_start)));
        }
      else
        {
          const double a = (T - mu * P), t = 2.0;
          EXPECT_NEAR(r.v.back()[1], a * t, 2 * mu * P * std::sqrt(1 / kt));
          // Friction work μP × the distance slid (to the stick spring's stretch), the ledger's
          // friction term the same, and wear = friction / μ while it slides.
          EXPECT_NEAR(r.supports.back().friction_work, mu * P * r.u.back()[1], mu * P * 2 * mu * P / kt);
          EXPECT_DOUBLE_EQ(r.energies.back().friction_dissipation, r.supports.back().friction_work);
          EXPECT_NEAR(r.supports.back().wear_work * mu, r.supports.back().friction_work, 1e-12);
        }
      // Velocity-Verlet's own energy error, well below the friction work.
      EXPECT_LT(std::abs(r.energies.back().balance_error), 1e-8);
    }
}

namespace
{
  // Pressed on a flat wall by P cos ωt while sliding at v_t0 < μP/(mω): it slows at μ F_N / m,
  // sticks at sin ωt* = m ω v_t0 / (μ P), stays stuck and leaves the wall at ωt = π/2. Rigid:
  // mean F_N over [0, ½] = P sin(ω/2)/(ω/2), friction work ½ m v_t0², t* and π/(2ω).
  struct PressedSlider
  {
    double m = 1.0, c = 1.0, mu = 0.5, P = 1.0, omega = 1.0, vt0 = 0.3, T = 2.0;

    model::StructuralModel model(const double penetration) const
    {
      auto mdl                    = point_mass(m, 1e-8, c, SpatialSupport::Shape::polygonal, mu);
      mdl.initial_displacement[0] = c + penetration;
      mdl.initial_velocity[1]     = vt0;
      add_load(mdl, Eigen::Vector2d(P, 0.0), omega, M_PI / 2);
      return mdl;
    }
  };

  struct SliderAnswer
  {
    double mean_force = 0.0, friction_work = 0.0, stick_time = 0.0, leave_time = 0.0;
  };

  // Moreau–Jean on the rigid wall (θ = ½, e = 0), step by step as tests/spatial_friction_test.cc.
  SliderAnswer moreau_jean(const PressedSlider &p, const double h)
  {
    integrators::MoreauJeanSettings s;
    s.time_step          = h;
    s.friction_tolerance = 1e-12;
    const auto              mdl = p.model(0.0); // the OSI keeps a reference
    integrators::MoreauJean osi(mdl, s);
    auto                    state = osi.initial_state();
    SliderAnswer            a;
    a.stick_time = a.leave_time = std::nan("");
    const int n                 = static_cast<int>(std::lround(p.T / h));
    for (int k = 1; k <= n; ++k)
      {
        const auto   r = osi.step(state);
        const double t = k * h;
        double       pn = 0.0;
        for (const auto &c : r.spatial)
          {
            pn += c.normal_impulse;
            a.friction_work += c.friction_work;
            if (std::isnan(a.stick_time) && c.normal_impulse > 0 && std::abs(c.tangential_velocity_after[0]) < 1e-9)
              a.stick_time = t;
          }
        if (t <= 0.5 + 1e-12)
          a.mean_force += pn / 0.5;
        if (std::isnan(a.leave_time) && t > 0.5 && pn == 0.0)
          a.leave_time = t - h;
      }
    return a;
  }

  SliderAnswer modal_penalty(const PressedSlider &p, const double h, const double k)
  {
    // Started at the penetration of the quasi-static particular solution δ = P cos ωt/(k − mω²),
    // so that no free oscillation of the normal spring rides on the answer.
    const Recorder r = run_penalty(p.model(p.P / (k - p.m * p.omega * p.omega)), penalty(h, k, k), p.T, 0.5);
    SliderAnswer   a;
    a.mean_force    = r.supports[1].normal_force; // the row at t = 0.5
    a.friction_work = r.supports.back().friction_work;
    a.stick_time    = r.first(ContactEvent::Kind::sticking_start);
    a.leave_time    = r.first(ContactEvent::Kind::separation);
    return a;
  }
} // namespace

// The penalty answer converges to Moreau–Jean's as k_p = k_t = k grows (doc/validation-tubes.md
// §10.1): the mean contact force at order one in 1/k (F_N = P cos ωt · k/(k − mω²)); the
// friction work, the time the slider sticks and the time it leaves the wall to the step's
// resolution h (both solvers at h = 1e-4): the stick spring stores μF_N²/(2k_t) and gives it
// back, so the friction work does not depend on k_t to first order.
TEST(ModalPenaltyFriction, ConvergesToMoreauJeanAsThePenaltyStiffnessesGrow)
{
  const PressedSlider p;
  const double        h = 1e-4, W = 0.5 * p.m * p.vt0 * p.vt0;
  const SliderAnswer  ref = moreau_jean(p, h);
  EXPECT_NEAR(ref.mean_force, p.P * std::sin(0.5) / 0.5, 1e-3);
  EXPECT_NEAR(ref.friction_work, W, 1e-3 * W);
  EXPECT_NEAR(ref.stick_time, std::asin(p.m * p.omega * p.vt0 / (p.mu * p.P)), 2 * h);
  EXPECT_NEAR(ref.leave_time, M_PI / 2, 2 * h);
  std::vector<double> force_error;
  for (const double k : {1e3, 1e4, 1e5, 1e6})
    {
      const SliderAnswer a = modal_penalty(p, h, k);
      force_error.push_back(std::abs(a.mean_force - ref.mean_force));
      std::printf("k %8.0e  F %.8f (%.2e)  W_f %.8f (%.2e)  t* %.6f (%.2e)  t_leave %.6f (%.2e)\n", k, a.mean_force,
                  force_error.back(), a.friction_work, a.friction_work - ref.friction_work, a.stick_time,
                  a.stick_time - ref.stick_time, a.leave_time, a.leave_time - ref.leave_time);
      EXPECT_NEAR(a.friction_work, ref.friction_work, 5e-4 * W) << k;
      EXPECT_NEAR(a.stick_time, ref.stick_time, k >= 1e4 ? 2 * h : 20 * h) << k;
      EXPECT_NEAR(a.leave_time, ref.leave_time, 2 * h) << k;
    }
  for (std::size_t i = 1; i < force_error.size(); ++i)
    EXPECT_NEAR(force_error[i - 1] / force_error[i], 10.0, 0.5) << i; // order one in 1/k
}

namespace
{
  Recorder run_uk(const model::StructuralModel &mdl, const double h, const double T, const double output_interval)
  {
    integrators::ModalUdwadiaKalabaSettings s;
    s.time_step = h;
    integrators::RunControl control;
    control.final_time      = T;
    control.output_interval = output_interval;
    Recorder recorder;
    integrators::ModalUdwadiaKalaba(mdl, s).run(control, recorder);
    return recorder;
  }
} // namespace

// Frictionless whirl in permanent contact in the annular hole: at speed V on the wall the
// contact force holds the mass on its circle, F_N = m V²/c − k c (doc/udwadia_kalaba.md), the
// speed stays V (nothing works on it) and the radius stays c. Without the centripetal term
// |ṙ_t|²/ρ of g̈ the constraint force would be −k c (tensile: the contact would open).
TEST(ModalUdwadiaKalabaSpatial, FrictionlessWhirlHoldsTheCentripetalContactForceOnTheCircle)
{
  const double m = 2.0, k = 1.0, c = 0.5, V = 2.0, F = m * V * V / c - k * c;
  auto         mdl           = point_mass(m, k, c, SpatialSupport::Shape::annular, 0.0);
  mdl.initial_displacement[0] = c;
  mdl.initial_velocity[1]     = V;
  const Recorder r = run_uk(mdl, 1e-4, 2.0, 0.1);
  for (std::size_t i = 1; i < r.supports.size(); ++i)
    EXPECT_NEAR(r.supports[i].normal_force, F, 1e-6 * F) << r.times[i];
  EXPECT_NEAR(r.u.back().norm(), c, 1e-12 * c);
  EXPECT_NEAR(r.v.back().norm(), V, 1e-6 * V);
  EXPECT_NEAR(r.u.back().dot(r.v.back()), 0.0, 1e-12);
  EXPECT_TRUE(r.events.empty()); // never leaves the wall, never impacts
  EXPECT_LT(std::abs(r.energies.back().balance_error), 1e-6 * r.energies.front().total());
  // The orbit of every row (read on the modes: the rows between frames form no u) is on the wall.
  for (std::size_t i = 0; i < r.supports.size(); ++i)
    EXPECT_NEAR(std::hypot(r.supports[i].position[0], r.supports[i].position[1]), c, 1e-12 * c) << r.times[i];
}

// Frictionless annular hole with the motion in one plane equals the planar two-stop model of the
// same solver (two contacts g = c ∓ y, e = 0): same impacts, same final state.
TEST(ModalUdwadiaKalabaSpatial, AnnularInOnePlaneEqualsThePlanarTwoStopModel)
{
  const double m = 1.0, k = 1.0, c = 1.0, h = 1e-3, T = 5.0;
  auto         spatial       = point_mass(m, k, c, SpatialSupport::Shape::annular, 0.0);
  spatial.initial_velocity[0] = 3.0;
  add_load(spatial, Eigen::Vector2d(1.5, 0.0), 2.0);
  auto planar = test_cases::planar_two_stops(m, k, c, 0.0, 3.0);
  add_load(planar, Eigen::VectorXd::Constant(1, 1.5), 2.0);

  integrators::ModalUdwadiaKalabaSettings s;
  s.time_step = h;
  integrators::RunControl control;
  control.final_time = T;
  struct Planar : integrators::ResponseObserver
  {
    double u = 0.0, v = 0.0;
    int    impacts = 0;
    void   sample(const integrators::ResponseSample &x) override
    {
      if (x.u)
        u = (*x.u)[0], v = (*x.v)[0];
    }
    void event(const ContactEvent &e) override { impacts += e.kind == ContactEvent::Kind::impact; }
  } p;
  integrators::ModalUdwadiaKalaba(planar, s).run(control, p);
  const Recorder r = run_uk(spatial, h, T, 0.0);
  int            impacts = 0;
  for (const auto &e : r.events)
    impacts += e.kind == ContactEvent::Kind::impact;
  EXPECT_GE(p.impacts, 3);
  EXPECT_EQ(impacts, p.impacts);
  EXPECT_NEAR(r.u.back()[0], p.u, 1e-10);
  EXPECT_NEAR(r.v.back()[0], p.v, 1e-9);
  EXPECT_NEAR(r.u.back()[1], 0.0, 1e-14);
}

// U–K has no friction (doc/udwadia_kalaba.md): a support with μ > 0 is refused in one line that
// names the support's entry; the penalty takes it, and refuses a k_t that is not positive.
TEST(ModalUdwadiaKalabaSpatial, RefusesFrictionAndThePenaltyANonPositiveTangentialStiffness)
{
  const auto              mdl = point_mass(1.0, 1.0, 1.0, SpatialSupport::Shape::annular, 0.3);
  integrators::RunControl control;
  control.final_time = 1e-3;
  auto uk            = integrators::SolverRegistry::create("modal-uk");
  auto penalty       = integrators::SolverRegistry::create("modal-penalty");
  EXPECT_TRUE(uk->takes_spatial_supports());
  EXPECT_TRUE(penalty->takes_spatial_supports());
  try
    {
      uk->check(mdl, control, "case.prm");
      ADD_FAILURE() << "friction accepted by modal-uk";
    }
  catch (const io::InputError &e)
    {
      EXPECT_NE(std::string(e.what()).find("Support hole/Friction"), std::string::npos) << e.what();
    }
  auto settings                 = integrators::ModalPenaltySettings{};
  settings.tangential_stiffness = -1.0;
  EXPECT_THROW(integrators::ModalPenalty(mdl, settings), std::invalid_argument);
}

// The wear work of an impact: thrown from the centre of a frictionless flat bar (walls r1 = ±c)
// at (2, 1) on k = m = 1, the mass meets r1 = 1 at t = π/6 with U_n = −√3 and U_t = cos(π/6);
// the e = 0 impact's impulse √3 at that sliding speed is ∫ dP_N |v_t| = 3/2, and the spring pulls
// the mass off the wall at once. U–K books it (the impact's impulse, not only the constraint
// forces of a persistent contact), as Moreau–Jean does (the first-order closed form to O(h)).
TEST(ModalUdwadiaKalabaSpatial, AnImpactWearsTheImpulseTimesTheSlidingSpeed)
{
  auto mdl                = point_mass(1.0, 1.0, 1.0, SpatialSupport::Shape::polygonal, 0.0);
  mdl.initial_velocity[0] = 2.0;
  mdl.initial_velocity[1] = 1.0;
  const Recorder r        = run_uk(mdl, 1e-5, 1.0, 0.1);
  double impulse = 0.0; // each row's since the previous one
  for (const auto &sample : r.supports)
    impulse += sample.normal_impulse;
  EXPECT_NEAR(impulse, std::sqrt(3.0), 1e-3);
  EXPECT_NEAR(r.supports.back().wear_work, 1.5, 1e-3);
}
