// The verbs modes and simulate, and `parameters`: each makes its library call (studies/verb_calls.h,
// the one the Python module makes too), then prints what it did.
#include <vibroimpact/studies/verb_table.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/progress_bar.h>
#include <vibroimpact/io/write_error.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/modes_study.h>
#include <vibroimpact/studies/simulation_study.h>
#include <vibroimpact/studies/verb_calls.h>

#include <deal.II/base/timer.h>

#include "verbs.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

namespace vibroimpact::app
{
  std::string output_directory(const CommonOptions &options, const structure::CaseDescription &description)
  {
    return options.output.empty() ? "output/" + description.name : options.output;
  }

  studies::VerbCallOptions call_options(const CommonOptions &options, std::optional<studies::CaseFile> &c,
                                        dealii::TimerOutput *timer)
  {
    studies::VerbCallOptions call;
    call.read_case = [&options, &c]() -> const studies::CaseFile & {
      c.emplace(studies::read_case_file(options.case_file, options.overrides));
      return *c;
    };
    call.destination      = [&options](const studies::CaseFile &read) { return output_directory(options, read.description); };
    call.quiet            = options.quiet;
    call.keep_interrupted = true;
    call.timer            = timer;
    return call;
  }

  int run_modes(const CommonOptions &options)
  {
    dealii::TimerOutput timer(std::cout, options.quiet ? dealii::TimerOutput::never : dealii::TimerOutput::summary,
                              dealii::TimerOutput::wall_times);
    std::optional<studies::CaseFile> c;
    const auto                       result = studies::modes_verb(call_options(options, c, &timer));
    for (const auto &warning : result.warnings)
      std::cerr << "warning: " << warning << "\n";
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
        std::printf("wrote %s/{modes.csv, mode_shapes.csv, modes.pvd}\n", output_directory(options, c->description).c_str());
      }
    return io::exit_success;
  }

  namespace
  {
    double seconds_between(const std::chrono::steady_clock::time_point from, const std::chrono::steady_clock::time_point to)
    {
      return std::chrono::duration<double>(to - from).count();
    }

    void print_simulation(const std::string &destination, const studies::SimulationResult &result)
    {
      studies::print_summary(std::cout, result.history.summary);
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
    }

    // What the timer's sections cannot hold: the start-up before the timer existed (main()
    // loading the solver libraries) and the writer thread, which ran beside the solve.
    void print_times_beside_the_timer(const double startup, const studies::SimulationResult &result)
    {
      std::printf("start-up before the timer (loading the solver libraries): %.3g s; the solve waited %.3g s for the "
                  "writer thread, which took %.3g s (%.3g s of it frames) alongside the solve\n",
                  startup, result.waited_seconds, result.writer_seconds, result.frame_seconds);
    }
  } // namespace

  int run_simulate(const CommonOptions &options)
  {
    using clock = std::chrono::steady_clock;
    const auto entered = clock::now();
    const auto started = options.started == clock::time_point{} ? entered : options.started;
    dealii::TimerOutput timer(std::cout, dealii::TimerOutput::never, dealii::TimerOutput::wall_times);
    std::optional<studies::CaseFile> c;
    const auto result = studies::simulate_verb(call_options(options, c, &timer), [&](const studies::SimulationSetup &setup) {
      for (const auto &warning : setup.warnings)
        std::cerr << "warning: " << warning << "\n";
      if (options.quiet)
        return;
      // Supports in space are not expanded into contacts: counted apart, as users declared them.
      const auto  n_spatial = setup.model.spatial_supports.size();
      std::string supports  = n_spatial > 0 ? ", " + std::to_string(n_spatial) + " supports in space" : "";
      std::printf("%s: %u DoFs, %u elements, %zu contacts%s, %s to t = %g\n", setup.model.name.c_str(),
                  unsigned(setup.model.n_dofs()), setup.model.n_elements, setup.model.contacts.size(), supports.c_str(),
                  setup.solver->name().c_str(), setup.control.final_time);
    });
    const auto &summary = result.history.summary;
    for (const auto &warning : summary.warnings)
      std::cerr << "warning: " << warning << "\n";
    if (!options.quiet)
      {
        print_simulation(output_directory(options, c->description), result);
        std::cout << std::flush;
        timer.print_summary();
        print_times_beside_the_timer(seconds_between(started, entered), result);
      }
    return result.interrupted() ? 128 + summary.interrupt_signal : io::exit_success;
  }

  int print_parameters(const std::string &verb)
  {
    studies::print_parameters(std::cout, verb);
    return io::exit_success;
  }
} // namespace vibroimpact::app
