// HDF5 tables through the library's C API (the parallel build deal.II links; used serially).
// That build is not thread safe (libhdf5_openmpi.settings: "Threadsafety: no"), so every call
// into it, from whichever run's thread, holds one lock (cases written in threads at once).
#include <vibroimpact/io/hdf5_records.h>
#include <vibroimpact/io/write_error.h>

#include <hdf5.h>

#include <algorithm>
#include <cerrno>
#include <mutex>

namespace vibroimpact::io
{
  namespace
  {
    // 64 k values a chunk of a table: large enough to compress well, small enough that reading
    // one stretch of a long record touches little else.
    constexpr hsize_t chunk_values = 1 << 16;
    // 16 k values (128 kB) a chunk of an appended column: each is compressed as soon as the next
    // one begins (see append_rows), on the appending thread, so what is left to compress when
    // the file closes is at most one such chunk a column (for the history's 59, 7.5 MB).
    constexpr hsize_t appended_chunk_values = 1 << 14;

    // Recursive: close() closes the appended datasets through close_appended(), and the
    // public writers call write().
    std::recursive_mutex &hdf5_library()
    {
      static std::recursive_mutex m;
      return m;
    }

    void check(const bool ok, const std::filesystem::path &file)
    {
      if (!ok)
        throw WriteError(file, errno);
    }

    // The group `path` ("history", "frames/00012"), made with its parents if new.
    hid_t open_group(const hid_t file, const std::string &path)
    {
      if (H5Lexists(file, path.c_str(), H5P_DEFAULT) > 0)
        return H5Gopen2(file, path.c_str(), H5P_DEFAULT);
      const hid_t links = H5Pcreate(H5P_LINK_CREATE);
      H5Pset_create_intermediate_group(links, 1);
      const hid_t group = H5Gcreate2(file, path.c_str(), links, H5P_DEFAULT, H5P_DEFAULT);
      H5Pclose(links);
      return group;
    }
  } // namespace

  Hdf5Records::Hdf5Records(const std::filesystem::path &file)
    : file_(file)
  {
    const std::lock_guard<std::recursive_mutex> hdf5(hdf5_library());
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); // failures are reported as WriteError, not printed
    file_id_ = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    check(file_id_ >= 0, file_);
  }

  Hdf5Records::~Hdf5Records()
  {
    const std::lock_guard<std::recursive_mutex> hdf5(hdf5_library());
    if (file_id_ < 0)
      return;
    for (auto &[group, sets] : appended_) // an open dataset would keep the file open
      for (const hid_t set : sets)
        H5Dclose(set);
    if (H5Fclose(file_id_) < 0)
      note_write_failure(file_, errno);
  }

  // Chunked, shuffled (bytes of equal significance together, which doubles deflate's gain on
  // floating-point data) and deflated at a fast level; small frame arrays stay contiguous.
  void Hdf5Records::write(const std::string &group_name, const std::string &name, const long long type,
                          const void *data, const std::size_t n_rows, const std::size_t n_columns, const bool compress)
  {
    const std::lock_guard<std::recursive_mutex> hdf5(hdf5_library());
    const hsize_t dims[2] = {n_rows, n_columns};
    const int     rank    = n_columns == 1 ? 1 : 2;
    const hid_t   space   = H5Screate_simple(rank, dims, nullptr);
    const hid_t   layout  = H5Pcreate(H5P_DATASET_CREATE);
    if (compress && n_rows > 0)
      {
        const hsize_t chunk[2] = {std::clamp<hsize_t>(chunk_values / n_columns, 1, n_rows), n_columns};
        H5Pset_chunk(layout, rank, chunk);
        H5Pset_shuffle(layout);
        H5Pset_deflate(layout, 4);
      }
    const hid_t group = open_group(file_id_, group_name);
    const hid_t set   = group >= 0 ? H5Dcreate2(group, name.c_str(), type, space, H5P_DEFAULT, layout, H5P_DEFAULT) : -1;
    const bool  written = set >= 0 && (n_rows == 0 || H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0);
    if (set >= 0)
      H5Dclose(set);
    if (group >= 0)
      H5Gclose(group);
    H5Pclose(layout);
    H5Sclose(space);
    check(written, file_);
  }

  void Hdf5Records::write_column(const std::string &group, const std::string &name, const std::vector<double> &values)
  {
    write(group, name, H5T_NATIVE_DOUBLE, values.data(), values.size(), 1, true);
  }

  void Hdf5Records::write_matrix(const std::string &group, const std::string &name, const std::vector<double> &values,
                                 const std::size_t n_columns, const bool compress)
  {
    const std::lock_guard<std::recursive_mutex> hdf5(hdf5_library());
    write(group, name, H5T_NATIVE_DOUBLE, values.data(), values.size() / n_columns, n_columns, compress);
  }

  void Hdf5Records::write_matrix(const std::string &group, const std::string &name,
                                 const std::vector<unsigned int> &values, const std::size_t n_columns)
  {
    write(group, name, H5T_NATIVE_UINT, values.data(), values.size() / n_columns, n_columns, false);
  }

  void Hdf5Records::write_column(const std::string &group, const std::string &name,
                                 const std::vector<std::string> &values)
  {
    const std::lock_guard<std::recursive_mutex> hdf5(hdf5_library());
    std::vector<const char *> text;
    for (const auto &v : values)
      text.push_back(v.c_str());
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    try
      {
        write(group, name, type, text.data(), text.size(), 1, true);
      }
    catch (...)
      {
        H5Tclose(type);
        throw;
      }
    H5Tclose(type);
  }

  // Extendible datasets of one column each, made by the first call for the group, chunked,
  // shuffled and deflated as write() does, then grown block by block. The chunk being filled
  // stays in the dataset's chunk cache, sized for that one chunk and evicting full chunks first
  // (w0 = 1), so a chunk is compressed and written once, when the next one begins (with HDF5's
  // default 1 MB cache the full chunks waited for the file's close, after the run).
  void Hdf5Records::append_rows(const std::string &group_name, const std::vector<std::string> &names,
                                const double *values, const std::size_t n_rows)
  {
    const std::lock_guard<std::recursive_mutex> hdf5(hdf5_library());
    auto &sets = appended_[group_name];
    if (sets.empty())
      {
        const hid_t group = open_group(file_id_, group_name);
        check(group >= 0, file_);
        const hsize_t now = 0, most = H5S_UNLIMITED, chunk = appended_chunk_values;
        const hid_t   access = H5Pcreate(H5P_DATASET_ACCESS);
        H5Pset_chunk_cache(access, 101, 3 * chunk * sizeof(double) / 2, 1.0); // one chunk, not two
        for (const auto &name : names)
          {
            const hid_t space  = H5Screate_simple(1, &now, &most);
            const hid_t layout = H5Pcreate(H5P_DATASET_CREATE);
            H5Pset_chunk(layout, 1, &chunk);
            H5Pset_shuffle(layout);
            H5Pset_deflate(layout, 4);
            const hid_t set = H5Dcreate2(group, name.c_str(), H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, layout, access);
            H5Pclose(layout);
            H5Sclose(space);
            if (set < 0)
              H5Gclose(group), H5Pclose(access);
            check(set >= 0, file_);
            sets.push_back(set);
          }
        H5Pclose(access);
        H5Gclose(group);
      }
    if (n_rows == 0)
      return;
    const hsize_t       width = names.size(), count = n_rows;
    std::vector<double> column(n_rows);
    for (std::size_t c = 0; c < sets.size(); ++c)
      {
        for (std::size_t k = 0; k < n_rows; ++k)
          column[k] = values[k * width + c];
        hsize_t     start = 0;
        const hid_t old   = H5Dget_space(sets[c]);
        H5Sget_simple_extent_dims(old, &start, nullptr);
        H5Sclose(old);
        const hsize_t grown = start + count;
        bool          ok    = H5Dset_extent(sets[c], &grown) >= 0;
        const hid_t   file_space = H5Dget_space(sets[c]);
        const hid_t   memory     = H5Screate_simple(1, &count, nullptr);
        ok = ok && H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &start, nullptr, &count, nullptr) >= 0 &&
             H5Dwrite(sets[c], H5T_NATIVE_DOUBLE, memory, file_space, H5P_DEFAULT, column.data()) >= 0;
        H5Sclose(memory);
        H5Sclose(file_space);
        check(ok, file_);
      }
  }

  void Hdf5Records::close_appended()
  {
    const std::lock_guard<std::recursive_mutex> hdf5(hdf5_library());
    bool ok = true;
    for (auto &[group, sets] : appended_)
      for (const hid_t set : sets)
        ok = H5Dclose(set) >= 0 && ok;
    appended_.clear();
    check(ok, file_);
  }

  void Hdf5Records::close()
  {
    const std::lock_guard<std::recursive_mutex> hdf5(hdf5_library());
    close_appended();
    const bool flushed = H5Fflush(file_id_, H5F_SCOPE_GLOBAL) >= 0;
    const bool closed  = H5Fclose(file_id_) >= 0;
    file_id_           = -1;
    check(flushed && closed, file_);
  }
  void Hdf5Records::write_table(const std::string &group, const CsvTable &table)
  {
    for (const auto &column : table.columns)
      if (column.kind == CsvTable::Column::Kind::text)
        write_column(group, column.name, column.cells);
      else
        write_column(group, column.name, column.numbers);
  }
} // namespace vibroimpact::io
