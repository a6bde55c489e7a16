// The transient wave-mode reference of Yin et al. (2007) as a registered solver ("wave-modes",
// parameters in the "Wave modes" subsection): a clamped–free beam whose tip hits the free end of
// a fixed–free rod, solved on the continuum (no space discretisation) in closed-form time
// functions, phase by phase (doc/wave_modes.md). The time step only samples the solution and
// brackets the switches, which TOMS 748 then locates.
#pragma once

#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/reference/beam_rod_modes.h>

namespace vibroimpact::reference
{
  struct WaveModeSettings
  {
    unsigned int n_modes          = 200;   // N: modes in contact; the N lowest free modes apart
    double       time_step        = 3e-7;  // s: sampling step (switches are bracketed on it)
    double       switch_tolerance = 1e-15; // s: width of the bracket TOMS 748 stops at
    unsigned int max_switches     = 100000;
  };

  // The "Wave modes" subsection.
  void bind_settings(io::ParameterSection &section, WaveModeSettings &settings);

  // The beam and rod data of a model the wave modes can represent, or an io::InputError naming
  // `file` and what is wrong ("Wave modes/..." or the offending section).
  BeamRodData beam_rod_data(const model::StructuralModel &model, const std::string &file);
} // namespace vibroimpact::reference
