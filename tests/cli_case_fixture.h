// A test fixture that runs the vibroimpact program on a case text in a scratch folder of its own
// and checks the bad-input contract: exit 2, one line naming the file, the parameter and the
// reason, and no output folder. Shared by the bad-input tests of every kind of case.
#pragma once

#include <gtest/gtest.h>

#include "program_runner.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace vibroimpact::test_cases
{
  struct RunResult
  {
    int         exit_code = -1;
    std::string error; // what the program wrote on stderr
  };

  class CliCaseFixture : public ::testing::Test
  {
  protected:
    // prefix: the scratch folder's name before the test's own.
    explicit CliCaseFixture(std::string prefix)
      : prefix_(std::move(prefix))
    {}

    void SetUp() override
    {
      directory_ = std::filesystem::temp_directory_path() /
                   (prefix_ + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
      std::filesystem::remove_all(directory_);
      std::filesystem::create_directories(directory_);
    }
    void TearDown() override { std::filesystem::remove_all(directory_); }

    std::string write_case(const std::string &text, const std::string &name = "case.prm")
    {
      std::ofstream(directory_ / name) << text;
      return (directory_ / name).string();
    }

    std::filesystem::path output() const { return directory_ / "out"; }

    // The program with these arguments, quiet, writing to output().
    RunResult run_cli(const std::string &arguments)
    {
      test_support::ProgramOptions options;
      options.stderr_file = directory_ / "stderr.txt";
      const auto run      = test_support::run_program(arguments + " -q -o " + output().string(), options);
      return {run.exit_code, run.error};
    }

    // `verb` on the case text: exit 2, one line naming the file and the parameter, no output.
    void expect_rejected(const std::string &case_text, const std::string &parameter, const std::string &reason_part,
                         const std::string &extra = "", const std::string &verb = "modes")
    {
      const auto file   = write_case(case_text);
      const auto result = run_cli(verb + " " + file + " " + extra);
      EXPECT_EQ(result.exit_code, 2) << result.error;
      EXPECT_NE(result.error.find("case.prm"), std::string::npos) << result.error;
      EXPECT_NE(result.error.find(parameter), std::string::npos) << result.error;
      EXPECT_NE(result.error.find(reason_part), std::string::npos) << result.error;
      EXPECT_EQ(std::count(result.error.begin(), result.error.end(), '\n'), 1) << result.error;
      EXPECT_FALSE(std::filesystem::exists(output())) << "an output folder was created";
      for (const auto &entry : std::filesystem::directory_iterator(directory_))
        EXPECT_EQ(entry.path().filename().string().find(".out.partial"), std::string::npos);
    }

    static std::string replace(std::string text, const std::string &from, const std::string &to)
    {
      const auto at = text.find(from);
      EXPECT_NE(at, std::string::npos) << from;
      return text.replace(at, from.size(), to);
    }

    std::filesystem::path directory_;

  private:
    std::string prefix_;
  };
} // namespace vibroimpact::test_cases
