// The checks every fixed-step solver makes of its step against the final time (solver_base.h).
#include <vibroimpact/integrators/solver_base.h>
#include <vibroimpact/io/input_error.h>

#include <cmath>
#include <sstream>

namespace vibroimpact::integrators
{
  void check_fixed_time_step(const double h, const model::StructuralModel &model, const RunControl &control,
                             const std::string &file, const std::string &section)
  {
    const double T = control.final_time, steps = T / h;
    check_load_bandwidth(model, h, file, section + "/Time step");
    std::ostringstream reason;
    if (h > T)
      {
        reason << "h = " << h << " is longer than Simulation/Final time = " << T;
        throw io::InputError(file, section + "/Time step", reason.str());
      }
    if (steps > max_fixed_steps)
      {
        reason << T << " / h = " << steps << " steps, more than the " << max_fixed_steps << " a run may take";
        throw io::InputError(file, "Simulation/Final time", reason.str());
      }
    // One h throughout (a time stepper factors its matrices once): the last step must end at T.
    if (std::abs(steps - std::round(steps)) > 1e-6 * std::max(1.0, steps))
      {
        reason << "the final time " << T << " is not a whole number of steps of h = " << h << " (T/h = " << steps
               << ")";
        throw io::InputError(file, section + "/Time step", reason.str());
      }
  }
} // namespace vibroimpact::integrators
