// The structural part of a case file (model, bodies, elements, contacts, probes, loads, initial
// state, damping, modes, output sampling), bound to a CaseDescription through
// io::ParameterSection: the same function declares, documents and reads every entry. A value
// out of range throws io::InputError naming the file, the parameter (e.g. "Body beam/Length")
// and the reason.
#pragma once

#include <vibroimpact/structure/case_description.h>

#include <string>
#include <vector>

namespace vibroimpact::io
{
  class ParameterFile;
  class ParameterSection;
} // namespace vibroimpact::io

namespace vibroimpact::structure
{
  // Subsection families whose instances the user names: "subsection Body beam".
  std::vector<std::string> case_families();

  void bind_case_parameters(io::ParameterFile &file, CaseDescription &description);

  // One end condition entry of a Body section, for a kind's own entries (BodyKind::bind_entries):
  // a beam's names (free|pinned|clamped|sliding) where `bending`, else a rod's (free|fixed);
  // `what` names the field in the message ("tube's axial field").
  void bind_end_condition(io::ParameterSection &section, const std::string &entry, EndCondition &end, bool bending,
                          const std::string &what, const std::string &doc);
} // namespace vibroimpact::structure
