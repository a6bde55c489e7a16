// Reads the entries of one subsection of a ParameterFile and checks them, naming
// "Section/Entry" in the one-line InputError of a value out of range.
#pragma once

#include <array>
#include <map>
#include <string>

namespace dealii
{
  class ParameterHandler;
}

namespace vibroimpact::io
{
  class ParameterFile;

  class ParameterSection
  {
  public:
    // Enters the subsection; the destructor leaves it (also when a check throws).
    ParameterSection(ParameterFile &file, const std::string &name);
    ~ParameterSection();
    ParameterSection(const ParameterSection &) = delete;
    ParameterSection &operator=(const ParameterSection &) = delete;

    [[noreturn]] void fail(const std::string &entry, const std::string &reason) const;

    std::string           text(const std::string &entry) const;
    bool                  flag(const std::string &entry) const;
    double                number(const std::string &entry) const; // finite
    double                positive(const std::string &entry) const;
    double                non_negative(const std::string &entry) const;
    double                in_range(const std::string &entry, double low, double high) const;
    unsigned int          count(const std::string &entry, unsigned int minimum) const;
    std::array<double, 3> vector3(const std::string &entry) const;

    template <typename Enum>
    Enum choice(const std::string &entry, const std::map<std::string, Enum> &options) const
    {
      const std::string value = text(entry);
      const auto        it    = options.find(value);
      if (it != options.end())
        return it->second;
      std::string names;
      for (const auto &option : options)
        names += (names.empty() ? "" : "|") + option.first;
      fail(entry, "must be one of " + names + ", got '" + value + "'");
    }

  private:
    ParameterFile            &file_;
    dealii::ParameterHandler &prm_;
    std::string               name_;
  };
} // namespace vibroimpact::io
