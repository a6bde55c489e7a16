#include <vibroimpact/io/parameter_file.h>
#include <vibroimpact/io/parameter_section.h>

#include <deal.II/base/parameter_handler.h>

#include <cmath>
#include <cstdio>

namespace vibroimpact::io
{
  namespace
  {
    std::string format(const double v)
    {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%g", v);
      return buffer;
    }
  } // namespace

  ParameterSection::ParameterSection(ParameterFile &file, const std::string &name)
    : file_(file)
    , prm_(file.handler())
    , name_(name)
  {
    prm_.enter_subsection(name);
  }

  ParameterSection::~ParameterSection()
  {
    prm_.leave_subsection();
  }

  void ParameterSection::fail(const std::string &entry, const std::string &reason) const
  {
    file_.fail(name_ + "/" + entry, reason);
  }

  std::string ParameterSection::text(const std::string &entry) const
  {
    return trim(prm_.get(entry));
  }

  bool ParameterSection::flag(const std::string &entry) const
  {
    return prm_.get_bool(entry);
  }

  double ParameterSection::number(const std::string &entry) const
  {
    const double value = prm_.get_double(entry);
    if (!std::isfinite(value))
      fail(entry, "must be a finite number, got " + text(entry));
    return value;
  }

  double ParameterSection::positive(const std::string &entry) const
  {
    const double value = number(entry);
    if (!(value > 0))
      fail(entry, "must be positive, got " + text(entry));
    return value;
  }

  double ParameterSection::non_negative(const std::string &entry) const
  {
    const double value = number(entry);
    if (value < 0)
      fail(entry, "must not be negative, got " + text(entry));
    return value;
  }

  double ParameterSection::in_range(const std::string &entry, const double low, const double high) const
  {
    const double value = number(entry);
    if (value < low || value > high)
      fail(entry, "must lie in [" + format(low) + ", " + format(high) + "], got " + text(entry));
    return value;
  }

  unsigned int ParameterSection::count(const std::string &entry, const unsigned int minimum) const
  {
    const long value = prm_.get_integer(entry);
    if (value < static_cast<long>(minimum))
      fail(entry, "must be at least " + std::to_string(minimum) + ", got " + text(entry));
    return static_cast<unsigned int>(value);
  }

  std::array<double, 3> ParameterSection::vector3(const std::string &entry) const
  {
    const auto items = split_list(text(entry));
    if (items.size() != 3)
      fail(entry, "needs three comma-separated numbers, got '" + text(entry) + "'");
    std::array<double, 3> v{};
    for (unsigned int i = 0; i < 3; ++i)
      {
        std::size_t used  = 0;
        bool        valid = true;
        try
          {
            v[i]  = std::stod(items[i], &used);
            valid = used == items[i].size() && std::isfinite(v[i]);
          }
        catch (const std::exception &)
          {
            valid = false;
          }
        if (!valid)
          fail(entry, "'" + items[i] + "' is not a finite number");
      }
    return v;
  }
} // namespace vibroimpact::io
