// The program's command line, as a function: main.cc calls it, and so do the tests that run the
// program in a forked copy of their own process (tests/program_runner.h).
#pragma once

namespace vibroimpact::app
{
  // Parses the command line, runs the verb it names and returns the program's exit code (0, 1,
  // 2 bad input, 128 + signal); errors are one line on stderr.
  int run_command_line(int argc, char **argv);
} // namespace vibroimpact::app
