// Families of periodic orbits by shooting on a PeriodicFlowMap, continued by Trilinos LOCA
// (arc length, adaptive steps, LAPACK group): what is ours is the shooting residual, its Jacobian
// and the bookkeeping (energy, impacts, sticking phases, Floquet multipliers, admissibility).
// The parts (a periodic problem, the continuation driver, special points, branch strategies) are
// in source/periodic/continuation/; doc/architecture.md shows how they fit.
//
// Free (conservative) families: unknowns (x0, T, α), equations
//   x(T; x0, α) − x0 = 0,   ⟨x0 − x_ref, f(x_ref)⟩ = 0 (phase),   H(x0) − E = 0,
// continued in the energy E; α is the unfolding damping that makes the Jacobian regular.
// Forced orbits: unknowns x0, T = 2π/Ω, continued in the forcing frequency Ω.
// Derivations and the choices in doc/periodic.md.
#pragma once

#include <vibroimpact/periodic/flow_map.h>
#include <vibroimpact/periodic/special_point.h>

#include <complex>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace vibroimpact::periodic
{
  // How an orbit is computed (periodic_problem.h): shooting on the flow map, or harmonic balance
  // (Fourier series of the contact DoFs, the linear part condensed per harmonic).
  enum class PeriodicMethod
  {
    shooting,
    harmonic_balance
  };

  struct ContinuationSettings
  {
    PeriodicMethod method = PeriodicMethod::shooting;
    // Harmonic balance: harmonics H of the orbit's base frequency, and the samples per period of
    // the alternating frequency–time evaluation of the contact forces (0: the smallest power of
    // two ≥ 8 H, so that the kinks of a piecewise-linear law alias little).
    unsigned int harmonics = 15, samples_per_period = 0;
    // Free families: the linear mode the family leaves, the start energy as a multiple of that
    // mode's grazing energy (> 1: the first point already impacts), and the energy bounds.
    unsigned int mode                = 1;
    // One impact every `cycles` periods of the linear mode (cycles > 1: a subharmonic family,
    // born where the mode grazes at cycles × its period).
    unsigned int cycles              = 1;
    double       start_energy_factor = 1.05;
    // > 0: a free family's start is found with every contact of this stiffness and continued at
    // the start energy in ln k to the case's stiff or rigid contacts (family_starts.h;
    // PeriodicFlowMap::with_contact_stiffness), where Newton from the map's own start fails.
    double       start_stiffness     = 0.0;
    // Sign of the first step in the parameter: +1 up, −1 down (a family that leaves grazing toward
    // lower energies). continue_free_family from a linear mode sets it from the start orbit; a
    // forced response starts at max_frequency when it is −1, and runs both ways (up, then down)
    // when it is 0 (Continuation/Direction).
    double       direction           = 1.0;
    double       min_energy          = 0.0;
    double       max_energy          = std::numeric_limits<double>::infinity();
    // Forced orbits: the frequency range (rad/s), continued from `min_frequency` upwards (or from
    // `max_frequency` downwards, direction −1).
    double       min_frequency = 0.0;
    double       max_frequency = std::numeric_limits<double>::infinity();
    unsigned int max_points    = 100;
    // Arc-length steps in scaled unknowns (state / its start size, energy / start energy).
    double       initial_step = 0.02, min_step = 1e-6, max_step = 0.5;
    double       tolerance          = 1e-8; // residual ‖x(T) − x0‖ / ‖x0‖
    unsigned int max_newton         = 12;
    bool         exact_jacobian     = true;  // false: finite differences of the flow map
    double       stability_tolerance = 1e-6; // |μ| ≤ 1 + this is stable
    // After a failure (a kink of the map: grazing, a chatter sequence gaining an impact), Newton
    // restarts from the last orbit with the parameter moved by this fraction, at most this often.
    unsigned int max_restarts = 10;
    // Free families: a corrector whose orbit's period differs from the last point's by more than
    // this fraction fails, and LOCA retries with a shorter step (0: such steps are kept and only
    // flagged `jumped`). With it a branch follows what is continuous (an internal-resonance tongue
    // and back) instead of landing on another family across a grazing.
    double       max_period_change = 0.0;
    // Every step (free and forced): a corrector that moves farther from its predictor than this
    // multiple of the predictor's own step has left the branch (Newton sliding along the
    // arc-length hyperplane to another orbit: 50× on the impact oscillator's jump; near a grazing
    // regular correctors move up to 4×) and fails, LOCA retrying shorter (0: off).
    double       max_corrector_distance = 10.0;
    // Forced responses: the number of impacts (and sticking phases) per period may change only on
    // a step at most this long (scaled arc length): a longer one that changes it is retried
    // shorter, so that a grazing is approached rather than stepped over onto another family (0:
    // any step may).
    double       grazing_step = 1e-3;
    // Forced responses: also locate the grazings (an impact or an elastic contact appearing or
    // disappearing) and chatter–sticking transitions that ordinary steps (no longer than
    // grazing_step) cross, as special points between the two orbits (off: they show only as
    // impacts_changed on the step).
    bool         locate_crossed_grazings = true;
    double       restart_jump = 1e-3;
    // Forced responses: a restart that finds only an orbit far from the last one goes on from it
    // behind a visible break (`jumped`); off, the branch ends there instead. Off for switched
    // families: one curve from its special point, what lies beyond a break being another family.
    bool         jump_past_failures = true;
    // Forced responses: frequencies at which the branch's orbits are solved after it is traced
    // (Branch::at_frequencies), e.g. a sweep's values to compare with.
    std::vector<double> report_frequencies;
    // Free families started on the map's own orbit guess (one_impact_orbit): a branch whose
    // frequency locks (|Δ ln ω| < tongue_lock |Δ ln E| over two steps: an internal-resonance tongue,
    // doc/periodic.md §8) stops there and starts again from the guess at tongue_jump × the energy
    // beyond, so that the backbone is followed past its tongues (0: tongues are followed).
    double       tongue_jump = 0.0;
    double       tongue_lock = 1e-3;
    // With tongue_jump: each tongue the backbone stepped over is traced as its own family (the
    // subharmonic family that meets the backbone there), onward from its entry and back from the
    // first orbit past it, up to this many points each (Branch::children; 0: not traced).
    unsigned int tongue_family_points = 0;
    // Forced responses: an orbit spans this many forcing periods (2 on the period-2 family born at
    // a period doubling, 4 past its own period doubling, ...).
    unsigned int forcing_periods = 1;
    // Families followed from the located special points of these kinds (Switch branches: period
    // doubling, branch point), switching again on the new families down to switch_depth.
    std::vector<SpecialPoint> switch_at;
    unsigned int              switch_depth = 1;
    bool         quiet        = true; // no progress bar for the set-up (a forced response settling)
    // Called after every Newton iteration of a corrector with its count and the scaled ‖F‖
    // (progress from the first second: the first shooting on a fine model can take minutes).
    std::function<void(unsigned int iteration, double residual)> newton_iteration;
    // Called with what a long set-up is doing (a start carried in stiffness: its current one).
    std::function<void(const std::string &what)> status;
  };

  struct BranchPoint
  {
    double       period = 0.0, frequency = 0.0, energy = 0.0;
    unsigned int impacts = 0, sticking_phases = 0;
    std::vector<std::complex<double>> multipliers; // non-trivial Floquet multipliers
    double       max_multiplier = 0.0;             // largest modulus among them
    bool         stable = false;
    unsigned int newton_iterations = 0;
    double       residual   = 0.0;  // ‖x(T) − x0‖ / ‖x0‖
    bool         admissible = true; // no penetration, no grazing inside the period
    double       min_gap = 0.0, min_impact_velocity = 0.0, max_penetration = 0.0;
    double       grazing_gap = 0.0; // smallest local minimum of an open gap (∞: none)
    double       unfolding = 0.0;   // α at convergence (0 for a true orbit)
    bool         fold = false, period_doubling = false, impacts_changed = false;
    bool         restarted = false; // the first point after a restart past a failure
    // The step to this point changed the period (forced: the forcing's) by more than
    // jump_tolerance: Newton may have landed on another family (regular steps change it by ~1 %),
    // reported, not hidden. With `restarted` (forced responses): a restart found only an orbit
    // far from the last one, a visible break in the branch.
    bool         jumped = false;
    static constexpr double jump_tolerance = 0.03;
    // A located special point (inserted between the continuation's points); none elsewhere.
    SpecialPoint special = SpecialPoint::none;
    Vector       state;             // x0
    // Harmonic balance: the orbit itself, the contact DoFs' Fourier coefficients (a0, a1, b1, …,
    // aH, bH per contact, of the orbit's base frequency); empty for shooting.
    Vector       coefficients;
  };

  struct Branch
  {
    std::string              family;
    std::vector<BranchPoint> points;
    std::string              stop_reason;
    std::vector<std::string> restarts; // why each restart was needed
    bool                     failed = false;
    unsigned long            flow_evaluations = 0; // flow-map evaluations, Jacobians included
    bool                     entered_tongue = false; // stopped where the frequency locked (tongue_jump)
    std::size_t              way_down = 0; // Direction = both: the way down's first point (0: one way)
    // Forced responses: the orbits at ContinuationSettings::report_frequencies, one per stretch
    // that passes each (Newton at that frequency from the secant of the two points around it;
    // `point`: the index of the first of them), in the branch's order.
    struct AtFrequency
    {
      std::size_t point;
      BranchPoint orbit;
    };
    std::vector<AtFrequency> at_frequencies;
    // The families born on this one, in the order met: its tongues' own families (free families
    // with tongue_family_points) and the families switched to at its special points (switch_at).
    std::vector<Branch> children;
    std::string         parent;                        // the family this one was born on ("": none)
    SpecialPoint        born_at = SpecialPoint::none;  // the special point it was switched to at
    double              born_at_parameter = 0.0;       // that point's frequency (forced) or energy
  };

  // "mode j", or "mode j, n cycles" for a subharmonic family.
  std::string family_name(const ContinuationSettings &settings);

  // The largest |row · u(t)| over the orbit through x0 (a probe's amplitude): the largest of
  // `samples` (the orbit sampled uniformly), refined by a golden-section search on the flow
  // between its neighbours to 1e-10 of the period (an impact's corner included).
  double largest_displacement(const PeriodicFlowMap &flow, const Vector &x0, double period, const Vector &row,
                              const OrbitSamples &samples);
  // The largest |row · u| of the samples alone.
  double largest_sample(const Vector &row, const OrbitSamples &samples);

  // Floquet multipliers of a monodromy matrix; `trivial` of them (those closest to 1) removed.
  std::vector<std::complex<double>> floquet_multipliers(const Matrix &monodromy, unsigned int trivial);

  using ProgressCallback = std::function<void(const BranchPoint &, unsigned int index)>;

  // The free family leaving linear mode settings.mode (with settings.cycles), from near its grazing
  // energy: |E/E_g − 1| = |Start energy factor − 1|, the first step away from grazing.
  Branch continue_free_family(const PeriodicFlowMap &flow, const ContinuationSettings &settings,
                              const ProgressCallback &progress = {});
  // The same from a given orbit guess (x0, T).
  Branch continue_free_family(const PeriodicFlowMap &flow, const ContinuationSettings &settings,
                              const Vector &x0, double period, const ProgressCallback &progress = {});
  // Forced periodic response over the forcing frequency (the flow must be forced()), from x0 at
  // settings.min_frequency (zero state when x0 is empty: Newton finds the orbit); direction 0:
  // up, then down from max_frequency settled from rest (x0 serves the way up).
  Branch continue_forced_response(PeriodicFlowMap &flow, const ContinuationSettings &settings,
                                  const Vector &x0 = {}, const ProgressCallback &progress = {});
} // namespace vibroimpact::periodic
