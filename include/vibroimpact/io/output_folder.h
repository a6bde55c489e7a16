// Results are written into a staging folder next to the requested one and moved there only
// when the run succeeds, so a failed run leaves no half-written output.
//
// - The destination is checked when the folder is made, before any computing: a path that is a
//   file, or a place that cannot be written, is bad input (io::InputError, exit 2).
// - One run at a time writes a destination: a lock file next to it (flock) is held from
//   construction to destruction; a second run gets an InputError naming the first one's pid.
// - A commit replaces the previous results of the same producer (the verb: the files its manifest
//   lists) and keeps other verbs' results and the user's own files.
// - Staging folders left by processes that no longer exist (killed runs) are removed.
// - A write that failed anywhere (io/write_error.h) makes commit() throw: nothing is moved.
#pragma once

#include <filesystem>
#include <string>

namespace vibroimpact::io
{
  class OutputFolder
  {
  public:
    // producer: what writes the folder (the verb); each keeps its own manifest.
    explicit OutputFolder(std::filesystem::path destination, std::string producer = "run");
    ~OutputFolder();
    OutputFolder(const OutputFolder &) = delete;
    OutputFolder &operator=(const OutputFolder &) = delete;

    // Where to write now.
    const std::filesystem::path &staging() const { return staging_; }
    std::filesystem::path        operator/(const std::string &file) const { return staging_ / file; }

    // Moves every staged file into the destination: files of the previous run that this one did
    // not write are removed, files of the same name replaced, the user's other files kept.
    // After SIGINT/SIGTERM it throws io::Interrupted instead (nothing is committed), unless the
    // staged files are a partial result that says it was interrupted (partial = true).
    void commit(bool partial = false);

    // The file in the destination that lists what this producer's last commit wrote.
    std::string manifest_name() const { return ".vibroimpact-" + producer_ + "-files"; }

  private:
    void lock(const std::filesystem::path &lock_file);
    void remove_stale_staging(const std::filesystem::path &parent, const std::string &name) const;

    std::filesystem::path destination_;
    std::string           producer_;
    std::filesystem::path staging_;
    std::filesystem::path lock_file_;
    int                   lock_fd_     = -1;
    bool                  committed_   = false;
    int                   cleanup_key_ = 0; // the interrupt watchdog's removal of staging and lock
  };
} // namespace vibroimpact::io
