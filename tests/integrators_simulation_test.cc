// The "Integrator" parameters (bad values named, exit-2 errors) and the simulation driver's
// history.csv on the 2-DOF chain with energy correction.
#include <vibroimpact/integrators/integrator_parameters.h>
#include <vibroimpact/integrators/simulation.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_file.h>
#include <vibroimpact/structure/case_description.h>
#include <vibroimpact/structure/model_builder.h>

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
    std::ofstream(file) << "subsection Integrator\n" << body << "end\n";
    return file;
  }

  integrators::IntegratorSettings read(const fs::path &file)
  {
    io::ParameterFile prm(file.string(), {});
    integrators::declare_integrator_parameters(prm);
    prm.parse();
    return integrators::parse_integrator_parameters(prm);
  }

  std::string failing_parameter(const std::string &name, const std::string &body)
  {
    try
      {
        read(write_prm(name, body));
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
  const auto s = read(write_prm("good", "  set Theta = 0.75\n  set Time step = 0.002\n"
                                        "  set Final time = 3\n  set LCP solver = enum\n"
                                        "  set Energy correction = true\n"
                                        "  set Correction direction = non-contact\n"
                                        "  set Output every = 5\n  set Frames every = 50\n"));
  EXPECT_DOUBLE_EQ(s.theta, 0.75);
  EXPECT_DOUBLE_EQ(s.time_step, 0.002);
  EXPECT_DOUBLE_EQ(s.final_time, 3.0);
  EXPECT_EQ(s.lcp_solver, contact::LcpAlgorithm::enumerative);
  EXPECT_TRUE(s.energy_correction);
  EXPECT_EQ(s.correction_direction, integrators::CorrectionDirection::non_contact);
  EXPECT_EQ(s.output_every, 5u);
  EXPECT_EQ(s.frames_every, 50u);
}

TEST(IntegratorsParameters, BadValuesNameTheParameter)
{
  EXPECT_EQ(failing_parameter("theta", "  set Theta = 2\n"), "Integrator/Theta: must lie in [0.5, 1], got 2");
  EXPECT_EQ(failing_parameter("theta_low", "  set Theta = 0.3\n").rfind("Integrator/Theta:", 0), 0u);
  EXPECT_EQ(failing_parameter("h", "  set Time step = 0\n"), "Integrator/Time step: must be positive, got 0");
  EXPECT_EQ(failing_parameter("lcp", "  set LCP solver = path\n"),
            "Integrator/LCP solver: must be one of lemke, enum, pgs, got 'path'");
  EXPECT_EQ(failing_parameter("dir", "  set Correction direction = up\n").rfind("Integrator/Correction direction:", 0), 0u);
}

TEST(IntegratorsSimulation, TwoDofHistoryAndSummary)
{
  structure::CaseDescription c;
  for (const char *name : {"m1", "m2"})
    {
      structure::BodyDescription body;
      body.name = name;
      body.type = structure::BodyType::mass;
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

  integrators::IntegratorSettings s;
  s.time_step         = 1.0 / 500;
  s.final_time        = 20;
  s.energy_correction = true;
  s.output_every      = 10;
  s.frames_every      = 1000;
  const fs::path dir = fs::temp_directory_path() / "integrators_simulation_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto summary = integrators::run_simulation(model, s, dir, true);
  std::ostringstream text;
  integrators::print_summary(text, summary);
  std::cout << text.str();

  EXPECT_EQ(summary.steps, 10000u);
  EXPECT_GT(summary.impacts, 0u);
  EXPECT_GT(summary.sticking_time, 0.0);
  EXPECT_EQ(summary.lcp_failures, 0u);
  EXPECT_EQ(summary.corrections, summary.impacts); // e = 0: each impact dissipates, once
  EXPECT_LT(std::abs(summary.final_energy - summary.initial_energy), 1e-9 * summary.initial_energy);
  EXPECT_LT(std::abs(summary.relative_balance_error), 1e-12);

  std::ifstream history(dir / "history.csv");
  std::string   header;
  std::getline(history, header);
  EXPECT_EQ(header, "time,kinetic_energy,potential_energy,total_energy,external_work,"
                    "damping_dissipation,impact_dissipation,numerical_dissipation,correction_beta,"
                    "correction_work,balance_error,gap_stop,impulse_stop,u_tip,v_tip");
  // t = 0, every 10th step, and every step with a correction (so that every beta is kept).
  unsigned int rows = 0, rows_with_beta = 0;
  for (std::string line; std::getline(history, line);)
    {
      ++rows;
      std::stringstream fields(line);
      std::string       field;
      for (int column = 0; column <= 8; ++column)
        std::getline(fields, field, ',');
      rows_with_beta += std::stod(field) != 0.0;
    }
  EXPECT_EQ(rows_with_beta, summary.corrections);
  EXPECT_GE(rows, 1001u);
  EXPECT_LE(rows, 1001u + summary.corrections);
  EXPECT_EQ(summary.frames, 11u);
  EXPECT_TRUE(fs::exists(dir / "solution.pvd"));
}
