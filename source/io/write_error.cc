// Checked writing: every output file's stream state is checked, and failures found in
// destructors are remembered until the output folder is committed.
#include <vibroimpact/io/write_error.h>

#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <utility>

namespace vibroimpact::io
{
  namespace
  {
    std::string reason_of(const int error_number)
    {
      return error_number != 0 ? std::strerror(error_number) : "the write failed (disk full or a file-size limit?)";
    }

    std::mutex                                            pending_mutex;
    std::optional<std::pair<std::filesystem::path, int>> pending;
  } // namespace

  namespace
  {
    // A file in the staging folder ".out.partial-PID" is named as the user will look for it:
    // out/history.csv.
    std::filesystem::path as_destined(const std::filesystem::path &file)
    {
      std::filesystem::path named;
      for (const auto &part : file)
        {
          const std::string text = part.string();
          const auto        mark = text.find(".partial-");
          named /= text.size() > 1 && text[0] == '.' && mark != std::string::npos ? text.substr(1, mark - 1) : text;
        }
      return named;
    }
  } // namespace

  WriteError::WriteError(const std::filesystem::path &file, const int error_number)
    : std::runtime_error("cannot write " + as_destined(file).string() + ": " + reason_of(error_number))
    , file_(file)
  {}

  void check_written(std::ostream &out, const std::filesystem::path &file)
  {
    if (out.good())
      {
        errno = 0;
        out.flush();
      }
    if (!out.good())
      throw WriteError(file, errno);
  }

  void write_file(const std::filesystem::path &file, const std::string_view content)
  {
    errno = 0;
    std::ofstream out(file, std::ios::binary);
    if (!out)
      throw WriteError(file, errno);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    check_written(out, file);
    out.close();
    if (out.fail())
      throw WriteError(file, errno);
  }

  void note_write_failure(const std::filesystem::path &file, const int error_number)
  {
    const std::lock_guard<std::mutex> lock(pending_mutex);
    if (!pending)
      pending.emplace(file, error_number);
  }

  void throw_if_write_failed()
  {
    const std::lock_guard<std::mutex> lock(pending_mutex);
    if (pending)
      {
        const auto failure = std::move(*pending);
        pending.reset();
        throw WriteError(failure.first, failure.second);
      }
  }

  bool file_system_full(const std::filesystem::path &path)
  {
    // root may write into the blocks reserved for it: full means none of those left either.
    struct statvfs info;
    return ::statvfs(path.c_str(), &info) == 0 && (::geteuid() == 0 ? info.f_bfree : info.f_bavail) == 0;
  }
} // namespace vibroimpact::io
