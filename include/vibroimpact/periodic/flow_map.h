// The period map that shooting solves on: x0 -> x(T) for a state x (displacement and velocity in
// the map's own coordinates), with its derivatives, and what happened along the way (impacts,
// sticking phases, how close it came to grazing). Three maps implement it:
//
//   LinearImpactFlow   event-driven and exact between events (linear structures, modal
//                      coordinates): saltation matrices at impacts, so the map is smooth inside a
//                      family and Newton converges quadratically;
//   MoreauJeanFlow     N Moreau–Jean steps of h = T/N on any model (the seed's method): the exact
//                      Jacobian of the discrete map along the recorded active sets;
//   RodCharacteristicsFlow  the strain waves of a uniform fixed–free rod moved one cell a step
//                      (exact transport, no dispersion), scanned in energy rather than continued.
//
// Conservative families are one-parameter continua; they are regularised by an artificial damping
// unknown α (the flow gets −α v in its acceleration, as in NLvib): a periodic orbit of the damped
// flow needs α = 0, and the Jacobian in (x0, T, α) becomes regular (doc/periodic.md §2).
#pragma once

#include <vibroimpact/integrators/response_history.h>

#include <Eigen/Dense>

#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vibroimpact::periodic
{
  using Vector = Eigen::VectorXd;
  using Matrix = Eigen::MatrixXd;

  // The one event type of time histories and orbits (integrators/response_history.h): an orbit's
  // impacts carry U− (pre_velocity); their U+ and impulse are left 0.
  using ContactEvent = integrators::ContactEvent;

  // One evaluation of the period map.
  struct FlowResult
  {
    Vector x;              // state at the end
    Matrix jacobian;       // ∂x(T)/∂x0 (the monodromy matrix at a periodic orbit); empty if not asked
    Vector d_period;       // ∂x(T)/∂T (autonomous maps)
    Vector d_unfolding;    // ∂x(T)/∂α
    std::vector<ContactEvent> events;
    double min_gap             = 0.0;  // smallest gap over the period (sampled and at events)
    // Smallest local minimum of an open gap between impacts (∞: none): → 0 at a grazing, where
    // a family of a given number of impacts per period ends.
    double grazing_gap = std::numeric_limits<double>::infinity();
    double min_impact_velocity = 0.0;  // smallest |U−| of the impacts (grazing when → 0)
    double max_penetration     = 0.0;  // deepest penetration (time steppers; 0 for exact flows)
    unsigned long evaluations  = 0;    // flow-map evaluations this result cost (Jacobian included)
  };

  // A sampled orbit, for output: times, states in DoF coordinates.
  struct OrbitSamples
  {
    std::vector<double> time;
    std::vector<Vector> displacement, velocity; // every DoF of the model
    std::vector<double> energy; // the map's own energy at each sample; empty: the model's of (u, v)
    std::vector<ContactEvent> events;
  };

  class PeriodicFlowMap
  {
  public:
    virtual ~PeriodicFlowMap() = default;

    virtual std::string  name() const      = 0;
    virtual Eigen::Index dimension() const = 0; // size of x (2 × coordinates)
    // x(T) from x0 at t = 0 with the unfolding damping α; with_jacobian: also the derivatives.
    virtual FlowResult flow(const Vector &x0, double period, double alpha, bool with_jacobian) const = 0;
    // The autonomous vector field at x (for the phase condition) and the total energy.
    virtual Vector vector_field(const Vector &x) const = 0;
    virtual double energy(const Vector &x) const       = 0;
    // The orbit through x0 over one period, sampled n_samples times, in DoF coordinates.
    virtual OrbitSamples sample(const Vector &x0, double period, unsigned int n_samples) const = 0;
    // A state of linear mode j (1-based) of energy E at its largest displacement, and its period.
    virtual Vector linear_mode_state(unsigned int mode, double energy) const = 0;
    virtual double linear_period(unsigned int mode) const                    = 0;
    // The energy of linear mode j at which it first touches a contact (∞ when it never does).
    virtual double grazing_energy(unsigned int mode) const = 0;
    // For an elastic (e = 1) family of one impact per period leaving linear mode j at the period
    // `cycles` × its linear period (cycles > 1: one impact every `cycles` oscillations, a
    // subharmonic family): a start on it, found without Newton (the time-reversible orbit,
    // doc/periodic.md §1), where its energy first differs from the mode's grazing energy E_g by
    // |energy − E_g| (families may leave grazing toward lower energies): the state at its turning
    // point (zero velocity) and the period. Empty where the map has none.
    virtual std::optional<std::pair<Vector, double>> one_impact_orbit(unsigned int /*mode*/, double /*energy*/,
                                                                      unsigned int /*cycles*/ = 1) const
    {
      return std::nullopt;
    }
    // The same map on its first r modes, a Galerkin subspace, where the map's starts are exact
    // on one mode only (elastic contacts): a start climbs from few modes to all (doc/periodic.md
    // §11). Empty where the map has no such start, or r is not below its own number of modes.
    virtual std::unique_ptr<PeriodicFlowMap> on_first_modes(unsigned int /*r*/) const { return nullptr; }
    // A state x of the map on_first_modes gave, in this map's coordinates (the other modes at rest).
    virtual Vector from_first_modes(const Vector &x) const { return x; }
    // The same map with every contact of stiffness k (0: rigid), in the same coordinates: the maps
    // a family's start is carried through from soft contacts to the case's stiff or rigid ones
    // (Continuation/Start stiffness). Empty where the map cannot.
    virtual std::unique_ptr<PeriodicFlowMap> with_contact_stiffness(double /*k*/) const { return nullptr; }
    // An orbit found by simulating the model from its initial state (or from x0) for `time` (conservative
    // runs with sticking settle on one, the seed's slide 13): the state half-way through the last
    // whole period and the period, found from the recurrence of the impact times. Empty when the
    // run has no recurring impact pattern or the map cannot simulate.
    virtual std::optional<std::pair<Vector, double>> simulated_orbit(double /*time*/, const Vector & /*x0*/ = {}) const
    {
      return std::nullopt;
    }
    // Natural frequencies (rad/s) with every contact held closed (on its stop), ascending, to
    // name the modes an orbit resonates with while in contact; empty where the map does not know.
    virtual std::vector<double> held_contact_frequencies() const { return {}; }
    // The model's initial state (each body's Initial displacement and velocity) in the map's
    // coordinates: a hand-made or closed-form guess for Newton.
    virtual Vector initial_state() const = 0;
    // Maps whose periods are whole numbers of time steps (the characteristics of a uniform rod):
    // a family is then a staircase, not a curve Newton and LOCA can follow, and every energy's
    // orbit is one_impact_orbit's, found without Newton. `continue` scans such a family in energy.
    virtual bool scanned_in_energy() const { return false; }
    // While set (contact ≥ 0), `contact` ignores its impacts at times in [from, to] modulo
    // `period` (a spring its closing): an orbit that grazes it there goes on as if the
    // stop were absent, the smooth continuation across the grazing that the defining system of
    // a grazing curve solves on. False where the map cannot.
    virtual bool ignore_impacts(int /*contact*/, double /*from*/, double /*to*/, double /*period*/) { return false; }
    // Forced maps: T is the forcing period, set by the forcing frequency.
    virtual bool forced() const { return false; }
    virtual void set_forcing_frequency(double) {}
    virtual double forcing_frequency() const { return 0.0; }
  };
} // namespace vibroimpact::periodic
