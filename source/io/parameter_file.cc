// Case files read through deal.II's ParameterHandler (see io/parameter_file.h): families of named
// subsections scanned first, overrides applied after, every failure one line.
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_file.h>
#include <vibroimpact/io/parameter_section.h>

#include <deal.II/base/parameter_handler.h>

#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <numeric>
#include <regex>
#include <sstream>

namespace vibroimpact::io
{
  std::string trim(const std::string &text)
  {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos)
      return "";
    const auto last = text.find_last_not_of(" \t\r\n");
    return text.substr(first, last - first + 1);
  }

  std::vector<std::string> split_list(const std::string &text, const char separator)
  {
    std::vector<std::string> items;
    std::stringstream        stream(text);
    std::string              item;
    while (std::getline(stream, item, separator))
      if (!trim(item).empty())
        items.push_back(trim(item));
    return items;
  }

  std::string closest_name(const std::string &name, const std::vector<std::string> &candidates)
  {
    const auto lower = [](std::string text) {
      for (auto &c : text)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return text;
    };
    const std::string wanted = lower(name);
    std::string       best;
    std::size_t       best_distance = std::numeric_limits<std::size_t>::max();
    std::vector<std::size_t> row;
    for (const auto &candidate : candidates)
      {
        // Levenshtein distance, one row at a time.
        const std::string other = lower(candidate);
        row.resize(other.size() + 1);
        std::iota(row.begin(), row.end(), std::size_t(0));
        for (std::size_t i = 1; i <= wanted.size(); ++i)
          {
            std::size_t diagonal = row[0];
            row[0]               = i;
            for (std::size_t j = 1; j <= other.size(); ++j)
              {
                const std::size_t above = row[j];
                row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (wanted[i - 1] != other[j - 1])});
                diagonal = above;
              }
          }
        if (row.back() < best_distance)
          {
            best_distance = row.back();
            best          = candidate;
          }
      }
    // A misspelling changes a few characters, not most of them.
    return best_distance <= std::max<std::size_t>(2, wanted.size() / 3) ? best : "";
  }

  namespace
  {
    // No number, expression or list a case needs comes near these; longer input is a mistake (or
    // an attack: std::regex recurses per character and overflows the stack on 30,000 digits).
    constexpr std::size_t max_value_length = 4096;
    constexpr std::size_t max_file_size    = 16u << 20;

    // A case file must be a regular file of sane size: a FIFO would block in open(), a device
    // (/dev/zero) would be read forever.
    void check_case_file_kind(const std::string &filename)
    {
      struct stat info;
      if (::stat(filename.c_str(), &info) != 0)
        throw InputError(filename, "", std::string("cannot open the parameter file (") + std::strerror(errno) + ")");
      if (S_ISDIR(info.st_mode))
        throw InputError(filename, "", "is a folder, not a parameter file");
      if (!S_ISREG(info.st_mode))
        throw InputError(filename, "", "is not a regular file (a pipe, socket or device): give a .prm or .json file");
      if (std::size_t(info.st_size) > max_file_size)
        throw InputError(filename, "",
                         "is " + std::to_string(info.st_size) + " bytes; a parameter file has at most " +
                           std::to_string(max_file_size) + " bytes");
    }

    void check_value_length(const std::string &value, const std::string &file, const std::string &parameter)
    {
      if (value.size() > max_value_length)
        throw InputError(file, parameter,
                         "a value of " + std::to_string(value.size()) + " characters (at most " +
                           std::to_string(max_value_length) + ")");
    }

    bool ends_with(const std::string &text, const std::string &suffix)
    {
      return text.size() >= suffix.size() &&
             text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
    }

    // deal.II's own messages span several indented lines; we want one.
    std::string collapse_whitespace(const std::string &text)
    {
      std::string out;
      bool        space = false;
      for (const char c : text)
        if (std::isspace(static_cast<unsigned char>(c)))
          space = !out.empty();
        else
          {
            if (space)
              out += ' ';
            out += c;
            space = false;
          }
      return out;
    }

    // deal.II's "does not match the given pattern [Double -MAX_DOUBLE...MAX_DOUBLE (inclusive)]"
    // said as a user would: "'nan' is not a real number".
    std::string plain_pattern_message(const std::string &message)
    {
      static const std::regex in_file(R"(The entry value (.*) for the entry named .* does not match the given pattern:? ?<?\[(.*)\]>?\.?)");
      static const std::regex override_value(R"(The string <(.*)> does not match the given pattern <\[(.*)\]>\.?)");
      if (message.size() > 2 * max_value_length) // std::regex would recurse too deep
        return "a value of more than " + std::to_string(max_value_length) + " characters";
      std::smatch match;
      if (!std::regex_search(message, match, in_file) && !std::regex_search(message, match, override_value))
        return message;
      const std::string value = match[1].str(), pattern = match[2].str();
      std::string expected = "a value of the form " + pattern;
      if (pattern.rfind("Double", 0) == 0)
        expected = "a finite real number";
      else if (pattern.rfind("Integer", 0) == 0)
        expected = "a whole number";
      else if (pattern.rfind("Bool", 0) == 0)
        expected = "true or false";
      else if (pattern.rfind("Selection", 0) == 0)
        expected = "one of " + pattern.substr(10);
      return "'" + value + "' is not " + expected;
    }

    std::string message_of(const dealii::ExceptionBase &e)
    {
      std::ostringstream stream;
      e.print_info(stream);
      return collapse_whitespace(stream.str());
    }

    // JSON keys are mangled by deal.II when it writes them; accept both forms.
    std::string demangle(const std::string &key)
    {
      std::string out;
      for (std::size_t i = 0; i < key.size(); ++i)
        if (key[i] == '_' && i + 2 < key.size() && std::isxdigit(static_cast<unsigned char>(key[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(key[i + 2])))
          {
            out += static_cast<char>(std::stoi(key.substr(i + 1, 2), nullptr, 16));
            i += 2;
          }
        else
          out += key[i];
      return trim(out);
    }

    // The entries a JSON subsection sets, as "Section/.../Entry" (a leaf is an entry; deal.II's
    // own JSON gives an entry as an object holding "value").
    void add_given_entries(const boost::property_tree::ptree &tree, const std::string &prefix,
                           std::vector<std::string> &given)
    {
      for (const auto &[key, child] : tree)
        if (child.empty() || child.count("value") > 0)
          given.push_back(prefix + demangle(key));
        else
          add_given_entries(child, prefix + demangle(key) + "/", given);
    }
  } // namespace

  ParameterFile::ParameterFile(std::string              filename,
                               std::vector<std::string> families,
                               std::vector<std::string> overrides)
    : filename_(std::move(filename))
    , families_(std::move(families))
    , overrides_(std::move(overrides))
    , handler_(std::make_unique<dealii::ParameterHandler>())
  {
    for (const auto &family : families_)
      instances_.emplace_back(family, std::vector<std::string>{});
    scan_file();
    check_overrides();
  }

  ParameterFile ParameterFile::from_text(std::string              name,
                                         std::string              text,
                                         std::vector<std::string> families,
                                         std::vector<std::string> overrides)
  {
    ParameterFile file;
    file.filename_  = std::move(name);
    file.text_      = std::move(text);
    file.families_  = std::move(families);
    file.overrides_ = std::move(overrides);
    file.handler_   = std::make_unique<dealii::ParameterHandler>();
    for (const auto &family : file.families_)
      file.instances_.emplace_back(family, std::vector<std::string>{});
    if (file.text_->size() > max_file_size)
      throw InputError(file.filename_, "",
                       "is " + std::to_string(file.text_->size()) + " bytes; a parameter file has at most " +
                         std::to_string(max_file_size) + " bytes");
    file.scan_file();
    file.check_overrides();
    return file;
  }

  std::unique_ptr<std::istream> ParameterFile::open() const
  {
    if (text_)
      return std::make_unique<std::istringstream>(*text_);
    return std::make_unique<std::ifstream>(filename_);
  }

  bool ParameterFile::is_json() const
  {
    if (text_)
      {
        const auto first = text_->find_first_not_of(" \t\r\n");
        return first != std::string::npos && (*text_)[first] == '{';
      }
    return ends_with(filename_, ".json");
  }

  void ParameterFile::check_overrides() const
  {
    for (const auto &override_text : overrides_)
      {
        const auto equal = override_text.find('=');
        if (equal == std::string::npos)
          throw InputError("command line", override_text, "an override reads 'Section/Name=value'");
        const auto path = split_list(override_text.substr(0, equal), '/');
        check_value_length(override_text.substr(equal + 1), "command line", "-s " + override_text.substr(0, equal));
        if (path.size() > 1)
          check_override_instance(path.front(), "-s " + override_text.substr(0, equal));
      }
  }

  void ParameterFile::check_override_instance(const std::string &subsection, const std::string &where) const
  {
    // An override sets what the file has; it never creates a body, contact, ... (a typo in a
    // name would otherwise add a default one silently).
    for (const auto &[family, names] : instances_)
      if (subsection.size() > family.size() + 1 && subsection.compare(0, family.size(), family) == 0 &&
          subsection[family.size()] == ' ')
        {
          const std::string name = trim(subsection.substr(family.size() + 1));
          if (std::find(names.begin(), names.end(), name) != names.end())
            return;
          std::string known;
          for (const auto &n : names)
            known += (known.empty() ? "" : ", ") + n;
          throw InputError("command line", where,
                           "the case file has no 'subsection " + subsection + "' (its " + family +
                             " subsections: " + (known.empty() ? "none" : known) + ")");
        }
  }

  ParameterFile::~ParameterFile()                    = default;
  ParameterFile::ParameterFile(ParameterFile &&) noexcept = default;

  ParameterFile ParameterFile::documentation(std::vector<std::string> families, std::string verb)
  {
    ParameterFile file;
    file.families_ = std::move(families);
    file.verb_     = std::move(verb);
    file.handler_  = std::make_unique<dealii::ParameterHandler>();
    for (const auto &family : file.families_)
      file.instances_.emplace_back(family, std::vector<std::string>{"<name>"});
    return file;
  }

  const std::vector<std::string> &ParameterFile::instances(const std::string &family) const
  {
    for (const auto &entry : instances_)
      if (entry.first == family)
        return entry.second;
    throw std::logic_error("undeclared subsection family " + family);
  }

  bool ParameterFile::has_section(const std::string &name) const
  {
    if (std::find(sections_.begin(), sections_.end(), name) != sections_.end())
      return true;
    for (const auto &o : overrides_)
      if (o.compare(0, name.size() + 1, name + "/") == 0)
        return true;
    return false;
  }

  bool ParameterFile::gives(const std::string &entry) const
  {
    if (std::find(given_.begin(), given_.end(), entry) != given_.end())
      return true;
    for (const auto &o : overrides_)
      if (o.find('=') != std::string::npos && trim(o.substr(0, o.find('='))) == entry)
        return true;
    return false;
  }

  void ParameterFile::add_instance(const std::string &subsection)
  {
    sections_.push_back(subsection);
    for (auto &[family, names] : instances_)
      if (subsection.size() > family.size() + 1 && subsection.compare(0, family.size(), family) == 0 &&
          subsection[family.size()] == ' ')
        {
          const std::string name = trim(subsection.substr(family.size() + 1));
          if (std::find(names.begin(), names.end(), name) == names.end())
            names.push_back(name);
        }
  }

  void ParameterFile::scan_file()
  {
    if (!text_)
      check_case_file_kind(filename_);
    const auto    stream = open();
    std::istream &in     = *stream;
    if (!in)
      throw InputError(filename_, "", "cannot open the parameter file");
    char bom[3] = {0, 0, 0};
    in.read(bom, 3);
    if (in.gcount() == 3 && bom[0] == '\xEF' && bom[1] == '\xBB' && bom[2] == '\xBF')
      throw InputError(filename_ + ":1", "", "the file starts with a UTF-8 byte-order mark: save it without one");
    in.clear();
    in.seekg(0);

    if (is_json())
      {
        boost::property_tree::ptree tree;
        try
          {
            boost::property_tree::read_json(in, tree);
          }
        catch (const std::exception &e)
          {
            throw InputError(filename_, "", std::string("not valid JSON: ") + e.what());
          }
        std::vector<std::string> seen;
        for (const auto &child : tree)
          {
            const std::string name = demangle(child.first);
            if (name.empty())
              throw InputError(filename_, "",
                               "the top level must be an object of named subsections, e.g. {\"Body beam\": {...}}, "
                               "not an array or a bare value");
            if (std::find(seen.begin(), seen.end(), name) != seen.end())
              throw InputError(filename_, name, "given twice at the top level: give each its own name");
            seen.push_back(name);
            add_instance(name);
            add_given_entries(child.second, name + "/", given_);
          }
        return;
      }

    std::vector<std::string>            path;
    std::string                         line;
    std::map<std::string, std::size_t>  top_level_lines;
    std::map<std::string, std::size_t>  entry_lines; // deal.II would let the last of two win
    line_paths_.push_back(""); // lines count from 1
    while (std::getline(in, line))
      {
        std::string text = line.substr(0, line.find('#'));
        text             = trim(text);
        std::string joined;
        for (const auto &p : path)
          joined += p + "/";
        line_paths_.push_back(joined);
        const std::string here = filename_ + ":" + std::to_string(line_paths_.size() - 1);
        if (text.rfind("set ", 0) == 0)
          {
            const auto        equal = text.find('=');
            const std::string name  = joined + trim(text.substr(4, equal == std::string::npos ? std::string::npos : equal - 4));
            if (equal != std::string::npos)
              check_value_length(trim(text.substr(equal + 1)), here, name);
            const auto first = entry_lines.find(name);
            if (first != entry_lines.end())
              throw InputError(here, name,
                               "set a second time (first at line " + std::to_string(first->second) +
                                 "): keep one");
            entry_lines.emplace(name, line_paths_.size() - 1);
            given_.push_back(name);
          }
        else
          check_value_length(text, here, joined);
        if (text.rfind("subsection ", 0) == 0)
          {
            const std::string name = trim(text.substr(11));
            if (path.empty())
              {
                // deal.II would merge two blocks of one name, the second silently winning.
                const auto first = top_level_lines.find(name);
                if (first != top_level_lines.end())
                  throw InputError(filename_ + ":" + std::to_string(line_paths_.size() - 1), name,
                                   "a second 'subsection " + name + "' (the first is at line " +
                                     std::to_string(first->second) + "): merge them or give each its own name");
                top_level_lines.emplace(name, line_paths_.size() - 1);
                add_instance(name);
              }
            path.push_back(name);
          }
        else if (text == "end" && !path.empty())
          path.pop_back();
      }
  }

  std::string ParameterFile::section_path_at_line(const unsigned int line) const
  {
    if (line >= line_paths_.size())
      return "";
    const auto  in = open();
    std::string text;
    for (unsigned int i = 0; i < line && std::getline(*in, text); ++i)
      ;
    text = trim(text.substr(0, text.find('#')));
    if (text.rfind("set ", 0) == 0)
      return line_paths_[line] + trim(text.substr(4, text.find('=') - 4));
    if (text.rfind("subsection ", 0) == 0)
      return line_paths_[line] + trim(text.substr(11));
    return line_paths_[line];
  }

  void ParameterFile::section(const std::string                             &path,
                              const std::function<void(ParameterSection &)> &bind,
                              const std::vector<std::string>                &verbs)
  {
    if (!verb_.empty() && !verbs.empty() && std::find(verbs.begin(), verbs.end(), verb_) == verbs.end())
      return;
    ParameterSection section(*this, path);
    bind(section);
  }

  void ParameterFile::print_documentation(std::ostream &out) const
  {
    handler_->print_parameters(out, dealii::ParameterHandler::Text);
  }

  namespace
  {
    // The entries of one level of deal.II's tree (a node with a "value" is an entry), then its
    // subsections: the order of its text format, which prints the same sorted tree.
    void collect_entries(const boost::property_tree::ptree &node, const std::string &prefix,
                         std::vector<ParameterEntry> &out)
    {
      for (const auto &[key, child] : node)
        if (child.count("value") != 0)
          out.push_back({prefix + demangle(key), child.get<std::string>("value"),
                         child.get<std::string>("default_value", ""), child.get<std::string>("pattern_description", ""),
                         child.get<std::string>("documentation", "")});
      for (const auto &[key, child] : node)
        if (child.count("value") == 0)
          collect_entries(child, prefix + demangle(key) + "/", out);
    }
  } // namespace

  std::vector<ParameterEntry> ParameterFile::entries() const
  {
    // deal.II's own listing, read back: the same tree, sorting and defaults as the text format.
    std::stringstream json;
    handler_->print_parameters(json, dealii::ParameterHandler::JSON);
    boost::property_tree::ptree tree;
    boost::property_tree::read_json(json, tree);
    std::vector<ParameterEntry> out;
    collect_entries(tree, "", out);
    return out;
  }

  void ParameterFile::parse()
  {
    parsed_ = true;
    try
      {
        if (!text_)
          handler_->parse_input(filename_, "", false, false);
        else if (is_json())
          {
            std::istringstream in(*text_);
            handler_->parse_input_from_json(in, false);
          }
        else
          {
            std::istringstream in(*text_);
            handler_->parse_input(in, filename_, "", false);
          }
      }
    catch (const dealii::ExceptionBase &e)
      {
        fail_parse(message_of(e));
      }
    catch (const std::exception &e)
      {
        throw InputError(filename_, "", collapse_whitespace(e.what()));
      }

    for (const auto &override_text : overrides_)
      {
        const auto        equal = override_text.find('=');
        const auto        path  = split_list(override_text.substr(0, equal), '/');
        const std::string value = trim(override_text.substr(equal + 1));
        const std::string where = "-s " + override_text.substr(0, equal);
        if (path.empty())
          throw InputError("command line", where, "no parameter named");
        unsigned int depth = 0;
        try
          {
            for (; depth + 1 < path.size(); ++depth)
              handler_->enter_subsection(path[depth]);
            handler_->set(path.back(), value);
          }
        catch (const dealii::ExceptionBase &e)
          {
            std::string joined;
            for (const auto &p : path)
              joined += (joined.empty() ? "" : "/") + p;
            throw InputError("command line", where, undeclared_message(joined, plain_pattern_message(message_of(e))));
          }
        for (; depth > 0; --depth)
          handler_->leave_subsection();
      }
  }

  void ParameterFile::fail_parse(const std::string &message) const
  {
    // deal.II writes "Line <n> of file <name>: why" (for an unknown subsection without the
    // closing '>').
    static const std::regex located(R"(Line <(\d+)> of file <[^>:]*>?:? ?(.*))");
    std::smatch             match;
    if (message.size() <= 2 * max_value_length && std::regex_search(message, match, located))
      {
        const unsigned int line = std::stoul(match[1].str());
        const std::string  path = section_path_at_line(line);
        throw InputError(filename_ + ":" + match[1].str(), path,
                         undeclared_message(path, plain_pattern_message(match[2].str())));
      }
    // JSON: deal.II names the entry alone; its section is where the file has it undeclared.
    static const std::regex undeclared(R"(You can't ask for entry <([^>]*)> you have not yet declared)");
    if (is_json() && message.size() <= 2 * max_value_length && std::regex_search(message, match, undeclared))
      {
        boost::property_tree::ptree tree;
        const auto                  in = open();
        boost::property_tree::read_json(*in, tree); // read once already by scan_file
        for (const auto &[section, entries] : tree)
          for (const auto &[key, value] : entries)
            {
              const std::string path = demangle(section) + "/" + demangle(key);
              if (demangle(key) == match[1].str() && (value.empty() || value.count("value") != 0) &&
                  std::find(declared_.begin(), declared_.end(), path) == declared_.end())
                throw InputError(filename_, path, undeclared_message(path, message));
            }
      }
    throw InputError(filename_, "", message);
  }

  std::string ParameterFile::undeclared_message(const std::string &path, const std::string &message) const
  {
    // deal.II's words for a name it does not know: in a file, on the command line, in a subsection line.
    const bool entry      = message.find("No entry with name") != std::string::npos ||
                       message.find("you have not yet declared") != std::string::npos;
    const bool subsection = message.find("no such subsection") != std::string::npos;
    if (!entry && !subsection)
      return message;
    std::vector<std::string> candidates;
    if (entry)
      candidates = declared_;
    else if (path.find('/') == std::string::npos) // sections are one level deep: the top-level ones
      {
        for (const auto &declared : declared_)
          {
            const auto section = declared.substr(0, declared.find('/'));
            if (std::find(candidates.begin(), candidates.end(), section) == candidates.end())
              candidates.push_back(section);
          }
        // A misspelt family keeps the user's instance name: "Bdy beam" -> "Body beam".
        const auto space = path.find(' ');
        if (space != std::string::npos)
          for (const auto &family : families_)
            candidates.push_back(family + path.substr(space));
      }
    const std::string closest = closest_name(path, candidates);
    return std::string(entry ? "no such entry" : "no such subsection") +
           (closest.empty() ? "" : " (did you mean '" + closest + "'?)");
  }

  void ParameterFile::fail(const std::string &parameter, const std::string &reason) const
  {
    throw InputError(filename_, parameter, reason);
  }
} // namespace vibroimpact::io
