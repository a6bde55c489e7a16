// Yin, Qin, Liu, Gao & Liu (2007), Section 3.3: the cantilever of examples/cantilever_on_rod,
// straight and at rest on the rod (d0 = 0, D = 0), driven at its tip by F(t) = 0.01 sin(50 t) N
// (pushing onto the rod while sin(50 t) > 0). The paper reports
//   - "if the beam is assumed never to move away from the rod, the contact force is 0.01004 N,
//     which can be found in the initial impact phase during the time from 0 to 0.06274 s";
//   - "the maximum impact force is 0.8076 N. The peak values of sub-impact force are frequently
//     over 0.1 N ... the impact force can easily be more than ten times the contact force".
// The case is examples/cantilever_on_rod_forced/case.prm (32 Hermite beam elements, 16 linear
// rod elements, h = 1 µs, θ = 1/2, e = 0); the contact force is impulse / h per step.
//
// What is and is not asserted (examples/cantilever_on_rod_forced/README.md has the study):
//   * the static contact force: agrees with the paper to 0.4 %, asserted within 0.5 %;
//   * the end of the first contact phase: agrees with the paper to 0.1 ms (0.16 %);
//   * the maximum impact force: NOT reproduced as a converged number. Over 0–1 s the largest
//     step force grows under refinement, 0.52 N (32 beam elements, h = 1 µs, this file) →
//     0.67 N (h = 0.3 µs) → 0.74 N (256 elements, h = 0.25 µs), 9 % below the paper's 0.8076 N
//     at the finest; the motion after the first lift-off is chaotic and its energy level is set
//     by the e = 0 contact dissipation (80–86 % of the external work), which the paper's model
//     does not have. Only the paper's qualitative statements are asserted: sub-impacts above
//     0.1 N, the peak more than ten times the contact force.
#include "test_support.h"

#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/structure/model_builder.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>

using namespace vibroimpact;

namespace
{
  constexpr double paper_static_force = 0.01004;  // N
  constexpr double paper_end_of_contact = 0.06274; // s
  constexpr double paper_peak_force   = 0.8076;   // N
  constexpr double F0                 = 0.01;     // N, amplitude of F(t) = F0 sin(50 t)
  constexpr double Omega              = 50.0;     // rad/s

  // The first contact phase: the beam pushed onto the rod from t = 0 until the contact first
  // opens. Returns the largest contact force p/h of that phase and the instant the contact opens.
  struct FirstPhase
  {
    double peak_force  = 0.0;
    double t_open      = -1.0;
    bool   lcp_failed  = false;
  };

  FirstPhase first_contact_phase(const test_cases::LoadedCase &loaded)
  {
    const auto                    m = structure::build_model(loaded.description);
    const integrators::MoreauJean osi(m, test_cases::moreau_jean(loaded));
    auto                          state = osi.initial_state();
    const double                  h     = test_cases::moreau_jean(loaded).time_step;
    FirstPhase                    result;
    while (state.t < 0.07 && result.t_open < 0)
      {
        const double t0     = state.t;
        const auto   report = osi.step(state);
        result.lcp_failed   = result.lcp_failed || report.lcp_failed;
        // The first steps load the contact from zero (F(h) = 5e-7 N); after 1 ms it must be
        // closed and carry the load until F changes sign.
        if (t0 > 1e-3 && report.impulse[0] <= 0)
          result.t_open = t0;
        else
          result.peak_force = std::max(result.peak_force, report.impulse[0] / h);
      }
    return result;
  }
} // namespace

TEST(CantileverForced, StaticContactForceAndFirstContactPhase)
{
  const auto loaded = test_cases::load_case(test_cases::example("cantilever_on_rod_forced"));
  const auto &d     = loaded.description;
  ASSERT_EQ(d.loads.size(), 1u);
  ASSERT_EQ(d.contacts.size(), 1u);

  const auto phase = first_contact_phase(loaded);
  ASSERT_FALSE(phase.lcp_failed);
  ASSERT_GT(phase.t_open, 0.0) << "the contact never opened before 0.07 s";

  // Physics: the force acts at the prop, so the beam hardly moves and the rod carries
  // F k_r / (k_r + k_b): k_r = EsAs/l = 1.0816e9 N/m, k_b = 3EI/L³ = 1.021e5 N/m, the ratio
  // 0.999906 (the 50 rad/s excitation is far below the first in-contact mode, 885 rad/s, and the
  // tip force barely excites it; the transient of the rod's modes, Ω/ω_rod = 6e-4, adds 2e-6 N).
  const double k_r   = 1.0816e8 / 0.1;
  const double k_b   = 3 * 40727.232 / std::pow(1.0617, 3);
  const double quasi = F0 * k_r / (k_r + k_b); // 0.0099991 N

  std::cout << std::setprecision(7) << "cantilever_on_rod_forced: static contact force "
            << phase.peak_force << " N (Yin et al. 0.01004 N; F k_r/(k_r+k_b) = " << quasi
            << " N), contact opens at " << phase.t_open << " s (Yin et al. 0.06274 s, pi/50 = "
            << M_PI / Omega << " s)\n";

  // Against the physics: 1e-5 N (0.1 %) covers the transient (2e-6 N here); over 16–128 beam
  // elements (8–64 rod elements) and h = 3e-7 … 3e-6 s the FE value is 0.0100020–0.0100030 N.
  EXPECT_NEAR(phase.peak_force, quasi, 1e-5);
  // Against the paper: 0.5 %. The FE value is 0.38 % below the paper's 0.01004 N at every
  // resolution tried (the spread is 0.01 %): the difference is not discretisation error. The
  // paper's value lies 0.4 % above F itself, which a force applied at a stiff prop cannot
  // produce quasi-statically; we attribute it to the paper's modal series (2000 modes, the contact
  // force from EsAs u'(l)). A 10 % change in F moves the force by 10 % and fails both checks.
  EXPECT_NEAR(phase.peak_force, paper_static_force, 0.005 * paper_static_force);

  // The contact opens when F turns into a lift force, at π/50 = 0.0628319 s; the FE contact
  // opens within 10 µs after it at every resolution tried (0.062836–0.062842 s). The paper's
  // 0.06274 s is 0.09 ms earlier: asserted within 0.15 ms (0.25 %).
  EXPECT_NEAR(phase.t_open, M_PI / Omega, 2e-5);
  EXPECT_NEAR(phase.t_open, paper_end_of_contact, 1.5e-4);
}

TEST(CantileverForced, SubImpactsAfterTheFirstLiftOff)
{
  // 0 … 0.2 s: the first contact phase, the lift-off, and the chatter of the first and second
  // push half-periods (200 000 steps).
  const auto loaded = test_cases::load_case(test_cases::example("cantilever_on_rod_forced"),
                                            {"Simulation/Final time=0.2"});
  const auto                    m = structure::build_model(loaded.description);
  const integrators::MoreauJean osi(m, test_cases::moreau_jean(loaded));
  auto                          state = osi.initial_state();
  const double                  h     = test_cases::moreau_jean(loaded).time_step;

  double       peak = 0.0, t_peak = 0.0, pulse_peak = 0.0;
  unsigned int pulses_over_01 = 0, lcp_failures = 0;
  while (state.t < 0.2 - 0.5 * h)
    {
      const auto report = osi.step(state);
      lcp_failures += report.lcp_failed ? 1 : 0;
      const double f = report.impulse[0] / h;
      if (f > peak && state.t > 0.065)
        peak = f, t_peak = state.t;
      if (f > 0)
        pulse_peak = std::max(pulse_peak, f);
      else
        {
          if (pulse_peak > 0.1)
            ++pulses_over_01;
          pulse_peak = 0.0;
        }
    }
  EXPECT_EQ(lcp_failures, 0u);
  std::cout << std::setprecision(5) << "cantilever_on_rod_forced: peak impact force over 0-0.2 s "
            << peak << " N at " << t_peak << " s (Yin et al.: 0.8076 N, NOT reproduced), "
            << pulses_over_01 << " sub-impacts above 0.1 N\n";

  // The paper's qualitative statements: sub-impact peaks frequently over 0.1 N (at this
  // resolution 341 sub-impacts of 0–0.2 s (352 with the plain Newton law U+ = −eU−); 154–1122 over the resolutions studied, the
  // count itself not converged), and the impact force more than ten times the contact force.
  EXPECT_GE(pulses_over_01, 100u);
  EXPECT_GT(peak, 10 * paper_static_force);
  // Not an agreement check: at this resolution and over 0.2 s the FE peak is 0.511 N (0.517 N with the plain Newton law U+ = −eU−), 37 % below
  // the paper's 0.8076 N, and it is not a converged quantity (0.26–1.54 N over the resolutions
  // studied, README). Asserted only as a regression bound for this resolution (e = 1 exceeds it:
  // 0.97 N).
  EXPECT_LT(peak, paper_peak_force);
}

TEST(CantileverForced, NoEnergyInjectedAtTheContactOnAFineMesh)
{
  // With 256 beam and 128 rod elements the contact is, in some steps, active by its
  // predicted gap while already separating (U− > 0). Newton's law U+ = −eU− (e = 0: U+ = 0)
  // then took p > 0 and did positive work p(U+ + U−)/2 > 0: the impact "dissipation" reached
  // −4.9e-9 J over 1 s, six times the external work. The law U+ + max(eU−, U−) ⊥ p makes every
  // step's impact dissipation p(max(eU−, U−) − U−)/2 ≥ 0. The first such step comes at 0.1255 s.
  const auto loaded = test_cases::load_case(test_cases::example("cantilever_on_rod_forced"),
                                            {"Body beam/Number of elements=256", "Body rod/Number of elements=128"});
  const auto                    m = structure::build_model(loaded.description);
  const integrators::MoreauJean osi(m, test_cases::moreau_jean(loaded));
  auto                          state = osi.initial_state();

  double       impact_dissipation = 0, external_work = 0, worst_step = 0;
  unsigned int separating_activations = 0;
  const double E0 = m.kinetic_energy(state.v) + m.potential_energy(state.u);
  while (state.t < 0.13)
    {
      const auto report = osi.step(state);
      ASSERT_FALSE(report.lcp_failed);
      impact_dissipation += report.energy.impact_dissipation;
      external_work += report.energy.external_work;
      if (report.impulse[0] > 0)
        {
          worst_step = std::min(worst_step, report.energy.impact_dissipation);
          if (report.velocity_before[0] > 0)
            ++separating_activations;
        }
    }
  const double E = m.kinetic_energy(state.v) + m.potential_energy(state.u);
  std::cout << "cantilever_on_rod_forced, 256/128 elements, 0-0.13 s: " << separating_activations
            << " impulses on a separating contact, impact dissipation " << impact_dissipation
            << " J (worst step " << worst_step << " J), external work " << external_work << " J, E " << E << " J\n";
  EXPECT_GT(separating_activations, 0u) << "the case no longer exercises the separating activation";
  // Round-off only: Lemke's p·w, against energies of 1e-10 J.
  EXPECT_GE(worst_step, -1e-12 * external_work);
  EXPECT_GT(impact_dissipation, 0.0);
  EXPECT_LE(E, E0 + external_work);
}
