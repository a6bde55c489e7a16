// PNG plots by gnuplot: the script is written (checked) next to its data, then run there.
#include <vibroimpact/io/gnuplot.h>
#include <vibroimpact/io/write_error.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <stdexcept>

namespace vibroimpact::io
{
  std::string gnuplot_quote(const std::string &text)
  {
    std::string out = "\"";
    for (const char c : text)
      {
        if (c == '"' || c == '\\')
          out += '\\';
        out += c;
      }
    return out + "\"";
  }

  bool run_gnuplot(const std::filesystem::path &script_file, const std::string &script)
  {
    write_file(script_file, script);
    if (std::system("command -v gnuplot > /dev/null 2>&1") != 0)
      {
        std::cerr << "warning: gnuplot not found: " << script_file.filename().string()
                  << " is written but not drawn (install gnuplot-nox)\n";
        return false;
      }
    const std::string command = "cd '" + script_file.parent_path().string() + "' && gnuplot '" +
                                script_file.filename().string() + "' 2>&1";
    if (std::system(command.c_str()) != 0)
      {
        // A plot that failed for want of space is a failed write, not a missing picture.
        if (file_system_full(script_file.parent_path()))
          throw WriteError(script_file.parent_path() / "*.png", ENOSPC);
        std::cerr << "warning: gnuplot failed on " << script_file.string() << "\n";
        return false;
      }
    return true;
  }
} // namespace vibroimpact::io
