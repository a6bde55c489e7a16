// The statistics of supports in space against physics: the point mass in a circular
// clearance of doc/theory.md §10 whirling on the wall with friction (its wear work is the kinetic
// energy lost over μ, in closed form; a whirl at nearly constant speed wears every sector alike),
// a mass bouncing in the hole (impacts counted are the solver's impact events, the impact work is
// the energy the impacts took), a mass sliding on one side of a square (the side's sector and its
// worn length), Archard's volumes and depths, the streamed statistics equal the batch ones, and
// the orbit plot's occupancy of a whirl lies on the wall and accounts for the whole record.
#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/studies/support_statistics.h>
#include <vibroimpact/studies/support_output.h>

#include <gtest/gtest.h>

#include "point_mass_in_clearance.h"
#include "test_support.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>

using namespace vibroimpact;
using model::SpatialSupport;
using test_cases::PointMass;

namespace
{
  // A Moreau–Jean run (θ = ½) of the model into a history, rows every `output` seconds.
  integrators::ResponseHistory run(const model::StructuralModel &mdl, const double h, const double T,
                                   const double output)
  {
    integrators::MoreauJeanSettings s;
    s.time_step          = h;
    s.friction_tolerance = 1e-12;
    integrators::RunControl control;
    control.final_time      = T;
    control.output_interval = output;
    return integrators::run_to_history(integrators::MoreauJeanSolver(s), mdl, control);
  }

  double sector_sum(const studies::SupportStatistics &s)
  {
    return std::accumulate(s.sectors.begin(), s.sectors.end(), 0.0,
                           [](const double a, const auto &w) { return a + w.wear_work; });
  }
} // namespace

// §10.2–10.3: sliding in permanent contact, F_N = m(v² − a²)/c, so ∫ F_N |v_t| dt = ½m(v0² − v(T)²)/μ
// (the kinetic energy friction took, over μ). The statistics' wear work rate is that over T, the
// friction work the energy itself; the contact never opens (fraction 1, no impact, one episode
// of length T); the tangential force is μ times the normal one in every row (sliding all along);
// and the wear spread over sectors sums to the total.
TEST(SpatialStatistics, SlidingWhirlWearRateIsTheClosedForm)
{
  const PointMass p;
  const double    v0 = 2.0, mu = 0.1, a = std::sqrt(p.k / p.m) * p.c, T = 2.0;
  const double    v_exact        = a / std::tanh(mu * a * T / p.c + std::atanh(a / v0));
  const double    friction_exact = 0.5 * p.m * (v0 * v0 - v_exact * v_exact);
  const auto      mdl            = whirl(p, mu, v0);
  const auto      history        = run(mdl, 5e-4, T, 1e-3);
  studies::WearInputs wear;
  wear.sectors   = 6;
  const auto s   = studies::support_statistics(mdl, history, 0.0, 0, {wear}).at(0);
  ASSERT_TRUE(s.in_space);
  EXPECT_NEAR(s.wear_work_rate, friction_exact / mu / T, 3e-3 * friction_exact / mu / T);
  EXPECT_NEAR(s.friction_work, friction_exact, 3e-3 * friction_exact);
  EXPECT_NEAR(s.friction_work, mu * s.wear_work, 1e-9 * s.friction_work); // sliding at every step
  EXPECT_EQ(s.contact_fraction, 1.0);
  EXPECT_EQ(s.impacts, 0u);
  EXPECT_NEAR(s.mean_shock_duration, T, 1e-12);
  EXPECT_EQ(s.mean_rebound_duration, 0.0);
  EXPECT_NEAR(s.mean_tangential_force, mu * s.mean_force, 1e-9 * s.mean_force);
  EXPECT_NEAR(s.rms_tangential_force, mu * s.rms_force, 1e-9 * s.rms_force);
  ASSERT_EQ(s.sectors.size(), 6u);
  EXPECT_NEAR(sector_sum(s), s.wear_work, 1e-12 * s.wear_work);
  EXPECT_EQ(s.sectors[5].angle_to, 360.0);
}

// A whirl at nearly constant speed (k = 0, μ = 1e-3: 1.3 % of the energy a revolution) over
// exactly four revolutions (the record fed to the accumulator up to the row that completes
// them): every sector gets total/N to the decay within a revolution.
TEST(SpatialStatistics, WhirlAtConstantSpeedWearsEverySectorAlike)
{
  PointMass p;
  p.k                = 0.0;
  const double v0    = 2 * M_PI * p.c; // a revolution a second
  const auto   mdl   = whirl(p, 1e-3, v0);
  const auto   history = run(mdl, 1e-4, 4.2, 1e-3);
  studies::WearInputs wear;
  wear.sectors = 8;
  studies::SupportStatisticsAccumulator accumulator(mdl, history.columns(), 0.0, 0, {}, {wear});
  const auto r1 = history.column("r1_hole"), r2 = history.column("r2_hole");
  double     turned = 0.0;
  for (std::size_t k = 0; k < history.n_rows() && turned < 4 * 2 * M_PI; ++k)
    {
      if (k > 0)
        turned += std::remainder(std::atan2(r2[k], r1[k]) - std::atan2(r2[k - 1], r1[k - 1]), 2 * M_PI);
      accumulator.row(history.row(k));
    }
  ASSERT_GE(turned, 4 * 2 * M_PI);
  const auto s = accumulator.finish().at(0);
  EXPECT_NEAR(sector_sum(s), s.wear_work, 1e-12 * s.wear_work);
  for (const auto &w : s.sectors)
    EXPECT_NEAR(w.wear_work, s.wear_work / 8, 0.03 * s.wear_work / 8) << "sector from " << w.angle_from;
}

// A mass bouncing round the hole (k = 0, started at the centre obliquely, e = 0.9): the
// statistics count an impact per impact event of the solver, each a one-step episode when the
// rows are the steps, and the impact work (impulse × gap change) is the energy the impacts took
// from the ledger; no friction.
TEST(SpatialStatistics, BouncingMassCountsTheSolversImpacts)
{
  PointMass p;
  p.k                    = 0.0;
  auto mdl               = p.model(SpatialSupport::Shape::annular, 0.0, 0.9);
  mdl.initial_velocity   = Eigen::Vector2d(1.0, 0.37);
  const double h         = 1e-3;
  const auto   history   = run(mdl, h, 15.0, h);
  const auto   s         = studies::support_statistics(mdl, history).at(0);
  std::size_t  events    = 0;
  for (const auto &e : history.support_events())
    events += e.kind == integrators::ContactEvent::Kind::impact;
  ASSERT_GE(s.impacts, 5u);
  EXPECT_EQ(s.impacts, events);
  EXPECT_EQ(s.impact_peaks.size(), s.impacts);
  EXPECT_LT(s.contact_fraction, 0.05);
  EXPECT_NEAR(s.mean_shock_duration, s.contact_fraction * s.duration / s.impacts, 1e-12);
  EXPECT_GT(s.mean_rebound_duration, 0.1);
  const auto lost = history.column("impact_dissipation");
  EXPECT_NEAR(s.impact_work, lost.back(), 0.02 * lost.back());
  EXPECT_EQ(s.friction_work, 0.0);
  EXPECT_EQ(s.mean_tangential_force, 0.0);
}

// Archard: a sector's volume is the coefficient times its wear work, its depth the volume over the
// worn area: the tube's R Δφ and the hole wall's (c + R) Δφ, by the plate's thickness.
TEST(SpatialStatistics, ArchardVolumesAndDepthsPerSector)
{
  const PointMass p;
  auto            mdl                 = whirl(p, 0.1, 2.0);
  mdl.spatial_supports[0].outer_radius = 0.25;
  const auto          history         = run(mdl, 1e-3, 1.0, 1e-3);
  studies::WearInputs wear{4, 2e-14, 5e-14, 0.03};
  const auto          s  = studies::support_statistics(mdl, history, 0.0, 0, {wear}).at(0);
  const double        dphi = 2 * M_PI / 4;
  ASSERT_GT(s.wear_work, 0.0);
  for (const auto &w : s.sectors)
    {
      EXPECT_DOUBLE_EQ(w.tube_volume, 2e-14 * w.wear_work);
      EXPECT_DOUBLE_EQ(w.support_volume, 5e-14 * w.wear_work);
      EXPECT_NEAR(w.tube_depth, w.tube_volume / (0.25 * dphi * 0.03), 1e-12 * w.tube_depth + 1e-300);
      EXPECT_NEAR(w.support_depth, w.support_volume / ((p.c + 0.25) * dphi * 0.03), 1e-12 * w.support_depth + 1e-300);
      EXPECT_NEAR(w.wear_work_rate, w.wear_work / s.duration, 1e-15);
    }
}

// Sliding on one side of a square hole (sides at distance c, normals 0°, 90°, 180°, 270°) pressed
// by P along e1 and pushed by T > μP along e2: all the wear is the side at 0°'s, in its sector,
// and ∫ P |v| dt with v = (T − μP) t / m; the side's worn length on the wall is 2 (c + R). A flat
// bar's sides have no corners: their worn area is unbounded and the depth undefined (NaN).
TEST(SpatialStatistics, PolygonWearGoesToTheSideInContact)
{
  PointMass p;
  p.k                 = 0.0;
  auto mdl            = p.model(SpatialSupport::Shape::polygonal, 0.2);
  auto &support       = mdl.spatial_supports[0];
  support.sides       = {{{{1, 0}}, p.c}, {{{0, 1}}, p.c}, {{{-1, 0}}, p.c}, {{{0, -1}}, p.c}};
  support.outer_radius = 0.1;
  mdl.initial_displacement[0] = p.c;
  const double P = 1.0, T_load = 0.5, T = 1.0; // slides at (T − μP)/m = 0.3 and stays on the side
  test_cases::add_constant_load(mdl, Eigen::Vector2d(P, T_load));
  const auto          history = run(mdl, 1e-3, T, 1e-3);
  studies::WearInputs wear{8, 0.0, 1e-13, 0.02};
  const auto          s = studies::support_statistics(mdl, history, 0.0, 0, {wear}).at(0);
  const double        slide = 0.5 * (T_load - 0.2 * P) * T * T / p.m;
  EXPECT_NEAR(s.wear_work, P * slide, 2e-3 * P * slide);
  EXPECT_EQ(s.sectors[0].wear_work, s.wear_work);
  EXPECT_NEAR(s.sectors[0].support_depth, 1e-13 * s.wear_work / (2 * (p.c + 0.1) * 0.02), 1e-27);
  EXPECT_TRUE(std::isnan(s.sectors[1].support_depth)); // no side's normal in [45°, 90°): no wall
  EXPECT_FALSE(std::isnan(s.sectors[2].support_depth)); // the side at 90°

  auto bar = p.model(SpatialSupport::Shape::polygonal, 0.2); // the flat bar: walls at r1 = ±c
  bar.initial_displacement[0] = p.c;
  test_cases::add_constant_load(bar, Eigen::Vector2d(P, T_load));
  const auto b = studies::support_statistics(bar, run(bar, 1e-3, T, 1e-3), 0.0, 0, {wear}).at(0);
  EXPECT_NEAR(b.wear_work, s.wear_work, 1e-12 * s.wear_work);
  EXPECT_TRUE(std::isnan(b.sectors[0].support_depth));
}

// The accumulator fed the rows (a streamed record, its orbit spooled to a file: no row held) gives
// the batch statistics of the same rows to the last bit, sectors and both spectra included.
TEST(SpatialStatistics, StreamedEqualsBatch)
{
  PointMass p;
  auto      mdl         = p.model(SpatialSupport::Shape::annular, 0.3, 0.5);
  mdl.initial_velocity  = Eigen::Vector2d(2.0, 0.7);
  test_cases::add_constant_load(mdl, Eigen::Vector2d(0.3, -0.2));
  const auto          history = run(mdl, 1e-3, 20.0, 2e-3);
  studies::WearInputs wear{12, 1e-14, 2e-14, 0.02};
  const auto          batch = studies::support_statistics(mdl, history, 1.0, 0, {wear}).at(0);
  const auto          folder = std::filesystem::temp_directory_path() / "spatial_statistics_streamed";
  std::filesystem::create_directories(folder);
  studies::SupportStatisticsAccumulator streamed(mdl, history.columns(), 1.0, 0, folder, {wear});
  for (std::size_t k = 0; k < history.n_rows(); ++k)
    streamed.row(history.row(k));
  EXPECT_EQ(streamed.rows_in_memory(), 0u);
  const auto s = streamed.finish().at(0);
  ASSERT_GT(batch.impacts, 3u);
  ASSERT_GT(batch.wear_work, 0.0);
  EXPECT_EQ(s.impacts, batch.impacts);
  EXPECT_EQ(s.impact_peaks, batch.impact_peaks);
  for (const auto member : {&studies::SupportStatistics::duration, &studies::SupportStatistics::contact_fraction,
                            &studies::SupportStatistics::mean_force, &studies::SupportStatistics::rms_force,
                            &studies::SupportStatistics::impact_work, &studies::SupportStatistics::work_rate,
                            &studies::SupportStatistics::mean_shock_duration,
                            &studies::SupportStatistics::mean_rebound_duration,
                            &studies::SupportStatistics::rms_tangential_force,
                            &studies::SupportStatistics::friction_work, &studies::SupportStatistics::wear_work_rate})
    EXPECT_EQ(s.*member, batch.*member);
  for (std::size_t k = 0; k < batch.sectors.size(); ++k)
    EXPECT_EQ(s.sectors[k].support_depth, batch.sectors[k].support_depth);
  EXPECT_EQ(s.displacement_psd.density, batch.displacement_psd.density);
  EXPECT_EQ(s.second_psd.density, batch.second_psd.density);
  EXPECT_FALSE(s.second_psd.density.empty());
  EXPECT_NE(s.second_psd.density, s.displacement_psd.density);
}

// support_orbits.csv is the time the orbit spends per pixel: for a mass sliding round the wall
// (μ = 0.1) every pixel visited lies on the circle of radius c to within a pixel's half-diagonal,
// the times add up to the record's length, and the streamed table (an accumulator with a folder,
// which tallies it as the rows come) equals the one from the rows in memory, byte for byte.
TEST(SpatialStatistics, OrbitOccupancyOfAWhirlLiesOnTheWallAndSumsToTheRecord)
{
  const PointMass p;
  const auto      mdl     = whirl(p, 0.1, 2.0);
  const auto      history = run(mdl, 5e-4, 2.0, 1e-3);
  const auto      dir     = std::filesystem::temp_directory_path() / "vibroimpact_orbit_occupancy";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "streamed");
  std::filesystem::create_directories(dir / "batch");
  {
    studies::SupportStatisticsAccumulator streamed(mdl, history.columns(), 0.0, 0, dir / "streamed");
    for (std::size_t k = 0; k < history.n_rows(); ++k)
      streamed.row(history.row(k));
    streamed.finish();
    const auto orbits = streamed.support_orbits();
    ASSERT_TRUE(orbits.has_value());
    io::write_csv_table(dir / "streamed" / "support_orbits.csv", *orbits);
  }
  studies::write_support_statistics(dir / "batch", mdl, history, studies::support_statistics(mdl, history), false);
  const auto read = [](const std::filesystem::path &file) {
    std::ifstream in(file);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string table = read(dir / "batch" / "support_orbits.csv");
  EXPECT_EQ(read(dir / "streamed" / "support_orbits.csv"), table);
  const auto r1 = test_cases::csv_column(dir / "batch" / "support_orbits.csv", "r1");
  const auto r2 = test_cases::csv_column(dir / "batch" / "support_orbits.csv", "r2");
  const auto t  = test_cases::csv_column(dir / "batch" / "support_orbits.csv", "time");
  ASSERT_GT(r1.size(), 100u);
  const double pixel = 2.2 * p.c / 200;
  for (std::size_t k = 0; k < r1.size(); ++k)
    EXPECT_NEAR(std::hypot(r1[k], r2[k]), p.c, 0.708 * pixel) << k; // half a pixel diagonal
  const auto time = history.column("time");
  EXPECT_NEAR(std::accumulate(t.begin(), t.end(), 0.0), time.back() - time.front(), 1e-9);
}
