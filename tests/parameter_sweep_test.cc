// Parameter sweeps (studies/parameter_sweep.h): a distributed run equals the serial one bit for
// bit, the Poincaré points show the paper's sticking and period-II motions, bad input is one line.
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_file.h>
#include <vibroimpact/structure/case_parameters.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/modal_convergence.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/indexed_shares.h>
#include <vibroimpact/studies/parameter_sweep.h>
#include <vibroimpact/studies/result_serialization.h>

#include <deal.II/base/utilities.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace vibroimpact;

namespace
{
  std::string example(const std::string &name)
  {
    return std::string(VIBROIMPACT_SOURCE_DIR) + "/examples/" + name + "/case.prm";
  }

  // An example's case read as the `sweep` verb reads it, with overrides.
  studies::ParameterSweep load_sweep(const std::string &name, const std::vector<std::string> &overrides)
  {
    const auto c     = studies::read_case_file(example(name), overrides);
    const auto model = structure::build_model(c.description);
    c.solver().check(model, c.run, c.filename); // as the verb does
    return studies::ParameterSweep(model, c.sweep, c.solver());
  }

  std::string read_text(const std::filesystem::path &path)
  {
    std::ifstream      in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }

  // Everything but the measured wall time and the rank must be equal, bit for bit.
  void expect_identical(const std::vector<studies::SweepValueResult> &a,
                        const std::vector<studies::SweepValueResult> &b)
  {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t k = 0; k < a.size(); ++k)
      {
        EXPECT_EQ(a[k].index, b[k].index);
        EXPECT_EQ(a[k].value, b[k].value);
        EXPECT_EQ(a[k].omega, b[k].omega);
        EXPECT_EQ(a[k].impacts, b[k].impacts);
        EXPECT_EQ(a[k].sticking_fraction, b[k].sticking_fraction);
        ASSERT_EQ(a[k].points.size(), b[k].points.size());
        for (std::size_t p = 0; p < a[k].points.size(); ++p)
          {
            EXPECT_EQ(a[k].points[p].time, b[k].points[p].time);
            EXPECT_EQ(a[k].points[p].u, b[k].points[p].u) << "value " << k << " point " << p;
            EXPECT_EQ(a[k].points[p].v, b[k].points[p].v) << "value " << k << " point " << p;
            EXPECT_EQ(a[k].points[p].gap, b[k].points[p].gap);
            EXPECT_EQ(a[k].points[p].stuck, b[k].points[p].stuck);
          }
      }
  }
} // namespace


TEST(ParameterSweep, SharesOfTwoAndThreeRanksMergeToTheSerialRun)
{
  // A coarse frequency sweep: 5 values across the sticking region and outside it.
  const auto sweep = load_sweep("pinned_beam_frequency_sweep",
                                {"Sweep/Number of values=5", "Sweep/Transient periods=6", "Sweep/Recorded periods=4"});
  ASSERT_EQ(sweep.values().size(), 5u);
  EXPECT_NEAR(sweep.first_natural_frequency() / (M_PI * M_PI), 1.0, 1e-6); // 20 Hermite elements: 4e-7

  const auto serial = sweep.run_share(0, 1);
  ASSERT_EQ(serial.size(), 5u);
  for (const auto &r : serial)
    EXPECT_EQ(r.rank, 0u);

  const auto two = studies::merge_indexed_shares(std::vector{sweep.run_share(0, 2), sweep.run_share(1, 2)}, "sweep: value");
  expect_identical(serial, two);
  EXPECT_EQ(two[1].rank, 1u);
  EXPECT_EQ(two[3].rank, 1u);
  EXPECT_EQ(two[4].rank, 0u);

  // Three ranks, shares gathered in another order, through the MPI transport (the Boost archive
  // that deal.II's Utilities::MPI::gather sends).
  const auto transported = [](const std::vector<studies::SweepValueResult> &share) {
    return dealii::Utilities::unpack<std::vector<studies::SweepValueResult>>(dealii::Utilities::pack(share));
  };
  const auto three = studies::merge_indexed_shares(
    std::vector{transported(sweep.run_share(2, 3)), transported(sweep.run_share(0, 3)), transported(sweep.run_share(1, 3))},
    "sweep: value");
  expect_identical(serial, three);

  // The written Poincaré tables are the same text.
  const auto dir = std::filesystem::temp_directory_path() / "vibroimpact_sweep_test";
  std::filesystem::create_directories(dir);
  io::write_csv_table(dir / "serial.csv", studies::poincare_table(serial));
  io::write_csv_table(dir / "three.csv", studies::poincare_table(three));
  const std::string text = read_text(dir / "serial.csv");
  EXPECT_EQ(text, read_text(dir / "three.csv"));
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1 + 5 * 4);
  std::filesystem::remove_all(dir);

  // A share that repeats or misses a value is refused.
  EXPECT_THROW(studies::merge_indexed_shares(std::vector{sweep.run_share(0, 2), sweep.run_share(0, 2)}, "sweep: value"), std::invalid_argument);
  // An interrupted sweep's shares may miss values (each rank kept what it finished), never repeat one.
  auto kept = two;
  kept.erase(kept.begin() + 3, kept.end());
  kept.erase(kept.begin() + 1);
  const auto partial =
    studies::merge_indexed_shares(std::vector{std::vector{kept[1]}, std::vector{kept[0]}}, "sweep: value", true);
  ASSERT_EQ(partial.size(), 2u);
  EXPECT_EQ(partial[0].index, 0u);
  EXPECT_EQ(partial[1].index, 2u);
  EXPECT_THROW(studies::merge_indexed_shares(std::vector{kept, kept}, "sweep: value", true), std::invalid_argument);
  EXPECT_THROW(studies::merge_indexed_shares(std::vector<std::vector<studies::SweepValueResult>>{kept}, "sweep: value"),
               std::invalid_argument);
}


TEST(ParameterSweep, FrequencySweepWithZeroGapHasSticking)
{
  // Figure 8: inside the sticking region (here 0.76 omega_1, sampled at the phase where the load
  // presses the beam onto the obstacle hardest) the beam rests on the obstacle at every sampling
  // time: Poincaré u = -gap = 0 and v = 0 at the contact point; at 1.4 omega_1 it never sticks.
  const auto sweep = load_sweep("pinned_beam_frequency_sweep", {"Sweep/From=0.76", "Sweep/To=1.4",
                                                                "Sweep/Number of values=2", "Sweep/Transient periods=30",
                                                                "Sweep/Recorded periods=6"});
  const auto results = sweep.run_share(0, 1);
  ASSERT_EQ(results.size(), 2u);
  std::printf("[ measured ] omega/omega_1 = %g: sticking fraction %.4f, impacts %lu;", results[0].value,
              results[0].sticking_fraction, results[0].impacts);
  double worst_u = 0, worst_v = 0;
  for (const auto &p : results[0].points)
    {
      EXPECT_TRUE(p.stuck);
      worst_u = std::max({worst_u, std::abs(p.u), std::abs(p.gap)});
      worst_v = std::max(worst_v, std::abs(p.v));
    }
  std::printf(" stuck points |u| <= %.3g, |v| <= %.3g;", worst_u, worst_v);
  EXPECT_LE(worst_u, 1e-9);
  EXPECT_LE(worst_v, 1e-9);
  EXPECT_GT(results[0].sticking_fraction, 0.01);
  EXPECT_EQ(studies::distinct_points(results[0]), 1u);

  std::printf(" omega/omega_1 = %g: sticking fraction %.4f, impacts %lu\n", results[1].value,
              results[1].sticking_fraction, results[1].impacts);
  EXPECT_EQ(results[1].sticking_fraction, 0.0);
  for (const auto &p : results[1].points)
    {
      EXPECT_FALSE(p.stuck);
      EXPECT_GT(std::abs(p.u) + std::abs(p.v), 1e-3);
    }
}


TEST(ParameterSweep, GapSweepHasDoubleImpactOrbitAtGap12)
{
  // Figures 9 and 10 (omega = 0.7 omega_1): with d = 0 the beam sticks every period; at d = 1.2
  // the paper's "P-II" orbit, two impacts in every forcing cycle: one stroboscopic Poincaré
  // point, and two alternating impacts of different approach velocity each period.
  const auto sweep = load_sweep("pinned_beam_gap_sweep", {"Sweep/From=0", "Sweep/To=1.2", "Sweep/Number of values=2",
                                                          "Sweep/Transient periods=30", "Sweep/Recorded periods=8"});
  const auto results = sweep.run_share(0, 1);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_GT(results[0].sticking_fraction, 0.01);
  EXPECT_TRUE(std::any_of(results[0].impact_points.begin(), results[0].impact_points.end(),
                          [](const auto &e) { return e.sticks; }));

  const auto &r = results[1];
  EXPECT_EQ(r.value, 1.2);
  EXPECT_EQ(r.sticking_fraction, 0.0);
  EXPECT_EQ(studies::distinct_points(r), 1u);
  ASSERT_EQ(r.impact_points.size(), 2 * r.points.size());
  double same = 0, apart = INFINITY;
  for (std::size_t k = 0; k + 2 < r.impact_points.size(); ++k)
    {
      const auto &a = r.impact_points[k], &b = r.impact_points[k + 1], &c = r.impact_points[k + 2];
      same  = std::max({same, std::abs(a.velocity - c.velocity), std::abs(a.phase - c.phase)});
      apart = std::min(apart, std::abs(a.velocity - b.velocity));
      EXPECT_NEAR(c.time - a.time, 2 * M_PI / r.omega, 1e-8);
    }
  std::printf("[ measured ] d = 1.2: %lu impacts in %zu periods, U- = %.6f at phase %.6f and %.6f at phase %.6f, "
              "repeats every period to %.3g, the two differ by >= %.3g; Poincare point (%.9f, %.9f)\n",
              r.impacts, r.points.size(), r.impact_points[0].velocity, r.impact_points[0].phase,
              r.impact_points[1].velocity, r.impact_points[1].phase, same, apart, r.points[0].u, r.points[0].v);
  EXPECT_LE(same, 1e-6);
  EXPECT_GE(apart, 1.0);
  for (const auto &p : r.points)
    EXPECT_GT(p.gap, 0.0);
}


TEST(ParameterSweep, BadInputNamesTheSweepEntry)
{
  const auto message = [](const std::vector<std::string> &overrides) -> std::string {
    try
      {
        load_sweep("pinned_beam_gap_sweep", overrides);
      }
    catch (const io::InputError &e)
      {
        return e.what();
      }
    return "no error";
  };
  EXPECT_NE(message({"Sweep/Parameter=stiffness"}).find("Sweep/Parameter"), std::string::npos);
  EXPECT_NE(message({"Sweep/Load=G"}).find("Sweep/Load"), std::string::npos);
  EXPECT_NE(message({"Sweep/Contact=wall"}).find("Sweep/Contact"), std::string::npos);
  EXPECT_NE(message({"Sweep/Probe=tip"}).find("Sweep/Probe"), std::string::npos);
  EXPECT_NE(message({"Sweep/From=-0.1"}).find("Sweep/From"), std::string::npos);
  EXPECT_NE(message({"Sweep/From=x"}).find("From"), std::string::npos);
  EXPECT_NE(message({"Sweep/Sampling phase=1"}).find("Sweep/Sampling phase"), std::string::npos);
  EXPECT_NE(message({"Sweep/Number of values=0"}).find("Sweep/Number of values"), std::string::npos);
  EXPECT_NE(message({"Modal restitution/Damping ratios=0.05, x"}).find("Modal restitution/Damping ratios"),
            std::string::npos);
  EXPECT_NE(message({"Modal restitution/Number of modes=500"}).find("Modal restitution/Number of modes"),
            std::string::npos);
  for (const auto &text : {message({"Sweep/Load=G"}), message({"Sweep/From=-0.1"}), message({"Sweep/From=x"})})
    EXPECT_EQ(text.find('\n'), std::string::npos) << text;
  EXPECT_EQ(message({}), "no error");
}

TEST(ParameterSweep, ContinuationStartsEachValueFromThePreviousFinalState)
{
  // Three equal values continued, four whole periods each, against one run of twelve periods:
  // value k's Poincaré points must be periods 4k+1..4k+4 of the long run (the forcing is periodic,
  // so restarting the clock at a whole period changes nothing), to the ODE tolerance. Without
  // continuation every value restarts from the case's initial state.
  const std::vector<std::string> common = {"Sweep/From=0.9", "Sweep/To=0.9", "Sweep/Transient periods=0",
                                           "Sweep/Sampling phase=0"};
  auto continued_overrides = common;
  continued_overrides.insert(continued_overrides.end(),
                             {"Sweep/Number of values=3", "Sweep/Recorded periods=4", "Sweep/Continuation=true"});
  auto long_overrides = common;
  long_overrides.insert(long_overrides.end(), {"Sweep/Number of values=1", "Sweep/Recorded periods=12"});

  const auto continued = load_sweep("pinned_beam_frequency_sweep", continued_overrides).run_share(0, 1);
  const auto single    = load_sweep("pinned_beam_frequency_sweep", long_overrides).run_share(0, 1);
  ASSERT_EQ(continued.size(), 3u);
  ASSERT_EQ(single.size(), 1u);
  ASSERT_EQ(single[0].points.size(), 12u);
  double scale = 0;
  for (const auto &p : single[0].points)
    scale = std::max(scale, std::abs(p.u));
  for (unsigned int k = 0; k < 3; ++k)
    {
      ASSERT_EQ(continued[k].points.size(), 4u);
      for (unsigned int p = 0; p < 4; ++p)
        EXPECT_NEAR(continued[k].points[p].u, single[0].points[4 * k + p].u, 1e-6 * scale)
          << "value " << k << " period " << p + 1;
    }
  // And without continuation the third value repeats the first.
  auto restarted_overrides = common;
  restarted_overrides.insert(restarted_overrides.end(), {"Sweep/Number of values=3", "Sweep/Recorded periods=4"});
  const auto restarted = load_sweep("pinned_beam_frequency_sweep", restarted_overrides).run_share(0, 1);
  EXPECT_EQ(restarted[2].points[3].u, restarted[0].points[3].u);
  EXPECT_GT(std::abs(continued[2].points[3].u - continued[0].points[3].u), 1e-3 * scale);
}
