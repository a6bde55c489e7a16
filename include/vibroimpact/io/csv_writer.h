// Comma-separated tables with a header row (history.csv, modes.csv, branch.csv, ...). Every row
// checks the stream: a full disk or a file-size limit throws io::WriteError naming the file, and a
// failure of the last flush (in the destructor) is noted for OutputFolder::commit to throw.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace vibroimpact::io
{
  class CsvWriter
  {
  public:
    CsvWriter(const std::filesystem::path &file, std::vector<std::string> columns);
    ~CsvWriter();
    CsvWriter(const CsvWriter &) = delete;
    CsvWriter &operator=(const CsvWriter &) = delete;

    // Flushes and closes the file; throws io::WriteError if any of it did not reach the disk.
    void close();

    // One row; its length must match the header. Each number is the shortest text that reads
    // back as the same double (std::to_chars), e.g. 0.1 rather than 0.10000000000000001.
    void write_row(const std::vector<double> &values);
    // One row of text cells (names, kinds); its length must match the header.
    void write_cells(const std::vector<std::string> &cells);

    // A number as write_row writes it (shortest round-trip; an empty field for nan and inf).
    static std::string format(double value);

    const std::vector<std::string> &columns() const { return columns_; }

  private:
    std::filesystem::path    file_;
    std::vector<std::string> columns_;
    std::vector<char>        buffer_; // the stream's buffer (declared before out_, which uses it)
    std::ofstream            out_;
    std::string              line_; // the row being formed, reused
  };
} // namespace vibroimpact::io
