// CSV tables as data (see the header), written through CsvWriter.
#include <vibroimpact/io/csv_table.h>
#include <vibroimpact/io/csv_writer.h>

#include <cstdint>
#include <stdexcept>

namespace vibroimpact::io
{
  CsvTable::CsvTable(const std::vector<std::string> &names)
  {
    for (const auto &name : names)
      add(name);
  }

  CsvTable::Column &CsvTable::add(std::string name, const Column::Kind kind)
  {
    Column column;
    column.name = std::move(name);
    column.kind = kind;
    columns.push_back(std::move(column));
    return columns.back();
  }

  void CsvTable::add_row(const std::vector<double> &values)
  {
    if (values.size() != columns.size())
      throw std::logic_error("CSV table row of " + std::to_string(values.size()) + " values for " +
                             std::to_string(columns.size()) + " columns");
    for (std::size_t k = 0; k < values.size(); ++k)
      columns[k].numbers.push_back(values[k]);
  }

  std::size_t CsvTable::n_rows() const
  {
    if (columns.empty())
      return 0;
    const auto &c = columns.front();
    return c.kind == Column::Kind::text ? c.cells.size() : c.numbers.size();
  }

  void write_csv_table(const std::filesystem::path &file, const CsvTable &table)
  {
    std::vector<std::string> names;
    bool                     all_real = true;
    for (const auto &c : table.columns)
      {
        names.push_back(c.name);
        all_real = all_real && c.kind == CsvTable::Column::Kind::real;
      }
    CsvWriter                csv(file, names);
    const std::size_t        n = table.n_rows();
    std::vector<double>      values(names.size());
    std::vector<std::string> cells(names.size());
    for (std::size_t r = 0; r < n; ++r)
      {
        if (all_real) // the fast path of purely numeric tables
          {
            for (std::size_t k = 0; k < values.size(); ++k)
              values[k] = table.columns[k].numbers.at(r);
            csv.write_row(values);
            continue;
          }
        for (std::size_t k = 0; k < cells.size(); ++k)
          {
            const auto &c = table.columns[k];
            cells[k]      = c.kind == CsvTable::Column::Kind::text  ? c.cells.at(r)
                            : c.kind == CsvTable::Column::Kind::count ? std::to_string(std::uint64_t(c.numbers.at(r)))
                                                                      : CsvWriter::format(c.numbers.at(r));
          }
        csv.write_cells(cells);
      }
  }
} // namespace vibroimpact::io
