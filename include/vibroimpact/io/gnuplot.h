// PNG plots: a gnuplot script written next to the data it draws, then run by gnuplot (package
// gnuplot-nox) in that folder. The script stays, so a user can restyle and rerun it.
#pragma once

#include <filesystem>
#include <string>

namespace vibroimpact::io
{
  // Writes the script and runs `gnuplot <script>` in its folder. Returns false, with a warning on
  // stderr, when gnuplot is missing or fails (the data and the script are still written).
  bool run_gnuplot(const std::filesystem::path &script_file, const std::string &script);

  // A string as a gnuplot string literal.
  std::string gnuplot_quote(const std::string &text);
} // namespace vibroimpact::io
