// Supports that hold a tube moving in both transverse planes: a circular hole
// (annular), two parallel bars (flat bar) or a convex polygon of straight sides (trefoil,
// quatrefoil drilled supports), rigid or flexible, with Coulomb friction. The support is plain
// data on the seam; `contact_frames` is the one place where its geometry becomes contacts
// (gap, normal and tangential rows) at a given displacement, for every solver and statistic.
//
// Conventions (doc/theory.md, "Tubes in space"). The support's plane is spanned by the tube's two
// transverse directions e1, e2, with e_x = e1 × e2 along the tube axis. r = (r1, r2) is the
// centreline's displacement at the supported point relative to the support (a flexible support's
// ring moves too: r is tube minus ring). The clearance is a convex region around the support's
// centre c = (c1, c2) (an offset/eccentricity of the hole):
//   annular     g = clearance − |r − c|,
//   polygonal   g_k = distance_k − ν_k · (r − c) for each side k (ν_k the side's outward unit
//               normal in the plane; a flat bar is the polygon of two opposite sides).
// A contact's outward normal ν points from the centre to the wall; the tube touches the wall at
// the surface point centreline + R ν (R the tube's outer radius). Per contact the local frame is
//   n  = −ν (normal velocity U_n = −ν·ṙ, positive opening, so g(u + du) ≈ g + normal·du),
//   t1 = e_x × ν = (−ν2, ν1): circumferential sliding U_t1 = t1·ṙ + R θ̇ (θ the twist),
//   t2 = e_x: axial sliding U_t2 = ẋ (the axial field, when the body has one),
// and the impulse (p_n, p_t1, p_t2) acts on the structure as normalᵀ p_n + tangentᵀ p_t1 +
// axialᵀ p_t2 (the twist row carries the friction moment R p_t1).
#pragma once

#include <Eigen/Sparse>

#include <array>
#include <string>
#include <vector>

namespace vibroimpact::model
{
  using SparseRowVector = Eigen::SparseVector<double>;

  // One straight side of a polygonal support: the half-plane ν · (r − c) <= distance.
  struct SupportSide
  {
    std::array<double, 2> normal{{1, 0}}; // outward unit normal ν in (e1, e2)
    double                distance = 0.0; // > 0: from the centre to the side
  };

  struct SpatialSupport
  {
    enum class Shape
    {
      annular,  // a circular hole of radial clearance
      polygonal // straight sides (a flat bar: two opposite sides)
    };

    std::string name;
    Shape       shape = Shape::annular;

    // Kinematics of the supported point: rows that give, from the DoF vector u, the centreline's
    // displacement along e1 and e2 relative to the support (flexible: minus the ring's), the
    // axial displacement and the twist angle. An empty axial or twist row: the body has no such
    // field (then t2 has no mobility and the contact is two-dimensional).
    std::array<SparseRowVector, 2> transverse;
    SparseRowVector                axial, twist;
    double                         outer_radius = 0.0; // R of the tube

    std::array<double, 2>    centre{{0, 0}}; // c, the hole's offset in (e1, e2)
    double                   clearance = 0.0; // annular: radial clearance (> 0)
    std::vector<SupportSide> sides;           // polygonal: convex, closed

    double friction    = 0.0; // Coulomb μ >= 0, the same for both tangents
    double restitution = 0.0; // Newton's e of the normal impacts
    bool   flexible    = false;

    // For output: the supported point and the plane's directions in space.
    std::array<double, 3>                location{{0, 0, 0}};
    std::array<std::array<double, 3>, 2> directions{{{{0, 1, 0}}, {{0, 0, 1}}}};

    // Contacts a solver may have to consider: 1 (annular) or the number of sides.
    unsigned int n_candidates() const;
    bool         three_dimensional() const { return axial.nonZeros() > 0; }
  };

  // One candidate contact of a support at a displacement: its gap and local frame.
  struct ContactFrame
  {
    unsigned int          candidate = 0;  // annular: 0; polygonal: the side
    double                gap       = 0.0; // g (positive open)
    std::array<double, 2> outward{{1, 0}}; // ν
    double                angle = 0.0;     // of ν, atan2(ν2, ν1) in (−π, π]: where on the wall
    SparseRowVector       normal;          // U_n = normal · v; g(u + du) ≈ gap + normal · du
    SparseRowVector       tangent;         // U_t1 = tangent · v (circumferential, with R θ̇)
    SparseRowVector       axial;           // U_t2 = axial · v; empty without an axial field
  };

  // The local frame (n, t1, t2) of a contact with outward normal ν as coefficients over the
  // support's kinematic rows (r1, r2, axial, twist):
  //   n = −ν1 r1 − ν2 r2,  t1 = −ν2 r1 + ν1 r2 + R twist,  t2 = axial,
  // with 0 for a row the body lacks. The one statement of the frame: the rows of a ContactFrame
  // are these times the kinematic rows, and a solver may rotate precomputed row data with them.
  Eigen::Matrix<double, 3, 4> frame_coefficients(const SpatialSupport &support, const std::array<double, 2> &outward);

  // The support's position relative to its centre, r − c, at the displacement u.
  std::array<double, 2> relative_position(const SpatialSupport &support, const Eigen::VectorXd &u);

  // Every candidate contact of the support at the displacement u (the frames of a polygon's sides
  // are constant; the annular frame turns with r − c, and at r = c, where ν is undefined and the
  // gap is the whole clearance, it takes ν = e1).
  std::vector<ContactFrame> contact_frames(const SpatialSupport &support, const Eigen::VectorXd &u);
} // namespace vibroimpact::model
