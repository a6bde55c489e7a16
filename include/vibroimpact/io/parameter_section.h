// One subsection of a case file, bound to the settings it fills. Each parameter is written once:
//
//   section.add("Theta", settings.theta, io::in_range(0.5, 1), "θ of the scheme ...");
//
// declares the entry "Theta" with the member's current value as its default and the text as its
// documentation while the file is being declared, and reads, checks and stores the value into
// the member once the file has been parsed (deal.II's ParameterAcceptor::add_parameter is the
// model). A value that fails its check throws io::InputError "file: Section/Entry: reason".
// The same binding function therefore declares, documents and reads a section: a parameter
// that is read is always printed by `vibroimpact parameters`, and the reverse.
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace vibroimpact::io
{
  class ParameterFile;

  // The interval a number must lie in: [low, high], each end open or closed; always finite.
  struct Bounds
  {
    double low       = -1e308;
    double high      = 1e308;
    bool   open_low  = false;
    bool   open_high = false;

    bool        contains(double value) const;
    std::string describe() const; // "must be positive", "must lie in [0.5, 1]"
  };

  Bounds finite();
  Bounds positive();
  Bounds non_negative();
  Bounds in_range(double low, double high);
  Bounds at_least(double low);

  // The names a choice accepts, in the order the documentation lists them.
  template <typename Enum>
  using Choices = std::vector<std::pair<std::string, Enum>>;

  class ParameterSection
  {
  public:
    // path: the subsection, "Integrator" or "Body beam" (one level).
    ParameterSection(ParameterFile &file, std::string path);

    // True once the file has been parsed: add() reads; before, add() declares.
    bool reading() const;
    const std::string &path() const { return path_; }

    void add(const std::string &entry, double &value, const Bounds &bounds, const std::string &doc);
    // An integer in [minimum, maximum].
    void add(const std::string &entry, unsigned int &value, unsigned int minimum, unsigned int maximum,
             const std::string &doc);
    void add(const std::string &entry, bool &value, const std::string &doc);
    // Free text, trimmed.
    void add(const std::string &entry, std::string &value, const std::string &doc);
    // A comma-separated list of numbers, each within bounds.
    void add(const std::string &entry, std::vector<double> &values, const Bounds &each, const std::string &doc);
    // A list of names separated by `separator`.
    void add(const std::string &entry, std::vector<std::string> &values, const std::string &doc,
             char separator = ',');
    // Three comma-separated finite numbers.
    void add(const std::string &entry, std::array<double, 3> &value, const std::string &doc);

    template <typename Enum>
    void add(const std::string &entry, Enum &value, const Choices<Enum> &choices, const std::string &doc)
    {
      std::vector<std::string> names;
      std::string              current;
      for (const auto &[name, option] : choices)
        {
          names.push_back(name);
          if (option == value)
            current = name;
        }
      const std::string chosen = choose(entry, current, names, doc);
      for (const auto &[name, option] : choices)
        if (name == chosen)
          value = option;
    }

    // One of `names` (e.g. the registered solvers).
    void add_choice(const std::string &entry, std::string &value, const std::vector<std::string> &names,
                    const std::string &doc);

    [[noreturn]] void fail(const std::string &entry, const std::string &reason) const;
    // Whether the file or an override sets the entry (not merely its default).
    bool gives(const std::string &entry) const;

  private:
    // Declares, or reads the raw text of, one entry.
    bool        declare(const std::string &entry, const std::string &default_text, const std::string &pattern,
                        const std::string &doc);
    std::string text(const std::string &entry) const;
    std::string choose(const std::string &entry, const std::string &current, const std::vector<std::string> &names,
                       const std::string &doc);

    ParameterFile &file_;
    std::string    path_;
  };
} // namespace vibroimpact::io
