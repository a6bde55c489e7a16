// Records as HDF5 (Simulation/Output format = hdf5): one file whose groups are the CSV tables
// (history, events, statistics) and whose datasets are their columns, named as the CSV's
// columns, each 1-D, chunked and deflate-compressed, so h5py, MATLAB or ParaView read one column
// without the rest. A failed write throws io::WriteError naming the file (io/write_error.h), so
// OutputFolder commits nothing. The HDF5 library stays inside hdf5_records.cc.
#pragma once

#include <vibroimpact/io/csv_table.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace vibroimpact::io
{
  class Hdf5Records
  {
  public:
    // Creates (or truncates) the file.
    explicit Hdf5Records(const std::filesystem::path &file);
    ~Hdf5Records();
    Hdf5Records(const Hdf5Records &) = delete;
    Hdf5Records &operator=(const Hdf5Records &) = delete;

    // A column of numbers, /group/name (the group, and any group above it, made on first use).
    void write_column(const std::string &group, const std::string &name, const std::vector<double> &values);
    // A rows x n_columns table of numbers stored row by row (points × 3 of a frame).
    void write_matrix(const std::string &group, const std::string &name, const std::vector<double> &values,
                      std::size_t n_columns, bool compress = true);
    // The same for indices (cell connectivity, body numbers).
    void write_matrix(const std::string &group, const std::string &name, const std::vector<unsigned int> &values,
                      std::size_t n_columns);
    // A column of text (contact names, event kinds), variable-length UTF-8 strings.
    void write_column(const std::string &group, const std::string &name, const std::vector<std::string> &values);

    // A CSV file's table as the group `group`: a column per CSV column, of the same name and
    // values (text as text, counts and reals as numbers).
    void write_table(const std::string &group, const CsvTable &table);

    // Rows appended to the columns `names` of `group`, one extendible dataset a column (made by
    // the group's first call, even with no row): `values` holds n_rows rows of names.size()
    // values, row after row. Always the same names for a group.
    void append_rows(const std::string &group, const std::vector<std::string> &names, const double *values,
                     std::size_t n_rows);

    // Closes the datasets append_rows made (their last chunks compressed and written), on the
    // thread that appended to them; close() does it otherwise. Throws io::WriteError.
    void close_appended();

    // Flushes and closes; throws io::WriteError if the data did not reach the disk.
    void close();

  private:
    void write(const std::string &group, const std::string &name, long long type, const void *data,
               std::size_t n_rows, std::size_t n_columns, bool compress);

    std::filesystem::path                                  file_;
    long long                                              file_id_ = -1;
    std::map<std::string, std::vector<long long>>          appended_; // group: its open datasets
  };
} // namespace vibroimpact::io
