// A case file read by the program: every module's parameters declared, read and checked
// before anything is written.
#pragma once

#include <vibroimpact/integrators/integrator_settings.h>
#include <vibroimpact/structure/case_description.h>
#include <vibroimpact/studies/modal_convergence.h>
#include <vibroimpact/studies/parameter_sweep.h>

#include "verbs.h"

#include <string>

namespace vibroimpact::app
{
  struct Case
  {
    structure::CaseDescription        description;
    integrators::IntegratorSettings   integrator;
    studies::ModalConvergenceSettings convergence;
    studies::SweepSettings            sweep;
  };

  Case read_case(const CommonOptions &options);

  // -o, or output/<Model/Name>.
  std::string output_directory(const CommonOptions &options, const structure::CaseDescription &description);
} // namespace vibroimpact::app
