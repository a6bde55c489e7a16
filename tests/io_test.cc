// Output is all or nothing; tables have the columns they announce.
#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>

#include <gtest/gtest.h>

#include <csignal>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using namespace vibroimpact;

namespace
{
  fs::path scratch(const std::string &name)
  {
    const fs::path path = fs::temp_directory_path() / ("vibroimpact-io-" + name);
    fs::remove_all(path);
    fs::create_directories(path);
    return path;
  }

  bool only_entry_is(const fs::path &directory, const std::string &name)
  {
    int count = 0;
    for (const auto &entry : fs::directory_iterator(directory))
      if (++count > 1 || entry.path().filename() != name)
        return false;
    return count == 1;
  }
} // namespace

TEST(OutputFolder, AFailedRunLeavesNothingBehind)
{
  const fs::path root = scratch("failed");
  {
    io::OutputFolder out(root / "results");
    std::ofstream(out / "history.csv") << "time\n0\n";
    // no commit: the run "failed" here
  }
  EXPECT_FALSE(fs::exists(root / "results"));
  EXPECT_TRUE(fs::is_empty(root)) << "the staging folder was left behind";
  fs::remove_all(root);
}

TEST(OutputFolder, CommitMovesFilesAndKeepsOthers)
{
  const fs::path root = scratch("commit");
  fs::create_directories(root / "results");
  std::ofstream(root / "results" / "notes.txt") << "the user's own file\n";
  std::ofstream(root / "results" / "modes.csv") << "old\n";
  {
    io::OutputFolder out(root / "results");
    std::ofstream(out / "modes.csv") << "new\n";
    EXPECT_EQ(std::ifstream(root / "results" / "modes.csv").get(), 'o') << "changed before the commit";
    out.commit();
  }
  std::string line;
  std::getline(std::ifstream(root / "results" / "modes.csv") >> std::ws, line);
  EXPECT_EQ(line, "new");
  EXPECT_TRUE(fs::exists(root / "results" / "notes.txt"));
  EXPECT_TRUE(only_entry_is(root, "results"));
  fs::remove_all(root);
}

TEST(CsvWriter, RejectsRowsOfTheWrongLengthAndRoundTrips)
{
  const fs::path root = scratch("csv");
  {
    io::CsvWriter csv(root / "t.csv", {"time", "energy"});
    csv.write_row({0.1, 1.0 / 3.0});
    EXPECT_THROW(csv.write_row({1.0}), std::logic_error);
  }
  std::ifstream in(root / "t.csv");
  std::string   header, row;
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_EQ(header, "time,energy");
  EXPECT_EQ(std::stod(row.substr(row.find(',') + 1)), 1.0 / 3.0);
  fs::remove_all(root);
}

#include "test_support.h"

TEST(CaseFiles, EveryExampleParsesAndItsOverridesApply)
{
  for (const auto &entry : fs::directory_iterator(std::string(VIBROIMPACT_SOURCE_DIR) + "/examples"))
    {
      const auto path = entry.path() / "case.prm";
      if (!fs::exists(path))
        continue;
      SCOPED_TRACE(path.string());
      const auto loaded = test_cases::load_case(path.string(), {"Modes/Number of modes=2"});
      EXPECT_FALSE(loaded.description.bodies.empty());
      EXPECT_EQ(loaded.description.n_modes, 2u);
    }
}

#include <vibroimpact/io/parameter_file.h>

#include <set>

// One list of sections: every entry a case file's reading goes through was declared (so a
// misspelt entry is an error) and is printed by `vibroimpact parameters`, and every declared
// entry is read.
TEST(CaseFiles, EveryParameterReadIsDocumentedAndTheReverse)
{
  auto documentation = io::ParameterFile::documentation(studies::case_file_families());
  studies::CaseFile documented_case;
  studies::bind_case_file(documentation, documented_case);
  const std::set<std::string> documented(documentation.declared_entries().begin(),
                                         documentation.declared_entries().end());
  for (const auto &entry : fs::directory_iterator(std::string(VIBROIMPACT_SOURCE_DIR) + "/examples"))
    {
      const auto path = entry.path() / "case.prm";
      if (!fs::exists(path))
        continue;
      SCOPED_TRACE(path.string());
      io::ParameterFile file(path.string(), studies::case_file_families());
      studies::CaseFile     c;
      studies::bind_case_file(file, c);
      file.parse();
      studies::bind_case_file(file, c);
      EXPECT_EQ(file.declared_entries(), file.read_entries());
      for (std::string read : file.read_entries())
        {
          // "Body beam/Length" is documented as "Body <name>/Length".
          for (const auto &family : studies::case_file_families())
            if (read.rfind(family + " ", 0) == 0)
              read = family + " <name>" + read.substr(read.find('/'));
          EXPECT_TRUE(documented.count(read)) << read << " is read but not documented";
        }
    }
  EXPECT_TRUE(documented.count("Simulation/Solver"));
  EXPECT_TRUE(documented.count("Moreau-Jean/Theta"));
  EXPECT_TRUE(documented.count("Modal restitution/Number of modes"));
  EXPECT_TRUE(documented.count("Run <name>/Overrides"));
}

TEST(OutputFolder, OneRunAtATimeWritesAFolder)
{
  const fs::path root = scratch("lock");
  {
    io::OutputFolder first(root / "results");
    try
      {
        io::OutputFolder second(root / "results");
        ADD_FAILURE() << "a second run got the folder while the first held it";
      }
    catch (const io::InputError &e)
      {
        EXPECT_NE(std::string(e.what()).find("another vibroimpact run (pid "), std::string::npos) << e.what();
      }
    first.commit();
  }
  // Released with the first run: the next one gets it, and no lock file is left.
  EXPECT_NO_THROW(io::OutputFolder(root / "results"));
  EXPECT_TRUE(only_entry_is(root, "results"));
  fs::remove_all(root);
}

TEST(OutputFolder, CommitReplacesThePreviousRunsResultsAndKeepsTheUsersFiles)
{
  const fs::path root = scratch("replace");
  {
    io::OutputFolder out(root / "results");
    std::ofstream(out / "history.csv") << "long run\n";
    std::ofstream(out / "solution-09999.vtu") << "frame of the long run\n";
    out.commit();
  }
  std::ofstream(root / "results" / "notes.txt") << "the user's own file\n";
  {
    io::OutputFolder out(root / "results");
    std::ofstream(out / "history.csv") << "short run\n";
    out.commit();
  }
  EXPECT_FALSE(fs::exists(root / "results" / "solution-09999.vtu")) << "a stale frame of the previous run is left";
  EXPECT_TRUE(fs::exists(root / "results" / "notes.txt"));
  std::string line;
  std::getline(std::ifstream(root / "results" / "history.csv"), line);
  EXPECT_EQ(line, "short run");
  fs::remove_all(root);
}

TEST(OutputFolder, StagingOfADeadRunIsRemovedAndBadDestinationsAreInputErrors)
{
  const fs::path root = scratch("stale");
  // A pid that is not running: the staging folder of a killed run.
  pid_t dead = 4000000;
  while (::kill(dead, 0) == 0 || errno != ESRCH)
    ++dead;
  const fs::path stale = root / (".results.partial-" + std::to_string(dead));
  fs::create_directories(stale);
  std::ofstream(stale / "history.csv") << "time\n0\n";
  {
    io::OutputFolder out(root / "results");
    EXPECT_FALSE(fs::exists(stale));
  }
  std::ofstream(root / "a_file") << "x\n";
  EXPECT_THROW(io::OutputFolder(root / "a_file"), io::InputError);
  EXPECT_THROW(io::OutputFolder(root / "a_file" / "below"), io::InputError);
  fs::remove_all(root);
}

TEST(OutputFolder, TwoVerbsShareAFolderWithoutRemovingEachOther)
{
  // scripts/run-example writes `modes` and then `converge` into one folder.
  const fs::path root = scratch("two-verbs");
  {
    io::OutputFolder out(root / "results", "modes");
    std::ofstream(out / "modes.csv") << "modes\n";
    out.commit();
  }
  {
    io::OutputFolder out(root / "results", "converge");
    std::ofstream(out / "convergence.txt") << "table\n";
    out.commit();
  }
  EXPECT_TRUE(fs::exists(root / "results" / "modes.csv"));
  EXPECT_TRUE(fs::exists(root / "results" / "convergence.txt"));
  fs::remove_all(root);
}
