// The staging, locking and committing of one run's output folder (see the header).
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/write_error.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <set>
#include <system_error>

namespace vibroimpact::io
{
  namespace fs = std::filesystem;

  namespace
  {
    [[noreturn]] void unusable(const fs::path &destination, const std::string &reason)
    {
      throw InputError(destination.string(), "-o", reason);
    }

    // Writers outside our streams (gnuplot's PNGs) may not report a failed write: a file that
    // reached the file-size limit, or a file system left full, means one may be cut short.
    void check_staged_files_whole(const fs::path &staging)
    {
      struct rlimit limit;
      const bool    limited = ::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY;
      fs::path      newest;
      fs::file_time_type newest_time{};
      for (const auto &entry : fs::directory_iterator(staging))
        {
          if (!entry.is_regular_file())
            continue;
          if (limited && entry.file_size() >= limit.rlim_cur)
            throw WriteError(entry.path(), EFBIG);
          if (newest.empty() || entry.last_write_time() > newest_time)
            newest = entry.path(), newest_time = entry.last_write_time();
        }
      if (!newest.empty() && file_system_full(staging))
        throw WriteError(newest, ENOSPC);
    }
  } // namespace

  OutputFolder::OutputFolder(fs::path destination, std::string producer)
    : destination_(std::move(destination))
    , producer_(std::move(producer))
  {
    const fs::path absolute = fs::absolute(destination_).lexically_normal();
    const fs::path parent   = absolute.has_filename() ? absolute.parent_path() : absolute.parent_path().parent_path();
    const std::string name  = absolute.has_filename() ? absolute.filename().string() : absolute.parent_path().filename().string();

    std::error_code error;
    if (fs::exists(absolute, error) && !fs::is_directory(absolute, error))
      unusable(destination_, "exists and is not a folder");
    fs::create_directories(parent, error);
    if (error || !fs::is_directory(parent))
      unusable(destination_, "cannot create its parent folder " + parent.string() + " (" +
                               (error ? error.message() : "not a folder") + ")");
    if (::access(parent.c_str(), W_OK | X_OK) != 0)
      unusable(destination_, "cannot write in " + parent.string() + " (" + std::strerror(errno) + ")");

    lock(parent / ("." + name + ".lock"));
    remove_stale_staging(parent, name);
    staging_ = parent / ("." + name + ".partial-" + std::to_string(getpid()));
    fs::remove_all(staging_, error);
    fs::create_directories(staging_, error);
    if (error)
      unusable(destination_, "cannot create the staging folder " + staging_.string() + " (" + error.message() + ")");
    cleanup_key_ = register_forced_exit_cleanup([staging = staging_, lock_file = lock_file_] {
      std::error_code ignored;
      fs::remove_all(staging, ignored);
      ::unlink(lock_file.c_str());
    });
  }

  void OutputFolder::lock(const fs::path &lock_file)
  {
    // The lock file is removed by its holder; a run that opened it just before must then not
    // hold a lock on an unlinked file: retry until the locked file is the one at the path.
    for (;;)
      {
        const int fd = ::open(lock_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0)
          unusable(destination_, "cannot create the lock file " + lock_file.string() + " (" + std::strerror(errno) + ")");
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0)
          {
            char      pid[32] = {0};
            const auto n      = ::read(fd, pid, sizeof(pid) - 1);
            ::close(fd);
            unusable(destination_, "another vibroimpact run" + (n > 0 ? " (pid " + std::string(pid, n) + ")" : std::string()) +
                                     " is writing this output folder; wait for it or choose another -o");
          }
        struct stat held, at_path;
        if (::fstat(fd, &held) == 0 && ::stat(lock_file.c_str(), &at_path) == 0 && held.st_ino == at_path.st_ino &&
            held.st_dev == at_path.st_dev)
          {
            const std::string pid = std::to_string(getpid());
            if (::ftruncate(fd, 0) == 0 && ::write(fd, pid.data(), pid.size()) < 0)
              {
                // the pid is only for the message of a second run
              }
            lock_fd_   = fd;
            lock_file_ = lock_file;
            return;
          }
        ::close(fd);
      }
  }

  void OutputFolder::remove_stale_staging(const fs::path &parent, const std::string &name) const
  {
    const std::string prefix = "." + name + ".partial-";
    std::error_code   error;
    for (const auto &entry : fs::directory_iterator(parent, error))
      {
        const std::string file = entry.path().filename().string();
        if (file.compare(0, prefix.size(), prefix) != 0)
          continue;
        const std::string digits = file.substr(prefix.size());
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
          continue;
        const pid_t pid = static_cast<pid_t>(std::stol(digits));
        if (pid != getpid() && ::kill(pid, 0) != 0 && errno == ESRCH)
          fs::remove_all(entry.path(), error);
      }
  }

  OutputFolder::~OutputFolder()
  {
    if (cleanup_key_ != 0)
      unregister_forced_exit_cleanup(cleanup_key_);
    std::error_code ignored;
    if (!committed_)
      fs::remove_all(staging_, ignored);
    if (lock_fd_ >= 0)
      {
        ::unlink(lock_file_.c_str()); // while still holding it: see lock()
        ::close(lock_fd_);
      }
  }

  void OutputFolder::commit(const bool partial)
  {
    if (!partial)
      throw_if_interrupted("before the results were written: nothing written");
    throw_if_write_failed();
    check_staged_files_whole(staging_);
    const auto uninterrupted = hold_forced_exit();
    fs::create_directories(destination_);
    std::set<std::string> written;
    for (const auto &entry : fs::directory_iterator(staging_))
      written.insert(entry.path().filename().string());

    // The previous run's results that this run did not write (e.g. solution-09999.vtu of a
    // longer run) go; the user's own files stay.
    std::ifstream previous(destination_ / manifest_name());
    for (std::string file; std::getline(previous, file);)
      if (!file.empty() && file.find('/') == std::string::npos && file != "." && file != ".." && !written.count(file))
        fs::remove_all(destination_ / file);

    for (const auto &file : written)
      {
        const fs::path target = destination_ / file;
        fs::remove_all(target);
        fs::rename(staging_ / file, target);
      }
    std::string manifest;
    for (const auto &file : written)
      manifest += file + "\n";
    fs::remove_all(staging_);
    write_file(destination_ / manifest_name(), manifest);
    committed_ = true;
  }
} // namespace vibroimpact::io
