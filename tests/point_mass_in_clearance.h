// A point mass m on an isotropic spring k in a clearance support (doc/theory.md §10): DoFs
// (r1, r2[, x, θ]) built by hand, no tube body needed, so that the closed forms of a mass in a
// hole hold exactly. Shared by the friction tests and the statistics tests of supports in space.
#pragma once

#include <vibroimpact/model/spatial_support.h>
#include <vibroimpact/model/structural_model.h>

#include "test_support.h"

namespace vibroimpact::test_cases
{
  // A point mass with n_dofs = 2 (r1, r2) or 4 (r1, r2, x, θ; axial and twist inertia m and J),
  // an isotropic transverse spring k, and one support at the point.
  struct PointMass
  {
    double m = 1.0, k = 1.0, c = 1.0, J = 0.0, R = 0.0;
    int    n_dofs = 2;

    model::StructuralModel model(const model::SpatialSupport::Shape shape, const double mu, const double e = 0.0) const
    {
      model::StructuralModel mdl;
      Eigen::VectorXd        mass(n_dofs), stiffness = Eigen::VectorXd::Zero(n_dofs);
      mass.setConstant(m);
      stiffness[0] = stiffness[1] = k;
      if (n_dofs == 4)
        mass[3] = J;
      mdl.mass      = diagonal_matrix(mass);
      mdl.stiffness = diagonal_matrix(stiffness);
      mdl.damping   = model::SparseMatrix(n_dofs, n_dofs);
      mdl.dof_kinds.assign(n_dofs, model::DofKind::lumped);
      model::SpatialSupport s;
      s.name       = "hole";
      s.shape      = shape;
      s.transverse = {{unit_row(n_dofs, 0), unit_row(n_dofs, 1)}};
      if (n_dofs == 4)
        s.axial = unit_row(n_dofs, 2), s.twist = unit_row(n_dofs, 3), s.outer_radius = R;
      s.clearance = c;
      if (shape == model::SpatialSupport::Shape::polygonal) // a flat bar: walls at r1 = ±c
        s.sides = {{{{1, 0}}, c}, {{{-1, 0}}, c}};
      s.friction    = mu;
      s.restitution = e;
      mdl.spatial_supports.push_back(s);
      mdl.initial_displacement = Eigen::VectorXd::Zero(n_dofs);
      mdl.initial_velocity     = Eigen::VectorXd::Zero(n_dofs);
      return mdl;
    }
  };

  // The planar counterpart of an annular support with the motion along e1: a mass m on a spring k
  // (one DoF) between two stops at ∓c (contacts "upper" and "lower", Newton's e), started at rest
  // at 0 with velocity v0.
  inline model::StructuralModel planar_two_stops(const double m, const double k, const double c, const double e,
                                                 const double v0)
  {
    model::StructuralModel planar;
    planar.mass      = diagonal_matrix(Eigen::VectorXd::Constant(1, m));
    planar.stiffness = diagonal_matrix(Eigen::VectorXd::Constant(1, k));
    planar.damping   = model::SparseMatrix(1, 1);
    planar.dof_kinds = {model::DofKind::lumped};
    for (const double side : {-1.0, 1.0})
      {
        model::Contact contact;
        contact.name        = side < 0 ? "upper" : "lower";
        contact.row         = unit_row(1, 0) * side;
        contact.gap0        = c;
        contact.restitution = e;
        planar.contacts.push_back(contact);
      }
    planar.initial_displacement = Eigen::VectorXd::Zero(1);
    planar.initial_velocity     = Eigen::VectorXd::Constant(1, v0);
    return planar;
  }

  // A constant force f on the DoFs (a preload, a tangential push).
  inline void add_constant_load(model::StructuralModel &mdl, const Eigen::VectorXd &f)
  {
    model::LoadTerm load;
    load.name           = "push";
    load.spatial        = f;
    load.time.kind      = model::TimeFunction::Kind::constant;
    load.time.amplitude = 1.0;
    mdl.loads.push_back(load);
  }

  // The whirl's start: on the annular wall at (c, 0), moving along e2 at speed v0.
  inline model::StructuralModel whirl(const PointMass &p, const double mu, const double v0)
  {
    auto mdl                    = p.model(model::SpatialSupport::Shape::annular, mu);
    mdl.initial_displacement[0] = p.c;
    mdl.initial_velocity[1]     = v0;
    return mdl;
  }
} // namespace vibroimpact::test_cases
