// Rough edges of the command line, each as the user meets it: a continuation
// that finds no orbit says so on one line naming the families and the entry to change; orbit
// points beyond a branch (a family stopped short, or Maximum points) are said, naming the orbit
// file that is missing; `-o ''` is refused; an HDF5 run of point masses writes their frames as the CSV run does.
#include <gtest/gtest.h>

#include "cli_case_fixture.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace
{
  class CommandLineEdges : public vibroimpact::test_cases::CliCaseFixture
  {
  protected:
    CommandLineEdges()
      : CliCaseFixture("vibroimpact-cli-edges-")
    {}

    static std::string example(const std::string &name)
    {
      return std::string(VIBROIMPACT_SOURCE_DIR) + "/examples/" + name + "/case.prm";
    }

    static std::size_t lines(const std::string &text) { return std::count(text.begin(), text.end(), '\n'); }

    static std::size_t count(const std::string &text, const std::string &what)
    {
      std::size_t n = 0;
      for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
      return n;
    }
  };
} // namespace

// Both families of the 2-DOF chain fail at their start (one Newton iteration to 1e-15): one
// line, exit 1, naming both families, their reason, the start's entry and the file.
TEST_F(CommandLineEdges, NoOrbitIsOneLineNamingTheFamiliesAndTheEntry)
{
  const auto result = run_cli("continue " + example("two_dof_fep") +
                              " -s 'Continuation/Residual tolerance=1e-15' -s 'Continuation/Maximum Newton iterations=1'");
  EXPECT_EQ(result.exit_code, 1) << result.error;
  EXPECT_EQ(lines(result.error), 1u) << result.error;
  EXPECT_NE(result.error.find("two_dof_fep/case.prm: no periodic orbit converged, nothing written: mode 1, mode 2: "
                              "Newton did not converge on the start point (change Continuation/Start energy factor)"),
            std::string::npos)
    << result.error;
  EXPECT_FALSE(fs::exists(output()));
}

// A start by simulation names its own entry: no second hint.
TEST_F(CommandLineEdges, NoOrbitReasonNamingItsEntryGetsNoOtherHint)
{
  const auto result =
    run_cli("continue " + example("two_dof_sticking_family") + " -s 'Continuation/Simulation time=1'");
  EXPECT_EQ(result.exit_code, 1) << result.error;
  EXPECT_EQ(lines(result.error), 1u) << result.error;
  EXPECT_NE(result.error.find("mode 1: the simulation shows no recurring impact pattern"), std::string::npos)
    << result.error;
  EXPECT_EQ(count(result.error, "Continuation/"), 1u) << result.error;
}

// The example's Orbit points 0, 40 on a quick run of 12 continued points a family: the orbits at 0 are
// written, and each family's missing orbit at 40 is said, on a line naming the file and the entry.
TEST_F(CommandLineEdges, OrbitPointsBeyondTheBranchAreSaid)
{
  const auto result = run_cli("continue " + example("two_dof_fep") + " -s 'Continuation/Maximum points=12'");
  EXPECT_EQ(result.exit_code, 0) << result.error;
  EXPECT_TRUE(fs::exists(output() / "orbit_0_0.csv"));
  EXPECT_TRUE(fs::exists(output() / "orbit_1_0.csv"));
  // Mode 1 has 15 points: its 12 continued ones and the 3 period doublings located between them.
  for (const char *line : {"two_dof_fep/case.prm: Continuation/Orbit points: mode 1 stopped after 15 points: "
                                 "no orbit_0_40 written\n",
                                 "two_dof_fep/case.prm: Continuation/Orbit points: mode 2 stopped after 12 points: "
                                 "no orbit_1_40 written\n"})
    EXPECT_NE(result.error.find(line), std::string::npos) << result.error;
}

// Mode 2 below E = 1.5 stops after 37 points: its point 39 is within Maximum points but not on
// the branch; the run writes what it has and says which orbit is missing.
TEST_F(CommandLineEdges, OrbitPointsAFamilyStoppedShortOfAreSaid)
{
  const auto result = run_cli("continue " + example("two_dof_fep") +
                              " -s 'Continuation/Families=2' -s 'Continuation/Maximum points=40' "
                              "-s 'Continuation/Maximum energy=1.5' -s 'Continuation/Orbit points=0, 39'");
  EXPECT_EQ(result.exit_code, 0) << result.error;
  EXPECT_TRUE(fs::exists(output() / "orbit_0_0.csv"));
  EXPECT_FALSE(fs::exists(output() / "orbit_0_39.csv"));
  EXPECT_NE(result.error.find("Continuation/Orbit points: mode 2 stopped after 37 points: no orbit_0_39 written"),
            std::string::npos)
    << result.error;
}

// `-o ''` is refused before anything runs; nothing appears under ./output.
TEST_F(CommandLineEdges, EmptyOutputFolderIsRefused)
{
  vibroimpact::test_support::ProgramOptions options;
  options.stderr_file       = directory_ / "stderr.txt";
  options.working_directory = directory_;
  const auto run = vibroimpact::test_support::run_program("modes " + example("two_dof_sticking") + " -q -o ''", options);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.error, "vibroimpact: error: command line: -o: an empty folder name (give a folder, or leave -o out "
                       "to write to output/<Model/Name>)\n");
  EXPECT_FALSE(fs::exists(directory_ / "output"));
}

// The two masses' frames: the HDF5 run's solution.xdmf lists as many frames as the CSV run
// writes .vtu files, each with the masses' three points (the ground and the two masses).
TEST_F(CommandLineEdges, Hdf5RunOfPointMassesWritesTheirFrames)
{
  const std::string run = "simulate " + example("two_dof_sticking") +
                          " -s 'Simulation/Final time=20' -s 'Simulation/Frame interval=0.2'";
  ASSERT_EQ(run_cli(run).exit_code, 0);
  std::size_t vtu = 0;
  for (const auto &entry : fs::directory_iterator(output()))
    vtu += entry.path().extension() == ".vtu";
  EXPECT_EQ(vtu, 101u);
  fs::remove_all(output());
  const auto hdf5 = run_cli(run + " -s 'Simulation/Output format=hdf5'");
  ASSERT_EQ(hdf5.exit_code, 0) << hdf5.error;
  ASSERT_TRUE(fs::exists(output() / "solution.xdmf"));
  ASSERT_TRUE(fs::exists(output() / "solution.h5"));
  std::stringstream xdmf;
  xdmf << std::ifstream(output() / "solution.xdmf").rdbuf();
  EXPECT_EQ(count(xdmf.str(), "<Grid Name=\"frame "), vtu);
  EXPECT_EQ(count(xdmf.str(), "Dimensions=\"3 3\""), 3 * vtu); // points, displacement, velocity
}
