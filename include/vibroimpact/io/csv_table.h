// A CSV file as data: named columns of numbers, counts or text. The studies build one per file
// they write, write_csv_table writes it and the Python module hands the same columns over, so
// that each file's column list exists once.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace vibroimpact::io
{
  struct CsvTable
  {
    struct Column
    {
      // real: shortest round-trip (CsvWriter::format); count: an unsigned integer in full
      // (seeds, indices); text: names and kinds.
      enum class Kind
      {
        real,
        count,
        text
      };
      std::string              name;
      Kind                     kind = Kind::real;
      std::vector<double>      numbers; // real and count
      std::vector<std::string> cells;   // text
    };
    std::vector<Column> columns;

    CsvTable() = default;
    // A table of real columns.
    explicit CsvTable(const std::vector<std::string> &names);

    // A column (the reference lasts until the next add).
    Column     &add(std::string name, Column::Kind kind = Column::Kind::real);
    // A row of a table of real columns.
    void        add_row(const std::vector<double> &values);
    std::size_t n_rows() const;
  };

  // The header and every row, as CsvWriter writes them (io::WriteError on failure).
  void write_csv_table(const std::filesystem::path &file, const CsvTable &table);
} // namespace vibroimpact::io
