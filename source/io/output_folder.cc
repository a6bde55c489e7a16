#include <vibroimpact/io/output_folder.h>

#include <unistd.h>

#include <system_error>

namespace vibroimpact::io
{
  namespace fs = std::filesystem;

  OutputFolder::OutputFolder(fs::path destination)
    : destination_(std::move(destination))
  {
    const fs::path absolute = fs::absolute(destination_).lexically_normal();
    const fs::path parent   = absolute.has_filename() ? absolute.parent_path() : absolute.parent_path().parent_path();
    const std::string name  = absolute.has_filename() ? absolute.filename().string() : absolute.parent_path().filename().string();
    staging_ = parent / ("." + name + ".partial-" + std::to_string(getpid()));
    fs::remove_all(staging_);
    fs::create_directories(staging_);
  }

  OutputFolder::~OutputFolder()
  {
    std::error_code ignored;
    if (!committed_)
      fs::remove_all(staging_, ignored);
  }

  void OutputFolder::commit()
  {
    fs::create_directories(destination_);
    for (const auto &entry : fs::directory_iterator(staging_))
      {
        const fs::path target = destination_ / entry.path().filename();
        fs::remove_all(target);
        fs::rename(entry.path(), target);
      }
    fs::remove_all(staging_);
    committed_ = true;
  }
} // namespace vibroimpact::io
