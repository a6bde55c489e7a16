// CSV tables written with round-trip precision, every write checked.
#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/io/write_error.h>

#include <cerrno>
#include <cmath>
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
      throw WriteError(file, errno);
    for (std::size_t i = 0; i < columns_.size(); ++i)
      out_ << (i ? "," : "") << columns_[i];
    out_ << '\n';
    if (!out_)
      throw WriteError(file_, errno);
  }

  CsvWriter::~CsvWriter()
  {
    if (!out_.is_open())
      return;
    out_.close();
    if (out_.fail())
      note_write_failure(file_, errno);
  }

  void CsvWriter::close()
  {
    check_written(out_, file_);
    out_.close();
    if (out_.fail())
      throw WriteError(file_, errno);
  }

  std::string CsvWriter::format(const double value)
  {
    // No value (a grazing gap of an orbit that never nears a contact, a column added after the
    // first rows) is an empty field: every CSV reader and gnuplot take it as missing, where
    // "inf" or "nan" would be read as a number by some and refused by others.
    if (!std::isfinite(value))
      return "";
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
    if (!out_) // the buffer's last flush failed: the disk is full or a size limit reached
      throw WriteError(file_, errno);
  }
} // namespace vibroimpact::io
