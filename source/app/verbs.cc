#include <vibroimpact/integrators/run_bounds.h>
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/io/hdf5_records.h>
#include <vibroimpact/io/write_error.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/progress_bar.h>
#include <vibroimpact/io/vtk_writer.h>
#include <vibroimpact/io/xdmf_series.h>
#include <vibroimpact/model/modal_analysis.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/modal_convergence.h>
#include <vibroimpact/studies/support_statistics.h>

#include <deal.II/base/timer.h>

#include "case_file.h"
#include "verbs.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

namespace vibroimpact::app
{
  namespace
  {
    void write_contact_markers(const io::OutputFolder &out, const model::StructuralModel &model)
    {
      if (model.contacts.empty())
        return;
      std::vector<std::array<double, 3>> points;
      std::vector<double>                gaps;
      io::CsvWriter csv(out / "contacts.csv", {"contact", "x", "y", "z", "gap0", "restitution"});
      for (std::size_t c = 0; c < model.contacts.size(); ++c)
        {
          const auto &contact = model.contacts[c];
          points.push_back(contact.location);
          gaps.push_back(contact.gap0);
          csv.write_row({double(c), contact.location[0], contact.location[1], contact.location[2], contact.gap0,
                         contact.restitution});
        }
      io::write_markers(out / "contacts.vtu", points, gaps, "gap0");
    }

    // solution.pvd + solution-NNNNN.vtu (or solution.xdmf + solution.h5) at the samples a solver
    // marks as frames: displacement, velocity, and the contact impulse since the previous history
    // row on the contact points. It keeps the time it spends, which the solver's wall time includes.
    class FrameWriter : public integrators::ResponseObserver
    {
    public:
      FrameWriter(const std::filesystem::path &folder, const model::StructuralModel &model, const bool xdmf)
      {
        if (xdmf)
          xdmf_ = std::make_unique<io::XdmfSeries>(folder, "solution", model.geometry);
        else
          vtk_ = std::make_unique<io::VtkSeries>(folder, "solution", model.geometry);
      }
      void sample(const integrators::ResponseSample &s) override
      {
        if (!s.frame)
          return;
        const auto start = std::chrono::steady_clock::now();
        if (xdmf_)
          xdmf_->write_frame(s.time, {{"displacement", *s.u}, {"velocity", *s.v}}, {{"contact_impulse", *s.impulse}});
        else
          vtk_->write_frame(s.time, {{"displacement", *s.u}, {"velocity", *s.v}}, {{"contact_impulse", *s.impulse}});
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      }
      unsigned int finish()
      {
        const auto start = std::chrono::steady_clock::now();
        if (xdmf_)
          xdmf_->write_record();
        else
          vtk_->write_record();
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return xdmf_ ? xdmf_->n_frames() : vtk_->n_frames();
      }
      double seconds = 0.0;

    private:
      std::unique_ptr<io::VtkSeries>  vtk_;
      std::unique_ptr<io::XdmfSeries> xdmf_;
    };

    // history.csv and events.csv, or both as groups of records.h5 with the statistics.
    void write_records(const io::OutputFolder &out, const integrators::ResponseHistory &history,
                       const std::vector<studies::SupportStatistics> &statistics, const bool hdf5)
    {
      if (!hdf5)
        {
          integrators::write_history_csv(out / "history.csv", history);
          integrators::write_events_csv(out / "events.csv", history);
          return;
        }
      io::Hdf5Records records(out / "records.h5");
      integrators::write_history_hdf5(records, history);
      if (!statistics.empty())
        studies::write_statistics_hdf5(records, statistics);
      records.close();
    }

    double seconds_since(const std::chrono::steady_clock::time_point start)
    {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  } // namespace

  std::string output_directory(const CommonOptions &options, const structure::CaseDescription &description)
  {
    return options.output.empty() ? "output/" + description.name : options.output;
  }

  int run_modes(const CommonOptions &options)
  {
    dealii::TimerOutput timer(std::cout, options.quiet ? dealii::TimerOutput::never : dealii::TimerOutput::summary,
                              dealii::TimerOutput::wall_times);
    timer.enter_subsection("read case and assemble");
    const CaseFile c     = read_case_file(options.case_file, options.overrides);
    const auto     model = structure::build_model(c.description);
    const auto     n     = c.description.n_modes;
    if (n > model.n_dofs())
      throw io::InputError(c.description.filename, "Modes/Number of modes",
                           "the model has only " + std::to_string(model.n_dofs()) + " DoFs, asked for " +
                             std::to_string(n) + " modes");
    io::OutputFolder out(output_directory(options, c.description), "modes"); // checked before computing
    timer.leave_subsection();

    timer.enter_subsection("eigensolve");
    const auto modes = model::compute_modes(model, n);
    timer.leave_subsection();

    timer.enter_subsection("output");
    const auto       drawn = model::unit_peak_modes(modes, model.geometry);
    io::CsvWriter    table(out / "modes.csv",
                        {"mode", "omega_rad_per_s", "frequency_hz", "period_s", "generalised_mass_unit_peak"});
    std::vector<std::string> shape_columns{"body", "x"};
    for (unsigned int j = 1; j <= n; ++j)
      shape_columns.push_back("mode_" + std::to_string(j));
    io::CsvWriter shapes(out / "mode_shapes.csv", shape_columns);
    io::VtkSeries vtk(out.staging(), "modes", model.geometry);

    if (!options.quiet)
      {
        std::printf("%s: %u DoFs, %u elements, %s\n", model.name.c_str(), unsigned(model.n_dofs()), model.n_elements,
                    modes.method.c_str());
        std::printf("%6s %22s %22s %16s\n", "mode", "omega [rad/s]", "f [Hz]", "period [s]");
      }
    for (unsigned int j = 0; j < n; ++j)
      {
        const double omega  = modes.omegas[j];
        const double period = omega > 0 ? 2 * M_PI / omega : INFINITY;
        table.write_row({double(j + 1), omega, omega / (2 * M_PI), period, drawn.generalised_mass[j]});
        vtk.write_frame(j + 1, {{"mode_shape", drawn.shapes.col(j)}});
        if (!options.quiet)
          std::printf("%6u %22.14g %22.14g %16.10g\n", j + 1, omega, omega / (2 * M_PI), period);
      }
    vtk.write_record();
    // The bodies' sample points only: the geometry's contact markers (drawn points at the
    // contacts, appended after the bodies) would send every plotted line back to them.
    const auto &markers = model.geometry.contact_points;
    for (std::size_t p = 0; p < model.geometry.points.size(); ++p)
      {
        if (std::find(markers.begin(), markers.end(), p) != markers.end())
          continue;
        std::vector<double> row{double(model.geometry.point_body[p]), model.geometry.point_coordinate[p]};
        for (unsigned int j = 0; j < n; ++j)
          row.push_back(drawn.drawn(p, j));
        shapes.write_row(row);
      }
    write_contact_markers(out, model);
    out.commit();
    timer.leave_subsection();
    if (!options.quiet)
      std::printf("wrote %s/{modes.csv, mode_shapes.csv, modes.pvd}\n", output_directory(options, c.description).c_str());
    return io::exit_success;
  }

  int run_simulate(const CommonOptions &options)
  {
    const CaseFile c      = read_case_file(options.case_file, options.overrides);
    const auto     model  = structure::build_model(c.description);
    const auto    &solver = c.solver();
    auto           control = c.run;
    control.quiet          = options.quiet;
    integrators::check_run(solver, model, control, c.filename, output_directory(options, c.description), true);
    if (!model.supports.empty() && !(c.statistics_start < control.final_time))
      throw io::InputError(c.filename, "Statistics/Start time", "must be before Simulation/Final time");
    // A response is not studied here: warn only where round-off reaches 1e-4 of ω₁ (the energy
    // of an impact-free run then jitters visibly: ±0.2 % at 10⁴ beam elements).
    for (const auto &warning : structure::conditioning_warnings(c.description, 1e-4))
      std::cerr << "warning: " << warning << "\n";
    if (!options.quiet)
      std::printf("%s: %u DoFs, %u elements, %zu contacts, %s to t = %g\n", model.name.c_str(),
                  unsigned(model.n_dofs()), model.n_elements, model.contacts.size(), solver.name().c_str(),
                  control.final_time);

    io::OutputFolder             out(output_directory(options, c.description), "simulate");
    std::unique_ptr<FrameWriter> frames;
    if (control.frame_interval > 0)
      frames = std::make_unique<FrameWriter>(out.staging(), model, c.hdf5_records);
    const auto history = integrators::run_to_history(solver, model, control, frames.get(), true);
    const bool interrupted = history.summary.interrupt_signal != 0;
    auto       start       = std::chrono::steady_clock::now();
    std::vector<studies::SupportStatistics> statistics;
    if (!model.supports.empty() && !interrupted)
      statistics = studies::support_statistics(model, history, c.statistics_start, c.psd_segment);
    const double statistics_seconds = seconds_since(start);
    start                           = std::chrono::steady_clock::now();
    write_records(out, history, statistics, c.hdf5_records);
    const unsigned int n_frames = frames ? frames->finish() : 0;
    if (!statistics.empty())
      studies::write_support_statistics(out.staging(), model, history, statistics);
    if (interrupted)
      io::write_file(out / "INTERRUPTED", "interrupted by signal " + std::to_string(history.summary.interrupt_signal) +
                                            " at t = " + io::CsvWriter::format(history.summary.interrupted_at) +
                                            " of " + io::CsvWriter::format(control.final_time) +
                                            ": the records and the frames stop there\n");
    out.commit(interrupted);
    const double frame_seconds = frames ? frames->seconds : 0.0;
    const double write_seconds = seconds_since(start) + frame_seconds;
    for (const auto &warning : history.summary.warnings)
      std::cerr << "warning: " << warning << "\n";
    if (!options.quiet)
      {
        integrators::print_summary(std::cout, history.summary);
        std::printf("%-23s%u\n", "VTK frames", n_frames);
        // The solver's wall time includes the frames it handed over while stepping.
        std::printf("%-23s%.3g s solve, %.3g s statistics, %.3g s write (%.3g s of it frames)\n", "wall times",
                    history.summary.wall_time - frame_seconds, statistics_seconds, write_seconds, frame_seconds);
        for (const auto &s : statistics)
          std::printf("support %-10s impacts %lu (%.4g /s), contact %.3g %%, RMS force %.4g, peak %.4g, work rate %.4g\n",
                      s.name.c_str(), s.impacts, s.impact_rate, 100 * s.contact_fraction, s.rms_force, s.peak_force,
                      s.work_rate);
        std::printf("wrote %s/{%s%s%s%s}\n", output_directory(options, c.description).c_str(),
                    c.hdf5_records ? "records.h5" : "history.csv, events.csv",
                    n_frames == 0 ? "" : c.hdf5_records ? ", solution.xdmf" : ", solution.pvd",
                    statistics.empty() ? "" : ", statistics.csv, *.png", interrupted ? ", INTERRUPTED" : "");
      }
    return interrupted ? 128 + history.summary.interrupt_signal : io::exit_success;
  }

  int run_converge(const CommonOptions &options)
  {
    const CaseFile c = read_case_file(options.case_file, options.overrides);
    // Build the coarsest model once now so that input errors surface before any output.
    const auto model = structure::build_model(c.description);
    const auto &settings = c.convergence;
    const bool  refines_mesh = settings.study == studies::ConvergenceStudy::frequencies ||
                              settings.refine == studies::Refinement::mesh ||
                              settings.refine == studies::Refinement::mesh_and_time_step;
    if (refines_mesh && model.n_elements == 0)
      throw io::InputError(c.filename, "Convergence/Refine", "the case has no finite elements to refine (only point masses)");
    io::ProgressBar progress("converge", settings.n_cycles, options.quiet);
    std::ostringstream table;
    io::OutputFolder   out(output_directory(options, c.description), "converge");

    if (settings.study == studies::ConvergenceStudy::frequencies)
      {
        studies::exact_frequencies(settings.exact, c.description, c.description.n_modes);
        const auto study = studies::run_modal_convergence(c.description, settings,
                                                          [&](unsigned int cycle) { progress.update(cycle + 1); });
        progress.finish();
        study.write_table(table);
        for (const auto &warning : study.round_off_warnings())
          std::cerr << "warning: " << warning << "\n";
      }
    else
      {
        const auto &solver = c.solver();
        const bool  refine_h = settings.refine == studies::Refinement::time_step ||
                              settings.refine == studies::Refinement::mesh_and_time_step;
        if (refine_h && !solver.time_step())
          throw io::InputError(c.filename, "Convergence/Refine", "solver " + solver.name() + " has no time step to refine");
        if (settings.refine == studies::Refinement::modes && !(solver.number_of_modes().value_or(0) > 0))
          throw io::InputError(c.filename, "Convergence/Refine",
                               "solver " + solver.name() + " has no (finite) number of modes to double");
        integrators::check_run(solver, model, c.run, c.filename);
        // The reference run, if any, is read with its own overrides and run first.
        std::unique_ptr<integrators::ResponseHistory> reference;
        if (!settings.reference_run.empty())
          {
            const CaseFile rc        = read_run(c, c.find_run(settings.reference_run, "Convergence/Reference run"));
            const auto     ref_model = structure::build_model(rc.description);
            integrators::check_run(rc.solver(), ref_model, rc.run, rc.filename);
            reference = std::make_unique<integrators::ResponseHistory>(
              integrators::run_to_history(rc.solver(), ref_model, rc.run));
          }
        try
          {
            const auto study = studies::run_response_convergence(c.description, solver, c.run, settings, reference.get(),
                                                                 [&](unsigned int cycle) { progress.update(cycle + 1); });
            progress.finish();
            study.write_table(table);
            study.write_csv(out / "convergence.csv");
            study.plot(out.staging());
          }
        catch (const std::invalid_argument &e)
          {
            throw io::InputError(c.filename, "Convergence/Quantities", e.what());
          }
      }
    io::write_file(out / "convergence.txt", table.str());
    out.commit();
    if (!options.quiet)
      std::cout << table.str();
    return io::exit_success;
  }

  int print_parameters(const std::string &verb)
  {
    app::print_parameters(std::cout, verb);
    return io::exit_success;
  }
} // namespace vibroimpact::app
