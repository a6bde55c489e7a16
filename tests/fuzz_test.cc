// Bad-input fuzzing: every numeric field of every example set to −1, 0, nan, inf,
// 1e308 and abc, and every key and subsection name misspelt, read and run in-process as
// `simulate` would (the case reader, the model builder, the solver's check and a short run).
// Each case must end in exactly one of:
//   - success with a finite response (kinetic and potential energy, every probe),
//   - io::InputError: one line naming the file (or the command line) and the parameter,
//   - a NumericalFailure (or another std::runtime_error) with its reason;
// never another exception, a crash or a hang. A seeded sample of the cases also goes through the
// program itself, which must exit 0, 1 or 2 accordingly, write one line on 2, and leave no
// output folder on a non-zero exit.
#include <vibroimpact/integrators/run_bounds.h>
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/structure/model_builder.h>

#include <gtest/gtest.h>

#include "program_runner.h"

#include <vibroimpact/studies/case_file.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <sys/wait.h>

namespace fs = std::filesystem;
using namespace vibroimpact;

namespace
{
  struct Entry
  {
    std::string path; // Section/Sub/Name
    std::string value;
    unsigned int line = 0;
  };

  // The `set Name = value` lines of a .prm file, with their section paths.
  std::vector<Entry> entries_of(const std::string &file)
  {
    std::ifstream            in(file);
    std::vector<std::string> sections;
    std::vector<Entry>       entries;
    unsigned int             line_number = 0;
    for (std::string line; std::getline(in, line);)
      {
        ++line_number;
        std::string text = line.substr(0, line.find('#'));
        text.erase(0, text.find_first_not_of(" \t"));
        text.erase(text.find_last_not_of(" \t") + 1);
        if (text.rfind("subsection ", 0) == 0)
          sections.push_back(text.substr(11));
        else if (text == "end" && !sections.empty())
          sections.pop_back();
        else if (text.rfind("set ", 0) == 0 && text.find('=') != std::string::npos)
          {
            const auto   equal = text.find('=');
            std::string  name  = text.substr(4, equal - 4);
            name.erase(name.find_last_not_of(" \t") + 1);
            std::string value = text.substr(equal + 1);
            value.erase(0, value.find_first_not_of(" \t"));
            std::string path;
            for (const auto &s : sections)
              path += s + "/";
            entries.push_back({path + name, value, line_number});
          }
      }
    return entries;
  }

  // Whether `value` is a decimal number or a comma-separated list of them:
  // \s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s* between commas. Scanned by hand: std::regex
  // cost this file 3.4 s of compile time.
  bool numeric(const std::string &value)
  {
    const auto digits = [&](std::size_t &at) {
      const std::size_t start = at;
      while (at < value.size() && std::isdigit(static_cast<unsigned char>(value[at])))
        ++at;
      return at > start;
    };
    const auto blanks = [&](std::size_t &at) {
      while (at < value.size() && std::isspace(static_cast<unsigned char>(value[at])))
        ++at;
    };
    const auto sign = [&](std::size_t &at) {
      if (at < value.size() && (value[at] == '-' || value[at] == '+'))
        ++at;
    };
    std::size_t at = 0;
    while (true)
      {
        blanks(at);
        sign(at);
        const bool whole    = digits(at);
        const bool point    = at < value.size() && value[at] == '.';
        at += point ? 1 : 0;
        const bool fraction = point && digits(at);
        if (!whole && !fraction)
          return false;
        if (at < value.size() && (value[at] == 'e' || value[at] == 'E'))
          {
            ++at;
            sign(at);
            if (!digits(at))
              return false;
          }
        blanks(at);
        if (at == value.size())
          return true;
        if (value[at++] != ',')
          return false;
      }
  }

  enum class FuzzOutcome
  {
    success,
    bad_input,
    numerical_failure
  };

  struct Result
  {
    FuzzOutcome     outcome = FuzzOutcome::success;
    std::string message;
  };

  // What `simulate` does, in-process, on a run shortened to `short_time` unless the case's own
  // Final time is the mutated field.
  Result run_case(const std::string &file, std::vector<std::string> overrides)
  {
    Result result;
    try
      {
        const studies::CaseFile c     = studies::read_case_file(file, overrides);
        const auto          model = structure::build_model(c.description);
        auto                control = c.run;
        control.frame_interval      = 0;
        integrators::check_run(c.solver(), model, control, c.filename);
        const auto history = integrators::run_to_history(c.solver(), model, control);
        for (const std::string column : {"kinetic_energy", "potential_energy"})
          for (const double x : history.column(column))
            if (!std::isfinite(x))
              throw std::logic_error("a non-finite " + column + " in a successful run");
        for (const auto &probe : history.probe_names())
          for (const double x : history.column("u_" + probe))
            if (!std::isfinite(x))
              throw std::logic_error("a non-finite u_" + probe + " in a successful run");
      }
    catch (const io::InputError &e)
      {
        result.outcome = FuzzOutcome::bad_input;
        result.message = e.what();
      }
    catch (const std::logic_error &)
      {
        throw; // a defect, not an outcome
      }
    catch (const std::runtime_error &e)
      {
        result.outcome = FuzzOutcome::numerical_failure;
        result.message = e.what();
      }
    return result;
  }

  std::vector<std::string> examples()
  {
    std::vector<std::string> files;
    for (const auto &entry : fs::directory_iterator(std::string(VIBROIMPACT_SOURCE_DIR) + "/examples"))
      if (fs::exists(entry.path() / "case.prm"))
        files.push_back((entry.path() / "case.prm").string());
    std::sort(files.begin(), files.end());
    return files;
  }

  // The run shortened to a few hundred steps (or a hundredth of the case) so that a thousand
  // cases take seconds; the mutation of Final time itself keeps its value.
  std::vector<std::string> shortened(const std::string &file)
  {
    const studies::CaseFile c = studies::read_case_file(file);
    const auto          h = c.solver().time_step();
    std::ostringstream  final_time;
    final_time.precision(17);
    final_time << (h ? std::min(c.run.final_time, 200 * *h) : c.run.final_time / 100);
    return {"Simulation/Final time=" + final_time.str(), "Simulation/Frame interval=0"};
  }

  struct Mutation
  {
    std::string file;
    std::vector<std::string> overrides;
    std::string description;
    std::string value;
  };
} // namespace

namespace
{
  // Every numeric entry of the example `file` set to each of `bad_values` in turn.
  std::vector<Mutation> numeric_mutations(const std::string &file, const std::vector<std::string> &bad_values)
  {
    std::vector<Mutation> mutations;
    const auto            base = shortened(file);
    for (const auto &entry : entries_of(file))
      if (numeric(entry.value))
        for (const auto &value : bad_values)
          {
            Mutation m{file, {}, file + ": " + entry.path + " = " + value, value};
            for (const auto &o : base)
              if (o.rfind(entry.path + "=", 0) != 0)
                m.overrides.push_back(o);
            m.overrides.push_back(entry.path + "=" + value);
            mutations.push_back(m);
          }
    return mutations;
  }

  const std::vector<std::string> first_bad_values   = {"-1", "0", "nan", "inf", "1e308", "abc"};
  const std::vector<std::string> further_bad_values = {"-1e300", "1e-300", "", "1,5", "1e20"};

  // Runs each mutation in-process and checks its outcome (see the file's opening comment).
  void run_mutations(const std::vector<Mutation> &mutations)
  {
    const auto start = std::chrono::steady_clock::now();
    std::map<FuzzOutcome, unsigned int> counts;
    std::map<std::string, std::map<FuzzOutcome, unsigned int>> per_value;
    for (const auto &m : mutations)
      {
        Result     result;
        const auto case_start = std::chrono::steady_clock::now();
        try
          {
            result = run_case(m.file, m.overrides);
          }
        catch (const std::exception &e)
          {
            ADD_FAILURE() << m.description << ": " << e.what();
            continue;
          }
        ++counts[result.outcome];
        ++per_value[m.value][result.outcome];
        if (std::getenv("VIBROIMPACT_FUZZ_LOG"))
          std::cerr << "fuzz-case " << int(result.outcome) << " | "
                    << std::chrono::duration<double>(std::chrono::steady_clock::now() - case_start).count() << " s | "
                    << m.description << " | " << result.message << "\n";
        if (result.outcome == FuzzOutcome::bad_input)
          {
            EXPECT_EQ(result.message.find('\n'), std::string::npos) << m.description << ": " << result.message;
            // file: Section/Entry: reason (or "command line: -s Section/Entry: reason")
            EXPECT_TRUE(result.message.find(m.file) == 0 || result.message.find("command line") == 0)
              << m.description << ": " << result.message;
            EXPECT_GE(std::count(result.message.begin(), result.message.end(), ':'), 2) << m.description << ": "
                                                                                            << result.message;
          }
        if (result.outcome == FuzzOutcome::numerical_failure)
          {
            EXPECT_FALSE(result.message.empty()) << m.description;
          }
      }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "fuzz: " << mutations.size() << " numeric mutations in " << seconds << " s: "
              << counts[FuzzOutcome::success] << " ran, " << counts[FuzzOutcome::bad_input] << " rejected as bad input, "
              << counts[FuzzOutcome::numerical_failure] << " numerical failures\n";
    for (auto &[value, outcomes] : per_value)
      std::cout << "fuzz: value '" << value << "': " << outcomes[FuzzOutcome::success] << " ran, "
                << outcomes[FuzzOutcome::bad_input] << " bad input, " << outcomes[FuzzOutcome::numerical_failure]
                << " numerical failures\n";
  }

  // The example folders' names, for the tests' names.
  std::vector<std::string> example_names()
  {
    std::vector<std::string> names;
    for (const auto &file : examples())
      names.push_back(fs::path(file).parent_path().filename().string());
    return names;
  }

  std::string example_file(const std::string &name)
  {
    return std::string(VIBROIMPACT_SOURCE_DIR) + "/examples/" + name + "/case.prm";
  }
} // namespace

// The corpus covers every example: more than a hundred mutations a bad value, each example's
// numeric fields all there (the per-example tests below run them).
TEST(Fuzz, TheCorpusHoldsEveryNumericFieldOfEveryExample)
{
  std::size_t n = 0;
  for (const auto &file : examples())
    {
      const auto mutations = numeric_mutations(file, first_bad_values);
      EXPECT_FALSE(mutations.empty()) << file << " has no numeric field";
      n += mutations.size();
    }
  EXPECT_GE(examples().size(), 17u);
  EXPECT_GT(n, 100u * first_bad_values.size());
  std::cout << "fuzz: " << n << " cases in the corpus\n";
}

// One example a test, so that ctest spreads the corpus over the cores.
class FuzzExample : public testing::TestWithParam<std::string>
{};

TEST_P(FuzzExample, EveryNumericFieldMutated)
{
  run_mutations(numeric_mutations(example_file(GetParam()), first_bad_values));
}

INSTANTIATE_TEST_SUITE_P(Fuzz, FuzzExample, testing::ValuesIn(example_names()),
                         [](const testing::TestParamInfo<std::string> &info) { return info.param; });

// Further classes: huge and tiny magnitudes of both signs, empty, a decimal comma; a seeded
// sample of 150 cases unless VIBROIMPACT_FUZZ_FULL is set (the whole corpus takes minutes;
// doc/validation.md §9 gives its last full run).
TEST(Fuzz, EveryNumericFieldOfEveryExampleMutatedFurther)
{
  std::vector<Mutation> mutations;
  for (const auto &file : examples())
    for (auto &m : numeric_mutations(file, further_bad_values))
      mutations.push_back(std::move(m));
  ASSERT_GT(mutations.size(), 100u * further_bad_values.size());
  if (!std::getenv("VIBROIMPACT_FUZZ_FULL"))
    {
      std::shuffle(mutations.begin(), mutations.end(), std::mt19937(20261125));
      mutations.resize(150);
    }
  run_mutations(mutations);
}

TEST(Fuzz, EveryKeyAndSubsectionMisspeltIsRejected)
{
  unsigned int n = 0;
  const fs::path scratch = fs::temp_directory_path() / "vibroimpact-fuzz-keys";
  fs::create_directories(scratch);
  for (const auto &file : examples())
    {
      std::vector<std::string> lines;
      {
        std::ifstream in(file);
        for (std::string line; std::getline(in, line);)
          lines.push_back(line);
      }
      for (std::size_t k = 0; k < lines.size(); ++k)
        {
          const auto set        = lines[k].find("set ");
          const auto subsection = lines[k].find("subsection ");
          const auto comment    = lines[k].find('#');
          std::size_t at        = std::string::npos;
          if (set != std::string::npos && set < comment)
            at = set + 4;
          else if (subsection != std::string::npos && subsection < comment)
            at = subsection + 11;
          if (at == std::string::npos)
            continue;
          auto mutated = lines;
          mutated[k].insert(at + 1, "q"); // "Length" -> "Lqength", "Body beam" -> "Bqody beam"
          const fs::path copy = scratch / fs::path(file).parent_path().filename() / "case.prm";
          fs::create_directories(copy.parent_path());
          {
            std::ofstream out(copy);
            for (const auto &l : mutated)
              out << l << "\n";
          }
          // Mesh files are looked up next to the case: keep them reachable.
          for (const auto &other : fs::directory_iterator(fs::path(file).parent_path()))
            if (other.path().extension() == ".msh" && !fs::exists(copy.parent_path() / other.path().filename()))
              fs::copy_file(other.path(), copy.parent_path() / other.path().filename());
          ++n;
          try
            {
              studies::read_case_file(copy.string(), shortened(file));
              ADD_FAILURE() << file << ":" << k + 1 << " misspelt as '" << mutated[k] << "' was accepted";
            }
          catch (const io::InputError &e)
            {
              const std::string message = e.what();
              EXPECT_EQ(message.find('\n'), std::string::npos) << message;
              EXPECT_NE(message.find(copy.string()), std::string::npos) << message;
              // The closest declared name is the one before the typo.
              const auto  end  = std::min(lines[k].find(at == set + 4 ? '=' : '#', at), lines[k].size());
              std::string name = lines[k].substr(at, end - at);
              name.erase(name.find_last_not_of(" \t") + 1);
              EXPECT_NE(message.find("(did you mean '"), std::string::npos) << message;
              EXPECT_NE(message.find(name + "'?)"), std::string::npos) << message << " (not " << name << ")";
            }
          catch (const std::exception &e)
            {
              ADD_FAILURE() << file << ":" << k + 1 << ": " << e.what();
            }
        }
    }
  fs::remove_all(scratch);
  std::cout << "fuzz: " << n << " misspelt keys and subsections\n";
  EXPECT_GT(n, 200u);
}

TEST(Fuzz, ASampleThroughTheProgram)
{
  // 30 seeded mutations through `vibroimpact simulate` itself: the exit code, one line on 2,
  // nothing written on a non-zero exit.
  std::mt19937                   random(20261122);
  const std::vector<std::string> &bad_values = first_bad_values;
  const auto                     files      = examples();
  const fs::path                 scratch    = fs::temp_directory_path() / "vibroimpact-fuzz-cli";
  fs::remove_all(scratch);
  fs::create_directories(scratch);
  std::map<int, unsigned int> exits;
  for (unsigned int k = 0; k < 30; ++k)
    {
      const auto &file    = files[random() % files.size()];
      auto        entries = entries_of(file);
      entries.erase(std::remove_if(entries.begin(), entries.end(), [](const Entry &e) { return !numeric(e.value); }),
                    entries.end());
      const auto &entry = entries[random() % entries.size()];
      const auto &value = bad_values[random() % bad_values.size()];
      std::string arguments;
      for (const auto &o : shortened(file))
        if (o.rfind(entry.path + "=", 0) != 0)
          arguments += " -s '" + o + "'";
      arguments += " -s '" + entry.path + "=" + value + "'";
      const fs::path    out     = scratch / ("run" + std::to_string(k));
      const fs::path    err     = scratch / "stderr";
      const std::string command = "simulate " + file + arguments + " -q -o " + out.string();
      vibroimpact::test_support::ProgramOptions options;
      options.stderr_file     = err;
      options.timeout_seconds = 60;
      const auto run          = vibroimpact::test_support::run_program(command, options);
      ASSERT_LT(run.exit_code, 128) << command;
      const int code = run.exit_code;
      ++exits[code];
      const std::string &error = run.error;
      EXPECT_TRUE(code == 0 || code == 1 || code == 2) << command << " exited " << code << ": " << error;
      if (code == 2)
        {
          EXPECT_EQ(std::count(error.begin(), error.end(), '\n'), 1) << command << ": " << error;
        }
      if (code != 0)
        {
          EXPECT_FALSE(fs::exists(out)) << command << ": output written on exit " << code;
        }
      else
        EXPECT_TRUE(fs::exists(out / "history.csv")) << command;
    }
  fs::remove_all(scratch);
  std::cout << "fuzz: 30 runs of the program: " << exits[0] << " exit 0, " << exits[1] << " exit 1, " << exits[2]
            << " exit 2\n";
}
