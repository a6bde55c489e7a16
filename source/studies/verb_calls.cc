// The verbs' library calls (studies/verb_calls.h) that run without the continuation library:
// modes, simulate, compare and sweep, each read, prepared, folder opened, run, written, committed.
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/progress_bar.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/verb_calls.h>

#include <deal.II/base/mpi.h>
#include <deal.II/base/timer.h>

#include <optional>

namespace vibroimpact::studies
{
  namespace
  {
    // One timed section: entered on construction (when there is a timer), left by leave() or at the end.
    class TimedSection
    {
    public:
      TimedSection(dealii::TimerOutput *timer, const std::string &name)
        : timer_(timer)
      {
        if (timer_)
          timer_->enter_subsection(name);
      }
      ~TimedSection() { leave(); }
      void leave()
      {
        if (timer_)
          timer_->leave_subsection();
        timer_ = nullptr;
      }

    private:
      dealii::TimerOutput *timer_;
    };

    // The folder of the case's destination, or none.
    std::unique_ptr<io::OutputFolder> folder_for(const VerbCallOptions &options, const CaseFile &c, const VerbId verb)
    {
      const auto destination = options.destination(c);
      return destination.empty() ? nullptr : open_verb_folder(destination, verb);
    }
  } // namespace

  std::unique_ptr<io::OutputFolder> open_verb_folder(const std::string &destination, const VerbId verb)
  {
    return std::make_unique<io::OutputFolder>(destination, verb_name(verb));
  }

  ModesResult modes_verb(const VerbCallOptions &options)
  {
    // A phase a step; not drawn (the eigensolve has no progress to show), heard by a sink.
    const io::ProgressPlan            plan(2);
    std::unique_ptr<io::OutputFolder> out;
    std::optional<ModesSetup>         setup;
    {
      const TimedSection section(options.timer, "read case and assemble");
      io::ProgressBar    phase("model", 1, true);
      const auto        &c = options.read_case();
      setup.emplace(prepare_modes(c));
      out = folder_for(options, c, VerbId::modes); // checked before computing
    }
    ModesResult result;
    {
      const TimedSection section(options.timer, "eigensolve");
      io::ProgressBar    phase("eigensolve", 1, true);
      result = run_modes(std::move(*setup));
    }
    const TimedSection section(options.timer, "output");
    if (out)
      {
        write_modes(result, *out);
        out->commit();
      }
    return result;
  }

  SimulationResult simulate_verb(const VerbCallOptions                              &options,
                                 const std::function<void(const SimulationSetup &)> &prepared)
  {
    const io::ProgressPlan            plan(1); // the solver's bar
    TimedSection                      set_up(options.timer, "set-up: case file, model, checks");
    const auto                       &c           = options.read_case();
    const auto                        destination = options.destination(c);
    auto                              setup       = prepare_simulation(c, destination, options.quiet, options.keep_rows);
    if (prepared)
      prepared(setup);
    const auto out = destination.empty() ? nullptr : open_verb_folder(destination, VerbId::simulate);
    set_up.leave();

    auto result = run_simulation(std::move(setup), out ? out->staging() : std::filesystem::path(), options.timer);
    if (result.interrupted() && !options.keep_interrupted)
      throw io::Interrupted(result.history.summary.interrupt_signal, "during the run: nothing written");
    const TimedSection write(options.timer, "write: events, statistics files, plots, commit");
    if (out)
      {
        write_simulation(result, *out);
        out->commit(result.interrupted());
      }
    return result;
  }

  ComparisonResult compare_verb(const VerbCallOptions                                                 &options,
                                const std::function<void(const std::string &, const std::string &)> &on_run)
  {
    const auto &c     = options.read_case();
    auto        setup = prepare_comparison(c, options.quiet);
    const auto  out   = folder_for(options, c, VerbId::compare);
    const io::ProgressPlan plan(static_cast<unsigned int>(setup.runs.size())); // each run's solver bar
    auto result = run_comparison(std::move(setup), on_run);
    if (out)
      {
        write_comparison(result, *out);
        out->commit();
      }
    return result;
  }

  SweepResult sweep_verb(const SweepSetup &setup, const MPI_Comm comm, io::OutputFolder *out, const bool quiet,
                         const bool keep_interrupted)
  {
    const unsigned int rank    = dealii::Utilities::MPI::this_mpi_process(comm);
    const unsigned int n_ranks = dealii::Utilities::MPI::n_mpi_processes(comm);
    SweepResult        result;
    {
      // Rank 0 shows its own share's progress; the others advance at the same pace. The runs
      // inside are bars within this one: one phase.
      const io::ProgressPlan plan(1);
      io::ProgressBar        progress(verb_name(VerbId::sweep), setup.share_size(rank, n_ranks), quiet || rank != 0);
      result = run_sweep(setup, comm, [&](unsigned int done) { progress.update(done); });
      progress.finish();
    }
    if (result.interrupt_signal != 0 && !keep_interrupted)
      throw io::Interrupted(result.interrupt_signal, "during the sweep: nothing written");
    if (rank == 0 && out)
      {
        write_sweep(result, *out);
        out->commit(result.interrupt_signal != 0);
      }
    return result;
  }
} // namespace vibroimpact::studies
