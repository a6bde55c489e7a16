// The structural part of a case file: declared in deal.II's ParameterHandler, read, checked,
// and returned as a CaseDescription. Every value out of range throws io::InputError naming the
// file, the parameter (e.g. "Body beam/Length") and the reason.
#pragma once

#include <vibroimpact/structure/case_description.h>

#include <string>
#include <vector>

namespace vibroimpact::io
{
  class ParameterFile;
}

namespace vibroimpact::structure
{
  // Subsection families whose instances the user names: "subsection Body beam".
  std::vector<std::string> case_families();

  void            declare_case_parameters(io::ParameterFile &file);
  CaseDescription parse_case_parameters(io::ParameterFile &file);
} // namespace vibroimpact::structure
