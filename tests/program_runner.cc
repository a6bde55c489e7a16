// Runs the vibroimpact program in a child process, in a forked copy of the test process where
// that is a clean start (program_runner.h says why).
#include "program_runner.h"

#include <gtest/gtest.h>

#include "command_line.h"

#include <fcntl.h>
#include <mpi.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wordexp.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <thread>
#include <vector>

namespace vibroimpact::test_support
{
  namespace
  {
    // A fork runs the command line as the program would only from a process with one thread
    // (the others' locks would be held for ever in the copy) that has not used MPI (MPI may be
    // initialised once in a process, and the copy would inherit its state).
    bool fork_is_a_clean_start()
    {
      int initialised = 0, finalised = 0;
      MPI_Initialized(&initialised);
      MPI_Finalized(&finalised);
      if (initialised || finalised)
        return false;
      std::ifstream status("/proc/self/status");
      for (std::string line; std::getline(status, line);)
        if (line.rfind("Threads:", 0) == 0)
          return std::stoi(line.substr(8)) == 1;
      return false;
    }

    // Points `fd` at `file` (written), or /dev/null when none is given; false if it cannot.
    bool redirect(const int fd, const std::filesystem::path &file, const int flags)
    {
      const int opened = ::open(file.empty() ? "/dev/null" : file.c_str(), flags, 0644);
      if (opened < 0)
        return false;
      ::dup2(opened, fd);
      ::close(opened);
      return true;
    }

    // In the child: its streams, folder and limits, then the program. Never returns.
    [[noreturn]] void become_program(std::vector<std::string> words, const ProgramOptions &options,
                                     const bool in_process)
    {
      std::vector<char *> argv;
      for (auto &word : words)
        argv.push_back(word.data());
      argv.push_back(nullptr);
      const bool streams = redirect(STDIN_FILENO, {}, O_RDONLY) &&
                           redirect(STDOUT_FILENO, options.stdout_file, O_WRONLY | O_CREAT | O_TRUNC) &&
                           (options.stderr_file.empty() ||
                            redirect(STDERR_FILENO, options.stderr_file, O_WRONLY | O_CREAT | O_TRUNC));
      if (!streams || (!options.working_directory.empty() && ::chdir(options.working_directory.c_str()) != 0))
        ::_exit(127);
      if (options.file_size_limit > 0)
        {
          const rlimit limit{rlim_t(options.file_size_limit), rlim_t(options.file_size_limit)};
          ::setrlimit(RLIMIT_FSIZE, &limit);
        }
      if (!in_process)
        {
          ::execv(argv[0], argv.data());
          ::_exit(127);
        }
      // The signal dispositions and mask are the test process's (GoogleTest sets none), as a
      // started program's would be its shell's. exit(), as main() returning would: the
      // program's own handlers at exit run, and the streams are flushed.
      const int code = app::run_command_line(int(words.size()), argv.data());
      std::cout.flush();
      std::cerr.flush();
      std::exit(code);
    }

    std::vector<std::string> shell_words(const std::string &arguments)
    {
      std::vector<std::string> words{VIBROIMPACT_CLI};
      wordexp_t                expanded;
      if (::wordexp(arguments.c_str(), &expanded, WRDE_NOCMD) != 0)
        {
          ADD_FAILURE() << "cannot split into shell words: " << arguments;
          return words;
        }
      words.insert(words.end(), expanded.we_wordv, expanded.we_wordv + expanded.we_wordc);
      ::wordfree(&expanded);
      return words;
    }
  } // namespace

  pid_t start_program(const std::string &arguments, const ProgramOptions &options)
  {
    const auto words      = shell_words(arguments);
    const bool in_process = fork_is_a_clean_start();
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr); // nothing buffered here is written twice, by the child too
    const pid_t pid = ::fork();
    if (pid == 0)
      become_program(words, options, in_process);
    return pid;
  }

  int wait_for_program(const pid_t pid, const double timeout_seconds)
  {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
    int        status   = 0;
    auto       pause    = std::chrono::microseconds(200);
    while (::waitpid(pid, &status, WNOHANG) == 0)
      {
        if (std::chrono::steady_clock::now() > deadline)
          {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            break;
          }
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(20000));
      }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  ProgramRun run_program(const std::string &arguments, const ProgramOptions &options)
  {
    const auto start = std::chrono::steady_clock::now();
    ProgramRun run;
    const auto pid = start_program(arguments, options);
    if (pid < 0)
      {
        ADD_FAILURE() << "fork failed: " << arguments;
        return run;
      }
    run.exit_code = wait_for_program(pid, options.timeout_seconds);
    run.seconds   = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!options.stderr_file.empty())
      {
        std::ifstream in(options.stderr_file);
        run.error.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
      }
    return run;
  }
} // namespace vibroimpact::test_support
