// The "Moreau-Jean" parameters (bad values named, exit-2 errors) and the Moreau–Jean solver's
// response history (history.csv, events.csv) on the 2-DOF chain with energy correction.
#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_file.h>
#include <vibroimpact/io/parameter_section.h>
#include <vibroimpact/structure/case_description.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/simulation_study.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace vibroimpact;
namespace fs = std::filesystem;

namespace
{
  fs::path write_prm(const std::string &name, const std::string &body)
  {
    const fs::path file = fs::temp_directory_path() / ("integrators_" + name + ".prm");
    std::ofstream(file) << "subsection Moreau-Jean\n" << body << "end\n";
    return file;
  }

  integrators::MoreauJeanSettings read_moreau_jean(const fs::path &file)
  {
    io::ParameterFile               prm(file.string(), {});
    integrators::MoreauJeanSettings s;
    const auto bind = [&](io::ParameterSection &section) { integrators::bind_settings(section, s); };
    prm.section("Moreau-Jean", bind); // declares
    prm.parse();
    prm.section("Moreau-Jean", bind); // reads
    return s;
  }

  std::string failing_parameter(const std::string &name, const std::string &body)
  {
    try
      {
        read_moreau_jean(write_prm(name, body));
      }
    catch (const io::InputError &e)
      {
        return e.parameter() + ": " + e.reason();
      }
    return "no error";
  }
} // namespace

TEST(IntegratorsParameters, ReadsEveryEntry)
{
  const auto s = read_moreau_jean(write_prm("good", "  set Theta = 0.75\n  set Time step = 0.002\n"
                                        "  set LCP solver = enum\n"
                                        "  set Energy correction = true\n"
                                        "  set Correction direction = non-contact\n"));
  EXPECT_DOUBLE_EQ(s.theta, 0.75);
  EXPECT_DOUBLE_EQ(s.time_step, 0.002);
  EXPECT_EQ(s.lcp_solver, contact::LcpAlgorithm::enumerative);
  EXPECT_TRUE(s.energy_correction);
  EXPECT_EQ(s.correction_direction, integrators::CorrectionDirection::non_contact);
  // Unset entries keep the settings' defaults: the binding declared them as the defaults.
  EXPECT_DOUBLE_EQ(read_moreau_jean(write_prm("empty", "")).theta, integrators::MoreauJeanSettings().theta);
}

TEST(IntegratorsParameters, BadValuesNameTheParameter)
{
  EXPECT_EQ(failing_parameter("theta", "  set Theta = 2\n"), "Moreau-Jean/Theta: must lie in [0.5, 1], got 2");
  EXPECT_EQ(failing_parameter("theta_low", "  set Theta = 0.3\n").rfind("Moreau-Jean/Theta:", 0), 0u);
  EXPECT_EQ(failing_parameter("h", "  set Time step = 0\n"), "Moreau-Jean/Time step: must be positive, got 0");
  EXPECT_EQ(failing_parameter("lcp", "  set LCP solver = path\n"),
            "Moreau-Jean/LCP solver: must be one of lemke|enum|pgs, got 'path'");
  EXPECT_EQ(failing_parameter("tol", "  set LCP tolerance = 1\n"),
            "Moreau-Jean/LCP tolerance: must lie in (0, 1), got 1");
  EXPECT_EQ(failing_parameter("dir", "  set Correction direction = up\n").rfind("Moreau-Jean/Correction direction:", 0), 0u);
}

TEST(IntegratorsSimulation, TwoDofHistoryAndSummary)
{
  structure::CaseDescription c;
  for (const char *name : {"m1", "m2"})
    {
      structure::BodyDescription body;
      body.name = name;
      body.type = structure::BodyType("mass");
      body.initial_velocity = "1";
      c.bodies.push_back(body);
    }
  c.elements.resize(2);
  c.elements[0] = {"k1", structure::ElementType::spring, {"m1", 0.0}, {}, 1.0};
  c.elements[1] = {"k2", structure::ElementType::spring, {"m2", 0.0}, {"m1", 0.0}, 1.0};
  structure::ContactDescription stop;
  stop.name = "stop";
  stop.point = {"m2", 0.0};
  stop.gap = 0.1;
  stop.side = structure::ContactSide::above;
  stop.restitution = 0.0;
  c.contacts = {stop};
  c.probes   = {{"tip", {"m2", 0.0}}};
  const auto model = structure::build_model(c);

  integrators::MoreauJeanSettings s;
  s.time_step         = 1.0 / 500;
  s.energy_correction = true;
  integrators::RunControl control;
  control.final_time      = 20;
  control.output_interval = 10 * s.time_step;
  const fs::path dir = fs::temp_directory_path() / "integrators_simulation_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto history = integrators::run_to_history(integrators::MoreauJeanSolver(s), model, control);
  studies::write_history_csv(dir / "history.csv", history);
  io::write_csv_table(dir / "events.csv", integrators::events_table(history));
  const auto        &summary = history.summary;
  std::ostringstream text;
  studies::print_summary(text, summary);
  std::cout << text.str();
  const double corrections = summary.counter("energy corrections");

  EXPECT_EQ(summary.steps, 10000u);
  EXPECT_GT(summary.impacts, 0u);
  EXPECT_GT(summary.sticking_time, 0.0);
  EXPECT_EQ(corrections, double(summary.impacts)); // e = 0: each impact dissipates, once
  // One impact event per impact, and (e = 0, the mass held at the stop) sticking phases that
  // end in separations, in time order, agreeing with the summary.
  const auto phases = history.sticking_phases(control.final_time);
  EXPECT_EQ(history.impacts().size(), summary.impacts);
  ASSERT_FALSE(phases.empty());
  double stuck = 0;
  for (const auto &p : phases)
    {
      EXPECT_GT(p.end, p.start);
      stuck += p.end - p.start;
    }
  EXPECT_NEAR(stuck, summary.sticking_time, 1e-9);
  for (std::size_t k = 1; k < history.events().size(); ++k)
    EXPECT_LE(history.events()[k - 1].time, history.events()[k].time);
  EXPECT_LT(std::abs(summary.final_energy - summary.initial_energy), 1e-9 * summary.initial_energy);
  EXPECT_LT(std::abs(summary.relative_balance_error), 1e-12);

  std::ifstream csv(dir / "history.csv");
  std::string   header;
  std::getline(csv, header);
  EXPECT_EQ(header, "time,kinetic_energy,potential_energy,total_energy,external_work,"
                    "damping_dissipation,impact_dissipation,numerical_dissipation,correction_beta,"
                    "correction_work,balance_error,gap_stop,impulse_stop,force_stop,u_tip,v_tip");
  // t = 0, every 10th step, and every step with a correction (so that every beta is kept).
  unsigned int rows = 0, rows_with_beta = 0;
  for (std::string line; std::getline(csv, line);)
    {
      ++rows;
      std::stringstream fields(line);
      std::string       field;
      for (int column = 0; column <= 8; ++column)
        std::getline(fields, field, ',');
      rows_with_beta += std::stod(field) != 0.0;
    }
  EXPECT_EQ(rows_with_beta, corrections);
  EXPECT_GE(rows, 1001u);
  EXPECT_LE(rows, 1001u + corrections);
  std::ifstream events(dir / "events.csv");
  std::getline(events, header);
  EXPECT_EQ(header, "time,contact,kind,pre_velocity,post_velocity,impulse");
  unsigned int event_rows = 0;
  for (std::string line; std::getline(events, line);)
    ++event_rows;
  EXPECT_EQ(event_rows, history.events().size());
}
