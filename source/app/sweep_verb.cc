// `vibroimpact sweep case.prm`: Poincaré sections over one swept parameter, the values dealt
// round-robin to the MPI ranks (mpirun -np N), gathered on rank 0, which alone prints and writes.
// Every value is independent and deterministic, so the output equals the serial run's bit for
// bit (except the measured wall times and ranks in sweep_summary.csv).
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/progress_bar.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/parameter_sweep.h>

#include <deal.II/base/mpi.h>

#include "case_file.h"
#include "verbs.h"

#include <chrono>
#include <iostream>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace vibroimpact::app
{
  namespace
  {
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
  } // namespace

  int run_sweep(const CommonOptions &options, int &argc, char **&argv)
  {
    dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
    const MPI_Comm     comm    = MPI_COMM_WORLD;
    const unsigned int rank    = dealii::Utilities::MPI::this_mpi_process(comm);
    const unsigned int n_ranks = dealii::Utilities::MPI::n_mpi_processes(comm);
    const bool         root    = rank == 0;

    // Every rank reads the same file and fails the same way: only rank 0 reports.
    std::unique_ptr<studies::ParameterSweep> sweep;
    std::string                              destination;
    std::unique_ptr<io::OutputFolder>        out; // rank 0's, checked and locked before computing
    try
      {
        const CaseFile c     = read_case_file(options.case_file, options.overrides);
        const auto     model = structure::build_model(c.description);
        c.solver().check(model, c.run, c.filename);
        sweep       = std::make_unique<studies::ParameterSweep>(model, c.sweep, c.solver());
        destination = output_directory(options, c.description);
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

    const std::size_t n_values = sweep->values().size();
    if (root && !options.quiet)
      std::printf("sweep: %zu values of %s on %u rank%s\n", n_values, studies::to_string(sweep->settings().parameter).c_str(),
                  n_ranks, n_ranks == 1 ? "" : "s");

    const auto start = std::chrono::steady_clock::now();
    const unsigned int n_mine = sweep->settings().continuation ? (root ? unsigned(n_values) : 0u) :
                                n_values > rank ? unsigned((n_values - rank + n_ranks - 1) / n_ranks) : 0u;
    std::vector<studies::SweepValueResult> share;
    std::string                            failure;
    {
      // Rank 0 shows its own share's progress; the others advance at the same pace.
      io::ProgressBar progress("sweep", n_mine, options.quiet || !root);
      try
        {
          share = sweep->run_share(rank, n_ranks, [&](unsigned int done) { progress.update(done); });
        }
      catch (const std::exception &e)
        {
          failure = "rank " + std::to_string(rank) + ": " + e.what();
        }
      progress.finish();
    }

    // A failure on one rank must not leave the others waiting: every rank takes part in the
    // gathers, rank 0 then reports.
    const auto packed   = studies::pack_results(share);
    const auto shares   = dealii::Utilities::MPI::gather(comm, packed, 0);
    const auto failures = dealii::Utilities::MPI::gather(comm, failure, 0);
    const double total_wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!root)
      return io::exit_success;

    io::throw_if_interrupted("during the sweep: nothing written");
    for (const auto &f : failures)
      if (!f.empty())
        throw std::runtime_error("sweep: " + f);
    std::vector<std::vector<studies::SweepValueResult>> unpacked;
    for (const auto &data : shares)
      unpacked.push_back(studies::unpack_results(data));
    const auto results = studies::merge_shares(unpacked);

    const std::string summary = summary_text(*sweep, results, n_ranks, total_wall);
    studies::write_poincare_csv(*out / "poincare.csv", results);
    studies::write_impacts_csv(*out / "impacts.csv", results);
    studies::write_summary_csv(*out / "sweep_summary.csv", results);
    {
      std::ofstream text(*out / "sweep.txt");
      text << summary;
    }
    out->commit();
    if (!options.quiet)
      {
        std::fputs(summary.c_str(), stdout);
        std::printf("wrote %s/{poincare.csv, impacts.csv, sweep_summary.csv, sweep.txt}\n", destination.c_str());
      }
    return io::exit_success;
  }
} // namespace vibroimpact::app
