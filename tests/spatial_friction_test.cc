// Moreau–Jean with spatial supports and Coulomb friction, against the closed forms of
// doc/theory.md §10 ("A point mass in a circular clearance"): a mass m on an isotropic spring k in
// a hole of radial clearance c, with DoFs (r1, r2[, x, θ]) built by hand (no tube body needed).
// Also the friction-contact solver alone, the energy ledger with friction, what a run reports,
// and the refusal of spatial supports by the solvers that cannot take them.
#include <vibroimpact/contact/friction_contact_solver.h>
#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/periodic/continuation_parameters.h>
#include <vibroimpact/periodic/flow_map.h>
#include <vibroimpact/periodic/flow_map_registry.h>
#include <vibroimpact/studies/convergence.h>

#include <gtest/gtest.h>

#include "point_mass_in_clearance.h"
#include "test_support.h"

#include <cmath>
#include <set>

using namespace vibroimpact;
using integrators::MoreauJean;
using integrators::MoreauJeanSettings;
using integrators::State;
using integrators::StepReport;
using model::SpatialSupport;

namespace
{
  using test_cases::add_constant_load;
  using test_cases::PointMass;

  MoreauJeanSettings settings(const double h)
  {
    MoreauJeanSettings s;
    s.time_step = h;
    s.friction_tolerance = 1e-12;
    return s;
  }
} // namespace

// The friction-contact solver on TOOLCHAIN.md's call: sliding and sticking, 3-D and 2-D, and our
// own residual of the Coulomb law rejects an answer that ignores friction.
TEST(FrictionContactSolver, SlidesAndSticksAsCoulombSaysIn3DAnd2D)
{
  const contact::FrictionContactSolver solver(1e-12);
  Eigen::VectorXd                      mu(1);
  mu << 0.3;
  Eigen::VectorXd q3(3);
  q3 << -1.0, 0.5, 0.0;
  auto s = solver.solve(3, Eigen::MatrixXd::Identity(3, 3), q3, mu);
  ASSERT_FALSE(s.failed) << s.message;
  EXPECT_NEAR(s.r[0], 1.0, 1e-10);
  EXPECT_NEAR(s.r[1], -0.3, 1e-10); // |r_t| = μ r_n, against the slip
  EXPECT_NEAR(s.u[1], 0.2, 1e-10);
  q3[1] = 0.1;
  s     = solver.solve(3, Eigen::MatrixXd::Identity(3, 3), q3, mu);
  ASSERT_FALSE(s.failed) << s.message;
  EXPECT_NEAR(s.r[1], -0.1, 1e-10); // inside the cone: stuck
  EXPECT_NEAR(s.u[1], 0.0, 1e-10);

  Eigen::VectorXd q2(2);
  q2 << -1.0, 0.5;
  s = solver.solve(2, Eigen::MatrixXd::Identity(2, 2), q2, mu);
  ASSERT_FALSE(s.failed) << s.message;
  EXPECT_NEAR(s.r[1], -0.3, 1e-10);
  EXPECT_NEAR(s.u[1], 0.2, 1e-10);

  // Frictionless reaction on a sliding contact: the Coulomb law is violated (r_t = 0 < μ r_n).
  Eigen::VectorXd r(2), u(2);
  r << 1.0, 0.0;
  u = r + q2;
  EXPECT_GT(contact::coulomb_law_error(2, Eigen::MatrixXd::Identity(2, 2), q2, mu, r, u), 0.1);
  EXPECT_THROW(solver.solve(2, Eigen::MatrixXd::Identity(2, 2), q2, -mu), std::invalid_argument);
}

namespace
{
  // A whirl in permanent contact from (c, 0) at speed v0 for a time T: what the closed forms check.
  struct Whirl
  {
    double speed = 0.0, contact_force = 0.0;  // at T (the force: the last step's p_n / h)
    double friction = 0.0, wear = 0.0;        // summed over the steps' contacts
    double largest_force_error = 0.0;         // |F_N − (m v²/c − k c)| / F_N at the step's speed
    integrators::EnergyLedger ledger;
  };

  Whirl run_whirl(const PointMass &p, const double mu, const double v0, const double h, const double T)
  {
    const auto mdl = whirl(p, mu, v0);
    MoreauJean osi(mdl, settings(h));
    State      state = osi.initial_state();
    Whirl      w;
    w.ledger    = integrators::EnergyLedger(osi.kinetic_energy(state.v), osi.potential_energy(state.u));
    const int n = static_cast<int>(std::lround(T / h));
    for (int k = 1; k <= n; ++k)
      {
        const StepReport r = osi.step(state);
        EXPECT_EQ(r.spatial.size(), 1u) << "the contact opened at step " << k;
        if (r.spatial.size() != 1u)
          return w;
        EXPECT_EQ(r.friction_problem, mu > 0);
        EXPECT_FALSE(r.lcp_failed) << r.lcp_message;
        EXPECT_GE(r.energy.friction_dissipation, -1e-15) << k; // >= 0 at every step
        w.friction += r.spatial[0].friction_work;
        w.wear += r.spatial[0].wear_work;
        w.ledger.record(r.energy, osi.kinetic_energy(state.v), osi.potential_energy(state.u));
        w.speed               = state.v.norm();
        w.contact_force       = r.spatial[0].normal_impulse / h;
        const double expected = p.m * w.speed * w.speed / p.c - p.k * p.c;
        w.largest_force_error = std::max(w.largest_force_error, std::abs(w.contact_force - expected) / expected);
      }
    return w;
  }
} // namespace

// (a) Frictionless whirl in permanent contact at speed v: F_N = m v²/c − k c, constant. The
// velocity-level law with e = 0 turns the velocity by a small inelastic impact each step, which
// takes O(h) of the energy (doc/theory.md §10): the force follows the step's speed to 1e-3, and
// v → v0 as h → 0 at order one.
TEST(SpatialFriction, FrictionlessWhirlHasTheContactForceOfTheCentripetalBalance)
{
  const PointMass p;
  const double    v0 = 2.0, T = 1.0, F0 = p.m * v0 * v0 / p.c - p.k * p.c; // F0 = 3
  const Whirl     coarse = run_whirl(p, 0.0, v0, 1e-3, T), fine = run_whirl(p, 0.0, v0, 5e-4, T);
  EXPECT_LT(coarse.largest_force_error, 1e-3);
  EXPECT_LT(fine.largest_force_error, 1e-3);
  EXPECT_NEAR(fine.contact_force, F0, 1e-2 * F0);
  const double ratio = (v0 - coarse.speed) / (v0 - fine.speed);
  EXPECT_NEAR(ratio, 2.0, 0.1); // the speed's loss is O(h): first order
  EXPECT_NEAR(coarse.ledger.impact_dissipation(), coarse.ledger.initial_total() - coarse.ledger.total(), 1e-12);
  EXPECT_EQ(coarse.ledger.friction_dissipation(), 0.0);
}

// (b) Sliding with friction μ in permanent contact: m v̇ = −μ F_N, F_N = m(v² − a²)/c, a = ω c:
//   v(t) = a coth(μ a t / c + arcoth(v0 / a)); the contact force decays to zero and the mass never
//   leaves the wall (it tends to the free circular whirl at speed a).
// (c) The friction work equals the kinetic energy lost (the spring's is constant at radius c),
// ½m(v0² − v(t)²) in the closed form; in the run the kinetic energy lost is friction plus the
// O(h) impact loss of (a), the ledger's friction dissipation is the contacts' friction work, and
// the balance closes to round-off.
TEST(SpatialFriction, SlidingWhirlDecaysAsTheClosedFormAndFrictionWorkIsTheKineticEnergyLost)
{
  const PointMass p;
  const double    v0 = 2.0, mu = 0.1, a = std::sqrt(p.k / p.m) * p.c, T = 2.0;
  const double    v_exact = a / std::tanh(mu * a * T / p.c + std::atanh(a / v0));
  const double    friction_exact = 0.5 * p.m * (v0 * v0 - v_exact * v_exact);
  double          speed_error[2], friction_error[2];
  int             i = 0;
  for (const double h : {1e-3, 5e-4})
    {
      const Whirl w = run_whirl(p, mu, v0, h, T);
      EXPECT_LT(w.largest_force_error, 2e-3) << h; // F_N = m(v² − a²)/c at the step's speed
      speed_error[i]    = w.speed - v_exact;
      friction_error[i] = w.friction - friction_exact;
      EXPECT_NEAR(w.ledger.friction_dissipation(), w.friction, 1e-13);
      EXPECT_NEAR(w.wear * mu, w.friction, 1e-12 * w.friction); // sliding all along: wear = friction / μ
      const double lost = w.ledger.initial_total() - w.ledger.total(); // θ = 1/2: no numerical term
      EXPECT_NEAR(lost, w.friction + w.ledger.impact_dissipation(), 1e-11); // 4000 steps of round-off
      EXPECT_LT(std::abs(w.ledger.relative_balance_error()), 1e-12);
      ++i;
    }
  EXPECT_LT(std::abs(speed_error[1]), 2e-3 * v_exact);
  EXPECT_LT(std::abs(friction_error[1]), 2e-3 * friction_exact);
  EXPECT_NEAR(speed_error[0] / speed_error[1], 2.0, 0.2); // converging at order one
  EXPECT_NEAR(friction_error[0] / friction_error[1], 2.0, 0.2);
}

// (d) Stick under a small load: pressed on the wall by P with a tangential load T < μ P the mass
// stays (no drift over many steps); with T > μ P it slides at (T − μ P)/m.
TEST(SpatialFriction, StaysStuckUnderATangentialLoadBelowMuPAndSlidesAbove)
{
  PointMass p;
  p.k               = 0.0;
  const double mu   = 0.3, P = 2.0, h = 1e-3;
  for (const auto shape : {SpatialSupport::Shape::annular, SpatialSupport::Shape::polygonal})
    for (const double T : {0.9 * mu * P, 1.5 * mu * P})
      {
        auto mdl                    = p.model(shape, mu);
        mdl.initial_displacement[0] = p.c;
        add_constant_load(mdl, Eigen::Vector2d(P, T));
        MoreauJean osi(mdl, settings(h));
        State      state = osi.initial_state();
        const int  n     = shape == SpatialSupport::Shape::annular ? 5000 : 1000;
        for (int k = 1; k <= n; ++k)
          {
            const StepReport r = osi.step(state);
            ASSERT_EQ(r.spatial.size(), 1u);
            if (T < mu * P)
              {
                EXPECT_NEAR(r.spatial[0].tangential_impulse[0], -T * h, 1e-12 * T * h) << k; // the load, held
              }
          }
        if (T < mu * P)
          {
            EXPECT_LT(std::abs(state.u[1]), 1e-14) << "drifted";
            EXPECT_LT(std::abs(state.v[1]), 1e-14) << "drifted";
          }
        else if (shape == SpatialSupport::Shape::polygonal)
          {
            const double t = n * h, acceleration = (T - mu * P) / p.m;
            EXPECT_NEAR(state.v[1], acceleration * t, 1e-10);
            EXPECT_NEAR(state.u[1], 0.5 * acceleration * t * t, 1e-3 * acceleration * t * t);
          }
        else
          EXPECT_GT(std::abs(state.u[1]), 0.1 * p.c); // it slides round the hole
      }
}

// (e) With a twist DoF the friction moment R p_t spins it: pressed on a flat wall by P, twisting
// at θ̇0 and not moving, the surface slides at R θ̇0; friction μP slows θ̇ at R μ P / J and drives
// ż at −μ P / m until the slip R θ̇ + ż vanishes (t* = R θ̇0 / (μ P (1/m + R²/J))); then it rolls.
TEST(SpatialFriction, FrictionMomentSpinsTheTwistUntilItRolls)
{
  PointMass p;
  p.n_dofs = 4, p.k = 0.0, p.J = 0.02, p.R = 0.2;
  const double mu = 0.3, P = 1.0, h = 1e-3, spin0 = 5.0;
  auto         mdl            = p.model(SpatialSupport::Shape::polygonal, mu);
  mdl.initial_displacement[0] = p.c;
  mdl.initial_velocity[3]     = spin0;
  add_constant_load(mdl, Eigen::Vector4d(P, 0, 0, 0));
  MoreauJean   osi(mdl, settings(h));
  State        state  = osi.initial_state();
  const double t_stop = p.R * spin0 / (mu * P * (1 / p.m + p.R * p.R / p.J));
  const double spin_end = spin0 - p.R * mu * P * t_stop / p.J, dz_end = -mu * P * t_stop / p.m;
  const int    n        = static_cast<int>(2 * t_stop / h);
  for (int k = 1; k <= n; ++k)
    {
      const StepReport r = osi.step(state);
      ASSERT_EQ(r.spatial.size(), 1u);
      ASSERT_FALSE(r.lcp_failed) << r.lcp_message;
      if ((k + 1) * h < t_stop)
        {
          EXPECT_NEAR(state.v[3], spin0 - p.R * mu * P * k * h / p.J, 1e-9) << k;
        }
    }
  EXPECT_NEAR(state.v[3], spin_end, 1e-3 * spin0);
  EXPECT_NEAR(state.v[1], dz_end, 1e-3 * std::abs(dz_end));
  EXPECT_NEAR(state.v[1] + p.R * state.v[3], 0.0, 1e-12); // rolling: the surface does not slide
}

// (f) Frictionless annular clearance with the motion in one plane equals the planar two-stop
// model (two contacts of `contacts`, g = c ∓ y) to round-off.
TEST(SpatialFriction, FrictionlessAnnularInOnePlaneEqualsThePlanarTwoStopModel)
{
  const PointMass p;
  const double    h = 1e-3, e = 0.6;
  auto            spatial           = p.model(SpatialSupport::Shape::annular, 0.0, e);
  spatial.initial_velocity[0]       = 3.0;
  const auto planar = test_cases::planar_two_stops(p.m, p.k, p.c, e, 3.0);

  MoreauJean a(spatial, settings(h)), b(planar, settings(h));
  State      sa = a.initial_state(), sb = b.initial_state();
  int        impacts = 0;
  for (int k = 1; k <= 5000; ++k)
    {
      const auto ra = a.step(sa);
      b.step(sb);
      impacts += !ra.spatial.empty();
      ASSERT_EQ(sa.u[1], 0.0);
      ASSERT_NEAR(sa.u[0], sb.u[0], 1e-14 * p.c) << k;
      ASSERT_NEAR(sa.v[0], sb.v[0], 1e-13) << k;
    }
  EXPECT_GE(impacts, 3);
}

// The penetration of the annular gap, linearised per step, in permanent contact (doc/theory.md
// §9): with the normal at the step's start the chords leave the circle and the penetration grows
// like v² h t / c; with the normal at the predicted position u + h v/(2θ) (the default) the
// step's chord is the wall's and what remains is O(h³) a step.
TEST(SpatialFriction, AnnularPenetrationDoesNotAccumulateWithThePredictedNormal)
{
  const PointMass p;
  const double    v0 = 2.0, h = 1e-3;
  const auto      mdl = whirl(p, 0.0, v0);
  double          deepest[2] = {0, 0};
  for (const auto normal : {integrators::AnnularNormal::start, integrators::AnnularNormal::predicted})
    {
      auto s           = settings(h);
      s.annular_normal = normal;
      MoreauJean osi(mdl, s);
      State      state = osi.initial_state();
      for (int k = 1; k <= 3000; ++k)
        {
          const StepReport r = osi.step(state);
          ASSERT_EQ(r.support_gap.size(), 1);
          deepest[normal == integrators::AnnularNormal::predicted] =
            std::min(deepest[normal == integrators::AnnularNormal::predicted], r.support_gap[0]);
        }
    }
  const double t = 3.0, drift = v0 * v0 * h * t / p.c; // the start normal's growth
  EXPECT_NEAR(-deepest[0], drift, 0.05 * drift);
  EXPECT_LT(-deepest[1], 1e-5 * drift);
}

// What a run reports for a spatial support (moreau-jean through run_to_history): the orbit, the
// forces over the rows, friction and wear work accumulated at every step, the ledger's friction
// dissipation, and the contact's events with their angle; planar-only columns unchanged.
TEST(SpatialFriction, RunReportsOrbitForcesFrictionAndWearWorkAndEventsOfTheSupport)
{
  const PointMass p;
  const double    mu = 0.1, h = 1e-3;
  auto            mdl = whirl(p, mu, 2.0);
  auto            solver = integrators::SolverRegistry::create("moreau-jean");
  solver->set_time_step(h);
  integrators::RunControl control;
  control.final_time      = 1.0;
  control.output_interval = 0.1;
  const auto history      = integrators::run_to_history(*solver, mdl, control);
  const auto r1 = history.column("r1_hole"), r2 = history.column("r2_hole");
  for (std::size_t k = 0; k < r1.size(); ++k)
    EXPECT_NEAR(std::hypot(r1[k], r2[k]), p.c, 1e-6);
  const auto friction = history.column("friction_work_hole"), wear = history.column("wear_work_hole");
  const auto ledger   = history.column("friction_dissipation"), balance = history.column("balance_error");
  EXPECT_NEAR(friction.back(), ledger.back(), 1e-13);
  EXPECT_GT(friction.back(), 0.3);
  EXPECT_NEAR(wear.back() * mu, friction.back(), 1e-12);
  EXPECT_LT(std::abs(balance.back()), 1e-12);
  // The mean normal force over a row is its impulse over the row's span, ≈ m v²/c − k c.
  const auto force = history.column("normal_force_hole"), impulse = history.column("normal_impulse_hole");
  EXPECT_NEAR(force[3], impulse[3] / 0.1, 1e-9);
  const auto tangential = history.column("tangential_force_hole");
  EXPECT_NEAR(tangential[3], mu * force[3], 1e-6 * force[3]); // sliding: |F_t| = μ F_N
  ASSERT_EQ(history.support_events().size(), 1u);             // one episode, open to the end
  const auto &impact = history.support_events()[0];
  EXPECT_EQ(impact.kind, integrators::ContactEvent::Kind::impact);
  EXPECT_NEAR(impact.angle, 0.0, 1e-2); // the wall at ν ≈ e1 where the whirl began
  EXPECT_EQ(history.events().size(), 0u);
  EXPECT_EQ(history.summary.impacts, 1u);
}

// A stuck contact reports its sticking (the mass pressed on the wall with T < μ P).
TEST(SpatialFriction, StuckContactReportsItsSticking)
{
  PointMass p;
  p.k                        = 0.0;
  auto mdl                    = p.model(SpatialSupport::Shape::annular, 0.3);
  mdl.initial_displacement[0] = p.c;
  add_constant_load(mdl, Eigen::Vector2d(2.0, 0.3));
  auto solver = integrators::SolverRegistry::create("moreau-jean");
  solver->set_time_step(1e-3);
  integrators::RunControl control;
  control.final_time = 0.05;
  const auto history = integrators::run_to_history(*solver, mdl, control);
  ASSERT_EQ(history.support_events().size(), 2u);
  EXPECT_EQ(history.support_events()[1].kind, integrators::ContactEvent::Kind::sticking_start);
  EXPECT_NEAR(history.column("tangential_force_hole").back(), 0.3, 1e-9); // the load, held
}

// Every solver that does not declare spatial supports refuses them in one line, and so does the
// continuation's period map; moreau-jean and the modal penalty and U–K solvers take them (U–K
// refuses friction in its own check).
TEST(SpatialFriction, SolversWithoutSpatialSupportsRefuseThem)
{
  const PointMass p;
  const auto      mdl = whirl(p, 0.3, 2.0);
  const std::set<std::string> taking{"moreau-jean", "modal-penalty", "modal-uk"};
  unsigned int                refusing = 0;
  for (const auto &name : integrators::SolverRegistry::names())
    {
      const auto solver = integrators::SolverRegistry::create(name);
      refusing += taking.count(name) == 0 ? 1 : 0;
      if (taking.count(name) > 0)
        EXPECT_NO_THROW(integrators::check_spatial_supports(*solver, mdl, "case.prm"));
      else
        {
          try
            {
              integrators::check_spatial_supports(*solver, mdl, "case.prm");
              ADD_FAILURE() << name << " took a spatial support";
            }
          catch (const io::InputError &e)
            {
              EXPECT_NE(std::string(e.what()).find("Simulation/Solver"), std::string::npos) << e.what();
              EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
            }
        }
    }
  for (const auto &name : {"modal-cor", "wave-modes", "modal-uk", "modal-penalty"})
    EXPECT_TRUE(integrators::SolverRegistry::contains(name)) << name;
  EXPECT_GE(refusing, 2u); // modal-cor and wave-modes at least
  for (const auto &name : taking)
    EXPECT_TRUE(integrators::SolverRegistry::create(name)->takes_spatial_supports()) << name;
  periodic::ContinuationCase continuation;
  continuation.filename = "case.prm";
  const MoreauJeanSettings mj;
  EXPECT_THROW(periodic::make_flow_map({mdl, continuation, mj}), io::InputError);
}

// The impulse a step applies is the seam's: M (v+ − v_free) = normalᵀ p_n + tangentᵀ p_t +
// axialᵀ p_s with the rows of model::contact_frames at the predicted position u + h v/(2θ), for a
// contact at a general angle with axial and twist fields (the OSI forms its frame rows from the
// support's kinematic rows; this checks that combination against the seam).
TEST(SpatialFriction, StepImpulseActsThroughTheSeamsFrameRows)
{
  PointMass p;
  p.n_dofs = 4, p.J = 0.05, p.R = 0.3;
  const double h = 1e-3, angle = 0.7;
  auto         mdl = p.model(SpatialSupport::Shape::annular, 0.4, 0.5);
  mdl.initial_displacement << p.c * std::cos(angle), p.c * std::sin(angle), 0.0, 0.0;
  mdl.initial_velocity << 1.0, 0.4, -0.3, 2.0; // approaching, sliding round, along and twisting
  auto free           = mdl;
  free.spatial_supports.clear();
  MoreauJean with(mdl, settings(h)), without(free, settings(h));
  State      a = with.initial_state(), b = without.initial_state();
  const auto frame = model::contact_frames(mdl.spatial_supports[0], Eigen::VectorXd(a.u + h * a.v))[0];
  const StepReport r = with.step(a);
  without.step(b);
  ASSERT_EQ(r.spatial.size(), 1u);
  ASSERT_EQ(r.spatial[0].candidate, 0u);
  const auto  &c = r.spatial[0];
  EXPECT_GT(c.normal_impulse, 0.0);
  const Eigen::VectorXd applied = mdl.mass * (a.v - b.v);
  const Eigen::VectorXd seam    = Eigen::VectorXd(frame.normal) * c.normal_impulse +
                               Eigen::VectorXd(frame.tangent) * c.tangential_impulse[0] +
                               Eigen::VectorXd(frame.axial) * c.tangential_impulse[1];
  // W = M + θ²h²K: the impulse acts through W⁻¹, so M (v+ − v_free) = M W⁻¹ (seam); K = k on r1, r2.
  Eigen::VectorXd expected = seam;
  for (int i = 0; i < 2; ++i)
    expected[i] *= p.m / (p.m + 0.25 * h * h * p.k);
  EXPECT_LT((applied - expected).norm(), 1e-12 * seam.norm());
  EXPECT_GT(std::abs(c.tangential_impulse[1]), 0.0); // the axial slip took friction too
}

// Planar contacts join a friction-contact problem as frictionless contacts (their missing
// tangents decoupled): a mass stuck on an annular wall with friction (P, T < μ P) and pressed
// on a planar stop along its axial DoF by Q takes exactly (P h, −T h) and Q h.
TEST(SpatialFriction, PlanarContactJoinsTheFrictionProblemAsAFrictionlessOne)
{
  PointMass p;
  p.n_dofs = 4, p.k = 0.0, p.J = 1.0;
  const double mu = 0.3, P = 2.0, T = 0.4, Q = 1.5, h = 1e-3;
  auto         mdl = p.model(SpatialSupport::Shape::annular, mu);
  mdl.spatial_supports[0].axial = model::SparseRowVector(4); // no axial friction: a 2-D problem
  mdl.initial_displacement[0]   = p.c;
  model::Contact stop;
  stop.name = "axial stop", stop.row = test_cases::unit_row(4, 2), stop.gap0 = 0.0, stop.restitution = 0.0; // g = x >= 0
  mdl.contacts.push_back(stop);
  add_constant_load(mdl, Eigen::Vector4d(P, T, -Q, 0.0));
  MoreauJean osi(mdl, settings(h));
  State      state = osi.initial_state();
  for (int k = 1; k <= 200; ++k)
    {
      const StepReport r = osi.step(state);
      ASSERT_TRUE(r.friction_problem);
      ASSERT_FALSE(r.lcp_failed) << r.lcp_message;
      ASSERT_EQ(r.active.size(), 1u);
      ASSERT_EQ(r.spatial.size(), 1u);
      EXPECT_NEAR(r.impulse[0], Q * h, 1e-12) << k;
      EXPECT_NEAR(r.spatial[0].normal_impulse, P * h, 1e-12) << k;
      EXPECT_NEAR(r.spatial[0].tangential_impulse[0], -T * h, 1e-12) << k;
    }
  EXPECT_LT(state.u.cwiseAbs().tail(3).maxCoeff(), 1e-14);
}

// `converge` quantities name a support in space as a contact: a mass on k = m = 1 thrown at
// v0 = 2 from the centre of a flat bar of clearance 1 meets the wall at sin t = 1/2 (t = π/6) with
// U⁻ = 2 cos(π/6) = √3 and stops there (e = 0, impulse √3), then the spring pulls it off.
TEST(SpatialFriction, ConvergenceQuantitiesReadTheImpactsAndImpulseOfASupportInSpace)
{
  const PointMass p;
  auto            mdl        = p.model(SpatialSupport::Shape::polygonal, 0.0);
  mdl.initial_velocity[0]    = 2.0;
  const double h             = 1e-4;
  auto         solver        = integrators::SolverRegistry::create("moreau-jean");
  solver->set_time_step(h);
  integrators::RunControl control;
  control.final_time      = 1.0;
  control.output_interval = 1e-3;
  const auto history      = integrators::run_to_history(*solver, mdl, control);
  const auto value        = [&](const std::string &q) { return studies::ResponseQuantity(q).evaluate(history, nullptr, 1.0); };
  EXPECT_NEAR(value("impact time(1, hole)"), M_PI / 6, h);
  EXPECT_NEAR(value("impact impulse(1, hole)"), std::sqrt(3.0), 1e-3);
  EXPECT_NEAR(value("impulse(hole, 0, 1)"), std::sqrt(3.0), 1e-3);
  EXPECT_EQ(value("impacts(0, 1, hole)"), 1.0);
  EXPECT_NEAR(value("impact time(1)"), M_PI / 6, h); // the impacts of every contact include it
  EXPECT_THROW(value("impact time(1, nowhere)"), std::invalid_argument);
}
