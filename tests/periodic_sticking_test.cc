// Sticking orbits on the event-driven map with the energy correction (e = 0 impacts whose loss is
// put back along the correction direction, doc/periodic.md §1): the 2-DOF chain's sticking orbit
// of the seed, exact, against the Moreau–Jean ones as h = T/N falls.
#include <vibroimpact/periodic/closed_forms.h>
#include <vibroimpact/periodic/continuation.h>
#include <vibroimpact/periodic/linear_impact_flow.h>
#include <vibroimpact/periodic/moreau_jean_flow.h>
#include <vibroimpact/structure/model_builder.h>

#include <gtest/gtest.h>

#include <cmath>

#include "test_support.h"

using namespace vibroimpact;
using periodic::Vector;

namespace
{
  periodic::LinearImpactFlowSettings corrected(const test_cases::LoadedCase &c)
  {
    periodic::LinearImpactFlowSettings settings;
    settings.energy_correction    = true;
    settings.correction_direction = test_cases::moreau_jean(c).correction_direction;
    return settings;
  }

  // The rod at rest with a uniform strain that pulls its end away from the stop, of energy E: the
  // closed-form orbit's state mid free phase (u = −2Bx). In modal coordinates this is the static
  // response to an end force, q_j ∝ B_j / ω_j², scaled to the energy.
  Vector uniform_strain_at_rest(const periodic::LinearImpactFlow &flow, const double energy)
  {
    const auto  &projection = flow.projection();
    const Vector q          = projection.contact_rows().row(0).transpose().cwiseQuotient(projection.omegas().cwiseAbs2());
    Vector       x          = Vector::Zero(2 * q.size());
    x.head(q.size())        = q * std::sqrt(energy / projection.potential_energy(q));
    return x;
  }
} // namespace

// The continuum's first nonsmooth mode of the fixed–free rod (closed form, doc/periodic.md), run
// for one of its periods on finite-element rods (e = 0 with the correction) from its state at
// rest mid free phase: the return error falls as the mesh is refined, slowly (the fronts
// disperse, the contact node is a rigid body: doc/periodic.md).
TEST(PeriodicSticking, FiniteElementRodReturnsTowardTheContinuumOrbit)
{
  periodic::Rod rod; // L = c = EA = 1, g = 0.1, as in examples/rod_nonsmooth_mode
  const double  energy = 4 * periodic::rod_backbone_grazing_energy(rod);
  const auto    exact  = periodic::rod_first_nonsmooth_mode(rod, energy);
  ASSERT_NEAR(exact.period, 3.5, 1e-12);
  std::vector<double> errors, impact_errors, release_errors;
  for (const unsigned int elements : {10u, 20u, 40u, 80u, 160u})
    {
      const auto c = test_cases::load_case(test_cases::example("rod_nonsmooth_mode"),
                                           {"Body rod/Number of elements=" + std::to_string(elements),
                                            "Contact stop/Restitution=0", "Moreau-Jean/Energy correction=true"});
      const auto model = structure::build_model(c.description);
      const periodic::LinearImpactFlow flow(model, corrected(c));
      const Vector x0     = uniform_strain_at_rest(flow, energy);
      const auto   result = flow.flow(x0, exact.period, 0.0, false);
      EXPECT_NEAR(flow.energy(result.x), energy, 1e-9 * energy); // the correction keeps it conservative
      errors.push_back((result.x - x0).norm() / x0.norm());
      // The switching instants: first impact (closed form: a/c after the start) and the last
      // release (the end of the contact phase, t_c later).
      double first_impact = -1, release = -1;
      for (const auto &e : result.events)
        {
          if (e.kind == periodic::OrbitEvent::Kind::impact && first_impact < 0)
            first_impact = e.time;
          if (e.kind == periodic::OrbitEvent::Kind::separation)
            release = e.time;
        }
      const double a_over_c = exact.period - 2 * rod.length / rod.wave_speed;
      impact_errors.push_back(std::abs(first_impact - a_over_c));
      release_errors.push_back(std::abs(release - (a_over_c + exact.contact_duration)));
      std::cerr << elements << " elements: return error " << errors.back() << ", first impact " << first_impact
                << " (continuum " << a_over_c << "), release " << release << " ("
                << a_over_c + exact.contact_duration << "), " << result.events.size() << " events\n";
    }
  for (std::size_t k = 1; k < errors.size(); ++k)
    std::cerr << "observed rates: state " << std::log(errors[k - 1] / errors[k]) / std::log(2.0) << ", first impact "
              << std::log(impact_errors[k - 1] / impact_errors[k]) / std::log(2.0) << ", release "
              << std::log(release_errors[k - 1] / release_errors[k]) / std::log(2.0) << "\n";
  EXPECT_LT(errors.back(), errors.front());
  // The end of the contact phase (the tensile front reaching the end) converges, slowly: about
  // h^(2/3) over the 16-fold refinement (the front's Airy spreading, doc/periodic.md).
  for (std::size_t k = 1; k < release_errors.size(); ++k)
    EXPECT_LT(release_errors[k], release_errors[k - 1]);
  const double rate = std::log(release_errors.front() / release_errors.back()) / std::log(16.0);
  EXPECT_GT(rate, 0.5);
  EXPECT_LT(rate, 1.0);
}

// The seed's sticking orbit of the 2-DOF chain (E = 1, e = 0 with the correction along m1): the
// exact event-driven orbit, and the Moreau–Jean ones converging to it as h falls.
TEST(PeriodicSticking, MoreauJeanStickingOrbitConvergesToTheEventDrivenOne)
{
  const auto c     = test_cases::load_case(test_cases::example("two_dof_sticking_family"));
  const auto model = structure::build_model(c.description);
  periodic::ContinuationSettings settings;
  settings.max_points   = 1;
  settings.max_restarts = 0;
  settings.max_energy   = 10;

  const periodic::LinearImpactFlow exact_flow(model, corrected(c));
  std::vector<double>              errors;
  double                           T_exact = 0;
  for (const double h : {0.002, 0.0005, 0.00025})
    {
      auto mj      = test_cases::moreau_jean(c);
      mj.time_step = h;
      const periodic::MoreauJeanFlow flow(model, mj, 0);
      const auto                     start = flow.simulated_orbit(200);
      ASSERT_TRUE(start.has_value());
      const auto branch = periodic::continue_free_family(flow, settings, start->first, start->second);
      ASSERT_FALSE(branch.points.empty()) << "h = " << h << ": " << branch.stop_reason;
      const auto &orbit = branch.points.front();
      if (T_exact == 0)
        {
          // The exact orbit of the same energy, from the Moreau–Jean one.
          const Vector x = exact_flow.modal_state(orbit.state.head(2), orbit.state.tail(2));
          const auto   e = periodic::continue_free_family(exact_flow, settings, x, orbit.period);
          ASSERT_FALSE(e.points.empty()) << e.stop_reason;
          const auto &o = e.points.front();
          EXPECT_LT(o.residual, settings.tolerance);
          EXPECT_NEAR(o.energy, 1.0, 1e-9);
          EXPECT_EQ(o.impacts, orbit.impacts);
          EXPECT_EQ(o.sticking_phases, orbit.sticking_phases);
          Vector y = o.state;
          for (int k = 0; k < 10; ++k)
            y = exact_flow.flow(y, o.period, 0.0, false).x;
          EXPECT_LT((y - o.state).norm(), settings.tolerance * o.state.norm());
          T_exact = o.period;
        }
      errors.push_back(std::abs(orbit.period - T_exact));
      std::cerr << "h = " << h << ": T = " << orbit.period << ", event-driven " << T_exact << ", |error| "
                << errors.back() << "\n";
    }
  EXPECT_LT(errors.back(), errors.front());
  EXPECT_LT(errors.back(), 4e-4); // first order, the period locked to whole steps
}

// The saltation matrix of a corrected impact (Newton's law, then the energy put back along the
// correction direction) against central differences of the map, for each direction, with e = 0.5
// so that the contact rebounds and the correction's own derivative matters.
TEST(PeriodicSticking, CorrectedImpactJacobianMatchesFiniteDifferences)
{
  auto description                    = test_cases::two_dof_chain();
  description.contacts[0].restitution = 0.5;
  const auto model                    = structure::build_model(description);
  for (const auto direction : {integrators::CorrectionDirection::non_contact, integrators::CorrectionDirection::velocity})
    {
      periodic::LinearImpactFlowSettings settings;
      settings.energy_correction    = true;
      settings.correction_direction = direction;
      const periodic::LinearImpactFlow flow(model, settings);
      const Vector x0 = flow.linear_mode_state(1, 3.0 * flow.grazing_energy(1));
      const double T = 1.3 * flow.linear_period(1), alpha = 0.01;
      const auto   result = flow.flow(x0, T, alpha, true);
      ASSERT_GE(result.events.size(), 1u);
      // Conservative apart from the unfolding damping: with α = 0 the energy returns exactly.
      EXPECT_NEAR(flow.energy(flow.flow(x0, T, 0.0, false).x), flow.energy(x0), 1e-12);
      const double          h = 1e-6;
      periodic::Matrix      fd(4, 4);
      for (int k = 0; k < 4; ++k)
        {
          Vector xp = x0, xm = x0;
          xp[k] += h;
          xm[k] -= h;
          fd.col(k) = (flow.flow(xp, T, alpha, false).x - flow.flow(xm, T, alpha, false).x) / (2 * h);
        }
      EXPECT_LT((result.jacobian - fd).norm(), 1e-6 * fd.norm()) << result.jacobian << "\n\n" << fd;
      const Vector fd_T = (flow.flow(x0, T + h, alpha, false).x - flow.flow(x0, T - h, alpha, false).x) / (2 * h);
      EXPECT_LT((result.d_period - fd_T).norm(), 1e-6 * fd_T.norm());
    }
}

// The family through the seed's orbit, continued on the exact map: every point a conservative
// (α ≈ 0) periodic orbit, periodic again over ten periods, and the seed's orbit on it at E ≈ 1.
TEST(PeriodicSticking, ExactStickingFamilyOfTheTwoDofChainPassesThroughTheSeedOrbit)
{
  const auto c     = test_cases::load_case(test_cases::example("two_dof_sticking_family"));
  const auto model = structure::build_model(c.description);
  const periodic::LinearImpactFlow flow(model, corrected(c));
  periodic::ContinuationSettings   settings;
  settings.mode                = 1;
  settings.start_energy_factor = 5;
  settings.max_energy          = 2.5;
  settings.max_points          = 150;
  const auto branch            = periodic::continue_free_family(flow, settings);
  ASSERT_GT(branch.points.size(), 100u) << branch.stop_reason;
  EXPECT_GE(branch.points.back().energy, 2.4);
  const periodic::BranchPoint *seed = nullptr;
  for (std::size_t k = 0; k < branch.points.size(); ++k)
    {
      const auto &p = branch.points[k];
      EXPECT_LT(p.residual, settings.tolerance);
      EXPECT_LT(std::abs(p.unfolding), 1e-9) << "point " << k;
      if (!seed || std::abs(p.energy - 1) < std::abs(seed->energy - 1))
        seed = &p;
      if (k % 40 == 0)
        {
          Vector x = p.state;
          for (int j = 0; j < 10; ++j)
            x = flow.flow(x, p.period, 0.0, false).x;
          EXPECT_LT((x - p.state).norm(), settings.tolerance * p.state.norm()) << "point " << k;
        }
    }
  ASSERT_NE(seed, nullptr);
  EXPECT_LT(std::abs(seed->energy - 1), 0.02);
  EXPECT_EQ(seed->impacts, 2u);
  EXPECT_EQ(seed->sticking_phases, 1u);
  EXPECT_NEAR(seed->period, 7.460318, 2e-3); // dT/dE ≈ 0.1 near E = 1
  EXPECT_TRUE(seed->stable);
}
