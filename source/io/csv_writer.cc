#include <vibroimpact/io/csv_writer.h>

#include <cstdio>
#include <stdexcept>

namespace vibroimpact::io
{
  CsvWriter::CsvWriter(const std::filesystem::path &file, std::vector<std::string> columns)
    : file_(file)
    , columns_(std::move(columns))
    , out_(file)
  {
    if (!out_)
      throw std::runtime_error("cannot write " + file.string());
    for (std::size_t i = 0; i < columns_.size(); ++i)
      out_ << (i ? "," : "") << columns_[i];
    out_ << '\n';
  }

  void CsvWriter::write_row(const std::vector<double> &values)
  {
    if (values.size() != columns_.size())
      throw std::logic_error("CSV row of " + std::to_string(values.size()) + " values for " +
                             std::to_string(columns_.size()) + " columns in " + file_.string());
    char buffer[32];
    for (std::size_t i = 0; i < values.size(); ++i)
      {
        std::snprintf(buffer, sizeof buffer, "%.17g", values[i]);
        out_ << (i ? "," : "") << buffer;
      }
    out_ << '\n';
  }
} // namespace vibroimpact::io
