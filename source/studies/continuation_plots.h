// The continuation study's plots, drawn by gnuplot from branch.csv: fep.png (frequency against
// energy, each family's stable and unstable orbits, tongue points) and frc.png (each probe's
// amplitude against the forcing frequency), the located special points marked by kind.
#pragma once

#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/periodic/continuation.h>

#include <vector>

namespace vibroimpact::studies
{
  // fep.png from branch.csv's `table` (its column tongue followed by special).
  void plot_frequency_energy(io::OutputFolder &out, const std::vector<periodic::Branch> &branches,
                             const std::vector<double> &linear_frequencies, bool forced, const io::CsvTable &table);
  // frc.png from branch.csv's `table` (its amplitude_<probe> columns).
  void plot_forced_response(io::OutputFolder &out, const io::CsvTable &table,
                            const std::vector<periodic::Branch> &branches);
} // namespace vibroimpact::studies
