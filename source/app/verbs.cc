// The verbs modes, simulate and converge, and `parameters`: each parses nothing more than the
// case file and calls its library study (studies/*_study.h), then prints what it did.
#include <vibroimpact/studies/verb_table.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/progress_bar.h>
#include <vibroimpact/io/write_error.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/modes_study.h>
#include <vibroimpact/studies/simulation_study.h>

#include <deal.II/base/timer.h>

#include "verbs.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

namespace vibroimpact::app
{
  std::string output_directory(const CommonOptions &options, const structure::CaseDescription &description)
  {
    return options.output.empty() ? "output/" + description.name : options.output;
  }

  int run_modes(const CommonOptions &options)
  {
    dealii::TimerOutput timer(std::cout, options.quiet ? dealii::TimerOutput::never : dealii::TimerOutput::summary,
                              dealii::TimerOutput::wall_times);
    timer.enter_subsection("read case and assemble");
    const auto c     = studies::read_case_file(options.case_file, options.overrides);
    auto       setup = studies::prepare_modes(c);
    io::OutputFolder out(output_directory(options, c.description), studies::verb_name(studies::VerbId::modes)); // checked before computing
    timer.leave_subsection();

    timer.enter_subsection("eigensolve");
    const auto result = studies::run_modes(std::move(setup));
    timer.leave_subsection();

    timer.enter_subsection("output");
    studies::write_modes(result, out);
    out.commit();
    timer.leave_subsection();
    if (!options.quiet)
      {
        const auto &model = result.model;
        std::printf("%s: %u DoFs, %u elements, %s\n", model.name.c_str(), unsigned(model.n_dofs()), model.n_elements,
                    result.modes.method.c_str());
        std::printf("%6s %22s %22s %16s\n", "mode", "omega [rad/s]", "f [Hz]", "period [s]");
        const auto f = result.frequencies_hz();
        const auto T = result.periods();
        for (std::size_t j = 0; j < f.size(); ++j)
          std::printf("%6u %22.14g %22.14g %16.10g\n", unsigned(j + 1), result.modes.omegas[j], f[j], T[j]);
        std::printf("wrote %s/{modes.csv, mode_shapes.csv, modes.pvd}\n", output_directory(options, c.description).c_str());
      }
    return io::exit_success;
  }

  namespace
  {
    double seconds_between(const std::chrono::steady_clock::time_point from, const std::chrono::steady_clock::time_point to)
    {
      return std::chrono::duration<double>(to - from).count();
    }

    // Where a simulate run's wall time went, as deal.II's TimerOutput prints its sections: the
    // sections follow one another on the main thread; the writer thread's time ran beside the
    // solve and is in none of them.
    struct SimulateTimes
    {
      double startup = 0, setup = 0, solve = 0, stream = 0, statistics = 0, write = 0, total = 0;
      double writer = 0, frames = 0;
    };

    void print_times(const SimulateTimes &t)
    {
      const auto rule = [] { std::printf("+%s+%s+%s+\n", std::string(56, '-').c_str(), std::string(12, '-').c_str(),
                                         std::string(12, '-').c_str()); };
      const auto row  = [&t](const char *name, const double seconds) {
        std::printf("| %-54s | %8.3g s | %9.1f%% |\n", name, seconds, t.total > 0 ? 100 * seconds / t.total : 0.0);
      };
      rule();
      std::printf("| %-54s | %8.3g s | %10s |\n", "wall time since the program started", t.total, "");
      std::printf("| %-54s | %10s | %10s |\n", "", "", "");
      std::printf("| %-54s | %10s | %10s |\n", "Section", "wall time", "% of total");
      rule();
      row("start-up: loading the solver libraries", t.startup);
      row("set-up: case file, model, checks", t.setup);
      row("solve (less its waits for the writer thread)", t.solve);
      row("write: waits for the writer, its streams closed", t.stream);
      row("statistics: Welch's spectra", t.statistics);
      row("write: events, statistics files, plots, commit", t.write);
      rule();
      std::printf("whole run / solve %.3g; the writer thread took %.3g s (%.3g s of it frames) alongside the solve\n",
                  t.solve > 0 ? t.total / t.solve : 0.0, t.writer, t.frames);
    }

    void print_simulation(const std::string &destination, const studies::SimulationResult &result, const SimulateTimes &times)
    {
      integrators::print_summary(std::cout, result.history.summary);
      std::printf("%-23s%u\n", "VTK frames", result.n_frames);
      for (const auto &s : result.statistics)
        std::printf("support %-10s impacts %lu (%.4g /s), contact %.3g %%, RMS force %.4g, peak %.4g, work rate %.4g\n",
                    s.name.c_str(), s.impacts, s.impact_rate, 100 * s.contact_fraction, s.rms_force, s.peak_force,
                    s.work_rate);
      for (const auto &s : result.statistics)
        if (s.in_space)
          std::printf("support %-10s wear work rate %.4g W, friction work %.4g J (wear_sectors.csv by sector)\n",
                      s.name.c_str(), s.wear_work_rate, s.friction_work);
      std::printf("wrote %s/{%s%s%s%s}\n", destination.c_str(), result.hdf5_records ? "records.h5" : "history.csv, events.csv",
                  result.n_frames == 0 ? "" : result.hdf5_records ? ", solution.xdmf" : ", solution.pvd",
                  result.statistics.empty() ? "" : ", statistics.csv, *.png", result.interrupted() ? ", INTERRUPTED" : "");
      std::cout << std::flush;
      print_times(times);
    }
  } // namespace

  int run_simulate(const CommonOptions &options)
  {
    using clock           = std::chrono::steady_clock;
    const auto  entered   = clock::now();
    const auto  started   = options.started == clock::time_point{} ? entered : options.started;
    const auto  c           = studies::read_case_file(options.case_file, options.overrides);
    const auto  destination = output_directory(options, c.description);
    auto        setup       = studies::prepare_simulation(c, destination, options.quiet);
    for (const auto &warning : setup.warnings)
      std::cerr << "warning: " << warning << "\n";
    if (!options.quiet)
      {
        // Supports in space are not expanded into contacts: counted apart, as users declared them.
        const auto  n_spatial = setup.model.spatial_supports.size();
        std::string supports  = n_spatial > 0 ? ", " + std::to_string(n_spatial) + " supports in space" : "";
        std::printf("%s: %u DoFs, %u elements, %zu contacts%s, %s to t = %g\n", setup.model.name.c_str(),
                    unsigned(setup.model.n_dofs()), setup.model.n_elements, setup.model.contacts.size(),
                    supports.c_str(), setup.solver->name().c_str(), setup.control.final_time);
      }

    io::OutputFolder out(destination, studies::verb_name(studies::VerbId::simulate));
    SimulateTimes    times;
    times.startup      = seconds_between(started, entered);
    times.setup        = seconds_between(entered, clock::now());
    const auto result  = studies::run_simulation(std::move(setup), out.staging());
    const auto written = clock::now();
    studies::write_simulation(result, out);
    out.commit(result.interrupted());
    times.solve      = result.solve_seconds;
    times.stream     = result.stream_seconds;
    times.statistics = result.statistics_seconds;
    times.write      = seconds_between(written, clock::now());
    times.writer     = result.writer_seconds;
    times.frames     = result.frame_seconds;
    const auto &summary = result.history.summary;
    for (const auto &warning : summary.warnings)
      std::cerr << "warning: " << warning << "\n";
    times.total = seconds_between(started, clock::now());
    if (!options.quiet)
      print_simulation(destination, result, times);
    return result.interrupted() ? 128 + summary.interrupt_signal : io::exit_success;
  }

  int print_parameters(const std::string &verb)
  {
    studies::print_parameters(std::cout, verb);
    return io::exit_success;
  }
} // namespace vibroimpact::app
