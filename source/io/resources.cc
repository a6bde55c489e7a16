// Memory and disk space available to a run (see the header).
#include <vibroimpact/io/resources.h>

#include <sys/statvfs.h>

#include <fstream>
#include <limits>
#include <string>

namespace vibroimpact::io
{
  double available_memory()
  {
    std::ifstream meminfo("/proc/meminfo");
    for (std::string key; meminfo >> key;)
      {
        double kilobytes = 0;
        meminfo >> kilobytes;
        if (key == "MemAvailable:")
          return kilobytes * 1024;
        meminfo.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
      }
    return std::numeric_limits<double>::infinity();
  }

  double free_disk_space(const std::filesystem::path &path)
  {
    std::filesystem::path existing = std::filesystem::absolute(path);
    std::error_code       error;
    while (!existing.empty() && !std::filesystem::exists(existing, error) && existing != existing.parent_path())
      existing = existing.parent_path();
    struct statvfs info;
    if (::statvfs(existing.c_str(), &info) != 0)
      return std::numeric_limits<double>::infinity();
    return double(info.f_bavail) * double(info.f_frsize);
  }
} // namespace vibroimpact::io
