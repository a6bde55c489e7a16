// The sweep study (see the header): the values dealt to the ranks, gathered through deal.II's
// serialising collectives, summarised and written.
#include <vibroimpact/integrators/run_bounds.h>
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/write_error.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/result_serialization.h>
#include <vibroimpact/studies/indexed_shares.h>
#include <vibroimpact/studies/sweep_study.h>

#include <deal.II/base/mpi.h>

#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace vibroimpact::studies
{
  namespace
  {
    std::string sweep_summary(const ParameterSweep &sweep, const std::vector<SweepValueResult> &results,
                              const unsigned int n_ranks, const double total_wall)
    {
      const auto &s = sweep.settings();
      std::ostringstream out;
      char line[256];
      std::snprintf(line, sizeof line, "sweep of %s over %u values, %u transient + %u recorded periods, %s%s, probe '%s'\n",
                    to_string(s.parameter).c_str(), unsigned(results.size()), s.transient_periods,
                    s.recorded_periods, sweep.solver().name().c_str(), s.continuation ? " with continuation" : "",
                    s.probe.c_str());
      out << line;
      if (s.parameter == SweptParameter::forcing_frequency)
        {
          std::snprintf(line, sizeof line, "omega_1 = %.10g rad/s\n", sweep.first_natural_frequency());
          out << line;
        }
      std::snprintf(line, sizeof line, "%12s %14s %9s %9s %9s %10s %5s\n", "value", "omega", "impacts", "sticking",
                    "distinct", "wall [s]", "rank");
      out << line;
      double sum = 0, cpu = 0;
      for (const auto &r : results)
        {
          std::snprintf(line, sizeof line, "%12.6g %14.8g %9lu %9.4f %9u %10.3f %5u\n", r.value, r.omega, r.impacts,
                        r.sticking_fraction, distinct_points(r), r.wall_time, r.rank);
          out << line;
          sum += r.wall_time;
          cpu += r.cpu_time;
        }
      std::snprintf(line, sizeof line,
                    "ranks %u: total wall time %.3f s, sum of per-value wall times %.3f s, wall-time ratio %.2f "
                    "(per-value wall times include waiting for a core on a loaded machine)\n", n_ranks,
                    total_wall, sum, total_wall > 0 ? sum / total_wall : 0.0);
      out << line;
      // With more ranks than free cores the per-value wall times include waiting: the processor
      // time is what one rank alone would have needed.
      std::snprintf(line, sizeof line,
                    "         sum of per-value processor times %.3f s, speed-up %.2f (processor time a single rank "
                    "would need / total wall time)\n", cpu,
                    total_wall > 0 ? cpu / total_wall : 0.0);
      out << line;
      return out.str();
    }

    std::string ensemble_summary(const SupportEnsemble &ensemble, const std::vector<RealizationResult> &results,
                                 const std::vector<EnsembleEstimate> &estimates, const unsigned int n_ranks,
                                 const double total_wall)
    {
      std::ostringstream out;
      char               line[256];
      std::snprintf(line, sizeof line, "ensemble of %zu records of %.6g s (statistics from t = %.6g s), %s\n",
                    results.size(), ensemble.settings().skip_time + results.front().statistics.front().duration,
                    ensemble.settings().skip_time, ensemble.solver().name().c_str());
      out << line;
      std::snprintf(line, sizeof line, "%-10s %-17s %14s %14s %14s\n", "support", "statistic", "mean", "ci95 -/+",
                    "deviation");
      out << line;
      for (const auto &e : estimates)
        {
          std::snprintf(line, sizeof line, "%-10s %-17s %14.6g %14.6g %14.6g\n", e.support.c_str(),
                        e.statistic.c_str(), e.mean, e.half_width, e.deviation);
          out << line;
        }
      double sum = 0;
      for (const auto &r : results)
        sum += r.wall_time;
      std::snprintf(line, sizeof line,
                    "ranks %u: total wall time %.3f s, sum of per-record wall times %.3f s, ratio %.2f\n", n_ranks,
                    total_wall, sum, total_wall > 0 ? sum / total_wall : 0.0);
      out << line;
      return out.str();
    }

    // "3 values", "1 realization".
    std::string count_of(const std::size_t n, const std::string &what)
    {
      return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
    }

    // "the 3 of 1000 values finished before it" (or realizations).
    std::string finished_part(const SweepSetup &setup, const SweepResult &result)
    {
      const auto finished = setup.sweep ? result.values.size() : result.realizations.size();
      return "the " + std::to_string(finished) + " of " +
             count_of(setup.size(), setup.sweep ? "value" : "realization") + " finished before it";
    }
  } // namespace

  OneBlasThread::OneBlasThread()
    : alone_(model::blas_threads_mutex())
  {
    using Getter    = int (*)();
    using Setter    = void (*)(int);
    const auto get = reinterpret_cast<Getter>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
    const auto set = reinterpret_cast<Setter>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
    if (get && set)
      {
        previous_ = get();
        set(1);
      }
  }

  OneBlasThread::~OneBlasThread()
  {
    using Setter = void (*)(int);
    if (previous_ > 0)
      if (const auto set = reinterpret_cast<Setter>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
        set(previous_);
  }

  std::size_t SweepSetup::size() const
  {
    return sweep ? sweep->values().size() : ensemble->settings().realizations;
  }

  std::string SweepSetup::what() const
  {
    return sweep ? std::to_string(size()) + " values of " + to_string(sweep->settings().parameter)
                 : std::to_string(size()) + " realizations of the random loads";
  }

  unsigned int SweepSetup::share_size(const unsigned int rank, const unsigned int n_ranks) const
  {
    if (sweep && sweep->settings().continuation)
      return rank == 0 ? unsigned(size()) : 0u;
    return size() > rank ? unsigned((size() - rank + n_ranks - 1) / n_ranks) : 0u;
  }

  SweepSetup prepare_sweep(const CaseFile &c)
  {
    const auto model = structure::build_model(c.description);
    integrators::check_run(c.solver(), model, c.run, c.filename);
    SweepSetup setup;
    if (c.sweep.parameter != SweptParameter::seed)
      {
        setup.sweep = std::make_unique<ParameterSweep>(model, c.sweep, c.solver());
        return setup;
      }
    EnsembleSettings settings;
    settings.filename           = c.filename;
    settings.realizations       = c.sweep.n_values;
    settings.skip_time          = c.statistics_start;
    settings.psd_segment        = c.psd_segment;
    setup.ensemble              = std::make_unique<SupportEnsemble>(c.description, settings, c.solver(), c.run);
    setup.seeds_per_realization = random_load_count(c.description);
    return setup;
  }

  SweepResult run_sweep(const SweepSetup &setup, const MPI_Comm comm, const std::function<void(unsigned int)> &done)
  {
    const unsigned int rank  = dealii::Utilities::MPI::this_mpi_process(comm);
    SweepResult        result;
    result.n_ranks               = dealii::Utilities::MPI::n_mpi_processes(comm);
    result.seeds_per_realization = setup.seeds_per_realization;
    const auto start             = std::chrono::steady_clock::now();
    std::vector<SweepValueResult>  values;
    std::vector<RealizationResult> realizations;
    std::string                    failure;
    try
      {
        if (setup.sweep)
          values = setup.sweep->run_share(rank, result.n_ranks, done);
        else
          realizations = setup.ensemble->run_share(rank, result.n_ranks, done);
      }
    catch (const std::exception &e)
      {
        failure = "rank " + std::to_string(rank) + ": " + e.what();
      }
    // A failure on one rank must not leave the others waiting: every rank takes part in the
    // gathers, rank 0 then reports.
    const auto failures = dealii::Utilities::MPI::gather(comm, failure, 0);
    std::vector<std::vector<SweepValueResult>>  value_shares;
    std::vector<std::vector<RealizationResult>> realization_shares;
    if (setup.sweep)
      value_shares = dealii::Utilities::MPI::gather(comm, values, 0);
    else
      realization_shares = dealii::Utilities::MPI::gather(comm, realizations, 0);
    result.total_wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // After a signal the values finished on every rank are kept: written, marked INTERRUPTED.
    result.interrupt_signal = dealii::Utilities::MPI::max(io::interrupt_signal(), comm);
    if (rank != 0)
      return result;

    for (const auto &f : failures)
      if (!f.empty())
        throw std::runtime_error("sweep: " + f);
    const bool partial = result.interrupt_signal != 0;
    if (setup.sweep)
      {
        result.values  = merge_indexed_shares(value_shares, "sweep: value", partial);
        if (result.values.empty())
          throw io::Interrupted(result.interrupt_signal, "before the first value finished: nothing written");
        result.summary = sweep_summary(*setup.sweep, result.values, result.n_ranks, result.total_wall);
      }
    else
      {
        result.realizations = merge_indexed_shares(realization_shares, "ensemble: realization", partial);
        if (result.realizations.empty())
          throw io::Interrupted(result.interrupt_signal, "before the first realization finished: nothing written");
        result.estimates    = ensemble_estimates(result.realizations);
        result.summary      = ensemble_summary(*setup.ensemble, result.realizations, result.estimates, result.n_ranks,
                                               result.total_wall);
      }
    if (partial)
      result.summary += "# interrupted by signal " + std::to_string(result.interrupt_signal) + ": " +
                        finished_part(setup, result) + "\n";
    return result;
  }

  std::vector<std::pair<std::string, io::CsvTable>> sweep_tables(const SweepResult &result)
  {
    std::vector<std::pair<std::string, io::CsvTable>> tables;
    if (result.realizations.empty())
      {
        tables.emplace_back("poincare.csv", poincare_table(result.values));
        tables.emplace_back("impacts.csv", impacts_table(result.values));
        tables.emplace_back("sweep_summary.csv", sweep_summary_table(result.values));
      }
    else
      {
        tables.emplace_back("realizations.csv", realizations_table(result.realizations, result.seeds_per_realization));
        tables.emplace_back("ensemble.csv", ensemble_table(result.estimates));
        auto spectra = ensemble_spectra_table(result.realizations);
        if (!spectra.columns.empty())
          tables.emplace_back("ensemble_spectra.csv", std::move(spectra));
      }
    return tables;
  }

  void write_sweep(const SweepResult &result, io::OutputFolder &out)
  {
    for (const auto &[file, table] : sweep_tables(result))
      io::write_csv_table(out / file, table);
    io::write_file(out / "sweep.txt", result.summary);
    if (result.interrupt_signal != 0)
      io::write_file(out / "INTERRUPTED",
                     "interrupted by signal " + std::to_string(result.interrupt_signal) + ": " + sweep_files(result) +
                       " hold the " +
                       (result.values.empty() ? count_of(result.realizations.size(), "realization")
                                              : count_of(result.values.size(), "value")) +
                       " finished before it\n");
  }

  std::string sweep_files(const SweepResult &result)
  {
    return result.realizations.empty() ? "poincare.csv, impacts.csv, sweep_summary.csv, sweep.txt"
                                       : "realizations.csv, ensemble.csv, ensemble_spectra.csv, sweep.txt";
  }
} // namespace vibroimpact::studies
