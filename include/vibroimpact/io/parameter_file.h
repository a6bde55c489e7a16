// A case file (.prm or .json) read by deal.II's ParameterHandler, with the command line's
// `-s 'Section/Name=value'` overrides, and every failure turned into a one-line InputError
// that names the file, the parameter and the reason.
//
// Some subsections come in families the user names: `subsection Body beam`, `subsection Contact
// tip`. The file is scanned for them first, so that each named instance can be declared before
// deal.II parses the file.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace dealii
{
  class ParameterHandler;
}

namespace vibroimpact::io
{
  class ParameterFile
  {
  public:
    // families: the names of the subsection families ("Body", "Contact", ...).
    ParameterFile(std::string              filename,
                  std::vector<std::string> families,
                  std::vector<std::string> overrides = {});
    ~ParameterFile();
    ParameterFile(ParameterFile &&) noexcept;

    // No file: every family has one instance called "<name>", for printing the documentation.
    static ParameterFile documentation(std::vector<std::string> families);

    const std::string &filename() const { return filename_; }

    // The instance names of one family, in the order the file gives them.
    const std::vector<std::string> &instances(const std::string &family) const;

    dealii::ParameterHandler &handler() { return *handler_; }

    // Parses the file and applies the overrides; call after every declaration.
    void parse();

    [[noreturn]] void fail(const std::string &parameter, const std::string &reason) const;

  private:
    ParameterFile() = default;
    void scan_file();
    void add_instance(const std::string &subsection);
    std::string section_path_at_line(unsigned int line) const;

    std::string                                              filename_;
    std::vector<std::string>                                 families_;
    std::vector<std::string>                                 overrides_;
    std::vector<std::pair<std::string, std::vector<std::string>>> instances_;
    std::vector<std::string>                                 line_paths_; // prm: path at each line
    std::unique_ptr<dealii::ParameterHandler>                handler_;
  };

  // Splits "a, b, c" into its trimmed items.
  std::vector<std::string> split_list(const std::string &text, char separator = ',');
  std::string              trim(const std::string &text);
} // namespace vibroimpact::io
