// A whole case file as the program reads it: every module's parameters declared, read and
// checked (one-line io::InputError on bad input) before anything is computed or written.
#pragma once

#include <vibroimpact/integrators/integrator_settings.h>
#include <vibroimpact/integrators/modal_restitution.h>
#include <vibroimpact/structure/case_description.h>
#include <vibroimpact/studies/modal_convergence.h>
#include <vibroimpact/studies/parameter_sweep.h>
#include <vibroimpact/studies/solver_comparison.h>

#include <string>
#include <vector>

namespace vibroimpact::io
{
  class ParameterFile;
}

namespace vibroimpact::studies
{
  struct CaseFile
  {
    structure::CaseDescription             description;
    integrators::IntegratorSettings        integrator;
    integrators::ModalRestitutionSettings  modal_restitution;
    ModalConvergenceSettings               convergence;
    SweepSettings                          sweep;
    ComparisonSettings                     comparison;
  };

  // Declares the parameters of every section a case file may hold.
  void declare_case_file_parameters(io::ParameterFile &file);

  // Reads a .prm or .json case file and applies 'Section/Name=value' overrides.
  CaseFile read_case_file(const std::string &filename, const std::vector<std::string> &overrides = {});
} // namespace vibroimpact::studies
