// A case file (.prm or .json) read by deal.II's ParameterHandler, with the command line's
// `-s 'Section/Name=value'` overrides, and every failure turned into a one-line InputError
// that names the file, the parameter and the reason.
//
// Some subsections come in families the user names: `subsection Body beam`, `subsection Contact
// tip`. The file is scanned for them first, so that each named instance can be declared before
// deal.II parses the file.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dealii
{
  class ParameterHandler;
}

namespace vibroimpact::io
{
  class ParameterSection;

  // One declared entry as `vibroimpact parameters` prints it: its path "Section/Entry" (a family's
  // instance "<name>" in the documentation), its value (the file's after parse(), else the
  // default), its default, deal.II's pattern and its documentation.
  struct ParameterEntry
  {
    std::string path, value, default_value, pattern, documentation;
  };

  class ParameterFile
  {
  public:
    // families: the names of the subsection families ("Body", "Contact", ...).
    ParameterFile(std::string              filename,
                  std::vector<std::string> families,
                  std::vector<std::string> overrides = {});
    ~ParameterFile();
    ParameterFile(ParameterFile &&) noexcept;

    // No file: every family has one instance called "<name>", for printing the documentation;
    // only the sections that `verb` reads are bound (every section if verb is empty).
    static ParameterFile documentation(std::vector<std::string> families, std::string verb = "");

    // A case given as text, not a file (the Python module's Case.from_string): `name` stands for
    // the file in messages; JSON when the text starts with '{', else the .prm format.
    static ParameterFile from_text(std::string              name,
                                   std::string              text,
                                   std::vector<std::string> families,
                                   std::vector<std::string> overrides = {});

    const std::string &filename() const { return filename_; }
    const std::vector<std::string> &overrides() const { return overrides_; }

    // The instance names of one family, in the order the file gives them.
    const std::vector<std::string> &instances(const std::string &family) const;

    // Whether the file has a top-level subsection of this name, or an override sets an entry
    // in it (a verb can then say that it runs on that section's defaults).
    bool has_section(const std::string &name) const;

    // Whether the file or an override sets the entry "Section/Entry" (its value is not merely
    // the default): a default that depends on the model may then stand in for it.
    bool gives(const std::string &entry) const;

    // Binds one subsection (declares or reads it, see ParameterSection). verbs: the verbs that
    // read it (empty: every verb); used to filter the documentation.
    void section(const std::string                                   &path,
                 const std::function<void(ParameterSection &)>       &bind,
                 const std::vector<std::string>                      &verbs = {});

    // Parses the file and applies the overrides; call after every declaration. From then on,
    // section() reads.
    void parse();
    bool parsed() const { return parsed_; }

    // Every "Section/Entry" bound so far, in order (declared before parse(), read after).
    const std::vector<std::string> &declared_entries() const { return declared_; }
    const std::vector<std::string> &read_entries() const { return read_; }

    // Every declared parameter with its default and documentation (deal.II's text format).
    void print_documentation(std::ostream &out) const;
    // The same entries as data, in the order print_documentation prints them.
    std::vector<ParameterEntry> entries() const;

    [[noreturn]] void fail(const std::string &parameter, const std::string &reason) const;

  private:
    friend class ParameterSection;
    dealii::ParameterHandler &handler() { return *handler_; }

    ParameterFile() = default;
    void check_overrides() const;
    // The file's text, or the text given to from_text.
    std::unique_ptr<std::istream> open() const;
    bool                          is_json() const;
    void scan_file();
    void add_instance(const std::string &subsection);
    void check_override_instance(const std::string &subsection, const std::string &where) const;
    std::string section_path_at_line(unsigned int line) const;
    // Throws the InputError of deal.II's parse failure `message`, located where it can be.
    [[noreturn]] void fail_parse(const std::string &message) const;
    // deal.II's message for an undeclared entry or subsection at `path` said plainly, with the
    // closest declared name ("did you mean ..."); any other message as it is.
    std::string undeclared_message(const std::string &path, const std::string &message) const;

    std::string                                              filename_;
    std::optional<std::string>                               text_; // from_text: the case itself
    std::vector<std::string>                                 families_;
    std::vector<std::string>                                 overrides_;
    std::vector<std::pair<std::string, std::vector<std::string>>> instances_;
    std::vector<std::string>                                 line_paths_; // prm: path at each line
    std::vector<std::string>                                 sections_;   // top-level subsections
    std::vector<std::string>                                 given_;      // "Section/Entry" the file sets
    std::unique_ptr<dealii::ParameterHandler>                handler_;
    std::string                                              verb_; // documentation filter
    bool                                                     parsed_ = false;
    std::vector<std::string>                                 declared_, read_;
  };

  // Splits "a, b, c" into its trimmed items.
  std::vector<std::string> split_list(const std::string &text, char separator = ',');
  std::string              trim(const std::string &text);

  // The candidate closest to `name` (case-insensitive edit distance), or "" when none is close
  // enough to be a misspelling of it: for "did you mean ..." in messages.
  std::string closest_name(const std::string &name, const std::vector<std::string> &candidates);
} // namespace vibroimpact::io
