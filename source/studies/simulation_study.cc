// The simulation study (see the header): one run of the case's solver, its frames, its
// statistics and its files.
#include <vibroimpact/integrators/run_bounds.h>
#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/vtk_writer.h>
#include <vibroimpact/io/write_error.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/simulation_study.h>

namespace vibroimpact::studies
{
  namespace
  {
    // solution.pvd + solution-NNNNN.vtu at the samples a solver marks as frames: displacement,
    // velocity, and the contact impulse since the previous history row on the contact points.
    class FrameWriter : public integrators::ResponseObserver
    {
    public:
      FrameWriter(const std::filesystem::path &folder, const model::StructuralModel &model)
        : series_(folder, "solution", model.geometry)
      {}
      void sample(const integrators::ResponseSample &s) override
      {
        if (!s.frame)
          return;
        series_.write_frame(s.time, {{"displacement", *s.u}, {"velocity", *s.v}},
                            {{"contact_impulse", *s.impulse}});
      }
      unsigned int finish()
      {
        series_.write_record();
        return series_.n_frames();
      }

    private:
      io::VtkSeries series_;
    };
  } // namespace

  SimulationSetup prepare_simulation(const CaseFile &c, const std::filesystem::path &output, const bool quiet)
  {
    SimulationSetup setup;
    setup.model            = structure::build_model(c.description);
    setup.solver           = c.solver().clone();
    setup.control          = c.run;
    setup.control.quiet    = quiet;
    setup.filename         = c.filename;
    setup.statistics_start = c.statistics_start;
    setup.psd_segment      = c.psd_segment;
    integrators::check_run(*setup.solver, setup.model, setup.control, c.filename, output, !output.empty());
    if (!setup.model.supports.empty() && !(c.statistics_start < setup.control.final_time))
      throw io::InputError(c.filename, "Statistics/Start time", "must be before Simulation/Final time");
    // A response is not studied here: warn only where round-off reaches 1e-4 of ω₁ (the energy
    // of an impact-free run then jitters visibly: ±0.2 % at 10⁴ beam elements).
    setup.warnings = structure::conditioning_warnings(c.description, 1e-4);
    return setup;
  }

  SimulationResult run_simulation(SimulationSetup setup, const std::filesystem::path &frames)
  {
    std::unique_ptr<FrameWriter> frame_writer;
    if (!frames.empty() && setup.control.frame_interval > 0)
      frame_writer = std::make_unique<FrameWriter>(frames, setup.model);
    auto history = integrators::run_to_history(*setup.solver, setup.model, setup.control, frame_writer.get(), true);
    const unsigned int n_frames = frame_writer ? frame_writer->finish() : 0;
    frame_writer.reset(); // before the model moves on
    SimulationResult result{std::move(setup.model), setup.control, std::move(history), {}, n_frames};
    if (!result.model.supports.empty() && !result.interrupted())
      result.statistics =
        support_statistics(result.model, result.history, setup.statistics_start, setup.psd_segment);
    return result;
  }

  void write_simulation(const SimulationResult &result, io::OutputFolder &out)
  {
    integrators::write_history_csv(out / "history.csv", result.history);
    integrators::write_events_csv(out / "events.csv", result.history);
    if (!result.statistics.empty())
      write_support_statistics(out.staging(), result.model, result.history, result.statistics);
    if (result.interrupted())
      io::write_file(out / "INTERRUPTED",
                     "interrupted by signal " + std::to_string(result.history.summary.interrupt_signal) +
                       " at t = " + io::CsvWriter::format(result.history.summary.interrupted_at) + " of " +
                       io::CsvWriter::format(result.control.final_time) +
                       ": history.csv, events.csv and the frames stop there\n");
  }
} // namespace vibroimpact::studies
