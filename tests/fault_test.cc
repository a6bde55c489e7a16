// Faults a careless or hostile user meets, through the program itself: a full disk
// (a file-size limit, as CI has no root for a tiny tmpfs) for every verb that writes, signals in
// every verb, special files as the case, huge values, tiny meshes with many modes, intervals that
// ask for unbounded work, decimal commas, keys set twice, continuation inputs with nothing to
// follow. Each asserts the contract, not only the exit code: one line on stderr for an error,
// nothing written and nothing left behind (staging folder, lock) on a non-zero exit, a previous
// run's output untouched, what was finished written and marked INTERRUPTED after a signal.
#include <gtest/gtest.h>

#include "program_runner.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

namespace
{

  std::string example(const std::string &name)
  {
    return std::string(VIBROIMPACT_SOURCE_DIR) + "/examples/" + name + "/case.prm";
  }

  std::string read(const fs::path &file)
  {
    std::ifstream in(file);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }

  struct Outcome
  {
    int         code = -1;
    std::string error; // stderr
    double      seconds = 0;
  };

  // `arguments` are shell words (quoted where they hold spaces); file_size_limit in bytes, as
  // `ulimit -f` (0: none).
  Outcome run(const std::string &arguments, const fs::path &scratch, const long file_size_limit = 0)
  {
    vibroimpact::test_support::ProgramOptions options;
    options.stderr_file     = scratch / "stderr.txt";
    options.file_size_limit = file_size_limit;
    const auto run          = vibroimpact::test_support::run_program(arguments, options);
    return {run.exit_code, run.error, run.seconds};
  }

  unsigned int lines(const std::string &text) { return unsigned(std::count(text.begin(), text.end(), '\n')); }

  // Nothing of a run is left beside its destination: no staging folder, no lock file.
  void expect_nothing_left(const fs::path &parent, const std::string &where)
  {
    for (const auto &entry : fs::directory_iterator(parent))
      {
        const std::string name = entry.path().filename().string();
        EXPECT_FALSE(name.find(".partial-") != std::string::npos || name.find(".lock") != std::string::npos)
          << where << ": left " << entry.path();
      }
  }

  // Waits until the run has made its staging folder (it has read its case and set its signal
  // handlers: a loaded machine takes seconds to start it), then `settle` more.
  void wait_for_work(const fs::path &out, const std::chrono::milliseconds settle)
  {
    const std::string prefix = "." + out.filename().string() + ".partial-";
    for (int k = 0; k < 1200; ++k)
      {
        for (const auto &entry : fs::directory_iterator(out.parent_path()))
          if (entry.path().filename().string().rfind(prefix, 0) == 0)
            {
              std::this_thread::sleep_for(settle);
              return;
            }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
  }

  // The program with `arguments` (verb, case, options; a shell's quoting) started in the
  // background, its stderr into `err`; the child's pid (-1: fork failed).
  pid_t start_program(const std::string &arguments, const fs::path &err)
  {
    vibroimpact::test_support::ProgramOptions options;
    options.stderr_file = err;
    return vibroimpact::test_support::start_program(arguments, options);
  }

  // Once the run writing into `out` has worked for `settle`, `signal` to it; its wait status.
  int interrupt_after(const pid_t pid, const fs::path &out, const std::chrono::milliseconds settle, const int signal)
  {
    wait_for_work(out, settle);
    ::kill(pid, signal);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return status;
  }

  class Faults : public ::testing::Test
  {
  protected:
    void SetUp() override
    {
      scratch = fs::temp_directory_path() /
                ("vibroimpact-faults-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
      fs::remove_all(scratch);
      fs::create_directories(scratch);
    }
    void TearDown() override { fs::remove_all(scratch); }

    // A one-line bad-input refusal that wrote nothing.
    void expect_refused(const std::string &arguments, const std::string &parameter)
    {
      const fs::path out = scratch / "refused";
      const Outcome  o   = run(arguments + " -q -o " + out.string(), scratch);
      EXPECT_EQ(o.code, 2) << arguments << ": " << o.error;
      EXPECT_EQ(lines(o.error), 1u) << arguments << ": " << o.error;
      EXPECT_NE(o.error.find(parameter), std::string::npos) << arguments << ": " << o.error;
      EXPECT_FALSE(fs::exists(out)) << arguments;
      EXPECT_LT(o.seconds, 30) << arguments;
      expect_nothing_left(scratch, arguments);
    }

    fs::path scratch;
  };

  struct VerbCase
  {
    std::string verb, arguments;
  };

  // Every verb that writes, on a case small enough for the suite.
  const std::vector<VerbCase> writing_verbs = {
    {"modes", example("pinned_beam_modes")},
    {"simulate", example("two_dof_sticking") + " -s 'Simulation/Final time=20'"},
    {"converge", example("pinned_beam_modes") + " -s 'Convergence/Refinement cycles=2'"},
    {"compare", example("pinned_beam_obstacle") + " -s 'Simulation/Final time=0.2'"},
    {"continue", example("two_dof_fep") + " -s 'Continuation/Maximum points=20'"},
    {"sweep", example("pinned_beam_gap_sweep") + " -s 'Sweep/Number of values=2' -s 'Sweep/Transient periods=2' "
                                                 "-s 'Sweep/Recorded periods=2'"},
  };
} // namespace

namespace
{
  // One verb run into a folder that holds a previous run's output, on a disk that cannot take
  // the new one: exit 1 naming the file (or 2, refused up front for want of space), the
  // previous output as it was, nothing left beside it.
  void expect_previous_output_kept(const VerbCase &v, const fs::path &parent, const fs::path &scratch,
                                   const long file_size_limit, const bool fill = false)
  {
    const fs::path out = parent / v.verb;
    fs::create_directories(out);
    std::ofstream(out / "previous.csv") << "kept\n";
    if (fill) // leave 8 kB: room for the staging folder and a little output, not for all of it
      {
        const auto space = fs::space(parent);
        if (space.available > 8192)
          std::ofstream(parent / "filler") << std::string(space.available - 8192, 'x');
      }
    const Outcome o = run(v.verb + " " + v.arguments + " -q -o " + out.string(), scratch, file_size_limit);
    EXPECT_TRUE(o.code == 1 || o.code == 2) << v.verb << " exited " << o.code << ": " << o.error;
    EXPECT_EQ(lines(o.error), 1u) << v.verb << ": " << o.error;
    if (o.code == 1)
      EXPECT_NE(o.error.find("cannot write " + out.string() + "/"), std::string::npos) << v.verb << ": " << o.error;
    else
      EXPECT_NE(o.error.find(" free ("), std::string::npos) << v.verb << ": " << o.error;
    EXPECT_EQ(read(out / "previous.csv"), "kept\n") << v.verb;
    EXPECT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator()), 1) << v.verb;
    expect_nothing_left(parent, v.verb);
    fs::remove(parent / "filler");
    fs::remove_all(out);
  }
} // namespace

TEST_F(Faults, AFileSizeLimitEndsEveryVerbWithOneLineAndKeepsThePreviousOutput)
{
  // 512-byte files at most (SIGXFSZ is ignored by the program, so the write fails with EFBIG).
  // Not the MPI verbs: OpenMPI's start-up cannot make its own files under this limit.
  for (const auto &v : writing_verbs)
    if (v.verb != "continue" && v.verb != "sweep")
      expect_previous_output_kept(v, scratch, scratch, 512);
}

TEST_F(Faults, AFullDiskEndsEveryVerbWithOneLineAndKeepsThePreviousOutput)
{
  if (::geteuid() != 0)
    GTEST_SKIP() << "a 64 kB tmpfs needs root (CI runs as root)";
  const fs::path tiny = scratch / "tiny";
  fs::create_directories(tiny);
  if (std::system(("mount -t tmpfs -o size=64k tmpfs " + tiny.string() + " 2> /dev/null").c_str()) != 0)
    GTEST_SKIP() << "mount is not allowed here (a container without CAP_SYS_ADMIN)";
  for (const auto &v : writing_verbs)
    expect_previous_output_kept(v, tiny, scratch, 0, true);
  EXPECT_EQ(std::system(("umount " + tiny.string()).c_str()), 0);
}

TEST_F(Faults, ASignalInEveryVerbIsHonouredWithinASecond)
{
  // Runs long enough to be caught midway; 1 s into its work each gets SIGTERM.
  const std::vector<VerbCase> long_runs = {
    {"modes", example("pinned_beam_modes") + " -s 'Body beam/Number of elements=3000' -s 'Modes/Number of modes=400'"},
    {"simulate", example("two_dof_sticking") + " -s 'Simulation/Final time=1e5'"},
    {"converge", example("bar_on_rigid_wall") + " -s 'Convergence/Refinement cycles=8'"},
    {"compare", example("pinned_beam_obstacle") + " -s 'Simulation/Final time=1000'"},
    {"continue", example("two_dof_sticking_family")},
    {"sweep", example("pinned_beam_gap_sweep") + " -s 'Sweep/Number of values=1000'"},
  };
  for (const auto &v : long_runs)
    {
      const fs::path out = scratch / v.verb;
      const fs::path err = scratch / (v.verb + ".stderr");
      const pid_t    pid = start_program(v.verb + " " + v.arguments + " -q -o " + out.string(), err);
      ASSERT_GE(pid, 0);
      wait_for_work(out, std::chrono::milliseconds(1000));
      ::kill(pid, SIGTERM);
      const auto signalled = std::chrono::steady_clock::now();
      int        status    = 0;
      for (int waited = 0; waited < 100 && ::waitpid(pid, &status, WNOHANG) == 0; ++waited)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - signalled).count();
      if (::waitpid(pid, &status, WNOHANG) == 0 && seconds >= 10)
        {
          ::kill(pid, SIGKILL);
          ::waitpid(pid, &status, 0);
          ADD_FAILURE() << v.verb << ": still running 10 s after SIGTERM";
          continue;
        }
      const std::string error = read(err);
      ASSERT_TRUE(WIFEXITED(status)) << v.verb << ": " << error;
      EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM) << v.verb << ": " << error;
      EXPECT_LT(seconds, 1.5) << v.verb << " took " << seconds << " s to stop";
      // Either nothing, or what was finished marked as interrupted.
      if (fs::exists(out))
        {
          EXPECT_TRUE(fs::exists(out / "INTERRUPTED")) << v.verb << " wrote an unmarked folder";
        }
      expect_nothing_left(scratch, v.verb);
    }
}

TEST_F(Faults, TheContinuationKeepsItsBranchWhenInterrupted)
{
  // A branch with many points is stopped midway: branch.csv holds the converged orbits.
  const fs::path out = scratch / "branch";
  const fs::path err = scratch / "stderr.txt";
  const pid_t    pid = start_program("continue " + example("two_dof_sticking_family") + " -q -o " + out.string(), err);
  ASSERT_GE(pid, 0);
  const int status = interrupt_after(pid, out, std::chrono::milliseconds(4000), SIGINT);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGINT) << read(err);
  ASSERT_TRUE(fs::exists(out / "INTERRUPTED")) << read(err);
  const std::string branch = read(out / "branch.csv");
  EXPECT_GE(lines(branch), 2u) << "no converged orbit kept";
  EXPECT_EQ(branch.find("inf"), std::string::npos);
  EXPECT_EQ(branch.find("nan"), std::string::npos);
}

TEST_F(Faults, TheConvergenceStudyKeepsItsFinishedCyclesWhenInterrupted)
{
  // Cycle k costs 4^k (mesh and step refined together): the first of seven is done in
  // milliseconds, the sixth and seventh take half a minute. SIGTERM 1 s into the work.
  const std::string study = "converge " + example("bar_on_rigid_wall") + " -q -s 'Convergence/Refinement cycles=";
  const fs::path    out   = scratch / "convergence";
  const fs::path    err   = scratch / "stderr.txt";
  const pid_t       pid   = start_program(study + "7' -o " + out.string(), err);
  ASSERT_GE(pid, 0);
  const int status = interrupt_after(pid, out, std::chrono::milliseconds(1000), SIGTERM);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM) << read(err);
  ASSERT_TRUE(fs::exists(out / "INTERRUPTED")) << read(err);
  EXPECT_NE(read(out / "convergence.txt").find("# interrupted by signal 15"), std::string::npos);
  expect_nothing_left(scratch, "converge");

  // Its rows are the uninterrupted study's (all but the measured wall time).
  const fs::path reference = scratch / "reference";
  const Outcome  o         = run(study + "2' -o " + reference.string(), scratch);
  ASSERT_EQ(o.code, 0) << o.error;
  const auto rows = [](const fs::path &csv) {
    std::vector<std::vector<std::string>> table;
    std::ifstream                         in(csv);
    for (std::string line; std::getline(in, line);)
      {
        std::vector<std::string> fields;
        std::stringstream        cells(line);
        for (std::string cell; std::getline(cells, cell, ',');)
          fields.push_back(cell);
        fields.at(4) = ""; // wall_time
        table.push_back(fields);
      }
    return table;
  };
  const auto kept = rows(out / "convergence.csv"), full = rows(reference / "convergence.csv");
  ASSERT_GE(kept.size(), 2u) << "no finished cycle kept: " << read(err);
  EXPECT_LT(kept.size(), 8u) << "the study was not interrupted";
  for (std::size_t r = 0; r < std::min(kept.size(), full.size()); ++r)
    EXPECT_EQ(kept[r], full[r]) << "row " << r;
}

TEST_F(Faults, TheSweepKeepsItsFinishedValuesWhenInterrupted)
{
  // 201 gaps 0, 1/16, ... (each exact in binary, so a shorter sweep has the same ones), about
  // 0.1 s a value: SIGTERM 1 s into the work finds a few finished and the rest far away.
  const std::string sweep = "sweep " + example("pinned_beam_gap_sweep") +
                            " -q -s 'Sweep/Transient periods=20' -s 'Sweep/Recorded periods=10' -s 'Sweep/From=0'";
  const fs::path out = scratch / "sweep";
  const fs::path err = scratch / "stderr.txt";
  const pid_t    pid =
    start_program(sweep + " -s 'Sweep/Number of values=201' -s 'Sweep/To=12.5' -o " + out.string(), err);
  ASSERT_GE(pid, 0);
  const int status = interrupt_after(pid, out, std::chrono::milliseconds(1000), SIGTERM);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM) << read(err);
  ASSERT_TRUE(fs::exists(out / "INTERRUPTED")) << read(err);
  EXPECT_NE(read(out / "sweep.txt").find("# interrupted by signal 15"), std::string::npos);
  expect_nothing_left(scratch, "sweep");

  // The table's rows, the measured wall and processor times and the rank left out.
  const auto rows = [](const fs::path &csv) {
    std::vector<std::string> table;
    std::ifstream            in(csv);
    for (std::string line; std::getline(in, line);)
      {
        std::vector<std::string> fields;
        std::stringstream        cells(line);
        for (std::string cell; std::getline(cells, cell, ',');)
          fields.push_back(cell);
        fields.at(2) = fields.at(3) = fields.at(7) = "";
        std::string row;
        for (const auto &field : fields)
          row += field + ",";
        table.push_back(row);
      }
    return table;
  };
  const auto   kept     = rows(out / "sweep_summary.csv");
  const size_t finished = kept.size() - 1; // the header
  ASSERT_GE(finished, 1u) << "no finished value kept: " << read(err);
  ASSERT_LT(finished, 201u) << "the sweep was not interrupted";

  // The same gaps swept without interruption: the same sections, impacts and summary rows.
  const fs::path reference = scratch / "reference";
  const Outcome  o = run(sweep + " -s 'Sweep/Number of values=" + std::to_string(finished) + "' -s 'Sweep/To=" +
                           std::to_string(0.0625 * double(finished - 1)) + "' -o " + reference.string(),
                         scratch);
  ASSERT_EQ(o.code, 0) << o.error;
  EXPECT_EQ(kept, rows(reference / "sweep_summary.csv"));
  for (const std::string table : {"poincare.csv", "impacts.csv"})
    EXPECT_EQ(read(out / table), read(reference / table)) << table;
  EXPECT_GT(lines(read(out / "poincare.csv")), finished) << "no Poincaré points";
}

TEST_F(Faults, SpecialFilesAsTheCaseAreRefusedAtOnce)
{
  const fs::path fifo = scratch / "case.prm";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_refused("simulate " + fifo.string(), fifo.string());
  expect_refused("simulate /dev/zero", "/dev/zero");
  expect_refused("modes " + scratch.string(), scratch.string());
  expect_refused("continue /dev/null", "/dev/null");
}

TEST_F(Faults, HugeValuesAreRefusedInOneLine)
{
  const std::string digits(40000, '1');
  expect_refused("simulate " + example("two_dof_sticking") + " -s 'Simulation/Final time=" + digits + "'",
                 "Simulation/Final time");
  const fs::path copy = scratch / "huge.prm";
  std::string    text = read(example("two_dof_sticking"));
  const auto     at   = text.find("subsection Simulation\n");
  ASSERT_NE(at, std::string::npos);
  text.insert(at + 22, "  set Output interval = " + digits + "\n");
  std::ofstream(copy) << text;
  expect_refused("simulate " + copy.string(), "Output interval");
}

TEST_F(Faults, WorkBeyondTheModelOrTheMachineIsRefusedBeforeItStarts)
{
  // One element, five modes, four refinement cycles: the first mesh has too few DoFs.
  expect_refused("converge " + example("pinned_beam_modes") + " -s 'Body beam/Number of elements=1' -s "
                 "'Modes/Number of modes=5'",
                 "Number of modes");
  expect_refused("simulate " + example("two_dof_sticking") + " -s 'Simulation/Frame interval=1e-300'",
                 "Simulation/Frame interval");
  // The Moreau–Jean solver's own check names the span it cannot cover in steps.
  expect_refused("simulate " + example("two_dof_sticking") + " -s 'Moreau-Jean/Time step=1e-300'", "steps");
  // History rows that would not fit the disk: a record far longer than the free space.
  expect_refused("simulate " + example("antunes_six_supports") + " -s 'Simulation/Final time=1e4' -s "
                 "'Simulation/Output interval=1e-6' -s 'Simulation/Frame interval=0'",
                 "Simulation/Output interval");
}

TEST_F(Faults, ValuesThatWouldBeReadSilentlyAreRefused)
{
  expect_refused("simulate " + example("bar_on_rigid_wall") + " -s 'Body bar/Initial velocity=1,5'",
                 "Body bar/Initial velocity");
  const fs::path twice = scratch / "twice.prm";
  std::string    text  = read(example("two_dof_sticking"));
  const auto     at    = text.find("subsection Simulation\n");
  ASSERT_NE(at, std::string::npos);
  text.insert(at + 22, "  set Final time = 3\n  set Final time = 4\n");
  std::ofstream(twice) << text;
  expect_refused("simulate " + twice.string(), "Simulation/Final time");
  expect_refused("simulate " + example("pinned_beam_forced_sticking") + " -s 'Load harmonic/Angular frequency=0'",
                 "Angular frequency");
}

TEST_F(Faults, ContinuationInputsWithNothingToFollowAreBadInput)
{
  expect_refused("continue " + example("two_dof_fep") + " -s 'Contact stop/Gap=0'", "Continuation/Kind");
  expect_refused("continue " + example("two_dof_fep") + " -s 'Continuation/Families='", "Continuation/Families");
  expect_refused("continue " + example("pinned_beam_frequency_sweep") + " -s 'Continuation/Minimum frequency=1e-300'",
                 "Continuation/Minimum frequency");
  // Orbits at given frequencies belong to forced responses; a free family would silently ignore them.
  expect_refused("continue " + example("two_dof_fep") + " -s 'Continuation/Report frequencies=1'",
                 "Continuation/Report frequencies");
  // Tongue families are the tongues a Tongue jump steps over: without one there are none.
  expect_refused("continue " + std::string(VIBROIMPACT_SOURCE_DIR) + "/examples/pinned_beam_backbone/elastic.prm" +
                   " -s 'Continuation/Tongue jump=0' -s 'Continuation/Tongue family points=10'",
                 "Continuation/Tongue family points");
  expect_refused("continue " + example("impact_oscillator") + " -s 'Continuation/Report frequencies=-1'",
                 "Continuation/Report frequencies");
  // Both ways are the forcing frequency's two ends; a free family has one start in energy.
  expect_refused("continue " + example("two_dof_fep") + " -s 'Continuation/Direction=both'", "Continuation/Direction");
  expect_refused("continue " + example("two_dof_fep") + " -s 'Continuation/Locate crossed grazings=true'",
                 "Continuation/Locate crossed grazings");
  // Orbits solved at energies need the energies: there is nothing to choose them from.
  expect_refused("converge " + example("pinned_beam_backbone") + " -s 'Convergence/Branch points=at energies'",
                 "Convergence/Branch points");
}

TEST_F(Faults, ContinuationCsvHoldsOnlyFiniteNumbers)
{
  const fs::path out = scratch / "fep";
  const Outcome  o   = run("continue " + example("two_dof_fep") + " -s 'Continuation/Maximum points=20' -q -o " +
                          out.string(),
                        scratch);
  ASSERT_EQ(o.code, 0) << o.error;
  for (const auto &entry : fs::directory_iterator(out))
    if (entry.path().extension() == ".csv")
      {
        const std::string table = read(entry.path());
        EXPECT_EQ(table.find("inf"), std::string::npos) << entry.path();
        EXPECT_EQ(table.find("nan"), std::string::npos) << entry.path();
      }
}
