// Sticking orbits on the event-driven map with the energy correction (e = 0 impacts whose loss is
// put back along the correction direction, doc/periodic.md §1): the 2-DOF chain's sticking orbit
// of the seed, exact, against the Moreau–Jean ones as h = T/N falls.
#include <vibroimpact/periodic/closed_forms.h>
#include <vibroimpact/periodic/continuation.h>
#include <vibroimpact/periodic/linear_impact_flow.h>
#include <vibroimpact/periodic/moreau_jean_flow.h>
#include <vibroimpact/periodic/tongues.h>
#include <vibroimpact/structure/model_builder.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

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

// The continuum's first nonsmooth mode of the fixed–free rod (closed form, doc/closed-forms.md),
// run for one of its periods on finite-element rods (e = 0 with the correction) from its state at
// rest mid free phase: the return error falls as the mesh is refined, slowly (the fronts disperse,
// the contact node is a rigid body: doc/closed-forms.md).
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
          if (e.kind == periodic::ContactEvent::Kind::impact && first_impact < 0)
            first_impact = e.time;
          if (e.kind == periodic::ContactEvent::Kind::separation)
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
  // h^(2/3) over the 16-fold refinement (the front's Airy spreading, doc/closed-forms.md).
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

namespace
{
  // The fixed–free rod of examples/rod_nonsmooth_mode with a massless end node (mass
  // redistribution): the end is condensed statically and the stop is a unilateral spring.
  struct MasslessRod
  {
    explicit MasslessRod(const unsigned int elements, const bool uncoupled_oscillators = true)
      : model(structure::build_model(
          test_cases::load_case(test_cases::example("rod_nonsmooth_mode"),
                                {"Body rod/Number of elements=" + std::to_string(elements)})
            .description))
      , flow(model, settings(uncoupled_oscillators))
    {}
    static periodic::LinearImpactFlowSettings settings(const bool uncoupled_oscillators)
    {
      periodic::LinearImpactFlowSettings s;
      s.massless_contact_nodes = true;
      s.uncoupled_oscillators  = uncoupled_oscillators;
      return s;
    }
    model::StructuralModel     model;
    periodic::LinearImpactFlow flow;
  };
} // namespace

// Without mass at the contact node nothing impacts: the end closes on and opens from the stop with
// the vector field continuous, so energy is conserved to rounding through the switches and the
// period map's Jacobian (saltation matrices I) equals finite differences.
TEST(PeriodicSticking, MasslessContactNodeConservesEnergyAndHasTheExactJacobian)
{
  periodic::Rod      rod;
  const double       energy = 4 * periodic::rod_backbone_grazing_energy(rod);
  const MasslessRod  fe(20);
  const auto        &flow = fe.flow;
  const Vector       x0   = uniform_strain_at_rest(flow, energy);
  const double       T    = periodic::rod_first_nonsmooth_mode(rod, energy).period;
  const auto         result = flow.flow(x0, T, 0.0, true);
  unsigned int       closings = 0, openings = 0;
  for (const auto &e : result.events)
    {
      EXPECT_NE(e.kind, periodic::ContactEvent::Kind::impact);
      closings += e.kind == periodic::ContactEvent::Kind::sticking_start;
      openings += e.kind == periodic::ContactEvent::Kind::separation;
    }
  EXPECT_GE(closings, 1u);
  EXPECT_EQ(closings, openings);
  EXPECT_NEAR(flow.energy(result.x), energy, 1e-11 * energy);
  // The stop held the end: the sampled end never passes it, and it touches it.
  const auto samples = flow.sample(x0, T, 700);
  double     min_gap = 1.0;
  for (std::size_t k = 0; k < samples.time.size(); ++k)
    {
      const double gap = fe.model.contacts[0].gap0 + fe.model.contacts[0].row.dot(samples.displacement[k]);
      min_gap          = std::min(min_gap, gap);
      EXPECT_NEAR(samples.energy[k], energy, 1e-10 * energy);
    }
  EXPECT_GE(min_gap, -1e-12);
  EXPECT_LT(min_gap, 1e-12);

  // ∂x(T)/∂x0 against central differences, column by column.
  const Eigen::Index n = x0.size();
  double             worst = 0.0;
  for (Eigen::Index k = 0; k < n; ++k)
    {
      const double step = 1e-6 * x0.norm();
      Vector       plus = x0, minus = x0;
      plus[k] += step;
      minus[k] -= step;
      const Vector column = (flow.flow(plus, T, 0.0, false).x - flow.flow(minus, T, 0.0, false).x) / (2 * step);
      worst = std::max(worst, (column - result.jacobian.col(k)).norm() / std::max(1.0, column.norm()));
    }
  EXPECT_LT(worst, 1e-5);
  // ∂x(T)/∂T is the vector field at the end.
  const double dT    = 1e-6;
  const Vector dx_dT = (flow.flow(x0, T + dT, 0.0, false).x - flow.flow(x0, T - dT, 0.0, false).x) / (2 * dT);
  EXPECT_LT((dx_dT - result.d_period).norm(), 1e-5 * dx_dT.norm());
  // ∂x(T)/∂α, the unfolding damping's (closed form per oscillator, doc/periodic.md §6).
  const double da    = 1e-6;
  const Vector dx_da = (flow.flow(x0, T, da, false).x - flow.flow(x0, T, -da, false).x) / (2 * da);
  EXPECT_LT((dx_da - result.d_unfolding).norm(), 1e-5 * dx_da.norm());
}

// The uncoupled oscillators of each closed set (closed forms about its equilibrium) give the flow,
// its switches and its Jacobian that the dense exponentials of the same model give.
TEST(PeriodicSticking, MasslessNodeOscillatorsAgreeWithTheDenseExponentials)
{
  periodic::Rod     rod;
  const double      energy = 4 * periodic::rod_backbone_grazing_energy(rod);
  const MasslessRod closed_forms(20), dense(20, false);
  const Vector      x0    = uniform_strain_at_rest(dense.flow, energy);
  const double      T     = periodic::rod_first_nonsmooth_mode(rod, energy).period;
  const double      alpha = 1e-3; // a damped trial of Newton's
  const auto        a     = closed_forms.flow.flow(x0, T, alpha, true);
  const auto        b     = dense.flow.flow(x0, T, alpha, true);
  ASSERT_EQ(a.events.size(), b.events.size());
  ASSERT_GE(a.events.size(), 2u);
  for (std::size_t k = 0; k < a.events.size(); ++k)
    {
      EXPECT_EQ(a.events[k].kind, b.events[k].kind);
      EXPECT_NEAR(a.events[k].time, b.events[k].time, 1e-10 * T);
    }
  EXPECT_LT((a.x - b.x).norm(), 1e-9 * x0.norm());
  EXPECT_LT((a.jacobian - b.jacobian).norm(), 1e-8 * b.jacobian.norm());
  EXPECT_LT((a.d_unfolding - b.d_unfolding).norm(), 1e-8 * b.d_unfolding.norm());
  EXPECT_LT((a.d_period - b.d_period).norm(), 1e-9 * b.d_period.norm());
  EXPECT_NEAR(a.min_gap, b.min_gap, 1e-9);
}

// The FE response from the continuum orbit's state (at rest, uniform strain, E = 4 E_g) converges to
// that orbit over one period as the mesh is refined, at the rates the fronts' dispersion allows
// (doc/closed-forms.md, "Why a finite-element rod approaches this backbone slowly"): the end
// closes on the stop as h (the compressive front's arrival), opens as h^(2/3) (the Airy spreading
// of the tensile front that releases it), and the state returns as h^(1/3) in the energy norm (the
// energy left in the fronts' dispersive tails).
TEST(PeriodicSticking, MasslessRodResponseConvergesToTheContinuumOrbit)
{
  periodic::Rod       rod;
  const double        energy  = 4 * periodic::rod_backbone_grazing_energy(rod);
  const auto          exact   = periodic::rod_first_nonsmooth_mode(rod, energy);
  const double        closing = exact.period - 2 * rod.length / rod.wave_speed, opening = closing + exact.contact_duration;
  std::vector<double> closing_errors, opening_errors, state_errors;
  const std::vector<unsigned int> meshes{10, 20, 40, 80, 160, 320, 640};
  for (const unsigned int elements : meshes)
    {
      const MasslessRod fe(elements);
      const Vector      x0     = uniform_strain_at_rest(fe.flow, energy);
      const auto        result = fe.flow.flow(x0, exact.period, 0.0, false);
      ASSERT_EQ(result.events.size(), 2u) << elements << " elements";
      EXPECT_EQ(result.events[0].kind, periodic::ContactEvent::Kind::sticking_start);
      EXPECT_EQ(result.events[1].kind, periodic::ContactEvent::Kind::separation);
      closing_errors.push_back(std::abs(result.events[0].time - closing));
      opening_errors.push_back(std::abs(result.events[1].time - opening));
      const auto  &projection = fe.flow.projection();
      const Vector d          = result.x - x0;
      const auto   m          = projection.size();
      state_errors.push_back(
        std::sqrt((projection.kinetic_energy(d.tail(m)) + projection.potential_energy(d.head(m))) / energy));
      std::cerr << elements << " elements: closes at " << result.events[0].time << " (continuum " << closing
                << "), opens at " << result.events[1].time << " (" << opening << "), state after one period "
                << state_errors.back() << " (energy norm, relative)\n";
    }
  const auto rate = [&](const std::vector<double> &e, std::size_t from, std::size_t to) {
    return std::log(e[from] / e[to]) / std::log(double(meshes[to]) / meshes[from]);
  };
  std::cerr << "observed rates 40 -> 320 elements: closing " << rate(closing_errors, 2, 5) << ", opening "
            << rate(opening_errors, 2, 5) << "; state 80 -> 320: " << rate(state_errors, 3, 5) << ", 320 -> 640: "
            << rate(state_errors, 5, 6) << "\n";
  EXPECT_NEAR(rate(closing_errors, 2, 5), 1.0, 0.1);
  EXPECT_NEAR(rate(opening_errors, 2, 5), 2.0 / 3.0, 0.1);
  for (std::size_t k = 3; k < meshes.size(); ++k) // (10 elements are too coarse for a trend)
    EXPECT_LT(state_errors[k], state_errors[k - 1]);
  EXPECT_GT(rate(state_errors, 3, 5), 0.15);
  EXPECT_NEAR(rate(state_errors, 5, 6), 1.0 / 3.0, 0.1);
  EXPECT_LT(opening_errors.back(), 0.003 * exact.period);
}

// The continuum's first nonsmooth mode (closed form) as a Newton start on the massless-node FE rod:
// at 10 and 20 elements Newton finds an FE orbit with one contact phase whose period is within
// 0.5 % of the closed form's, and which repeats itself over ten periods.
TEST(PeriodicSticking, MasslessFiniteElementRodHasOrbitsNearTheContinuumMode)
{
  periodic::Rod rod;
  struct Case
  {
    unsigned int elements;
    double       energy_factor;
  };
  for (const Case c : {Case{10, 4}, Case{10, 10}, Case{20, 10}})
    {
      const double      energy = c.energy_factor * periodic::rod_backbone_grazing_energy(rod);
      const auto        exact  = periodic::rod_first_nonsmooth_mode(rod, energy);
      const MasslessRod fe(c.elements);
      periodic::ContinuationSettings settings;
      settings.max_points   = 1;
      settings.max_restarts = 0;
      settings.max_newton   = 30;
      const auto branch = periodic::continue_free_family(fe.flow, settings, uniform_strain_at_rest(fe.flow, energy),
                                                         exact.period);
      ASSERT_EQ(branch.points.size(), 1u) << c.elements << " elements: " << branch.stop_reason;
      const auto &orbit = branch.points.front();
      std::cerr << c.elements << " elements, E = " << c.energy_factor << " E_g: T = " << orbit.period
                << " (continuum " << exact.period << ", " << (orbit.period / exact.period - 1) * 100 << " %), "
                << orbit.newton_iterations << " Newton iterations\n";
      EXPECT_LT(orbit.residual, settings.tolerance);
      EXPECT_NEAR(orbit.energy, energy, 1e-9 * energy);
      EXPECT_EQ(orbit.sticking_phases, 1u);
      EXPECT_NEAR(orbit.period, exact.period, 5e-3 * exact.period);
      const auto ten = fe.flow.flow(orbit.state, 10 * orbit.period, 0.0, false);
      EXPECT_LT((ten.x - orbit.state).norm(), settings.tolerance * orbit.state.norm());
    }
}

// doc/validation-periodic.md §8.7's table of the same start on 10 – 160 elements at 2 – 100 E_g
// with up to 60 Newton iterations, printed (opt-in: it takes about six minutes, most of it the
// failing 160-element cases; 160 elements at 100 E_g is left out). An orbit found is periodic at
// its energy; one without the single contact phase of the continuum's says how many it has. Run
// by build/tests/vibroimpact_tests --gtest_also_run_disabled_tests --gtest_filter='*RodStaticStartTable'.
TEST(PeriodicSticking, DISABLED_MasslessRodStaticStartTable)
{
  periodic::Rod rod;
  std::printf("| E/E_g | 10 el. | 20 el. | 40 el. | 80 el. | 160 el. |\n|---:|---:|---:|---:|---:|---:|\n");
  for (const double factor : {2.0, 4.0, 10.0, 100.0})
    {
      const double energy = factor * periodic::rod_backbone_grazing_energy(rod);
      const auto   exact  = periodic::rod_first_nonsmooth_mode(rod, energy);
      std::string  row    = "| " + (std::ostringstream() << factor).str() + " |";
      for (const unsigned int elements : {10u, 20u, 40u, 80u, 160u})
        {
          if (elements == 160 && factor == 100.0)
            {
              row += " |";
              continue;
            }
          const MasslessRod              fe(elements);
          periodic::ContinuationSettings settings;
          settings.max_points   = 1;
          settings.max_restarts = 0;
          settings.max_newton   = 60;
          const auto branch = periodic::continue_free_family(fe.flow, settings, uniform_strain_at_rest(fe.flow, energy),
                                                             exact.period);
          if (branch.points.empty())
            {
              row += " fails |";
              continue;
            }
          const auto &orbit = branch.points.front();
          EXPECT_LT(orbit.residual, settings.tolerance) << elements << " elements, " << factor << " E_g";
          EXPECT_NEAR(orbit.energy, energy, 1e-9 * energy) << elements << " elements, " << factor << " E_g";
          char cell[96];
          std::snprintf(cell, sizeof cell, " %s%.3g %% (%u it.%s) |", orbit.period < exact.period ? "−" : "+",
                        100 * std::abs(orbit.period / exact.period - 1), orbit.newton_iterations,
                        orbit.sticking_phases == 1 ? ""
                        : orbit.sticking_phases == 0
                          ? ", no contact phase"
                          : (", " + std::to_string(orbit.sticking_phases) + " contact phases").c_str());
          row += cell;
        }
      std::printf("%s\n", row.c_str());
      std::fflush(stdout);
    }
}

// Tongues of the 10-element massless-end rod (doc/continuation-rod.md §2): from the continuum
// orbit at 9 E_g, with steps that may not change the period by more than 1 %, the branch follows
// the closed-form backbone and then runs up an internal-resonance tongue. The labels separate the
// two: every unlabelled point is within 1 % of the closed form at its energy, every labelled one
// lies after them, at a frequency locked to 1e-3 while the energy grows more than fivefold, off
// the closed form, and r ω is within the tolerance of the named mode's frequency.
TEST(PeriodicSticking, RodTonguesAreLabelledApartFromTheBackbone)
{
  const auto c     = test_cases::load_case(test_cases::example("rod_nonsmooth_mode"));
  const auto model = structure::build_model(c.description);
  const periodic::LinearImpactFlow flow(model, c.continuation.event_driven);
  auto settings              = c.continuation.settings;
  settings.max_points        = 40;
  settings.max_period_change = 0.01;
  const auto branch = periodic::continue_free_family(flow, settings, flow.initial_state(), c.continuation.start_period);
  std::vector<double> free;
  for (unsigned int k = 1; k <= flow.dimension() / 2; ++k)
    free.push_back(2 * M_PI / flow.linear_period(k));
  const auto held   = flow.held_contact_frequencies();
  const auto labels = periodic::tongue_labels(branch, free, held, 1);
  const periodic::Rod rod{1.0, 1.0, 1.0, 0.1};
  std::size_t         last_backbone = 0, first_tongue = branch.points.size(), n_tongue = 0;
  double              w_low = 1e300, w_high = 0, E_low = 1e300, E_high = 0;
  for (std::size_t k = 0; k < branch.points.size(); ++k)
    {
      const auto  &p      = branch.points[k];
      const double closed = periodic::rod_first_nonsmooth_mode(rod, p.energy).frequency;
      if (labels[k].empty())
        {
          EXPECT_LT(std::abs(p.frequency / closed - 1), 0.01) << "point " << k << ", E = " << p.energy;
          last_backbone = k;
          continue;
        }
      ++n_tongue;
      first_tongue = std::min(first_tongue, k);
      EXPECT_GT(std::abs(p.frequency / closed - 1), 0.003) << "point " << k;
      w_low = std::min(w_low, p.frequency), w_high = std::max(w_high, p.frequency);
      E_low = std::min(E_low, p.energy), E_high = std::max(E_high, p.energy);
      // "mode k at 1:r" or "held mode k at 1:r": r ω within the tolerance of that mode.
      unsigned int mode = 0, ratio = 0;
      const bool   is_held = labels[k].rfind("held", 0) == 0;
      ASSERT_EQ(std::sscanf(labels[k].c_str() + (is_held ? 5 : 0), "mode %u at 1:%u", &mode, &ratio), 2) << labels[k];
      const double omega_k = (is_held ? held : free).at(mode - 1);
      EXPECT_LT(std::abs(ratio * p.frequency / omega_k - 1), periodic::TongueCriteria{}.resonance_tolerance);
    }
  ASSERT_GE(last_backbone, 5u);
  ASSERT_GE(n_tongue, 5u);
  EXPECT_GT(first_tongue, last_backbone);
  EXPECT_LT(w_high / w_low - 1, 1e-3);
  EXPECT_GT(E_high / E_low, 5.0);
  std::cerr << "backbone to point " << last_backbone << ", tongue '" << labels[first_tongue] << "' from E = " << E_low
            << " to " << E_high << " at omega " << w_low << " .. " << w_high << "\n";
}
