// The support statistics' CSV files as tables (io::CsvTable): statistics.csv, wear_sectors.csv,
// spectra.csv, force_pdf.csv from the statistics, and support_forces.csv, support_orbits.csv from
// a history held in memory. The writers (support_output.cc) and the Python module both take
// them from here, so that each file's columns are listed once.
#pragma once

#include <vibroimpact/integrators/response_history.h>
#include <vibroimpact/io/csv_table.h>
#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/studies/support_statistics.h>

#include <string>
#include <utility>
#include <vector>

namespace vibroimpact::studies
{
  // A file's name ("spectra.csv") and its table, in the order the command line writes them.
  using NamedTables = std::vector<std::pair<std::string, io::CsvTable>>;

  // support, then statistic_values()' columns (those of supports in space when any is one).
  io::CsvTable statistics_table(const std::vector<SupportStatistics> &statistics);
  // support, sector, angle_from_deg, angle_to_deg, wear_work, wear_work_rate, tube_wear_volume,
  // tube_wear_depth, support_wear_volume, support_wear_depth: a row per sector of a support in space.
  io::CsvTable wear_sectors_table(const std::vector<SupportStatistics> &statistics);
  // frequency, then named_spectra()' densities, on the first support's frequencies (all share the
  // row spacing and the segment), from the first bin above DC; NaN where a spectrum is shorter.
  io::CsvTable spectra_table(const std::vector<SupportStatistics> &statistics);
  // force, pdf_<support>: densities of the impact peak forces on 20 common bins.
  io::CsvTable force_pdf_table(const std::vector<SupportStatistics> &statistics);

  // The tables of the statistics themselves: statistics.csv always; with statistics also
  // wear_sectors.csv (supports in space), spectra.csv and force_pdf.csv.
  NamedTables statistics_tables(const std::vector<SupportStatistics> &statistics);

  // support_forces.csv from a history held in memory (the rows a streamed run writes as they
  // come, SupportForces) and the curves of its plot.
  struct SupportForcesRecord
  {
    io::CsvTable                    table;
    std::vector<SupportForcesCurve> curves;
  };
  SupportForcesRecord support_forces_record(const model::StructuralModel &model,
                                            const integrators::ResponseHistory &history);

  // support_orbits.csv from a history held in memory: the time per pixel of each support in
  // space's orbit, as a streamed run's accumulator tallies it.
  io::CsvTable support_orbits_table(const model::StructuralModel &model, const integrators::ResponseHistory &history);

  // Every support table of a run whose history is held in memory, as the command line writes
  // them (none without statistics): support_forces.csv (planar supports), support_orbits.csv
  // (supports in space), then statistics_tables().
  NamedTables support_tables(const model::StructuralModel &model, const integrators::ResponseHistory &history,
                             const std::vector<SupportStatistics> &statistics);
} // namespace vibroimpact::studies
