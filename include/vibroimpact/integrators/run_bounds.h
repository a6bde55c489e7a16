// The work a time-domain run is asked for, bounded before it starts: steps, history rows and
// VTK frames against the final time, the memory that holds the rows and the disk that takes
// them, so that a mistyped interval (Frame interval = 1e-300) is refused in one line instead
// of filling the disk or the memory. Called with the solver's own check (check_run).
#pragma once

#include <vibroimpact/integrators/solver.h>

#include <filesystem>
#include <string>

namespace vibroimpact::integrators
{
  struct RunBounds
  {
    double max_steps  = 1e12;   // beyond this a run takes days at any model size
    double max_frames = 1e5;    // .vtu files in one folder
    // false: the rows stream to disk as they are formed (simulate): only the disk bounds them.
    bool rows_in_memory = true;
  };

  // The solver's check, then the bounds. `output`: the folder the run will write (empty: the
  // run writes no history to disk, only the memory is checked). `frames`: whether VTK frames
  // are written at Frame interval. Throws io::InputError naming `file` and the entry.
  void check_run(const Solver &solver, const model::StructuralModel &model, const RunControl &control,
                 const std::string &file, const std::filesystem::path &output = {}, bool frames = false,
                 const RunBounds &bounds = RunBounds());
} // namespace vibroimpact::integrators
