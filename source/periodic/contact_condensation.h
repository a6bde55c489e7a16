// Massless contact nodes (mass redistribution, Khenous, Laborde & Renard 2008; doc/periodic.md §6):
// the model on the DoFs that keep their mass, each contact DoF condensed statically, so that a
// stop becomes a unilateral spring on the other DoFs. Private to the event-driven map.
#pragma once

#include <vibroimpact/integrators/modal_projection.h>
#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/periodic/flow_map.h>

#include <vector>

namespace vibroimpact::periodic
{
  // Each contact DoF u_N is condensed statically, u_N = r·u (r = −K_Nr/K_NN). The stop then
  // adds ½ κ min(γ, 0)² to the potential, γ = gap0 + c r·u the gap the node would have, κ =
  // K_NN/c² (c the contact row's coefficient): a unilateral spring on the contact row c r.
  struct ContactCondensation
  {
    model::StructuralModel     reduced;   // its contacts' rows are c r; no probes
    std::vector<Eigen::Index>  kept;      // full DoF of each reduced DoF
    std::vector<Eigen::Index>  node;      // per contact: its (massless) DoF
    std::vector<double>        coefficient, stiffness; // c and κ per contact
    std::vector<Vector>        recovery;  // r per contact, on the reduced DoFs
    Eigen::Index               n_full = 0;
  };

  // Throws std::invalid_argument, its text starting "massless contact nodes: ", for a model
  // whose contacts cannot be condensed (two-body contacts, coupled or loaded contact DoFs, ...).
  ContactCondensation condense_contact_nodes(const model::StructuralModel &model, integrators::ModeSource source);
} // namespace vibroimpact::periodic
