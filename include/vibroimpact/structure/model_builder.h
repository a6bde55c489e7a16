// From a case description to the algebraic model every solver consumes: bodies meshed and
// assembled, lumped elements, contacts, probes, loads, damping and the initial state.
#pragma once

#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/structure/case_description.h>

namespace vibroimpact::structure
{
  // Throws io::InputError when the description refers to a missing body, a point outside its
  // body, a missing mesh, or an initial state that cannot be formed.
  model::StructuralModel build_model(const CaseDescription &description);
} // namespace vibroimpact::structure
