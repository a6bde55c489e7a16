// One binding per section (see io/parameter_section.h): an entry declared with its member's value
// as default before parsing, read back and checked after.
#include <vibroimpact/io/number_text.h>
#include <vibroimpact/io/parameter_file.h>
#include <vibroimpact/io/parameter_section.h>

#include <deal.II/base/parameter_handler.h>

#include <cmath>
#include <cstdio>
#include <limits>

namespace vibroimpact::io
{
  namespace
  {
    std::string format(const double v) { return number_text(v, 15); }

    // Reads a number the way deal.II's Double pattern accepts it; nullopt-like flag on failure.
    bool parse_number(const std::string &text, double &value)
    {
      try
        {
          std::size_t used = 0;
          value            = std::stod(text, &used);
          return used == text.size();
        }
      catch (const std::exception &)
        {
          return false;
        }
    }

    std::string join(const std::vector<std::string> &names, const std::string &separator)
    {
      std::string out;
      for (const auto &name : names)
        out += (out.empty() ? "" : separator) + name;
      return out;
    }

    // The patterns declared with deal.II: they reject a wrong type already at parse time with
    // the line number; the bounds are ours (one message style for every range).
    std::unique_ptr<dealii::Patterns::PatternBase> pattern_of(const std::string &kind)
    {
      if (kind == "double")
        return std::make_unique<dealii::Patterns::Double>();
      if (kind == "integer")
        return std::make_unique<dealii::Patterns::Integer>();
      if (kind == "bool")
        return std::make_unique<dealii::Patterns::Bool>();
      return std::make_unique<dealii::Patterns::Anything>();
    }
  } // namespace

  bool Bounds::contains(const double value) const
  {
    if (!std::isfinite(value))
      return false;
    const bool above = open_low ? value > low : value >= low;
    const bool below = open_high ? value < high : value <= high;
    return above && below;
  }

  std::string Bounds::describe() const
  {
    const bool no_low = low <= -1e308, no_high = high >= 1e308;
    if (no_low && no_high)
      return "must be a finite number";
    if (no_high)
      {
        if (low == 0)
          return open_low ? "must be positive" : "must not be negative";
        return std::string("must be ") + (open_low ? "above " : "at least ") + format(low);
      }
    return "must lie in " + std::string(open_low ? "(" : "[") + (no_low ? "-inf" : format(low)) + ", " +
           format(high) + (open_high ? ")" : "]");
  }

  Bounds finite()
  {
    return Bounds{};
  }
  Bounds positive()
  {
    Bounds b;
    b.low      = 0;
    b.open_low = true;
    return b;
  }
  Bounds non_negative()
  {
    Bounds b;
    b.low = 0;
    return b;
  }
  Bounds in_range(const double low, const double high)
  {
    Bounds b;
    b.low  = low;
    b.high = high;
    return b;
  }
  Bounds at_least(const double low)
  {
    Bounds b;
    b.low = low;
    return b;
  }

  ParameterSection::ParameterSection(ParameterFile &file, std::string path)
    : file_(file)
    , path_(std::move(path))
  {}

  bool ParameterSection::reading() const
  {
    return file_.parsed();
  }

  bool ParameterSection::gives(const std::string &entry) const { return file_.gives(path_ + "/" + entry); }

  void ParameterSection::fail(const std::string &entry, const std::string &reason) const
  {
    file_.fail(path_ + "/" + entry, reason);
  }

  bool ParameterSection::declare(const std::string &entry, const std::string &default_text,
                                 const std::string &pattern, const std::string &doc)
  {
    if (reading())
      {
        file_.read_.push_back(path_ + "/" + entry);
        return false;
      }
    auto &prm = file_.handler();
    prm.enter_subsection(path_);
    prm.declare_entry(entry, default_text, *pattern_of(pattern), doc);
    prm.leave_subsection();
    file_.declared_.push_back(path_ + "/" + entry);
    return true;
  }

  std::string ParameterSection::text(const std::string &entry) const
  {
    auto &prm = file_.handler();
    prm.enter_subsection(path_);
    const std::string value = trim(prm.get(entry));
    prm.leave_subsection();
    return value;
  }

  void ParameterSection::add(const std::string &entry, double &value, const Bounds &bounds, const std::string &doc)
  {
    if (declare(entry, format(value), "double", doc))
      return;
    const std::string t = text(entry);
    double            v = 0;
    if (!parse_number(t, v))
      fail(entry, "'" + t + "' is not a number");
    if (!bounds.contains(v))
      fail(entry, bounds.describe() + ", got " + t);
    value = v;
  }

  void ParameterSection::add(const std::string &entry, unsigned int &value, const unsigned int minimum,
                             const unsigned int maximum, const std::string &doc)
  {
    const std::string range =
      maximum == std::numeric_limits<unsigned int>::max() ?
        "must be at least " + std::to_string(minimum) :
        "must lie in [" + std::to_string(minimum) + ", " + std::to_string(maximum) + "]";
    if (declare(entry, std::to_string(value), "integer", doc))
      return;
    const std::string t = text(entry);
    long long         v = 0;
    try
      {
        std::size_t used = 0;
        v                = std::stoll(t, &used);
        if (used != t.size())
          fail(entry, "'" + t + "' is not an integer");
      }
    catch (const std::logic_error &)
      {
        fail(entry, "'" + t + "' is not an integer");
      }
    if (v < static_cast<long long>(minimum) || v > static_cast<long long>(maximum))
      fail(entry, range + ", got " + t);
    value = static_cast<unsigned int>(v);
  }

  void ParameterSection::add(const std::string &entry, bool &value, const std::string &doc)
  {
    if (declare(entry, value ? "true" : "false", "bool", doc))
      return;
    auto &prm = file_.handler();
    prm.enter_subsection(path_);
    value = prm.get_bool(entry);
    prm.leave_subsection();
  }

  void ParameterSection::add(const std::string &entry, std::string &value, const std::string &doc)
  {
    if (declare(entry, value, "text", doc))
      return;
    value = text(entry);
  }

  void ParameterSection::add(const std::string &entry, std::vector<double> &values, const Bounds &each,
                             const std::string &doc)
  {
    std::vector<std::string> defaults;
    for (const double v : values)
      defaults.push_back(format(v));
    if (declare(entry, join(defaults, ", "), "text", doc))
      return;
    values.clear();
    for (const auto &item : split_list(text(entry)))
      {
        double v = 0;
        if (!parse_number(item, v) || !each.contains(v))
          fail(entry, "each value " + each.describe() + ", got '" + item + "'");
        values.push_back(v);
      }
  }

  void ParameterSection::add(const std::string &entry, std::vector<std::string> &values, const std::string &doc,
                             const char separator)
  {
    if (declare(entry, join(values, std::string(1, separator) + " "), "text", doc))
      return;
    values = split_list(text(entry), separator);
  }

  void ParameterSection::add(const std::string &entry, std::array<double, 3> &value, const std::string &doc)
  {
    if (declare(entry, format(value[0]) + ", " + format(value[1]) + ", " + format(value[2]), "text", doc))
      return;
    const std::string t     = text(entry);
    const auto        items = split_list(t);
    if (items.size() != 3)
      fail(entry, "needs three comma-separated numbers, got '" + t + "'");
    for (unsigned int i = 0; i < 3; ++i)
      if (!parse_number(items[i], value[i]) || !std::isfinite(value[i]))
        fail(entry, "'" + items[i] + "' is not a finite number");
  }

  std::string ParameterSection::choose(const std::string &entry, const std::string &current,
                                       const std::vector<std::string> &names, const std::string &doc)
  {
    if (declare(entry, current, "text", doc + " (" + join(names, "|") + ")"))
      return current;
    const std::string t = text(entry);
    for (const auto &name : names)
      if (name == t)
        return t;
    fail(entry, "must be one of " + join(names, "|") + ", got '" + t + "'");
  }

  void ParameterSection::add_choice(const std::string &entry, std::string &value, const std::vector<std::string> &names,
                                    const std::string &doc)
  {
    value = choose(entry, value, names, doc);
  }
} // namespace vibroimpact::io
