// Comma-separated tables with a header row (history.csv, modes.csv, branch.csv, ...).
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

    // One row; its length must match the header. Written with round-trip precision.
    void write_row(const std::vector<double> &values);

    const std::vector<std::string> &columns() const { return columns_; }

  private:
    std::filesystem::path    file_;
    std::vector<std::string> columns_;
    std::ofstream            out_;
  };
} // namespace vibroimpact::io
