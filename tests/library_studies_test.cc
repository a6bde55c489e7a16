// The library studies that the verbs and the Python module call (studies/*_study.h): the results
// they return as data carry the physics, and the write step puts exactly those numbers in the
// files the verb writes.
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/progress_bar.h>
#include <vibroimpact/studies/comparison_study.h>
#include <vibroimpact/studies/modes_study.h>
#include <vibroimpact/studies/simulation_study.h>

#include <gtest/gtest.h>

#include "test_support.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace vibroimpact;

namespace
{
  // An empty scratch folder for one test's output.
  std::filesystem::path study_scratch(const std::string &name)
  {
    const auto dir = std::filesystem::temp_directory_path() / ("vibroimpact_library_studies_" + name);
    std::filesystem::remove_all(dir);
    return dir;
  }
} // namespace

// The pinned–pinned unit beam, 64 Hermite elements: ω_j above (jπ)² (Rayleigh–Ritz with the
// consistent mass) by the cubic element's leading error (jπh)⁴/1440 (the eigenvalue's is
// (kh)⁴/720), to 5 %; the same doubles in modes.csv as in the result.
TEST(LibraryStudies, ModesOfThePinnedBeamAreJPiSquaredAndModesCsvHoldsThem)
{
  const auto c      = test_cases::load_case(test_cases::example("pinned_beam_modes"));
  const auto result = studies::run_modes(studies::prepare_modes(c));
  ASSERT_EQ(result.modes.omegas.size(), 5);
  const double h = 1.0 / 64;
  for (unsigned int j = 1; j <= 5; ++j)
    {
      const double error    = result.modes.omegas[j - 1] / std::pow(j * M_PI, 2) - 1.0;
      const double expected = std::pow(j * M_PI * h, 4) / 1440;
      EXPECT_NEAR(error, expected, 0.05 * expected) << "mode " << j;
    }

  const auto dir = study_scratch("modes");
  {
    io::OutputFolder out(dir, "modes");
    studies::write_modes(result, out);
    out.commit();
  }
  const auto omegas = test_cases::csv_column(dir / "modes.csv", "omega_rad_per_s");
  const auto hz     = test_cases::csv_column(dir / "modes.csv", "frequency_hz");
  ASSERT_EQ(omegas.size(), 5u);
  for (std::size_t j = 0; j < 5; ++j)
    {
      EXPECT_EQ(omegas[j], result.modes.omegas[j]);
      EXPECT_EQ(hz[j], result.frequencies_hz()[j]);
    }
  EXPECT_EQ(test_cases::csv_column(dir / "mode_shapes.csv", "mode_1").size(), result.shape_points().size());
  std::filesystem::remove_all(dir);
}

// The seed's two-mass chain with inelastic impacts: with the energy correction the total energy
// stays at its initial value through impacts and sticking; without it the impacts drain it. The
// history's columns are the numbers history.csv holds.
TEST(LibraryStudies, SimulationKeepsTheEnergyOnlyWithTheCorrectionAndHistoryCsvHoldsIt)
{
  const std::vector<std::string> short_run{"Simulation/Final time=20", "Simulation/Frame interval=0"};
  auto with = short_run, without = short_run;
  with.push_back("Moreau-Jean/Energy correction=true");
  without.push_back("Moreau-Jean/Energy correction=false");
  const auto corrected =
    studies::run_simulation(studies::prepare_simulation(test_cases::load_case(test_cases::example("two_dof_sticking"), with)));
  const auto drained = studies::run_simulation(
    studies::prepare_simulation(test_cases::load_case(test_cases::example("two_dof_sticking"), without)));
  ASSERT_GT(corrected.history.impacts().size(), 2u);
  EXPECT_FALSE(corrected.interrupted());

  const auto energy = corrected.history.column("total_energy");
  const auto lost   = drained.history.column("total_energy");
  for (const double e : energy)
    EXPECT_NEAR(e, energy.front(), 1e-9 * energy.front());
  EXPECT_LT(lost.back(), 0.9 * lost.front());

  const auto dir = study_scratch("simulation");
  {
    io::OutputFolder out(dir, "simulate");
    studies::write_simulation(corrected, out);
    out.commit();
  }
  EXPECT_EQ(test_cases::csv_column(dir / "history.csv", "total_energy"), energy);
  EXPECT_EQ(test_cases::csv_column(dir / "history.csv", "time"), corrected.history.times());
  EXPECT_EQ(test_cases::csv_column(dir / "events.csv", "time").size(), corrected.history.events().size());
  std::filesystem::remove_all(dir);
}

// `compare` on the tube in space (Moreau–Jean and the modal penalty, μ = 0.3, 10 ms): every run
// has the statistics of its supports in space, and they obey Coulomb's cone: |F_t| ≤ μ F_N, so
// the friction work ∫ |F_t| |v_t| dt is at most μ times the wear work ∫ F_N |v_t| dt, with
// equality for Moreau–Jean's contacts, which slide in every step they are closed here.
TEST(LibraryStudies, ComparisonOfTheTubeHasItsSupportsStatisticsInsideCoulombsCone)
{
  const auto dir  = study_scratch("tube_comparison");
  const auto file = dir / "case.prm";
  std::filesystem::create_directories(dir);
  {
    std::ifstream      in(test_cases::example("tube_six_supports"));
    std::ostringstream text;
    text << in.rdbuf()
         << "subsection Run mj\n  set Solver = moreau-jean\nend\nsubsection Run penalty\n  set Solver = modal-penalty\nend\n";
    std::ofstream(file) << text.str();
  }
  const auto c      = studies::read_case_file(file.string(), {"Simulation/Final time=0.01", "Simulation/Frame interval=0"});
  const auto result = studies::run_comparison(studies::prepare_comparison(c, true));
  ASSERT_EQ(result.runs.size(), 2u);
  const double mu = 0.3;
  for (const auto &run : result.runs)
    {
      ASSERT_EQ(run.statistics.size(), 6u) << run.name;
      double wear = 0.0;
      for (const auto &s : run.statistics)
        {
          EXPECT_TRUE(s.in_space);
          EXPECT_LE(s.friction_work, mu * s.wear_work * (1 + 1e-9)) << run.name << " " << s.name;
          if (run.name == "mj")
            {
              EXPECT_NEAR(s.friction_work, mu * s.wear_work, 1e-3 * mu * s.wear_work + 1e-15) << s.name;
            }
          wear += s.wear_work;
        }
      EXPECT_GT(wear, 0.0) << run.name; // the tube reached its supports
    }
  std::filesystem::remove_all(dir);
}

// Every solver says what it is doing, whatever it is: a run's progress reaches the calling
// thread's sink (as the Python module's callback does) from its samples up to the final time,
// named after the verb in a simulation and after each solver in a comparison of three.
TEST(LibraryStudies, EverySolverReportsItsProgressUpToTheFinalTime)
{
  struct Call
  {
    std::string label;
    double      done, total;
  };
  std::vector<Call> calls;
  const auto previous = io::set_progress_sink(
    [&calls](const io::ProgressReport &r) { calls.push_back({r.phase, r.done, r.total}); });
  const std::vector<std::string> short_run{"Simulation/Final time=0.02", "Simulation/Frame interval=0"};
  const auto c     = test_cases::load_case(test_cases::example("antunes_one_support"), short_run);
  auto       setup = studies::prepare_comparison(c);
  std::set<std::string> solvers;
  for (const auto &run : setup.runs)
    solvers.insert(run.solver_name);
  ASSERT_EQ(solvers.size(), 3u); // modal-uk, modal-penalty, moreau-jean
  const auto compared = studies::run_comparison(std::move(setup));
  const auto ends_at  = [&calls](const std::string &label, const double final_time) {
    std::vector<double> done;
    for (const auto &call : calls)
      if (call.label == label)
        {
          EXPECT_EQ(call.total, final_time) << label;
          done.push_back(call.done);
        }
    ASSERT_GT(done.size(), 1u) << label;
    EXPECT_TRUE(std::is_sorted(done.begin(), done.end())) << label;
    EXPECT_NEAR(done.back(), final_time, 1e-12) << label;
  };
  for (const auto &solver : solvers)
    ends_at(solver, 0.02);

  calls.clear();
  studies::run_simulation(studies::prepare_simulation(c));
  ends_at("simulate", 0.02);
  for (const auto &call : calls)
    EXPECT_EQ(call.label, "simulate");
  io::set_progress_sink(previous);
}
