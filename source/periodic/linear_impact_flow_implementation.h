// The state shared by the files of the event-driven map (LinearImpactFlow): the model in N
// mass-normalised modes, each closed set's linear dynamics, and the two flows over a period
// (dense exponentials with impacts: exponential_event_flow.cc; uncoupled oscillators of massless
// contact nodes: oscillator_flow.cc). Private to source/periodic.
#pragma once

#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/periodic/linear_impact_flow.h>

#include <boost/math/tools/toms748_solve.hpp>

#include "contact_condensation.h"
#include "uncoupled_oscillators.h"

#include <limits>
#include <map>
#include <mutex>
#include <vector>

namespace vibroimpact::periodic
{
  constexpr double infinity = std::numeric_limits<double>::infinity();

  // The closed contacts as a key (contacts are few).
  using ClosedSet = std::vector<bool>;

  // The root of f in [a, b] (f changes sign there) by TOMS 748 to the last bits: the end of the
  // final bracket on the side where f has crossed.
  template <typename Function>
  double crossing(Function &&f, const double a, const double b)
  {
    boost::uintmax_t iterations = 100;
    const auto       r          = boost::math::tools::toms748_solve(
      f, a, b, boost::math::tools::eps_tolerance<double>(52), iterations);
    return r.second;
  }

  // The final bracket of the root of f in [a, b], its values f_a, f_b there already known.
  template <typename Function>
  std::pair<double, double> bracket(Function &&f, const double a, const double b, const double f_a, const double f_b)
  {
    boost::uintmax_t iterations = 100;
    return boost::math::tools::toms748_solve(f, a, b, f_a, f_b, boost::math::tools::eps_tolerance<double>(52),
                                             iterations);
  }

  // State layout z = (q, q̇, ξ): N modal coordinates, N velocities, and for loaded models
  // ξ = (1, sin Ωt, cos Ωt), so that every load term is a column of A.
  struct LinearImpactFlow::Implementation
  {
    Implementation(const model::StructuralModel &model, const LinearImpactFlowSettings &s);
    void init(const model::StructuralModel &model);

    LinearImpactFlowSettings     settings;
    ContactCondensation          condensation; // massless contact nodes only
    integrators::ModalProjection projection;
    // Contacts are unilateral springs: elastic contacts (model::Contact::stiffness), or the stops
    // of massless contact nodes (their condensed stiffness κ = K_NN/c², in series with an elastic
    // obstacle's k: κk/(κ + k)); `spring` holds k, κ or κk/(κ + k). A closed massless node takes
    // back `closure` of the gap it would have: 1 on a rigid stop, k/(κ + k) on an elastic one.
    bool                         compliant = false;
    Vector                       spring, closure;
    Eigen::Index                 m = 0, nz = 0, n_forcing = 0;
    Matrix                       B, G, mass_shapes;
    Vector                       gap0, omega, D;
    std::vector<double>          restitution;
    Vector                       correction_base, initial_displacement, initial_velocity;
    std::vector<std::vector<Eigen::Index>> contact_dofs;
    double                       forcing_omega = 0.0;
    bool                         harmonic      = false;
    // Contact `contact` ignores its impacts (and a spring its closing) at times in [from, to]
    // modulo `period` (LinearImpactFlow::ignore_impacts).
    struct IgnoredImpacts
    {
      int    contact = -1;
      double from = 0.0, to = 0.0, period = 0.0;
      bool   covers(unsigned int i, double t) const
      {
        if (static_cast<int>(i) != contact)
          return false;
        for (const double s : {t, t - period, t + period})
          if (s >= from && s <= to)
            return true;
        return false;
      }
    } ignored;

    // What the flow of one closed set needs: A, ∂A/∂α, and the rows giving the multipliers
    // (closed_set_dynamics.cc).
    struct Mode
    {
      Matrix A, A_alpha;
      Matrix multiplier_rows; // λ_S = L z, one row per closed contact (in `closed_list` order)
      std::vector<unsigned int> closed_list;
      Matrix step, step_extended; // exp(A δ), exp([[A, A_α], [0, A]] δ)
      double step_length = -1.0;
    };

    Mode   make_mode(const ClosedSet &closed, double alpha) const;
    // [[A, A_α], [0, A]]: its exponential's top-right block is ∂exp(A t)/∂α.
    Matrix extended(const Mode &mode) const;
    // The event scan's step: a fraction of the shortest period.
    double scan_step() const;

    double gap(unsigned int i, const Vector &z) const { return gap0[i] + B.row(i).dot(z.head(m)); }
    double gap_rate(unsigned int i, const Vector &z) const { return B.row(i).dot(z.segment(m, m)); }

    Vector initial_z(const Vector &x0) const;
    // Whether contact i, at rest on its stop in state z, is pressed into it by the free flow.
    bool   pressed(unsigned int i, const Vector &z, double alpha) const;
    // The projector onto the velocities that leave the contacts of `rows` at rest (unit modal
    // masses: the mass-orthogonal complement of their rows).
    Matrix null_projector(const std::vector<unsigned int> &rows) const;
    // The energy correction after an impact: v+ = w + β d(w), w the velocity the impact law left,
    // β the smaller root of ½|d|²β² + (d·w)β − D = 0, D = ½(|v−|² − |w|²) (unit modal masses, as
    // Moreau–Jean's eq. (6) for h → 0). d is zero on the contacts in `held` (the closed ones and
    // the one that hit). Returns ∂v+/∂v− given ∂w/∂v− = R.
    Matrix correct_energy(const Vector &v_minus, Vector &w, const Matrix &R,
                          const std::vector<unsigned int> &held) const;

    struct Recorder
    {
      std::vector<double> times; // ascending sample times
      std::size_t         next = 0;
      std::vector<Vector> states;
    };

    // Massless contact nodes without damping or harmonic load: in closed set S the motion is
    // q̈ = −K_S q + f_S − α q̇, K_S = Ω² + Σ_S κ_i b_i b_iᵀ, f_S = g_c − Σ_S κ_i gap0_i b_i (unit
    // modal masses, g_c the constant load), so in the eigenvectors V of K_S about the equilibrium
    // q_s = K_S⁻¹ f_S every coordinate is an oscillator p̈ + α ṗ + λ p = 0 with a closed form. K_S
    // does not depend on α: one eigendecomposition per closed set serves every flow.
    bool uses_oscillators() const
    {
      return compliant && settings.uncoupled_oscillators && D.isZero(0.0) && !harmonic && omega.minCoeff() > 0;
    }

    struct Oscillators
    {
      Matrix V;             // orthonormal eigenvectors of K_S (columns)
      Vector lambda;        // their eigenvalues, the squared frequencies
      Vector q_static;      // the equilibrium q_s
      Matrix contact_rows;  // B V: gap_i = gap_static_i + (B V)_i p
      Vector gap_static;    // gap0 + B q_s
      bool   modal = false; // V = I: no spring closed, the modes themselves (ascending)
    };
    mutable std::map<ClosedSet, Oscillators> oscillators_cache;
    mutable std::mutex                       oscillators_mutex;

    const Oscillators &oscillators_of(const ClosedSet &closed) const;

    // The flow from z0 over [0, T]; fills the result (events, gaps) and, when asked, the
    // Jacobian and the samples (exponential_event_flow.cc).
    FlowResult run(const Vector &x0, double period, double alpha, bool with_jacobian, Recorder *recorder) const;
    // The same for uses_oscillators() models (oscillator_flow.cc).
    FlowResult run_oscillators(const Vector &x0, double period, double alpha, bool with_jacobian,
                               Recorder *recorder) const;
  };

  // What one pass of the map shares, whichever way it flows (by exponentials, or by the
  // oscillators of massless contact nodes): the flow and its sizes, the unfolding α, whether the
  // Jacobian is wanted, the recorder of samples, the extended state z and its closed set, and
  // the result so far.
  struct FlowPass
  {
    FlowPass(const LinearImpactFlow::Implementation &flow, const Vector &x0, const double alpha,
             const bool with_jacobian, LinearImpactFlow::Implementation::Recorder *recorder)
      : flow(flow)
      , m(flow.m)
      , nz(flow.nz)
      , alpha(alpha)
      , with_jacobian(with_jacobian)
      , recorder(recorder)
      , z(flow.initial_z(x0))
      , closed(flow.B.rows(), false)
    {}

    // The end of the pass: the recorder's samples still due take z; the result its value (the
    // first 2m entries of z) and one evaluation, and with the Jacobian (`tangent`: ∂z/∂z0,
    // `d_alpha`: ∂z/∂α, `A`: the closed set's mode at the end) its blocks and the period
    // derivative A z. The result is moved out: the pass ends here.
    FlowResult finish_pass(const Matrix *tangent, const Vector &d_alpha, const Matrix &A)
    {
      if (recorder)
        while (recorder->next < recorder->times.size())
          recorder->states.push_back(z), ++recorder->next;
      result.x           = z.head(2 * m);
      result.evaluations = 1;
      if (tangent)
        {
          result.jacobian    = tangent->topLeftCorner(2 * m, 2 * m);
          result.d_unfolding = d_alpha.head(2 * m);
          result.d_period    = (A * z).head(2 * m);
        }
      return std::move(result);
    }

    const LinearImpactFlow::Implementation     &flow;
    const io::InterruptCheck                    interrupted; // abandons the pass at a signal (a stretch or step at most)
    const Eigen::Index                          m, nz;
    const double                                alpha;
    const bool                                  with_jacobian;
    LinearImpactFlow::Implementation::Recorder *recorder;
    FlowResult                                  result;
    Vector                                      z;
    ClosedSet                                   closed;
  };
} // namespace vibroimpact::periodic
