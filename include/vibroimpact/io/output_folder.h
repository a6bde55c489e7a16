// Results are written into a staging folder next to the requested one and moved there only
// when the run succeeds, so a failed run leaves no half-written output.
#pragma once

#include <filesystem>

namespace vibroimpact::io
{
  class OutputFolder
  {
  public:
    explicit OutputFolder(std::filesystem::path destination);
    ~OutputFolder();
    OutputFolder(const OutputFolder &) = delete;
    OutputFolder &operator=(const OutputFolder &) = delete;

    // Where to write now.
    const std::filesystem::path &staging() const { return staging_; }
    std::filesystem::path        operator/(const std::string &file) const { return staging_ / file; }

    // Moves every staged file into the destination (replacing files of the same name).
    void commit();

  private:
    std::filesystem::path destination_;
    std::filesystem::path staging_;
    bool                  committed_ = false;
  };
} // namespace vibroimpact::io
