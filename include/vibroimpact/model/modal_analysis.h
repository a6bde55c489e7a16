// Natural frequencies and mass-normalised modes of a StructuralModel:
// K phi = omega^2 M phi on its free DoFs.
#pragma once

#include <vibroimpact/model/structural_model.h>

#include <string>
#include <vector>

namespace vibroimpact::model
{
  struct ModalBasis
  {
    Vector          omegas; // rad/s, ascending
    Eigen::MatrixXd shapes; // n x m, phi_j^T M phi_j = 1
    std::string     method; // which eigensolver produced them
  };

  // Models with fewer DoFs than dense_limit, or asking for nearly all their modes, are solved
  // densely (all eigenpairs); larger ones by ARPACK in shift-invert mode around a shift just
  // below zero, with a sparse LDL^T factorisation, so that rigid-body modes (K singular) are
  // found too. ARPACK is already 8x faster at 128 DoFs for 10 modes (bench/modal_bench).
  ModalBasis compute_modes(const SparseMatrix &mass,
                           const SparseMatrix &stiffness,
                           unsigned int        n_modes,
                           unsigned int        dense_limit = 200);

  // The same for a model, with the reported ω_j² the Rayleigh quotient 2 U(φ_j) of the model's
  // cancellation-free strain energy where it has one (fine beam meshes: doc/theory.md §8).
  ModalBasis compute_modes(const StructuralModel &model, unsigned int n_modes, unsigned int dense_limit = 200);
} // namespace vibroimpact::model

namespace vibroimpact::model
{
  // The mode shapes as they are drawn: each scaled to a largest displacement of +1 along its
  // body's motion direction at the output points (the solver's sign is arbitrary; the peak is
  // drawn upwards), with the generalised mass of that scaling (1 / peak² for mass-normalised
  // modes).
  struct DrawnModes
  {
    Eigen::MatrixXd     shapes;           // n × m, DoF vectors with unit peak
    Eigen::MatrixXd     drawn;            // output points × m, the displacement along the motion
    std::vector<double> generalised_mass; // per mode
  };

  DrawnModes unit_peak_modes(const ModalBasis &modes, const OutputGeometry &geometry);
} // namespace vibroimpact::model
