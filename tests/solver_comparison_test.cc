// One model through two solvers: the Moreau–Jean FE time stepper converges to the event-driven
// modal CoR solution of the same FE model (all its modes) as the time step falls.
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/solver_comparison.h>

#include <gtest/gtest.h>

#include "test_support.h"

#include <filesystem>

using namespace vibroimpact;
namespace fs = std::filesystem;

namespace
{
  studies::ComparisonReport compare_at(const double time_step)
  {
    auto loaded = test_cases::load_case(test_cases::example("pinned_beam_obstacle"),
                                        {"Integrator/Final time=0.6", "Integrator/Frames every=0",
                                         "Integrator/Output every=1", "Modal restitution/Output interval=1e-3",
                                         "Integrator/Time step=" + std::to_string(time_step)});
    const auto model = structure::build_model(loaded.description);
    // All modes of the FE model: both solvers then solve the same semi-discrete problem.
    loaded.modal_restitution.n_modes = model.n_dofs();
    const fs::path dir = fs::temp_directory_path() / "vibroimpact-solver-comparison";
    fs::remove_all(dir);
    fs::create_directories(dir / "mj");
    fs::create_directories(dir / "cor");
    const auto stepper   = studies::record_moreau_jean(model, loaded.integrator, dir / "mj", true);
    const auto reference = studies::record_modal_restitution(model, loaded.modal_restitution, dir / "cor");
    studies::ComparisonSettings settings;
    settings.max_impacts = 8;
    fs::remove_all(dir);
    return studies::compare_responses(reference, stepper, settings, 0.6);
  }
} // namespace

TEST(SolverComparison, MoreauJeanImpactsConvergeToTheModalReference)
{
  const double steps[] = {2e-4, 1e-4, 5e-5};
  double       previous_time = 0, previous_impulse = 0;
  for (const double h : steps)
    {
      const auto report = compare_at(h);
      SCOPED_TRACE("h = " + std::to_string(h));
      ASSERT_EQ(report.impact_time.count, 8u);
      // The first impact comes before any contact: a quarter period of mode 1, the same to
      // within the stepper's activation error (a fraction of a step).
      EXPECT_NEAR(report.matches.front().candidate_time, report.matches.front().reference_time, h);
      // Energy is conserved by both (e = 1, theta = 1/2).
      EXPECT_LT(report.energy.max, 1e-7);
      if (previous_time > 0)
        {
          EXPECT_LT(report.impact_time.max, previous_time / 1.8);
          EXPECT_LT(report.impact_impulse.max, previous_impulse / 1.8);
        }
      previous_time    = report.impact_time.max;
      previous_impulse = report.impact_impulse.max;
    }
  EXPECT_LT(previous_time, 2e-4);
  EXPECT_LT(previous_impulse, 0.25);
}
