// The support statistics' files: their CSV tables (support_tables.h) written, as the group of
// records.h5 too, and their plots drawn by gnuplot. Computing is support_statistics.h's.
#pragma once

#include <vibroimpact/integrators/response_history.h>
#include <vibroimpact/io/gnuplot.h>
#include <vibroimpact/io/hdf5_records.h>
#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/studies/support_statistics.h>

#include <filesystem>
#include <vector>

namespace vibroimpact::studies
{
  // statistics.csv: one row per support (DESIGN.md; with supports in space, their columns
  // appended); wear_sectors.csv (supports in space: support, sector and SectorWear's figures);
  // spectra.csv (frequency, psd_<support>; in space psd_<support>_e1, psd_<support>_e2);
  // force_pdf.csv (force, pdf_<support>: a density of the impact peak forces, 20 common bins);
  // support_forces.csv (time, u_<support>, force_<support>); and, if gnuplot is there,
  // support_forces.png (supports 1 and 3, the layout of the paper's Figs 4–7), spectra.png,
  // force_pdf.png and, with supports in space, support_orbits.csv (support, r1, r2, time: the time
  // each support's orbit spends in each pixel of a 200 × 200 grid over its panel, for the pixels
  // it visits; the accumulator with a folder gathers it row by row and writes it at finish()) and
  // support_orbits.png (that occupancy in colour inside the clearance contour, a panel a
  // support). support_forces.csv is of planar supports.
  void write_support_statistics(const std::filesystem::path &folder, const model::StructuralModel &model,
                                const integrators::ResponseHistory   &history,
                                const std::vector<SupportStatistics> &statistics, bool plots = true);
  // The same but support_forces.csv and support_orbits.csv (a streamed run wrote the first as the
  // rows came, with the curves of its plot, and its accumulator tallied the second's table: the
  // simulation study writes both; support_orbits.png is drawn if the second is in `folder`).
  // The plots are drawn while the caller goes on: wait() for them (or let them be destroyed)
  // before the folder is committed.
  std::vector<io::GnuplotRun> write_support_summaries(const std::filesystem::path          &folder,
                                                      const model::StructuralModel          &model,
                                                      const std::vector<SupportStatistics>  &statistics,
                                                      const std::vector<SupportForcesCurve> &curves,
                                                      bool                                   plots = true);

  // statistics.csv's table as the group /statistics of an HDF5 file (its columns as datasets),
  // and wear_sectors.csv's as /wear_sectors.
  void write_statistics_hdf5(io::Hdf5Records &file, const std::vector<SupportStatistics> &statistics);
} // namespace vibroimpact::studies
