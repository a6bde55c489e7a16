// From a case description to the algebraic model every solver consumes: bodies meshed and
// assembled, lumped elements, contacts, probes, loads, damping and the initial state.
#pragma once

#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/structure/case_description.h>

#include <string>
#include <vector>

namespace vibroimpact::structure
{
  // Throws io::InputError when the description refers to a missing body, a point outside its
  // body, a missing mesh, or an initial state that cannot be formed.
  model::StructuralModel build_model(const CaseDescription &description);

  // Round-off of the time stepper's elastic forces against discretisation error, per body on a
  // uniform mesh of h = L/n (doc/theory.md §8): the nodal forces K u of a smooth mode j cancel to
  // (jπh/L)^p of their terms (p = 4 beam, 2 rod), so round-off puts a relative error near
  // ε (L/(πh))^p / 2 on ω₁² as the stepper sees it (and on ½ uᵀ K u), while the elements' error is
  // (πh/L)⁴/1440 (Hermite beam) or (πh/L)²/24 (linear rod). The modes' Rayleigh quotient uses the
  // strain form and is far better (StructuralModel::strain_energy).
  struct ConditioningEstimate
  {
    std::string body;
    unsigned int elements = 0;
    double       roundoff_bound        = 0.0; // relative error of ω₁ from round-off, estimated
    double       discretisation_error  = 0.0; // relative error of ω₁ from the elements
  };
  std::vector<ConditioningEstimate> conditioning_estimates(const CaseDescription &description);

  // One line per body whose round-off estimate exceeds `threshold` (or, with threshold = 0, its
  // own discretisation error: refining it further cannot improve ω₁).
  std::vector<std::string> conditioning_warnings(const CaseDescription &description, double threshold = 0.0);
} // namespace vibroimpact::structure
