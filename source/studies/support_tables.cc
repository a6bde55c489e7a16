// The support statistics' CSV files as tables (see the header): the one list of each file's
// columns, for the writers and the Python module.
#include <vibroimpact/studies/support_tables.h>

#include "spatial_statistics.h"

#include <algorithm>
#include <cmath>

namespace vibroimpact::studies
{
  namespace
  {
    // A table whose first column is text (the support) and the rest real.
    io::CsvTable named_rows(const std::vector<std::string> &columns)
    {
      io::CsvTable table;
      table.add(columns.front(), io::CsvTable::Column::Kind::text);
      for (std::size_t c = 1; c < columns.size(); ++c)
        table.add(columns[c]);
      return table;
    }

    void add_named_row(io::CsvTable &table, const std::string &name, const std::vector<double> &values)
    {
      table.columns[0].cells.push_back(name);
      for (std::size_t c = 0; c < values.size(); ++c)
        table.columns[c + 1].numbers.push_back(values[c]);
    }
  } // namespace

  std::vector<std::pair<std::string, double>> statistic_values(const SupportStatistics &s, const bool in_space)
  {
    std::vector<std::pair<std::string, double>> values{
      {"duration", s.duration},       {"impacts", double(s.impacts)},   {"impact_rate", s.impact_rate},
      {"contact_fraction", s.contact_fraction}, {"mean_force", s.mean_force}, {"rms_force", s.rms_force},
      {"peak_force", s.peak_force},   {"impact_work", s.impact_work},   {"work_rate", s.work_rate}};
    if (in_space)
      values.insert(values.end(), {{"mean_shock_duration", s.mean_shock_duration},
                                   {"mean_rebound_duration", s.mean_rebound_duration},
                                   {"mean_tangential_force", s.mean_tangential_force},
                                   {"rms_tangential_force", s.rms_tangential_force},
                                   {"peak_tangential_force", s.peak_tangential_force},
                                   {"friction_work", s.friction_work},
                                   {"wear_work", s.wear_work},
                                   {"wear_work_rate", s.wear_work_rate}});
    return values;
  }

  std::vector<std::pair<std::string, const PowerSpectrum *>> named_spectra(const std::vector<SupportStatistics> &statistics)
  {
    std::vector<std::pair<std::string, const PowerSpectrum *>> spectra;
    for (const auto &s : statistics)
      if (s.in_space)
        {
          spectra.emplace_back("psd_" + s.name + "_e1", &s.displacement_psd);
          spectra.emplace_back("psd_" + s.name + "_e2", &s.second_psd);
        }
      else
        spectra.emplace_back("psd_" + s.name, &s.displacement_psd);
    return spectra;
  }

  io::CsvTable statistics_table(const std::vector<SupportStatistics> &statistics)
  {
    const bool               spatial = any_in_space(statistics);
    std::vector<std::string> columns{"support"};
    for (const auto &[name, value] : statistic_values(SupportStatistics{}, spatial))
      columns.push_back(name);
    auto table = named_rows(columns);
    for (const auto &s : statistics)
      {
        std::vector<double> row;
        for (const auto &[name, value] : statistic_values(s, spatial))
          row.push_back(value);
        add_named_row(table, s.name, row);
      }
    return table;
  }

  io::CsvTable wear_sectors_table(const std::vector<SupportStatistics> &statistics)
  {
    auto table = named_rows({"support", "sector", "angle_from_deg", "angle_to_deg", "wear_work", "wear_work_rate",
                             "tube_wear_volume", "tube_wear_depth", "support_wear_volume", "support_wear_depth"});
    for (const auto &s : statistics)
      for (std::size_t k = 0; k < s.sectors.size(); ++k)
        {
          const auto &w = s.sectors[k];
          add_named_row(table, s.name,
                        {double(k), w.angle_from, w.angle_to, w.wear_work, w.wear_work_rate, w.tube_volume,
                         w.tube_depth, w.support_volume, w.support_depth});
        }
    return table;
  }

  io::CsvTable spectra_table(const std::vector<SupportStatistics> &statistics)
  {
    const auto               spectra = named_spectra(statistics);
    std::vector<std::string> names{"frequency"};
    for (const auto &[name, psd] : spectra)
      names.push_back(name);
    io::CsvTable table(names);
    if (statistics.empty())
      return table;
    const auto &f = statistics.front().displacement_psd.frequency;
    for (std::size_t k = 1; k < f.size(); ++k)
      {
        std::vector<double> row{f[k]};
        for (const auto &[name, psd] : spectra)
          row.push_back(k < psd->density.size() ? psd->density[k] : NAN);
        table.add_row(row);
      }
    return table;
  }

  io::CsvTable force_pdf_table(const std::vector<SupportStatistics> &statistics)
  {
    double top = 0.0;
    for (const auto &s : statistics)
      for (const double p : s.impact_peaks)
        top = std::max(top, p);
    std::vector<std::string> names{"force"};
    for (const auto &s : statistics)
      names.push_back("pdf_" + s.name);
    io::CsvTable       table(names);
    const unsigned int bins  = 20;
    const double       width = top > 0 ? top / bins : 1.0;
    for (unsigned int b = 0; b < bins; ++b)
      {
        std::vector<double> row{(b + 0.5) * width};
        for (const auto &s : statistics)
          {
            const auto n = std::count_if(s.impact_peaks.begin(), s.impact_peaks.end(), [&](const double p) {
              return std::min<unsigned>(static_cast<unsigned>(p / width), bins - 1) == b;
            });
            row.push_back(s.impact_peaks.empty() ? 0.0 : n / (s.impact_peaks.size() * width));
          }
        table.add_row(row);
      }
    return table;
  }

  NamedTables statistics_tables(const std::vector<SupportStatistics> &statistics)
  {
    NamedTables tables;
    tables.emplace_back("statistics.csv", statistics_table(statistics));
    if (statistics.empty())
      return tables;
    if (any_in_space(statistics))
      tables.emplace_back("wear_sectors.csv", wear_sectors_table(statistics));
    tables.emplace_back("spectra.csv", spectra_table(statistics));
    tables.emplace_back("force_pdf.csv", force_pdf_table(statistics));
    return tables;
  }

  SupportForcesRecord support_forces_record(const model::StructuralModel &model,
                                            const integrators::ResponseHistory &history)
  {
    SupportForces       forces(model, history.columns());
    SupportForcesRecord record{io::CsvTable(SupportForces::columns(model)), {}};
    for (std::size_t k = 0; k < history.n_rows(); ++k)
      record.table.add_row(forces.row(history.row(k)));
    record.curves = forces.curves();
    return record;
  }

  io::CsvTable support_orbits_table(const model::StructuralModel &model, const integrators::ResponseHistory &history)
  {
    OrbitOccupancy      occupancy(model.spatial_supports);
    const auto          time = history.column("time");
    for (std::size_t s = 0; s < model.spatial_supports.size(); ++s)
      {
        const auto r1 = history.column("r1_" + model.spatial_supports[s].name);
        const auto r2 = history.column("r2_" + model.spatial_supports[s].name);
        for (std::size_t k = 0; k < time.size(); ++k)
          occupancy.add(s, r1[k], r2[k], k > 0 ? time[k] - time[k - 1] : 0.0);
      }
    return occupancy.table();
  }

  NamedTables support_tables(const model::StructuralModel &model, const integrators::ResponseHistory &history,
                             const std::vector<SupportStatistics> &statistics)
  {
    NamedTables tables;
    if (statistics.empty())
      return tables;
    if (!model.supports.empty())
      tables.emplace_back("support_forces.csv", support_forces_record(model, history).table);
    if (!model.spatial_supports.empty())
      tables.emplace_back("support_orbits.csv", support_orbits_table(model, history));
    for (auto &named : statistics_tables(statistics))
      tables.push_back(std::move(named));
    return tables;
  }
} // namespace vibroimpact::studies
