// `vibroimpact sweep case.prm`: Poincaré sections over one swept parameter, or (Sweep/Parameter =
// seed) an ensemble of random-excitation records with the support statistics of each and their
// means and confidence intervals. The values (realizations) are dealt round-robin to the MPI ranks
// (mpirun -np N), gathered on rank 0, which alone prints and writes. Every value is independent
// and deterministic, so the output equals the serial run's bit for bit (except the measured wall
// times and ranks in sweep_summary.csv).
#include <vibroimpact/integrators/run_bounds.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/write_error.h>
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/progress_bar.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/parameter_sweep.h>
#include <vibroimpact/studies/support_ensemble.h>

#include <deal.II/base/mpi.h>

#include "case_file.h"
#include "verbs.h"

#include <dlfcn.h>

#include <chrono>
#include <iostream>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace vibroimpact::app
{
  namespace
  {
    // What the verb distributes: a number of independent items, each rank's share of them as
    // doubles (bit-exact transport), and rank 0 writing the merged shares.
    class SweepJob
    {
    public:
      virtual ~SweepJob() = default;
      virtual std::size_t         size() const                         = 0;
      virtual std::string         what() const                         = 0; // "21 values of gap"
      virtual unsigned int        share_size(unsigned int rank, unsigned int n_ranks) const = 0;
      virtual std::vector<double> run_share(unsigned int rank, unsigned int n_ranks,
                                            const std::function<void(unsigned int)> &done) const = 0;
      // Writes the files into `folder` and returns the summary printed and kept as sweep.txt.
      virtual std::string write(const std::vector<std::vector<double>> &shares, const std::filesystem::path &folder,
                                unsigned int n_ranks, double total_wall) const = 0;
      virtual std::string files() const = 0;
    };

    std::string summary_text(const studies::ParameterSweep               &sweep,
                             const std::vector<studies::SweepValueResult> &results,
                             const unsigned int                            n_ranks,
                             const double                                  total_wall)
    {
      const auto &s = sweep.settings();
      std::ostringstream out;
      char line[256];
      std::snprintf(line, sizeof line, "sweep of %s over %u values, %u transient + %u recorded periods, %s%s, probe '%s'\n",
                    studies::to_string(s.parameter).c_str(), unsigned(results.size()), s.transient_periods,
                    s.recorded_periods, sweep.solver().name().c_str(), s.continuation ? " with continuation" : "",
                    s.probe.c_str());
      out << line;
      if (s.parameter == studies::SweptParameter::forcing_frequency)
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
                        r.sticking_fraction, studies::distinct_points(r), r.wall_time, r.rank);
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


    class PoincareJob : public SweepJob
    {
    public:
      explicit PoincareJob(std::unique_ptr<studies::ParameterSweep> sweep)
        : sweep_(std::move(sweep))
      {}
      std::size_t size() const override { return sweep_->values().size(); }
      std::string what() const override
      {
        return std::to_string(size()) + " values of " + studies::to_string(sweep_->settings().parameter);
      }
      unsigned int share_size(const unsigned int rank, const unsigned int n_ranks) const override
      {
        if (sweep_->settings().continuation)
          return rank == 0 ? unsigned(size()) : 0u;
        return size() > rank ? unsigned((size() - rank + n_ranks - 1) / n_ranks) : 0u;
      }
      std::vector<double> run_share(const unsigned int rank, const unsigned int n_ranks,
                                    const std::function<void(unsigned int)> &done) const override
      {
        return studies::pack_results(sweep_->run_share(rank, n_ranks, done));
      }
      std::string write(const std::vector<std::vector<double>> &shares, const std::filesystem::path &folder,
                        const unsigned int n_ranks, const double total_wall) const override
      {
        std::vector<std::vector<studies::SweepValueResult>> unpacked;
        for (const auto &data : shares)
          unpacked.push_back(studies::unpack_results(data));
        const auto results = studies::merge_shares(unpacked);
        studies::write_poincare_csv(folder / "poincare.csv", results);
        studies::write_impacts_csv(folder / "impacts.csv", results);
        studies::write_summary_csv(folder / "sweep_summary.csv", results);
        return summary_text(*sweep_, results, n_ranks, total_wall);
      }
      std::string files() const override { return "poincare.csv, impacts.csv, sweep_summary.csv, sweep.txt"; }

    private:
      std::unique_ptr<studies::ParameterSweep> sweep_;
    };

    class EnsembleJob : public SweepJob
    {
    public:
      EnsembleJob(std::unique_ptr<studies::SupportEnsemble> ensemble, std::vector<std::string> supports,
                  const unsigned int seeds_per_realization)
        : ensemble_(std::move(ensemble))
        , supports_(std::move(supports))
        , seeds_per_realization_(seeds_per_realization)
      {}
      std::size_t size() const override { return ensemble_->settings().realizations; }
      std::string what() const override { return std::to_string(size()) + " realizations of the random loads"; }
      unsigned int share_size(const unsigned int rank, const unsigned int n_ranks) const override
      {
        return size() > rank ? unsigned((size() - rank + n_ranks - 1) / n_ranks) : 0u;
      }
      std::vector<double> run_share(const unsigned int rank, const unsigned int n_ranks,
                                    const std::function<void(unsigned int)> &done) const override
      {
        return studies::pack_realizations(ensemble_->run_share(rank, n_ranks, done));
      }
      std::string write(const std::vector<std::vector<double>> &shares, const std::filesystem::path &folder,
                        const unsigned int n_ranks, const double total_wall) const override
      {
        std::vector<std::vector<studies::RealizationResult>> unpacked;
        for (const auto &data : shares)
          unpacked.push_back(studies::unpack_realizations(data, supports_));
        const auto results   = studies::merge_realizations(unpacked);
        const auto estimates = studies::ensemble_estimates(results);
        studies::write_realizations_csv(folder / "realizations.csv", results, seeds_per_realization_);
        studies::write_ensemble_csv(folder / "ensemble.csv", estimates);
        studies::write_ensemble_spectra_csv(folder / "ensemble_spectra.csv", results);

        std::ostringstream out;
        char               line[256];
        std::snprintf(line, sizeof line, "ensemble of %zu records of %.6g s (statistics from t = %.6g s), %s\n",
                      results.size(), ensemble_->settings().skip_time + results.front().statistics.front().duration,
                      ensemble_->settings().skip_time, ensemble_->solver().name().c_str());
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
      std::string files() const override { return "realizations.csv, ensemble.csv, ensemble_spectra.csv, sweep.txt"; }

    private:
      std::unique_ptr<studies::SupportEnsemble> ensemble_;
      std::vector<std::string>                  supports_;
      unsigned int                              seeds_per_realization_;
    };

    // OpenBLAS splits a product among as many threads as it sees cores, and the partial sums then
    // round differently: one BLAS thread per rank makes every value's result the same whatever
    // the number of ranks (the parallelism of a sweep is its ranks). Looked up at run time, so
    // that any BLAS links.
    void use_one_blas_thread()
    {
      using Setter = void (*)(int);
      if (const auto set = reinterpret_cast<Setter>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
        set(1);
    }

    std::unique_ptr<SweepJob> make_job(const CaseFile &c)
    {
      const auto model = structure::build_model(c.description);
      integrators::check_run(c.solver(), model, c.run, c.filename);
      if (c.sweep.parameter != studies::SweptParameter::seed)
        return std::make_unique<PoincareJob>(std::make_unique<studies::ParameterSweep>(model, c.sweep, c.solver()));
      studies::EnsembleSettings settings;
      settings.filename     = c.filename;
      settings.realizations = c.sweep.n_values;
      settings.skip_time    = c.statistics_start;
      settings.psd_segment  = c.psd_segment;
      std::vector<std::string> supports;
      for (const auto &s : model.supports)
        supports.push_back(s.name);
      return std::make_unique<EnsembleJob>(
        std::make_unique<studies::SupportEnsemble>(c.description, settings, c.solver(), c.run), supports,
        studies::random_load_count(c.description));
    }
  } // namespace

  int run_sweep(const CommonOptions &options, int &argc, char **&argv)
  {
    dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
    io::install_interrupt_handlers(); // MPI_Init resets SIGTERM to its default
    const MPI_Comm     comm    = MPI_COMM_WORLD;
    const unsigned int rank    = dealii::Utilities::MPI::this_mpi_process(comm);
    const unsigned int n_ranks = dealii::Utilities::MPI::n_mpi_processes(comm);
    const bool         root    = rank == 0;
    use_one_blas_thread();

    // Every rank reads the same file and fails the same way: only rank 0 reports.
    std::unique_ptr<SweepJob>         job;
    std::string                       destination;
    std::unique_ptr<io::OutputFolder> out; // rank 0's, checked and locked before computing
    try
      {
        const CaseFile c = read_case_file(options.case_file, options.overrides);
        job              = make_job(c);
        destination      = output_directory(options, c.description);
      }
    catch (const io::InputError &)
      {
        if (root)
          throw;
        return io::exit_bad_input;
      }
    catch (const std::exception &)
      {
        if (root)
          throw;
        return io::exit_numerical_failure;
      }

    // The output folder is rank 0's alone: every rank learns whether it could be made before
    // any rank starts computing (or waits in a collective call).
    std::string folder_error;
    if (root)
      try
        {
          out = std::make_unique<io::OutputFolder>(destination, "sweep");
        }
      catch (const io::InputError &e)
        {
          folder_error = e.what();
        }
    if (dealii::Utilities::MPI::max(folder_error.empty() ? 0u : 1u, comm) > 0)
      {
        if (root)
          std::cerr << "vibroimpact: error: " << folder_error << "\n";
        return io::exit_bad_input;
      }

    if (root && !options.quiet)
      std::printf("sweep: %s on %u rank%s\n", job->what().c_str(), n_ranks, n_ranks == 1 ? "" : "s");

    const auto          start = std::chrono::steady_clock::now();
    std::vector<double> packed;
    std::string         failure;
    {
      // Rank 0 shows its own share's progress; the others advance at the same pace.
      io::ProgressBar progress("sweep", job->share_size(rank, n_ranks), options.quiet || !root);
      try
        {
          packed = job->run_share(rank, n_ranks, [&](unsigned int done) { progress.update(done); });
        }
      catch (const std::exception &e)
        {
          failure = "rank " + std::to_string(rank) + ": " + e.what();
        }
      progress.finish();
    }

    // A failure on one rank must not leave the others waiting: every rank takes part in the
    // gathers, rank 0 then reports.
    const auto   shares     = dealii::Utilities::MPI::gather(comm, packed, 0);
    const auto   failures   = dealii::Utilities::MPI::gather(comm, failure, 0);
    const double total_wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!root)
      return io::exit_success;

    io::throw_if_interrupted("during the sweep: nothing written");
    for (const auto &f : failures)
      if (!f.empty())
        throw std::runtime_error("sweep: " + f);
    const std::string summary = job->write(shares, out->staging(), n_ranks, total_wall);
    io::write_file(out->staging() / "sweep.txt", summary);
    out->commit();
    if (!options.quiet)
      {
        std::fputs(summary.c_str(), stdout);
        std::printf("wrote %s/{%s}\n", destination.c_str(), job->files().c_str());
      }
    return io::exit_success;
  }
} // namespace vibroimpact::app
