// CSV tables written with shortest round-trip numbers (std::to_chars) through a large stream
// buffer, every write checked.
#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/io/write_error.h>

#include <charconv>
#include <cerrno>
#include <cmath>
#include <stdexcept>

namespace vibroimpact::io
{
  namespace
  {
    // A history of 10^4 rows of 40 columns is 7 MB: a 1 MB buffer makes it 7 writes, not 900.
    constexpr std::size_t stream_buffer_bytes = 1 << 20;

    // Appends `value` as the shortest text that reads back as the same double (nothing for nan
    // and inf, see format()).
    void append_number(std::string &line, const double value)
    {
      if (!std::isfinite(value))
        return;
      char       buffer[32];
      const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
      line.append(buffer, end);
    }
  } // namespace

  CsvWriter::CsvWriter(const std::filesystem::path &file, std::vector<std::string> columns)
    : file_(file)
    , columns_(std::move(columns))
    , buffer_(stream_buffer_bytes)
  {
    out_.rdbuf()->pubsetbuf(buffer_.data(), buffer_.size()); // before open(), or libstdc++ ignores it
    out_.open(file);
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
    std::string text;
    append_number(text, value);
    return text;
  }

  void CsvWriter::write_row(const std::vector<double> &values)
  {
    if (values.size() != columns_.size())
      throw std::logic_error("CSV row of " + std::to_string(values.size()) + " values for " +
                             std::to_string(columns_.size()) + " columns in " + file_.string());
    line_.clear();
    for (std::size_t i = 0; i < values.size(); ++i)
      {
        if (i > 0)
          line_ += ',';
        append_number(line_, values[i]);
      }
    line_ += '\n';
    out_.write(line_.data(), std::streamsize(line_.size()));
    if (!out_) // the buffer's last flush failed: the disk is full or a size limit reached
      throw WriteError(file_, errno);
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
