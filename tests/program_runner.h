// Runs the vibroimpact program for the tests that check it from outside: exit code, stderr,
// what it leaves on disk, how it takes a signal or a full disk. Each run is a child process; it
// runs the program's own command line (source/app/command_line.h) in a forked copy of the test
// process, which has deal.II and the solver libraries loaded already, instead of starting the
// program afresh (~0.5 s of loading a run, two thirds of a bad-input test). Where a fork would
// not be a clean start (the test process has other threads, or has used MPI), the child starts
// the program itself. Either way the child is a process of its own: exit codes, signals, file
// size limits and the files it leaves are the program's.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>

namespace vibroimpact::test_support
{
  struct ProgramOptions
  {
    std::filesystem::path stderr_file;       // empty: the test's own stderr
    std::filesystem::path stdout_file;       // empty: /dev/null
    std::filesystem::path working_directory; // empty: the test's
    long                  file_size_limit = 0; // bytes (as `ulimit -f`); 0: none
    double                timeout_seconds = 120; // then SIGKILL
  };

  struct ProgramRun
  {
    int         exit_code = -1; // 128 + signal when a signal ended it
    std::string error;          // what it wrote on stderr (when options.stderr_file is given)
    double      seconds = 0;
  };

  // `vibroimpact <arguments>`, arguments split into words as a shell would (quotes, no
  // expansion), stdin from /dev/null; waits for it.
  ProgramRun run_program(const std::string &arguments, const ProgramOptions &options = {});

  // The same started in the background: the child's pid, for wait_for_program.
  pid_t start_program(const std::string &arguments, const ProgramOptions &options = {});

  // The child's exit code (128 + signal), killing it once timeout_seconds have passed.
  int wait_for_program(pid_t pid, double timeout_seconds = 120);
} // namespace vibroimpact::test_support
