// One model through two solvers: the Moreau–Jean FE time stepper converges to the event-driven
// modal CoR solution of the same FE model (all its modes) as the time step falls, measured by
// the response convergence study (`vibroimpact converge` with a reference run) on the first
// eight impacts, and compared run against run (`vibroimpact compare`) for the energy.
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/convergence.h>
#include <vibroimpact/studies/solver_comparison.h>

#include <gtest/gtest.h>

#include "test_support.h"

#include <iostream>

using namespace vibroimpact;

TEST(SolverComparison, MoreauJeanImpactsConvergeToTheModalReference)
{
  // The example's own runs: Moreau–Jean θ = 1/2 ("theta_half") and the modal CoR with every
  // mode of the FE model ("modal_all"), over the first 0.6 s.
  const std::vector<std::string> overrides{"Simulation/Final time=0.6", "Simulation/Frame interval=0",
                                           "Simulation/Output interval=1e-3", "Moreau-Jean/Time step=2e-4"};
  const auto c = test_cases::load_case(test_cases::example("pinned_beam_obstacle"), overrides);
  const auto reference_case = studies::read_run(c, c.find_run("modal_all", "test"));
  const auto model          = structure::build_model(c.description);
  ASSERT_EQ(reference_case.solver().number_of_modes(), 0u); // every mode: the same semi-discrete problem
  const auto reference = integrators::run_to_history(reference_case.solver(), model, reference_case.run);

  studies::ConvergenceSettings settings;
  settings.study    = studies::ConvergenceStudy::response;
  settings.refine   = studies::Refinement::time_step;
  settings.n_cycles = 3; // h = 2e-4, 1e-4, 5e-5
  settings.reference_run = "modal_all";
  for (unsigned int k = 1; k <= 8; ++k)
    settings.quantities.push_back("impact time(" + std::to_string(k) + ")");
  for (unsigned int k = 1; k <= 8; ++k)
    settings.quantities.push_back("impact impulse(" + std::to_string(k) + ")");
  const auto study = studies::run_response_convergence(c.description, c.solver("moreau-jean"), c.run, settings,
                                                       &reference);
  study.write_table(std::cout);
  ASSERT_EQ(study.rows.size(), 3u);

  double previous_time = 0, previous_impulse = 0;
  for (const auto &row : study.rows)
    {
      SCOPED_TRACE("h = " + std::to_string(row.time_step));
      double worst_time = 0, worst_impulse = 0;
      for (unsigned int k = 0; k < 8; ++k)
        {
          worst_time    = std::max(worst_time, row.errors[k]);
          worst_impulse = std::max(worst_impulse, row.errors[8 + k] / study.reference_values[8 + k]);
        }
      // The first impact comes before any contact: a quarter period of mode 1, the same to
      // within the stepper's activation error (a fraction of a step).
      EXPECT_LT(row.errors[0], row.time_step);
      if (previous_time > 0)
        {
          EXPECT_LT(worst_time, previous_time / 1.8);
          EXPECT_LT(worst_impulse, previous_impulse / 1.8);
        }
      previous_time    = worst_time;
      previous_impulse = worst_impulse;
    }
  EXPECT_LT(previous_time, 2e-4);
  EXPECT_LT(previous_impulse, 0.25);

  // Energy is conserved by both (e = 1, θ = 1/2): the stepper's total energy stays on the
  // reference's over the whole window.
  auto stepper = c.solver("moreau-jean").clone();
  stepper->set_time_step(5e-5);
  const auto candidate = integrators::run_to_history(*stepper, model, c.run);
  const auto report =
    studies::compare_responses("modal_all", reference, "theta_half", candidate, c.comparison, c.run.final_time);
  EXPECT_EQ(report.impact_time.count, c.comparison.max_impacts);
  EXPECT_LT(report.energy.max, 1e-7);
}
