// Ensembles of random-load records (see studies/support_ensemble.h): realizations with shifted
// seeds, their support statistics, ensemble means with Student-t confidence intervals.
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/indexed_shares.h>
#include <vibroimpact/studies/support_ensemble.h>

#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace vibroimpact::studies
{
  namespace
  {
    bool in_space(const std::vector<RealizationResult> &results)
    {
      if (results.empty())
        return false;
      const auto &first = results.front().statistics;
      return std::any_of(first.begin(), first.end(), [](const auto &s) { return s.in_space; });
    }

    // The statistics an ensemble estimates: statistics.csv's but the record's duration.
    std::vector<std::pair<std::string, double>> estimated(const SupportStatistics &s, const bool spatial)
    {
      auto values = statistic_values(s, spatial);
      values.erase(values.begin()); // duration
      return values;
    }

    std::vector<std::string> names_of(const bool spatial)
    {
      std::vector<std::string> names;
      for (const auto &[name, value] : estimated(SupportStatistics{}, spatial))
        names.push_back(name);
      return names;
    }

    std::vector<double> values_of(const SupportStatistics &s, const bool spatial)
    {
      std::vector<double> values;
      for (const auto &[name, value] : estimated(s, spatial))
        values.push_back(value);
      return values;
    }
  } // namespace

  unsigned int random_load_count(const structure::CaseDescription &description)
  {
    unsigned int n = 0;
    for (const auto &load : description.loads)
      n += load.time == structure::TimeDependence::random;
    return n;
  }

  structure::CaseDescription realization_description(const structure::CaseDescription &description,
                                                     const unsigned int                r)
  {
    structure::CaseDescription d     = description;
    const std::uint64_t        shift = std::uint64_t(r) * random_load_count(description);
    for (auto &load : d.loads)
      if (load.time == structure::TimeDependence::random)
        load.seed += shift;
    return d;
  }

  SupportEnsemble::SupportEnsemble(const structure::CaseDescription &description, EnsembleSettings settings,
                                   const integrators::Solver &solver, const integrators::RunControl &run)
    : description_(description)
    , settings_(std::move(settings))
    , solver_(solver.clone())
    , run_(run)
  {
    if (random_load_count(description_) == 0)
      throw io::InputError(settings_.filename, "Sweep/Parameter",
                           "a seed ensemble needs a random load (Load <name>/Time dependence = random)");
    if (description_.supports.empty())
      throw io::InputError(settings_.filename, "Sweep/Parameter",
                           "a seed ensemble measures clearance supports and the case has none (subsection Support "
                           "<name>)");
    if (!(run_.output_interval > 0))
      throw io::InputError(settings_.filename, "Simulation/Output interval",
                           "the support statistics need equally spaced rows: give an output interval > 0");
    if (!(settings_.skip_time < run_.final_time))
      throw io::InputError(settings_.filename, "Statistics/Start time",
                           "the record starts at or after the final time " + std::to_string(run_.final_time));
    run_.quiet = true;
  }

  RealizationResult SupportEnsemble::run_realization(const unsigned int r, const unsigned int rank) const
  {
    const auto start = std::chrono::steady_clock::now();
    const auto model = structure::build_model(realization_description(description_, r));
    const auto history = integrators::run_to_history(*solver_, model, run_);
    RealizationResult result;
    result.index      = r;
    result.rank       = rank;
    result.statistics =
      support_statistics(model, history, settings_.skip_time, settings_.psd_segment, wear_inputs(description_));
    for (auto &s : result.statistics)
      s.impact_peaks.clear();
    result.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  }

  std::vector<RealizationResult> SupportEnsemble::run_share(const unsigned int rank, const unsigned int n_ranks,
                                                            const std::function<void(unsigned int)> &done) const
  {
    if (n_ranks == 0 || rank >= n_ranks)
      throw std::invalid_argument("ensemble: rank " + std::to_string(rank) + " of " + std::to_string(n_ranks));
    return run_indexed_share<RealizationResult>(
      rank, n_ranks, settings_.realizations, [&](const unsigned int r) { return run_realization(r, rank); }, done);
  }

  EnsembleEstimate ensemble_estimate(const std::string &support, const std::string &statistic,
                                     const std::vector<double> &samples)
  {
    EnsembleEstimate e{support, statistic, unsigned(samples.size())};
    if (samples.empty())
      return e;
    for (const double x : samples)
      e.mean += x;
    e.mean /= samples.size();
    if (samples.size() < 2)
      return e;
    double square = 0;
    for (const double x : samples)
      square += (x - e.mean) * (x - e.mean);
    e.deviation = std::sqrt(square / (samples.size() - 1));
    const boost::math::students_t t(double(samples.size() - 1));
    e.half_width = boost::math::quantile(boost::math::complement(t, 0.025)) * e.deviation / std::sqrt(samples.size());
    return e;
  }

  std::vector<EnsembleEstimate> ensemble_estimates(const std::vector<RealizationResult> &results)
  {
    std::vector<EnsembleEstimate> estimates;
    if (results.empty())
      return estimates;
    const bool spatial = in_space(results);
    const auto names   = names_of(spatial);
    for (std::size_t p = 0; p < results.front().statistics.size(); ++p)
      {
        const auto &support = results.front().statistics[p];
        for (std::size_t q = 0; q < names.size(); ++q)
          {
            std::vector<double> samples;
            for (const auto &r : results)
              samples.push_back(values_of(r.statistics.at(p), spatial)[q]);
            estimates.push_back(ensemble_estimate(support.name, names[q], samples));
          }
        // A support in space's wear work rate per sector (wear_sectors.csv's), the records' mean.
        for (std::size_t k = 0; k < support.sectors.size(); ++k)
          {
            std::vector<double> samples;
            for (const auto &r : results)
              samples.push_back(r.statistics.at(p).sectors.at(k).wear_work_rate);
            estimates.push_back(ensemble_estimate(support.name, "wear_work_rate_sector_" + std::to_string(k), samples));
          }
      }
    return estimates;
  }

  io::CsvTable realizations_table(const std::vector<RealizationResult> &results,
                                  const unsigned int seeds_per_realization)
  {
    using Kind = io::CsvTable::Column::Kind;
    io::CsvTable table;
    table.add("realization", Kind::count);
    table.add("seed_shift", Kind::count);
    table.add("support", Kind::text);
    const bool spatial = in_space(results);
    for (const auto &name : names_of(spatial))
      table.add(name);
    for (const auto &r : results)
      for (const auto &s : r.statistics)
        {
          table.columns[0].numbers.push_back(double(r.index));
          table.columns[1].numbers.push_back(double(std::uint64_t(r.index) * seeds_per_realization));
          table.columns[2].cells.push_back(s.name);
          const auto values = values_of(s, spatial);
          for (std::size_t q = 0; q < values.size(); ++q)
            table.columns[3 + q].numbers.push_back(values[q]);
        }
    return table;
  }

  io::CsvTable ensemble_table(const std::vector<EnsembleEstimate> &estimates)
  {
    using Kind = io::CsvTable::Column::Kind;
    io::CsvTable table;
    table.add("support", Kind::text);
    table.add("statistic", Kind::text);
    table.add("realizations", Kind::count);
    for (const char *name : {"mean", "deviation", "ci95_low", "ci95_high"})
      table.add(name);
    for (const auto &e : estimates)
      {
        table.columns[0].cells.push_back(e.support);
        table.columns[1].cells.push_back(e.statistic);
        const double values[5] = {double(e.samples), e.mean, e.deviation, e.mean - e.half_width, e.mean + e.half_width};
        for (std::size_t k = 0; k < 5; ++k)
          table.columns[2 + k].numbers.push_back(values[k]);
      }
    return table;
  }

  io::CsvTable ensemble_spectra_table(const std::vector<RealizationResult> &results)
  {
    if (results.empty() || results.front().statistics.empty())
      return {};
    const auto              &first = results.front().statistics;
    const auto               names = named_spectra(first);
    std::vector<std::string> header{"frequency"};
    for (const auto &[name, psd] : names)
      header.push_back(name);
    io::CsvTable table(header);
    std::vector<std::vector<std::pair<std::string, const PowerSpectrum *>>> records;
    for (const auto &r : results)
      records.push_back(named_spectra(r.statistics));
    for (std::size_t k = 0; k < first.front().displacement_psd.frequency.size(); ++k)
      {
        std::vector<double> row{first.front().displacement_psd.frequency[k]};
        for (std::size_t p = 0; p < names.size(); ++p)
          {
            double sum = 0;
            for (const auto &record : records)
              sum += record.at(p).second->density.at(k);
            row.push_back(sum / results.size());
          }
        table.add_row(row);
      }
    return table;
  }
} // namespace vibroimpact::studies
