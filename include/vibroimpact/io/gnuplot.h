// PNG plots: a gnuplot script written next to the data it draws, then run by gnuplot (package
// gnuplot-nox) in that folder, as a child process that draws while the program writes on. The
// script stays, so a user can restyle and rerun it.
#pragma once

#include <filesystem>
#include <string>

namespace vibroimpact::io
{
  // Writes the script and runs `gnuplot <script>` in its folder. Returns false, with a warning on
  // stderr, when gnuplot is missing or fails (the data and the script are still written).
  bool run_gnuplot(const std::filesystem::path &script_file, const std::string &script);

  // A gnuplot drawing under way (start_gnuplot).
  class GnuplotRun
  {
  public:
    GnuplotRun() = default;
    GnuplotRun(GnuplotRun &&other) noexcept;
    GnuplotRun &operator=(GnuplotRun &&) = delete;
    // Ends a drawing nobody waited for (its folder is being abandoned).
    ~GnuplotRun();
    // run_gnuplot's result; a full disk throws io::WriteError.
    bool wait();

  private:
    friend GnuplotRun start_gnuplot(const std::filesystem::path &, const std::string &);
    int                   pid_ = -1;
    std::filesystem::path script_;
  };

  // Writes the script and starts gnuplot on it; wait() before the folder is committed.
  GnuplotRun start_gnuplot(const std::filesystem::path &script_file, const std::string &script);

  // A string as a gnuplot string literal.
  std::string gnuplot_quote(const std::string &text);
} // namespace vibroimpact::io
