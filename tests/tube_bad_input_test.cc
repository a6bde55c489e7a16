// Bad input of tubes and supports in space: each exits with code 2 and one line naming
// the file, the entry and the reason, and writes nothing (tests/bad_input_test.cc's rules).
#include <gtest/gtest.h>

#include "cli_case_fixture.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace fs = std::filesystem;

namespace
{
  const char *tube_case = R"(
subsection Body tube
  set Type = tube
  set Length = 1
  set Outer radius = 0.01
  set Number of elements = 8
  set Left end = pinned
  set Right end = pinned
end
subsection Supports s
  set Body = tube
  set Positions = 0.25, 0.75
  set Shape = annular
  set Clearance = 1e-3
  set Friction coefficient = 0.3
  set Wear sectors = 8
end
subsection Load push
  set Body = tube
  set Position = 0.5
  set Angle = 45
  set Time dependence = constant
  set Amplitude = 1
end
subsection Body beam
  set Type = beam
  set Length = 1
  set Number of elements = 4
  set Left end = pinned
  set Right end = pinned
end
)";

  class TubeBadInput : public vibroimpact::test_cases::CliCaseFixture
  {
  protected:
    TubeBadInput()
      : CliCaseFixture("vibroimpact-tube-bad-input-")
    {}

    // Runs a verb on the case text: its exit code and what it wrote on stderr.
    vibroimpact::test_cases::RunResult run(const std::string &verb, const std::string &text) { return run_cli(verb + " " + write_case(text)); }
  };
} // namespace

TEST_F(TubeBadInput, TheValidTubeCaseRuns)
{
  const auto [code, error] = run("modes", tube_case);
  EXPECT_EQ(code, 0) << error;
  EXPECT_TRUE(fs::exists(directory_ / "out" / "modes.csv"));
}

TEST_F(TubeBadInput, NegativeFriction)
{
  expect_rejected(replace(tube_case, "Friction coefficient = 0.3", "Friction coefficient = -0.1"),
                  "Supports s/Friction coefficient", "negative");
}

TEST_F(TubeBadInput, ClearanceNotPositive)
{
  expect_rejected(replace(tube_case, "Clearance = 1e-3", "Clearance = 0"), "Supports s/Clearance", "positive");
  expect_rejected(replace(tube_case, "Clearance = 1e-3", "Clearance = -1e-3"), "Supports s/Clearance", "positive");
}

TEST_F(TubeBadInput, WearSectorsThatDoNotDivideTheCircle)
{
  expect_rejected(replace(tube_case, "Wear sectors = 8", "Wear sectors = 7.5"), "Supports s/Wear sectors",
                  "do not divide the circle");
  expect_rejected(replace(tube_case, "Wear sectors = 8", "Wear sectors = 0"), "Supports s/Wear sectors",
                  "do not divide the circle");
}

TEST_F(TubeBadInput, SupportThicknessNotPositive)
{
  expect_rejected(replace(tube_case, "Wear sectors = 8", "Wear sectors = 8\n  set Support thickness = 0"),
                  "Supports s/Support thickness", "positive");
}

TEST_F(TubeBadInput, PolygonNotClosed)
{
  const auto polygon = replace(tube_case, "Shape = annular", "Shape = polygonal\n  set Side angles = 0, 120");
  expect_rejected(polygon, "Supports s/Side angles", "not closed");
  expect_rejected(replace(polygon, "Side angles = 0, 120", "Side angles = 0, 90, 180"), "Supports s/Side angles",
                  "not closed");
}

TEST_F(TubeBadInput, PolygonNotConvex)
{
  const auto polygon = replace(tube_case, "Shape = annular",
                               "Shape = polygonal\n  set Side angles = 0, 45, 90, 180, 270\n"
                               "  set Side distances = 1e-3, 3e-3, 1e-3, 1e-3, 1e-3");
  expect_rejected(polygon, "Supports s/Side distances", "not convex");
  // The same sides with the corner cut (45 degrees at 1.2e-3 < sqrt(2) 1e-3) are accepted.
  const auto [code, error] = run("modes", replace(polygon, "1e-3, 3e-3", "1e-3, 1.2e-3"));
  EXPECT_EQ(code, 0) << error;
}

TEST_F(TubeBadInput, SupportInSpaceOnAPlanarBeam)
{
  expect_rejected(replace(tube_case, "set Body = tube\n  set Positions", "set Body = beam\n  set Positions"),
                  "Supports s/Shape", "holds a tube");
}

TEST_F(TubeBadInput, FrictionOnPlanarStops)
{
  expect_rejected(replace(tube_case, "Shape = annular", "Shape = stops"), "Supports s/Friction coefficient",
                  "not on planar stops");
}

TEST_F(TubeBadInput, SupportOffTheTube)
{
  expect_rejected(replace(tube_case, "Positions = 0.25, 0.75", "Positions = 0.25, 1.5"), "Supports s/Positions",
                  "outside");
}

TEST_F(TubeBadInput, LoadAngleOnAPlanarBeam)
{
  expect_rejected(replace(tube_case, "set Body = tube\n  set Position = 0.5", "set Body = beam\n  set Position = 0.5"),
                  "Load push/Angle", "only a tube's loads");
}

TEST_F(TubeBadInput, TubeWithoutItsRadiusOrWithTheDeflectionAlongItsAxis)
{
  expect_rejected(replace(tube_case, "set Outer radius = 0.01\n", ""), "Body tube/Outer radius", "outer radius");
  expect_rejected(replace(tube_case, "set Outer radius = 0.01\n", "set Outer radius = 0.01\n  set Deflection direction = 2, 0, 0\n"),
                  "Body tube/Deflection direction", "parallel");
}

TEST_F(TubeBadInput, ProbeOfAFieldTheBodyDoesNotHave)
{
  expect_rejected(std::string(tube_case) + "subsection Probe twist\n  set Body = tube\n  set Position = 0.5\n"
                                           "  set Field = twist\nend\n",
                  "Probe twist/Body", "no twist field");
}

TEST_F(TubeBadInput, WaveModesRefuseTubes)
{
  // Without supports in space, which every solver but moreau-jean and the modal penalty and U–K
  // refuses first (naming Simulation/Solver; tests/spatial_friction_test.cc).
  const auto no_supports = replace(tube_case,
                                   "subsection Supports s\n  set Body = tube\n  set Positions = 0.25, 0.75\n"
                                   "  set Shape = annular\n  set Clearance = 1e-3\n  set Friction coefficient = 0.3\n"
                                   "  set Wear sectors = 8\nend\n",
                                   "");
  expect_rejected(no_supports, "Body tube/Type", "a tube", "-s Simulation/Solver=wave-modes", "simulate");
}

TEST_F(TubeBadInput, InitialStateOutsideTheHole)
{
  expect_rejected(replace(tube_case, "set Outer radius = 0.01\n",
                          "set Outer radius = 0.01\n  set Initial displacement e2 = 0.01*sin(pi*x)\n"),
                  "Support s1/Clearance", "penetrates");
}

TEST_F(TubeBadInput, TimoshenkoTubeWithoutItsShearData)
{
  const auto timoshenko = replace(tube_case, "set Type = tube", "set Type = timoshenko tube");
  expect_rejected(timoshenko, "Body tube/Shear stiffness", "timoshenko tube");
  expect_rejected(replace(timoshenko, "Outer radius = 0.01", "Outer radius = 0.01\n  set Shear stiffness = 1e4"),
                  "Body tube/Rotary inertia per unit length", "timoshenko tube");
}
