// A case file read by the program (studies::read_case_file), and where its output goes.
#pragma once

#include <vibroimpact/studies/case_file.h>

#include "verbs.h"

#include <string>

namespace vibroimpact::app
{
  using Case = studies::CaseFile;

  inline Case read_case(const CommonOptions &options)
  {
    return studies::read_case_file(options.case_file, options.overrides);
  }

  // -o, or output/<Model/Name>.
  std::string output_directory(const CommonOptions &options, const structure::CaseDescription &description);
} // namespace vibroimpact::app
