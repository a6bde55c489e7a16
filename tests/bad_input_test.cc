// Bad input: every case exits with code 2, says on one line which file, which parameter and
// why, and creates no output folder.
#include <gtest/gtest.h>

#include "cli_case_fixture.h"
#include "program_runner.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <chrono>
#include <string>
#include <thread>

#include <signal.h>

namespace fs = std::filesystem;

namespace
{
  const char *valid_case = R"(
subsection Body beam
  set Type = beam
  set Length = 1
  set Number of elements = 8
  set Left end = pinned
  set Right end = pinned
end
subsection Contact obstacle
  set Body = beam
  set Position = 0.4
  set Gap = 0
  set Restitution = 1
end
subsection Probe midspan
  set Body = beam
  set Position = 0.5
end
)";

  class BadInput : public vibroimpact::test_cases::CliCaseFixture
  {
  protected:
    BadInput()
      : CliCaseFixture("vibroimpact-bad-input-")
    {}
  };
} // namespace

TEST_F(BadInput, ValidCaseRunsAndWritesOutput)
{
  const auto result = run_cli("modes " + write_case(valid_case));
  EXPECT_EQ(result.exit_code, 0) << result.error;
  EXPECT_TRUE(fs::exists(output() / "modes.csv"));
  EXPECT_TRUE(fs::exists(output() / "modes.pvd"));
}

TEST_F(BadInput, UnknownParameter)
{
  expect_rejected(replace(valid_case, "set Length = 1", "set Lenght = 1"), "Body beam/Lenght", "Lenght");
}

TEST_F(BadInput, WrongType)
{
  expect_rejected(replace(valid_case, "set Length = 1", "set Length = one"), "Body beam/Length", "one");
}

TEST_F(BadInput, NegativeLength)
{
  expect_rejected(replace(valid_case, "set Length = 1", "set Length = -1"), "Body beam/Length", "positive");
}

TEST_F(BadInput, RestitutionAboveOne)
{
  expect_rejected(replace(valid_case, "set Restitution = 1", "set Restitution = 1.5"), "Contact obstacle/Restitution",
                  "[0, 1]");
}

TEST_F(BadInput, ContactPointOutsideItsBody)
{
  expect_rejected(replace(valid_case, "set Position = 0.4", "set Position = 1.4"), "Contact obstacle/Position",
                  "outside");
}

TEST_F(BadInput, ProbeOnMissingBody)
{
  std::string text = valid_case;
  text             = text.replace(text.rfind("set Body = beam"), 15, "set Body = bean");
  expect_rejected(text, "Probe midspan/Body", "no body named 'bean'");
}

TEST_F(BadInput, MissingMeshFile)
{
  expect_rejected(replace(valid_case, "set Length = 1", "set Length = 1\n  set Mesh file = missing.msh"),
                  "Body beam/Mesh file", "missing.msh");
}

// A family's lists (Supports s, Loads f) are checked as lists, and the message names
// the family's entry, not a member the file never spells.
TEST_F(BadInput, FamilyListsOfUnequalLength)
{
  expect_rejected(std::string(valid_case) + "subsection Loads f\n  set Body = beam\n  set Positions = 0.2, 0.4\n"
                                            "  set Seeds = 7\n  set Time dependence = random\n  set Amplitude = 1\n"
                                            "  set Band high = 100\nend\n",
                  "Loads f/Seeds", "1 values for 2 Positions");
}

TEST_F(BadInput, FamilyWithAnEmptyList)
{
  expect_rejected(std::string(valid_case) + "subsection Supports s\n  set Body = beam\n  set Positions =\nend\n",
                  "Supports s/Positions", "empty");
}

TEST_F(BadInput, FamilyPositionOffTheBody)
{
  expect_rejected(std::string(valid_case) + "subsection Supports s\n  set Body = beam\n  set Positions = 0.2, 1.5\nend\n",
                  "Supports s/Positions", "item 2, x = 1.500000, lies outside body 'beam'");
}

TEST_F(BadInput, GapIsNan)
{
  expect_rejected(replace(valid_case, "set Gap = 0", "set Gap = nan"), "Contact obstacle/Gap", "nan");
}

TEST_F(BadInput, UnknownEndCondition)
{
  expect_rejected(replace(valid_case, "set Left end = pinned", "set Left end = welded"), "Body beam/Left end",
                  "welded");
}

TEST_F(BadInput, BadOverrideOnTheCommandLine)
{
  const auto file   = write_case(valid_case);
  const auto result = run_cli("modes " + file + " -s 'Body beam/Length=abc'");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.error.find("Body beam/Length"), std::string::npos) << result.error;
  EXPECT_FALSE(fs::exists(output()));
}

TEST_F(BadInput, OverrideOutOfRangeIsCheckedLikeTheFile)
{
  const auto file   = write_case(valid_case);
  const auto result = run_cli("modes " + file + " -s 'Contact obstacle/Restitution=2'");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.error.find("Contact obstacle/Restitution"), std::string::npos) << result.error;
  EXPECT_FALSE(fs::exists(output()));
}

TEST_F(BadInput, MissingCaseFile)
{
  const auto result = run_cli("modes " + (directory_ / "nowhere.prm").string());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.error.find("nowhere.prm"), std::string::npos) << result.error;
  EXPECT_FALSE(fs::exists(output()));
}

TEST_F(BadInput, MalformedSubsections)
{
  expect_rejected(replace(valid_case, "subsection Probe midspan", "subsection Probe midspan\nsubsection Nested"),
                  "", "case.prm");
}

TEST_F(BadInput, JsonCaseFileIsReadToo)
{
  const std::string json = R"({
  "Body beam": {"Type": "beam", "Length": "1", "Number of elements": "8",
                "Left end": "pinned", "Right end": "pinned"},
  "Modes": {"Number of modes": "3"}
})";
  const auto result = run_cli("modes " + write_case(json, "case.json"));
  EXPECT_EQ(result.exit_code, 0) << result.error;
  const auto bad = run_cli("modes " + write_case(replace(json, "\"Length\": \"1\"", "\"Length\": \"-2\""), "case.json"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.error.find("Body beam/Length"), std::string::npos) << bad.error;
}

TEST_F(BadInput, ThetaOutsideHalfToOne)
{
  expect_rejected(std::string(valid_case) + "subsection Moreau-Jean\n  set Theta = 0.3\nend\n", "Moreau-Jean/Theta", "0.3");
}

TEST_F(BadInput, TimeStepNotPositive)
{
  expect_rejected(std::string(valid_case) + "subsection Moreau-Jean\n  set Time step = 0\nend\n", "Moreau-Jean/Time step",
                  "0");
}

TEST_F(BadInput, UnknownLcpSolver)
{
  expect_rejected(std::string(valid_case) + "subsection Moreau-Jean\n  set LCP solver = path\nend\n",
                  "Moreau-Jean/LCP solver", "path");
}

TEST_F(BadInput, SimulateRejectsLikeModes)
{
  const auto file   = write_case(std::string(valid_case) + "subsection Moreau-Jean\n  set Theta = 2\nend\n");
  const auto result = run_cli("simulate " + file);
  EXPECT_EQ(result.exit_code, 2) << result.error;
  EXPECT_NE(result.error.find("Moreau-Jean/Theta"), std::string::npos) << result.error;
  EXPECT_FALSE(fs::exists(output()));
}

TEST_F(BadInput, UnknownVerb)
{
  const auto result = run_cli("simulat " + write_case(valid_case));
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.error.find("unknown verb 'simulat'"), std::string::npos) << result.error;
}

TEST_F(BadInput, UnknownSubsection)
{
  expect_rejected(std::string(valid_case) + "subsection Integratr\n  set Theta = 0.5\nend\n", "Integratr",
                  "no such subsection");
}

TEST_F(BadInput, InitialStatePenetratesAContact)
{
  expect_rejected(replace(valid_case, "set Right end = pinned", "set Right end = pinned\n  set Initial displacement = -sin(pi*x)"),
                  "Contact obstacle/Gap", "penetrates");
}

TEST_F(BadInput, PositionOnAPointMass)
{
  expect_rejected(std::string(valid_case) +
                    "subsection Body m\n  set Type = mass\nend\nsubsection Probe mass\n  set Body = m\n  set Position = 2\nend\n",
                  "Probe mass/Position", "point mass");
}

TEST_F(BadInput, MoreModesThanDofsForTheModalReference)
{
  const auto file =
    write_case(std::string(valid_case) + "subsection Modal restitution\n  set Number of modes = 100\nend\n");
  const auto result = run_cli("simulate " + file + " -s 'Simulation/Solver=modal-cor'");
  EXPECT_EQ(result.exit_code, 2) << result.error;
  EXPECT_NE(result.error.find("Modal restitution/Number of modes"), std::string::npos) << result.error;
  EXPECT_FALSE(fs::exists(output()));
}

TEST_F(BadInput, ExactModesOfAStructureThatHasNone)
{
  const auto file = write_case(replace(valid_case, "set Right end = pinned", "set Right end = clamped") +
                               "subsection Modal restitution\n  set Mode shapes = exact\nend\n");
  const auto result = run_cli("simulate " + file + " -s 'Simulation/Solver=modal-cor'");
  EXPECT_EQ(result.exit_code, 2) << result.error;
  EXPECT_NE(result.error.find("Modal restitution/Mode shapes"), std::string::npos) << result.error;
  EXPECT_EQ(std::count(result.error.begin(), result.error.end(), '\n'), 1) << result.error;
  EXPECT_FALSE(fs::exists(output()));
}

// No run exits 0 with garbage. Values that overflow the model are input errors
// (exit 2, the entry named); a state that turns non-finite while running is a numerical failure
// (exit 1, the step named); what cannot run or would not end is rejected with the reason.
TEST_F(BadInput, NeverExitZeroWithGarbage)
{
  const std::string run_case = replace(valid_case, "set Right end = pinned",
                                       "set Right end = pinned\n  set Initial displacement = 0.1*sin(pi*x)") +
                               "subsection Load push\n  set Distribution = uniform\n  set Body = beam\n"
                               "  set Time dependence = harmonic\n  set Amplitude = 1\n  set Angular frequency = 3\nend\n"
                               "subsection Simulation\n  set Final time = 0.01\nend\n"
                               "subsection Moreau-Jean\n  set Time step = 1e-3\nend\n";
  struct Case
  {
    std::string overrides;
    int         exit_code;
    std::string named; // in the one-line message
  };
  const std::vector<Case> cases = {
    {"-s 'Body beam/Initial displacement=1/0'", 2, "Body beam/Initial displacement"},
    {"-s 'Body beam/Length=1e308'", 2, "Body beam/Length"},
    {"-s 'Body beam/Bending stiffness=1e308'", 2, "Body beam/Bending stiffness"},
    {"-s 'Body beam/Initial velocity=1e308'", 2, "Body beam/Initial velocity"},
    {"-s 'Load push/Amplitude=1e308'", 1, "step 1 (t = 0.001): non-finite"},
    {"-s 'Load push/Amplitude=1e308' -s 'Simulation/Solver=modal-cor'", 1, "non-finite"},
    {"-s 'Simulation/Final time=1e308'", 2, "Simulation/Final time"},
    {"-s 'Moreau-Jean/Time step=1e-300'", 2, "steps, more than"},
    {"-s 'Moreau-Jean/Time step=1e308'", 2, "Moreau-Jean/Time step"},
    {"-s 'Moreau-Jean/Time step=0.003'", 2, "not a whole number of steps"},
    {"-s 'Simulation/Final time=1e308' -s 'Simulation/Solver=modal-cor'", 2, "Simulation/Final time = 1e+308"},
    {"-s 'Load push/Angular frequency=1e308' -s 'Simulation/Solver=modal-cor'", 2, "Load push/Angular frequency"},
  };
  const auto file = write_case(run_case);
  ASSERT_EQ(run_cli("simulate " + file).exit_code, 0);
  fs::remove_all(output());
  for (const auto &c : cases)
    {
      const auto result = run_cli("simulate " + file + " " + c.overrides);
      EXPECT_EQ(result.exit_code, c.exit_code) << c.overrides << ": " << result.error;
      EXPECT_NE(result.error.find(c.named), std::string::npos) << c.overrides << ": " << result.error;
      EXPECT_EQ(std::count(result.error.begin(), result.error.end(), '\n'), 1) << c.overrides << ": " << result.error;
      EXPECT_FALSE(fs::exists(output())) << c.overrides << ": an output folder was written";
      fs::remove_all(output());
    }
}

// What the scheme still allows is said. A time step as long as the contact
// (the bar on the wall at h = 5: the bar ends 2.5 lengths inside the wall) ends with a warning;
// the example's own h = 0.005 does not.
TEST_F(BadInput, PenetrationDeeperThanTheContactMotionIsWarned)
{
  const std::string bar = std::string(VIBROIMPACT_SOURCE_DIR) + "/examples/bar_on_rigid_wall/case.prm";
  const auto coarse = run_cli("simulate " + bar + " -s 'Moreau-Jean/Time step=5' -s 'Simulation/Final time=5'");
  EXPECT_EQ(coarse.exit_code, 0) << coarse.error;
  EXPECT_NE(coarse.error.find("warning: contact wall: penetration 2.5"), std::string::npos) << coarse.error;
  fs::remove_all(output());
  const auto fine = run_cli("simulate " + bar);
  EXPECT_EQ(fine.exit_code, 0) << fine.error;
  EXPECT_EQ(fine.error.find("penetration"), std::string::npos) << fine.error;
}

// Input that deal.II alone would misread silently, or explain badly.
TEST_F(BadInput, InputThatWouldBeSilentlyMisread)
{
  // A typo in a family name of an override would add a default free-free body.
  {
    const auto result = run_cli("modes " + write_case(valid_case) + " -s 'Body ghost/Length=2'");
    EXPECT_EQ(result.exit_code, 2) << result.error;
    EXPECT_NE(result.error.find("Body ghost/Length: the case file has no 'subsection Body ghost' (its Body subsections: beam)"),
              std::string::npos)
      << result.error;
    EXPECT_FALSE(fs::exists(output()));
  }
  // Two blocks of one name: deal.II merges them, the second silently winning.
  expect_rejected(std::string(valid_case) + "subsection Contact obstacle\n  set Gap = 0.1\nend\n", "Contact obstacle",
                  "(the first is at line 9)");
  expect_rejected(replace(valid_case, "subsection Probe midspan", "subsection Body beam\nend\nsubsection Probe midspan"),
                  "Body beam", "a second 'subsection Body beam'");
  // A zero axis cannot place a body.
  expect_rejected(replace(valid_case, "set Type = beam", "set Type = beam\n  set Axis = 0, 0, 0"), "Body beam/Axis",
                  "zero");
  // A Timoshenko beam needs its own two entries.
  expect_rejected(replace(valid_case, "set Type = beam", "set Type = timoshenko beam\n  set Rotary inertia per unit length = 0.01"),
                  "Body beam/Shear stiffness", "positive");
  expect_rejected(replace(valid_case, "set Type = beam", "set Type = timoshenko beam\n  set Shear stiffness = 100"),
                  "Body beam/Rotary inertia per unit length", "positive");
  // A byte-order mark, a JSON array at the top level.
  expect_rejected("\xEF\xBB\xBF" + std::string(valid_case), "case.prm:1", "byte-order mark");
  {
    const auto file   = write_case("[1, 2]", "case.json");
    const auto result = run_cli("modes " + file);
    EXPECT_EQ(result.exit_code, 2) << result.error;
    EXPECT_NE(result.error.find("object of named subsections"), std::string::npos) << result.error;
    EXPECT_EQ(std::count(result.error.begin(), result.error.end(), '\n'), 1) << result.error;
  }
  // Messages that blamed the wrong parameter.
  {
    const std::string sweep = std::string(VIBROIMPACT_SOURCE_DIR) + "/examples/pinned_beam_gap_sweep/case.prm";
    const auto        result = run_cli("sweep " + sweep + " -s 'Sweep/From=1e308'");
    EXPECT_EQ(result.exit_code, 2) << result.error;
    EXPECT_NE(result.error.find("Sweep/From: the values from From to To overflow"), std::string::npos) << result.error;
  }
  expect_rejected(replace(valid_case, "set Position = 0.4", "set Position = 0.4\n  set Other body = beam\n  set Other position = 0.4"),
                  "Contact obstacle/Position", "two points are one point");
  // muparser's own five lines are not printed before ours.
  expect_rejected(replace(valid_case, "set Right end = pinned", "set Right end = pinned\n  set Initial velocity = abc"),
                  "Body beam/Initial velocity", "Unexpected token \"abc\"");
  expect_rejected(replace(valid_case, "set Right end = pinned", "set Right end = pinned\n  set Initial velocity = 1/0"),
                  "Body beam/Initial velocity", "not finite");
}

// SIGINT during `simulate` leaves whole rows, a .pvd of the frames written and an
// INTERRUPTED note, exit 130; no staging folder is left.
TEST_F(BadInput, InterruptedSimulationLeavesAReadablePartialResult)
{
  const std::string beam = std::string(VIBROIMPACT_SOURCE_DIR) + "/examples/pinned_beam_obstacle/case.prm";
  const pid_t pid = vibroimpact::test_support::start_program("simulate " + beam + " -q -o " + output().string() +
                                                 " -s 'Simulation/Final time=1000' -s 'Simulation/Frame interval=0.5'");
  ASSERT_GT(pid, 0);
  // signal once the run has written a few frames (not on a timer: a loaded machine may take
  // seconds to start it)
  const auto written = [this] {
    for (const auto &entry : fs::directory_iterator(directory_))
      if (entry.path().filename().string().rfind(".out.partial-", 0) == 0 &&
          fs::exists(entry.path() / "solution-00003.vtu"))
        return true;
    return false;
  };
  for (int i = 0; i < 600 && !written(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ::kill(pid, SIGINT);
  const int exit_code = vibroimpact::test_support::wait_for_program(pid);
  EXPECT_EQ(exit_code, 130);
  ASSERT_TRUE(fs::exists(output() / "INTERRUPTED"));
  std::ifstream history(output() / "history.csv");
  std::string   header, row, last;
  std::getline(history, header);
  const auto columns = std::count(header.begin(), header.end(), ',');
  std::size_t rows = 0;
  while (std::getline(history, row))
    {
      EXPECT_EQ(std::count(row.begin(), row.end(), ','), columns) << "a truncated row: " << row;
      last = row;
      ++rows;
    }
  EXPECT_GT(rows, 10u);
  const double t_last = std::stod(last.substr(0, last.find(',')));
  EXPECT_LT(t_last, 1000.0);
  // The .pvd lists exactly the frames on disk.
  std::ifstream pvd(output() / "solution.pvd");
  std::string   text((std::istreambuf_iterator<char>(pvd)), std::istreambuf_iterator<char>());
  std::size_t   listed = 0;
  for (auto at = text.find("<DataSet"); at != std::string::npos; at = text.find("<DataSet", at + 1))
    ++listed;
  std::size_t   frames = 0;
  for (const auto &entry : fs::directory_iterator(output()))
    frames += entry.path().extension() == ".vtu";
  EXPECT_GT(frames, 1u);
  EXPECT_EQ(text.find("</VTKFile>") != std::string::npos, true);
  EXPECT_EQ(listed, frames);
  for (const auto &entry : fs::directory_iterator(directory_))
    EXPECT_EQ(entry.path().filename().string().find(".partial"), std::string::npos) << entry.path();
}

// A destination that cannot be written is bad input, said before any computing.
TEST_F(BadInput, UnwritableOutputFolders)
{
  const auto file = write_case(valid_case);
  std::ofstream(directory_ / "a_file") << "x\n";
  for (const std::string &destination : {(directory_ / "a_file").string(), (directory_ / "a_file" / "x").string(),
                                        std::string("/proc/vibroimpact-output")})
    {
      vibroimpact::test_support::ProgramOptions options;
      options.stderr_file = directory_ / "err";
      const auto        run   = vibroimpact::test_support::run_program("modes " + file + " -q -o " + destination, options);
      const std::string error = run.error;
      EXPECT_EQ(run.exit_code, 2) << destination;
      EXPECT_NE(error.find(destination + ": -o: "), std::string::npos) << error;
      EXPECT_EQ(std::count(error.begin(), error.end(), '\n'), 1) << error;
    }
}

// `continue` on a case that cannot run: exit 2, one line naming Continuation/<Entry>, no output;
// and the valid case writes its branch, plot and orbits.
TEST_F(BadInput, ContinuationCasesThatCannotRun)
{
  std::ifstream     in(std::string(VIBROIMPACT_SOURCE_DIR) + "/examples/two_dof_fep/case.prm");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string chain = buffer.str();

  const auto rejected = [&](const std::string &text, const std::string &extra, const std::string &parameter,
                            const std::string &reason_part) {
    const auto result = run_cli("continue " + write_case(text) + " " + extra);
    EXPECT_EQ(result.exit_code, 2) << result.error;
    EXPECT_NE(result.error.find("case.prm"), std::string::npos) << result.error;
    EXPECT_NE(result.error.find(parameter), std::string::npos) << result.error;
    EXPECT_NE(result.error.find(reason_part), std::string::npos) << result.error;
    EXPECT_EQ(std::count(result.error.begin(), result.error.end(), '\n'), 1) << result.error;
    EXPECT_FALSE(fs::exists(output())) << "an output folder was created";
  };
  const auto at   = chain.find("subsection Contact stop");
  const auto stop = chain.substr(at, chain.find("end\n", at) + 4 - at);
  rejected(replace(chain, stop, ""), "", "Continuation/Kind", "no contact");
  rejected(chain, "-s 'Continuation/Steps per period=4'", "Continuation/Steps per period", "");
  rejected(chain, "-s 'Continuation/Minimum energy=1' -s 'Continuation/Maximum energy=0.5'",
           "Continuation/Maximum energy", "above Minimum energy");
  rejected(chain, "-s 'Continuation/Start energy factor=-1'", "Continuation/Start energy factor", "");
  rejected(chain,
           "-s 'Continuation/Kind=forced' -s 'Continuation/Minimum frequency=0.5' -s 'Continuation/Maximum "
           "frequency=2'",
           "Continuation/Kind", "harmonic load");
  rejected(chain, "-s 'Continuation/Families=7'", "Continuation/Families", "beyond");
  rejected(chain, "-s 'Continuation/Start=initial state'", "Continuation/Start period", "period guess");
  // Harmonic balance needs a force law at every contact, and the event-driven map's linear model.
  rejected(chain, "-s 'Continuation/Method=harmonic balance'", "Contact stop/Stiffness", "force law");
  rejected(chain, "-s 'Continuation/Method=harmonic balance' -s 'Continuation/Flow map=moreau-jean'",
           "Continuation/Method", "event-driven");
  rejected(chain, "-s 'Contact stop/Stiffness=10' -s 'Continuation/Method=harmonic balance' -s "
                  "'Continuation/Harmonics=20' -s 'Continuation/Samples per period=32'",
           "Continuation/Samples per period", "more than 2 H");
  rejected(chain, "-s 'Continuation/Massless contact nodes=true' -s 'Continuation/Flow map=moreau-jean'",
           "Continuation/Massless contact nodes", "event-driven");
  rejected(chain, "-s 'Continuation/Massless contact nodes=true' -s 'Contact stop/Other body=m1'",
           "Continuation/Massless contact nodes", "more than one DoF");
  // A start carried in stiffness ends on elastic contacts stiffer than it, or on rigid stops of
  // massless nodes; it carries a free family's linear-mode start.
  rejected(chain, "-s 'Continuation/Start stiffness=50'", "Continuation/Start stiffness", "Massless contact nodes");
  rejected(chain, "-s 'Contact stop/Stiffness=10' -s 'Continuation/Start stiffness=50'", "Continuation/Start stiffness",
           "not stiffer");
  rejected(chain, "-s 'Continuation/Start stiffness=50' -s 'Continuation/Start=initial state' -s "
                  "'Continuation/Start period=6'",
           "Continuation/Start stiffness", "linear mode");

  const auto result = run_cli("continue " + write_case(chain) + " -s 'Continuation/Maximum points=12'");
  EXPECT_EQ(result.exit_code, 0) << result.error;
  EXPECT_TRUE(fs::exists(output() / "branch.csv"));
  EXPECT_TRUE(fs::exists(output() / "orbit_0_0.pvd"));
  EXPECT_TRUE(fs::exists(output() / "orbit_1_0.csv"));
}

// Clearance supports, penalty stiffness, modal basis and random-load band.
namespace
{
  const char *support_case = R"(
subsection Body beam
  set Type = beam
  set Length = 2
  set Number of elements = 8
  set Left end = pinned
  set Right end = pinned
end
subsection Support s1
  set Body = beam
  set Position = 1
  set Lower gap = -1e-3
  set Upper gap = 1e-3
  set Type = flexible
end
subsection Load f1
  set Distribution = point
  set Body = beam
  set Position = 0.5
  set Time dependence = random
  set Amplitude = 5
  set Band high = 6283
  set Seed = 3
end
subsection Simulation
  set Solver = modal-penalty
  set Final time = 1e-3
end
subsection Modal penalty
  set Number of modes = 6
  set Time step = 1e-5
end
subsection Modal Udwadia-Kalaba
  set Number of modes = 6
  set Time step = 1e-5
end
subsection Moreau-Jean
  set Time step = 1e-5
end
)";
} // namespace

TEST_F(BadInput, SupportCaseRunsAndWritesStatistics)
{
  const auto result = run_cli("simulate " + write_case(support_case));
  EXPECT_EQ(result.exit_code, 0) << result.error;
  EXPECT_TRUE(fs::exists(output() / "statistics.csv"));
}

TEST_F(BadInput, SupportGapsInTheWrongOrder)
{
  expect_rejected(replace(replace(support_case, "Lower gap = -1e-3", "Lower gap = 0"), "Upper gap = 1e-3", "Upper gap = 0"),
                  "Support s1/Upper gap", "must exceed Lower gap");
  expect_rejected(replace(support_case, "Lower gap = -1e-3", "Lower gap = 2e-3"), "Support s1/Lower gap",
                  "must not be positive");
}

TEST_F(BadInput, SupportOutsideTheBeam)
{
  expect_rejected(replace(support_case, "set Position = 1\n", "set Position = 2.5\n"), "Support s1/Position", "outside");
}

TEST_F(BadInput, PenaltyStiffnessNotPositive)
{
  const auto file   = write_case(support_case);
  const auto result = run_cli("simulate " + file + " -s 'Modal penalty/Stiffness=0'");
  EXPECT_EQ(result.exit_code, 2) << result.error;
  EXPECT_NE(result.error.find("Modal penalty/Stiffness"), std::string::npos) << result.error;
  EXPECT_EQ(std::count(result.error.begin(), result.error.end(), '\n'), 1) << result.error;
  EXPECT_FALSE(fs::exists(output()));
}

TEST_F(BadInput, FewerModesThanAskedForTheModalSolvers)
{
  // 8 beam elements, two stop masses: 18 DoFs.
  for (const std::string solver : {"modal-uk", "modal-penalty"})
    {
      const std::string section = solver == "modal-uk" ? "Modal Udwadia-Kalaba" : "Modal penalty";
      const auto        result  = run_cli("simulate " + write_case(support_case) + " -s 'Simulation/Solver=" + solver +
                                  "' -s '" + section + "/Number of modes=40'");
      EXPECT_EQ(result.exit_code, 2) << result.error;
      EXPECT_NE(result.error.find(section + "/Number of modes"), std::string::npos) << result.error;
      EXPECT_NE(result.error.find("only 18 DoFs"), std::string::npos) << result.error;
      EXPECT_FALSE(fs::exists(output()));
    }
}

TEST_F(BadInput, RandomBandAboveTheNyquistFrequencyOfTheStep)
{
  // π / 1e-3 = 3142 rad/s < 6283 rad/s: each time stepper rejects it, naming the load's band.
  for (const std::string solver : {"modal-uk", "modal-penalty", "moreau-jean"})
    {
      const std::string section = solver == "modal-uk" ? "Modal Udwadia-Kalaba" :
                                  solver == "modal-penalty" ? "Modal penalty" : "Moreau-Jean";
      const auto result = run_cli("simulate " + write_case(support_case) + " -s 'Simulation/Solver=" + solver + "' -s '" +
                                  section + "/Time step=1e-3' -s 'Simulation/Final time=1e-2'");
      EXPECT_EQ(result.exit_code, 2) << result.error;
      EXPECT_NE(result.error.find("Load f1/Band high"), std::string::npos) << result.error;
      EXPECT_NE(result.error.find("Nyquist"), std::string::npos) << result.error;
      EXPECT_EQ(std::count(result.error.begin(), result.error.end(), '\n'), 1) << result.error;
      EXPECT_FALSE(fs::exists(output()));
    }
}
