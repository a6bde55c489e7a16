// PNG plots by gnuplot: the script is written (checked) next to its data, then gnuplot is
// started there as a child process that draws while the caller writes on; wait() collects it.
#include <vibroimpact/io/gnuplot.h>
#include <vibroimpact/io/write_error.h>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <iostream>

extern char **environ;

namespace vibroimpact::io
{
  std::string gnuplot_quote(const std::string &text)
  {
    std::string out = "\"";
    for (const char c : text)
      {
        if (c == '"' || c == '\\')
          out += '\\';
        out += c;
      }
    return out + "\"";
  }

  GnuplotRun start_gnuplot(const std::filesystem::path &script_file, const std::string &script)
  {
    write_file(script_file, script);
    GnuplotRun run;
    run.script_ = script_file;
    // gnuplot in the script's folder, its messages on stdout as before (2>&1).
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addchdir_np(&actions, script_file.parent_path().c_str());
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    const std::string name = script_file.filename().string();
    char             *argv[] = {const_cast<char *>("gnuplot"), const_cast<char *>(name.c_str()), nullptr};
    pid_t             pid    = -1;
    const int         failed = posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (failed != 0)
      {
        std::cerr << "warning: gnuplot not found: " << name << " is written but not drawn (install gnuplot-nox)\n";
        return run;
      }
    run.pid_ = pid;
    return run;
  }

  bool run_gnuplot(const std::filesystem::path &script_file, const std::string &script)
  {
    return start_gnuplot(script_file, script).wait();
  }

  GnuplotRun::GnuplotRun(GnuplotRun &&other) noexcept
    : pid_(other.pid_)
    , script_(std::move(other.script_))
  {
    other.pid_ = -1;
  }

  GnuplotRun::~GnuplotRun()
  {
    if (pid_ <= 0)
      return;
    ::kill(pid_, SIGTERM); // not waited for: the folder it draws into is being abandoned
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR)
      ;
  }

  bool GnuplotRun::wait()
  {
    if (pid_ <= 0)
      return false;
    // Not cut short by SIGINT/SIGTERM: the partial results a verb writes after a signal (the
    // continuation's branch) are drawn too, as when gnuplot ran in the foreground.
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR)
      ;
    pid_ = -1;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
      return true;
    // A plot that failed for want of space is a failed write, not a missing picture.
    if (file_system_full(script_.parent_path()))
      throw WriteError(script_.parent_path() / "*.png", ENOSPC);
    std::cerr << "warning: gnuplot failed on " << script_.string() << "\n";
    return false;
  }
} // namespace vibroimpact::io
