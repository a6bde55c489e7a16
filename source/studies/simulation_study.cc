// The simulation study (see the header): one run of the case's solver whose rows, frames and
// support statistics stream to disk on a writer thread while the solver steps, then the files
// that need the whole record (events, statistics, spectra, plots).
#include <vibroimpact/integrators/run_bounds.h>
#include <vibroimpact/io/background_writer.h>
#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/io/hdf5_records.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/vtk_writer.h>
#include <vibroimpact/io/write_error.h>
#include <vibroimpact/io/xdmf_series.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/simulation_study.h>
#include <vibroimpact/studies/support_output.h>
#include <vibroimpact/studies/verb_table.h>

#include <deal.II/base/timer.h>

#include <chrono>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <optional>

namespace vibroimpact::studies
{
  namespace
  {
    double seconds_since(const std::chrono::steady_clock::time_point start)
    {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }

    // A section of `timer` for as long as the returned object lives; nothing without a timer.
    std::optional<dealii::TimerOutput::Scope> section(dealii::TimerOutput *timer, const std::string &name)
    {
      if (!timer)
        return std::nullopt;
      return std::optional<dealii::TimerOutput::Scope>(std::in_place, *timer, name);
    }

    // history.csv, row by row.
    class HistoryCsv : public integrators::RowSink
    {
    public:
      HistoryCsv(const std::filesystem::path &file, const std::vector<std::string> &columns)
        : csv_(file, columns)
      {}
      void row(const std::vector<double> &values) override { csv_.write_row(values); }
      void close() { csv_.close(); }

    private:
      io::CsvWriter csv_;
    };

    // support_forces.csv, row by row: each history row's forces at the clearance supports.
    class SupportForcesCsv : public integrators::RowSink
    {
    public:
      SupportForcesCsv(const std::filesystem::path &file, const model::StructuralModel &model,
                       const std::vector<std::string> &columns)
        : forces_(model, columns)
        , csv_(file, SupportForces::columns(model))
      {}
      void row(const std::vector<double> &values) override { csv_.write_row(forces_.row(values)); }
      void close() { csv_.close(); }
      // What support_forces.png draws.
      const std::vector<SupportForcesCurve> &curves() const { return forces_.curves(); }

    private:
      SupportForces forces_;
      io::CsvWriter csv_;
    };

    // /history of records.h5: rows gathered into blocks, each appended to the column datasets.
    class HistoryHdf5 : public integrators::RowSink
    {
    public:
      HistoryHdf5(io::Hdf5Records &file, const std::vector<std::string> &columns)
        : file_(file)
        , columns_(columns)
      {
        file_.append_rows("history", columns_, nullptr, 0); // the datasets, even for no row
        block_.reserve(block_rows * columns_.size());
      }
      void row(const std::vector<double> &values) override
      {
        block_.insert(block_.end(), values.begin(), values.end());
        if (block_.size() >= block_rows * columns_.size())
          flush();
      }
      void flush()
      {
        file_.append_rows("history", columns_, block_.data(), block_.size() / columns_.size());
        block_.clear();
      }

    private:
      static constexpr std::size_t block_rows = 4096;
      io::Hdf5Records             &file_;
      std::vector<std::string>     columns_;
      std::vector<double>          block_;
    };

    // solution.pvd + solution-NNNNN.vtu (or solution.xdmf + solution.h5) at the samples a solver
    // marks as frames: displacement, velocity, and the contact impulse since the previous history
    // row on the contact points, copied on the solver's thread, formed and written on the writer's.
    class FrameWriter
    {
    public:
      FrameWriter(const std::filesystem::path &folder, const model::StructuralModel &model, const bool xdmf)
      {
        if (xdmf)
          xdmf_ = std::make_unique<io::XdmfSeries>(folder, "solution", model.geometry);
        else
          vtk_ = std::make_unique<io::VtkSeries>(folder, "solution", model.geometry);
      }
      // On the writer thread.
      void write(const double time, const model::Vector &u, const model::Vector &v, const model::Vector &impulse)
      {
        const auto start = std::chrono::steady_clock::now();
        if (xdmf_)
          xdmf_->write_frame(time, {{"displacement", u}, {"velocity", v}}, {{"contact_impulse", impulse}});
        else
          vtk_->write_frame(time, {{"displacement", u}, {"velocity", v}}, {{"contact_impulse", impulse}});
        seconds += seconds_since(start);
      }
      unsigned int finish()
      {
        const auto start = std::chrono::steady_clock::now();
        if (xdmf_)
          xdmf_->write_record();
        else
          vtk_->write_record();
        seconds += seconds_since(start);
        return xdmf_ ? xdmf_->n_frames() : vtk_->n_frames();
      }
      double seconds = 0.0;

    private:
      std::unique_ptr<io::VtkSeries>  vtk_;
      std::unique_ptr<io::XdmfSeries> xdmf_;
    };
  } // namespace

  // Everything a run streams: the sinks of its rows, its frames, and the writer thread they
  // run on. Rows reach the thread in blocks; at most `blocks_pending` blocks wait (a frame, a few
  // vectors, weighs an eighth of a block), so what is held is bounded by the block, not by the
  // record. 32 blocks (8 k rows, 4 MB of the six-support history, ~0.15 s of its solve) outlast
  // the writer's longest job, compressing records.h5's 59 chunks that fill on the same row
  // (~0.1 s): a queue of 8 jobs, frames included, would make the solver wait through each
  // (doc/performance.md, "How a run writes").
  class SimulationStreams : public integrators::RowSink, public integrators::ResponseObserver
  {
  public:
    static constexpr std::size_t block_rows = 256, blocks_pending = 32, block_weight = 8, frame_weight = 1;
    static_assert((blocks_pending + 1) * block_rows == streamed_rows_held_at_most);

    SimulationStreams(const SimulationSetup &setup, const std::vector<std::string> &columns,
                      const std::filesystem::path &folder)
      : columns_(columns.size())
    {
      if (!setup.model.supports.empty() || !setup.model.spatial_supports.empty())
        statistics = std::make_unique<SupportStatisticsAccumulator>(setup.model, columns, setup.statistics_start,
                                                                    setup.psd_segment, folder, setup.wear);
      if (!folder.empty())
        {
          if (setup.hdf5_records)
            {
              records      = std::make_unique<io::Hdf5Records>(folder / "records.h5");
              history_hdf5 = std::make_unique<HistoryHdf5>(*records, columns);
            }
          else
            history_csv = std::make_unique<HistoryCsv>(folder / "history.csv", columns);
          if (setup.control.frame_interval > 0)
            frames = std::make_unique<FrameWriter>(folder, setup.model, setup.hdf5_records);
          if (!setup.model.supports.empty())
            support_forces = std::make_unique<SupportForcesCsv>(folder / "support_forces.csv", setup.model, columns);
        }
      block_.reserve(block_rows * columns_);
    }

    // RowSink, on the solver's thread: the row joins the block, a full block goes to the writer.
    void row(const std::vector<double> &values) override
    {
      block_.insert(block_.end(), values.begin(), values.end());
      if (block_.size() >= block_rows * columns_)
        post_block();
    }

    // ResponseObserver, on the solver's thread: a frame's vectors, copied, go to the writer
    // after the rows before it.
    void sample(const integrators::ResponseSample &s) override
    {
      if (!frames || !s.frame)
        return;
      post_block();
      writer_.post([this, t = s.time, u = model::Vector(*s.u), v = model::Vector(*s.v),
                    p = model::Vector(*s.impulse)] { frames->write(t, u, v, p); },
                   frame_weight);
    }

    // After the run (or its interruption): the last rows written, the streams closed (records.h5's
    // history on the writer thread, which compresses its last chunks).
    void finish()
    {
      post_block();
      if (history_hdf5)
        writer_.post([this] {
          history_hdf5->flush();
          records->close_appended();
        });
      writer_.finish();
      if (frames)
        n_frames = frames->finish();
      if (history_csv)
        history_csv->close();
      if (support_forces)
        support_forces->close();
    }

    // Rows held at once, at most (a block being formed, blocks waiting for the writer).
    std::size_t peak_rows_held() const
    {
      return ((writer_.peak_pending() + block_weight - 1) / block_weight + 1) * block_rows;
    }
    double      writer_seconds() const { return writer_.busy_seconds(); }
    double      waited_seconds() const { return writer_.waited_seconds(); }

    std::unique_ptr<SupportStatisticsAccumulator> statistics;
    std::unique_ptr<SupportForcesCsv>             support_forces;
    std::unique_ptr<io::Hdf5Records>              records;
    std::unique_ptr<FrameWriter>                  frames;
    unsigned int                                  n_frames = 0;

  private:
    void post_block()
    {
      if (block_.empty())
        return;
      writer_.post([this, block = std::move(block_)] { write_block(block); }, block_weight);
      block_.clear();
      block_.reserve(block_rows * columns_);
    }

    // On the writer thread: each row to each sink.
    void write_block(const std::vector<double> &block)
    {
      for (std::size_t at = 0; at < block.size(); at += columns_)
        {
          line_.assign(block.begin() + at, block.begin() + at + columns_);
          if (history_csv)
            history_csv->row(line_);
          if (history_hdf5)
            history_hdf5->row(line_);
          if (statistics)
            statistics->row(line_);
          if (support_forces)
            support_forces->row(line_);
        }
    }

    std::size_t                  columns_;
    std::vector<double>          block_, line_;
    std::unique_ptr<HistoryCsv>  history_csv;
    std::unique_ptr<HistoryHdf5> history_hdf5;
    io::BackgroundWriter         writer_{blocks_pending * block_weight}; // last: stops before the sinks go
  };

  namespace
  {
    // The rows of a run that kept them (no folder during the run), through the sinks a
    // streamed run feeds: history.csv, or /history of records.h5 (returned, for the rest).
    std::shared_ptr<io::Hdf5Records> write_kept_rows(const SimulationResult &result, io::OutputFolder &out)
    {
      const auto &history = result.history;
      if (!result.hdf5_records)
        {
          HistoryCsv csv(out / "history.csv", history.columns());
          for (std::size_t k = 0; k < history.n_rows(); ++k)
            csv.row(history.row(k));
          csv.close();
          return nullptr;
        }
      auto        records = std::make_shared<io::Hdf5Records>(out / "records.h5");
      HistoryHdf5 table(*records, history.columns());
      for (std::size_t k = 0; k < history.n_rows(); ++k)
        table.row(history.row(k));
      table.flush();
      return records;
    }
  } // namespace

  SimulationSetup prepare_simulation(const CaseFile &c, const std::filesystem::path &output, const bool quiet,
                                     const bool keep_rows)
  {
    SimulationSetup setup;
    setup.model            = structure::build_model(c.description);
    setup.solver           = c.solver().clone();
    setup.control          = c.run;
    setup.control.quiet    = quiet;
    setup.control.progress_label = verb_name(VerbId::simulate);
    setup.filename         = c.filename;
    setup.statistics_start = c.statistics_start;
    setup.psd_segment      = c.psd_segment;
    setup.wear             = wear_inputs(c.description);
    setup.hdf5_records     = c.hdf5_records;
    setup.keep_rows        = keep_rows;
    integrators::RunBounds bounds;
    bounds.rows_in_memory = keep_rows || output.empty();
    integrators::check_run(*setup.solver, setup.model, setup.control, c.filename, output, !output.empty(), bounds);
    const bool supports = !setup.model.supports.empty() || !setup.model.spatial_supports.empty();
    if (supports && !(c.statistics_start < setup.control.final_time))
      throw io::InputError(c.filename, "Statistics/Start time", "must be before Simulation/Final time");
    // A response is not studied here: warn only where round-off reaches 1e-4 of ω₁ (the energy
    // of an impact-free run then jitters visibly: ±0.2 % at 10⁴ beam elements).
    setup.warnings = structure::conditioning_warnings(c.description, 1e-4);
    return setup;
  }

  SimulationResult run_simulation(SimulationSetup setup, const std::filesystem::path &folder,
                                  dealii::TimerOutput *const timer)
  {
    integrators::ResponseHistory history(setup.model);
    history.keep_rows(setup.keep_rows || folder.empty());
    SimulationStreams streams(setup, history.columns(), folder);
    history.add_sink(streams);
    {
      const auto solving = section(timer, "solve (with its waits for the writer thread)");
      integrators::record_run(history, *setup.solver, setup.model, setup.control, &streams, true);
    }
    const double waited_in_run = streams.waited_seconds(); // finishing waits too, in its own section
    {
      const auto closing = section(timer, "write: the writer's streams closed");
      streams.finish();
    }
    SimulationResult result{std::move(setup.model), setup.control, std::move(history), {}, {}};
    result.n_frames       = streams.n_frames;
    result.streamed       = !folder.empty();
    result.hdf5_records   = setup.hdf5_records;
    result.records        = std::move(streams.records);
    result.frame_seconds  = streams.frames ? streams.frames->seconds : 0.0;
    result.writer_seconds = streams.writer_seconds();
    result.waited_seconds = waited_in_run;
    result.peak_rows_held = streams.peak_rows_held() + result.history.n_rows() +
                            (streams.statistics ? streams.statistics->rows_in_memory() : 0);
    if (streams.statistics && !result.interrupted())
      {
        const auto spectra           = section(timer, "statistics: Welch's spectra");
        result.statistics            = streams.statistics->finish();
        result.support_orbits        = streams.statistics->support_orbits();
        if (streams.support_forces)
          result.support_forces_curves = streams.support_forces->curves();
      }
    return result;
  }

  void print_summary(std::ostream &out, const integrators::RunSummary &s)
  {
    const auto line = [&](const std::string &what) -> std::ostream & {
      return out << std::left << std::setw(23) << (what.size() < 23 ? what : what + " ") << std::right;
    };
    line("solver") << s.solver << "\n";
    line(s.step_name) << s.steps << "\n";
    line("impacts") << s.impacts << "\n";
    line("sticking time") << s.sticking_time << "\n";
    for (const auto &[what, value] : s.counters)
      line(what) << value << "\n";
    line("energy") << s.initial_energy << " -> " << s.final_energy << "\n";
    if (std::isnan(s.balance_error))
      line("energy balance error") << "not tracked (forced or damped run of a solver without a ledger)\n";
    else
      line("energy balance error") << s.balance_error << " (relative " << s.relative_balance_error << ")\n";
    if (s.interrupt_signal != 0)
      line("interrupted") << "by signal " << s.interrupt_signal << " at t = " << s.interrupted_at << "\n";
    line("wall time") << s.wall_time << " s (" << (s.wall_time > 0 ? s.steps / s.wall_time : 0.0) << " "
                      << s.step_name << "/s)\n";
  }
  void write_history_csv(const std::filesystem::path &file, const integrators::ResponseHistory &history)
  {
    io::CsvWriter csv(file, history.columns());
    for (std::size_t k = 0; k < history.n_rows(); ++k)
      csv.write_row(history.row(k));
  }

  void write_simulation(const SimulationResult &result, io::OutputFolder &out)
  {
    auto records = result.records;
    if (!result.streamed)
      records = write_kept_rows(result, out);
    std::vector<io::GnuplotRun> plots; // drawing while the rest is written
    if (!result.statistics.empty() && result.streamed)
      {
        if (result.support_orbits)
          io::write_csv_table(out / "support_orbits.csv", *result.support_orbits);
        plots = write_support_summaries(out.staging(), result.model, result.statistics, result.support_forces_curves);
      }
    else if (!result.statistics.empty())
      write_support_statistics(out.staging(), result.model, result.history, result.statistics);
    if (records)
      {
        records->write_table("events", integrators::events_table(result.history));
        if (!result.statistics.empty())
          write_statistics_hdf5(*records, result.statistics);
        records->close();
      }
    else
      io::write_csv_table(out / "events.csv", integrators::events_table(result.history));
    if (result.interrupted())
      io::write_file(out / "INTERRUPTED",
                     "interrupted by signal " + std::to_string(result.history.summary.interrupt_signal) +
                       " at t = " + io::CsvWriter::format(result.history.summary.interrupted_at) + " of " +
                       io::CsvWriter::format(result.control.final_time) +
                       ": the records and the frames stop there\n");
    for (auto &plot : plots)
      plot.wait();
  }
} // namespace vibroimpact::studies
