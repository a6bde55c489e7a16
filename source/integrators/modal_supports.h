// Internal to the fixed-step modal solvers (modal-penalty, modal-uk): the spatial supports of a
// model (model::SpatialSupport) in modal coordinates. Each support's four kinematic
// rows (r1, r2, axial, twist) are projected on the modes once, S Φ (4 × N), so that a step reads
// a support's position with 2 N multiplications and never forms u = Φ q. The candidate contacts'
// gaps and frames follow model::contact_frames exactly (the one geometry rule; a test checks the
// two agree), written here on the projected rows: a contact's (n, t1, t2) rows are 3 × 4
// coefficients over (r1, r2, axial, twist),
//   n = −ν1 r1 − ν2 r2,  t1 = −ν2 r1 + ν1 r2 + R θ,  t2 = x,
// an absent row (no axial or twist field) with coefficient 0.
#pragma once

#include <vibroimpact/integrators/modal_projection.h>
#include <vibroimpact/model/spatial_support.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace vibroimpact::integrators
{
  using SupportRows = Eigen::Matrix<double, 4, Eigen::Dynamic, Eigen::RowMajor>;
  using FrameRows   = Eigen::Matrix<double, 3, 4>;

  // One candidate contact of a support at a modal state: its gap, outward normal ν (angle on the
  // wall) and local frame as coefficients over the support's rows.
  struct ModalContactFrame
  {
    unsigned int          candidate = 0;
    double                gap       = 0.0;
    std::array<double, 2> outward{{1, 0}};
    double                angle = 0.0;
    FrameRows             frame = FrameRows::Zero();
  };

  struct ModalSupport
  {
    model::SpatialSupport support; // a copy: the solver may outlive the model
    SupportRows                  rows; // S Φ: r1, r2, axial, twist on the modes (absent: zero)

    // S Φ x: the four rows read on a modal vector (four contiguous dot products, vectorised;
    // Eigen's coefficient-wise 4 × N product is several times slower here).
    Eigen::Matrix<double, 4, 1> read(const Eigen::Ref<const Eigen::VectorXd> &x) const
    {
      return {rows.row(0).dot(x), rows.row(1).dot(x), rows.row(2).dot(x), rows.row(3).dot(x)};
    }

    // generalized += (S Φ)ᵀ w: a force w on the four rows, on the modes.
    void add_transpose(const Eigen::Matrix<double, 4, 1> &w, Eigen::VectorXd &generalized) const
    {
      for (int k = 0; k < 4; ++k)
        if (w[k] != 0.0)
          generalized.noalias() += w[k] * rows.row(k).transpose();
    }

    // r − c at the modal displacement q.
    std::array<double, 2> position(const Eigen::Ref<const Eigen::VectorXd> &q) const
    {
      return {{rows.row(0).dot(q) - support.centre[0], rows.row(1).dot(q) - support.centre[1]}};
    }

    // The frame of a wall with outward normal ν: model::frame_coefficients, the one statement of it.
    FrameRows frame(const std::array<double, 2> &nu) const { return model::frame_coefficients(support, nu); }

    // Candidate k's gap and frame at the relative position r (annular: k = 0, ν along r, and
    // ν = e1 at r = 0 as model::contact_frames).
    ModalContactFrame candidate(const unsigned int k, const std::array<double, 2> &r) const
    {
      ModalContactFrame f;
      f.candidate = k;
      if (support.shape == model::SpatialSupport::Shape::annular)
        {
          const double rho = std::hypot(r[0], r[1]);
          f.outward        = rho > 0 ? std::array<double, 2>{{r[0] / rho, r[1] / rho}} : std::array<double, 2>{{1.0, 0.0}};
          f.gap            = support.clearance - rho;
        }
      else
        {
          const auto &side = support.sides[k];
          f.outward        = side.normal;
          f.gap            = side.distance - (side.normal[0] * r[0] + side.normal[1] * r[1]);
        }
      f.angle = std::atan2(f.outward[1], f.outward[0]);
      f.frame = frame(f.outward);
      return f;
    }

    // The smallest distance from r to a wall (a lower bound of every candidate's gap).
    double nearest_gap(const std::array<double, 2> &r) const
    {
      if (support.shape == model::SpatialSupport::Shape::annular)
        return support.clearance - std::hypot(r[0], r[1]);
      double g = std::numeric_limits<double>::infinity();
      for (const auto &side : support.sides)
        g = std::min(g, side.distance - (side.normal[0] * r[0] + side.normal[1] * r[1]));
      return g;
    }
  };

  // The model's spatial supports on the projection's modes, in the model's order.
  inline std::vector<ModalSupport> project_supports(const std::vector<model::SpatialSupport> &supports,
                                                    const ModalProjection                    &P)
  {
    std::vector<ModalSupport> out;
    for (const auto &support : supports)
      {
        ModalSupport                  s;
        s.support                     = support;
        s.rows                        = SupportRows::Zero(4, P.size());
        const model::SparseRowVector *rows[] = {&support.transverse[0], &support.transverse[1], &support.axial,
                                                &support.twist};
        for (int k = 0; k < 4; ++k)
          if (rows[k]->nonZeros() > 0)
            s.rows.row(k) = (P.shapes().transpose() * Eigen::VectorXd(*rows[k])).transpose();
        out.push_back(std::move(s));
      }
    return out;
  }
} // namespace vibroimpact::integrators
