// Output that could not be written: a full disk, a quota, a file-size limit (SIGXFSZ is ignored,
// so the write fails with EFBIG instead of killing the process). Every writer checks its stream
// and throws WriteError naming the file; the program then exits 1 with one line, the staging
// folder is removed and a previous run's output in the destination stays as it was.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <string_view>

namespace vibroimpact::io
{
  class WriteError : public std::runtime_error
  {
  public:
    // error_number: the errno of the failed write (0: unknown).
    WriteError(const std::filesystem::path &file, int error_number);
    const std::filesystem::path &file() const { return file_; }

  private:
    std::filesystem::path file_;
  };

  // Throws WriteError when the stream has failed (after flushing it).
  void check_written(std::ostream &out, const std::filesystem::path &file);

  // Writes a whole (small) file and checks every byte reached it.
  void write_file(const std::filesystem::path &file, std::string_view content);

  // A failure found where throwing is not possible (a destructor's last flush): remembered, and
  // thrown by throw_if_write_failed(), which OutputFolder::commit calls before it moves anything.
  void note_write_failure(const std::filesystem::path &file, int error_number);
  void throw_if_write_failed();

  // True when the file system holding `path` has no block left for this user.
  bool file_system_full(const std::filesystem::path &path);
} // namespace vibroimpact::io
