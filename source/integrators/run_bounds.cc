// Steps, rows and frames of a run checked against time, memory and disk before it starts.
#include <vibroimpact/integrators/run_bounds.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/number_text.h>
#include <vibroimpact/io/resources.h>

#include <cmath>
#include <cstdio>

namespace vibroimpact::integrators
{
  namespace
  {
    std::string number(const double x) { return io::number_text(x, 3); }

    std::string bytes(const double b)
    {
      return b >= 1e9 ? number(b / 1e9) + " GB" : b >= 1e6 ? number(b / 1e6) + " MB" : number(b / 1e3) + " kB";
    }

    // The history's columns: time, energies, per contact gap, impulse, force, per probe u, v.
    double history_columns(const model::StructuralModel &model)
    {
      return 8.0 + 3.0 * model.contacts.size() + 2.0 * model.probes.size();
    }
  } // namespace

  void check_run(const Solver &solver, const model::StructuralModel &model, const RunControl &control,
                 const std::string &file, const std::filesystem::path &output, const bool frames,
                 const RunBounds &bounds)
  {
    check_spatial_supports(solver, model, file);
    check_elastic_contacts(solver, model, file);
    solver.check(model, control, file);
    const double T = control.final_time;

    double steps = 0;
    if (const auto h = solver.time_step(); h && *h > 0)
      {
        steps = T / *h;
        if (!(steps <= bounds.max_steps))
          throw io::InputError(file, solver.parameter_section() + "/Time step",
                               number(*h) + " gives " + number(steps) + " steps over Final time = " + number(T) +
                                 " (at most " + number(bounds.max_steps) + ")");
      }

    const double n_frames = frames && control.frame_interval > 0 ? std::floor(T / control.frame_interval) + 1 : 0;
    if (!(n_frames <= bounds.max_frames))
      throw io::InputError(file, "Simulation/Frame interval",
                           number(control.frame_interval) + " gives " + number(n_frames) +
                             " .vtu frames over Final time = " + number(T) + " (at most " +
                             number(bounds.max_frames) + "): choose a larger interval, or 0 for none");

    // Rows: every output interval, or every step of a time stepper (interval 0), or 1000.
    double rows = control.output_interval > 0 ? std::floor(T / control.output_interval) + 1
                                              : (steps > 0 ? steps + 1 : 1001.0);
    if (steps > 0)
      rows = std::min(rows, steps + 1);
    rows += n_frames;
    const double columns = history_columns(model);
    const double memory  = rows * (8.0 * columns + 64.0);
    const double available = io::available_memory();
    if (bounds.rows_in_memory && memory > 0.8 * available)
      throw io::InputError(file, "Simulation/Output interval",
                           number(rows) + " history rows of " + number(columns) + " columns need about " +
                             bytes(memory) + " of memory, " + bytes(available) +
                             " are available: choose a larger Output interval or a shorter Final time");
    if (output.empty())
      return;
    const double points = double(model.geometry.points.size());
    const double disk   = rows * 24.0 * columns + n_frames * (points * 120.0 + 4096.0);
    const double free   = io::free_disk_space(output);
    if (disk > free)
      throw io::InputError(file, n_frames > 0 ? "Simulation/Frame interval" : "Simulation/Output interval",
                           "the run would write about " + bytes(disk) + " (" + number(rows) + " history rows, " +
                             number(n_frames) + " frames) where " + bytes(free) + " are free (" + output.string() +
                             ")");
  }
} // namespace vibroimpact::integrators
