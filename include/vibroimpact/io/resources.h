// What this machine can give a run, read before the work starts: memory available now and free
// space where the output goes. Used to refuse, in one line, work that cannot fit.
#pragma once

#include <filesystem>

namespace vibroimpact::io
{
  // Bytes of memory available without swapping (MemAvailable); infinity when unknown.
  double available_memory();

  // Bytes free for this user on the file system that holds `path` (or its nearest existing
  // parent); infinity when unknown.
  double free_disk_space(const std::filesystem::path &path);
} // namespace vibroimpact::io
