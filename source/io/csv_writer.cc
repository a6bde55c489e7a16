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

  std::string CsvWriter::format(const double value)
  {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    return buffer;
  }

  void CsvWriter::write_row(const std::vector<double> &values)
  {
    std::vector<std::string> cells;
    cells.reserve(values.size());
    for (const double v : values)
      cells.push_back(format(v));
    write_cells(cells);
  }

  void CsvWriter::write_cells(const std::vector<std::string> &cells)
  {
    if (cells.size() != columns_.size())
      throw std::logic_error("CSV row of " + std::to_string(cells.size()) + " values for " +
                             std::to_string(columns_.size()) + " columns in " + file_.string());
    for (std::size_t i = 0; i < cells.size(); ++i)
      out_ << (i ? "," : "") << cells[i];
    out_ << '\n';
  }
} // namespace vibroimpact::io
