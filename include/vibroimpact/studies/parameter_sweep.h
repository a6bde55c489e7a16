// One parameter swept over a range; Poincaré sections of the response for each value
// (bifurcation diagrams), each value on its own MPI rank when run under mpirun.
//
// For every value of the swept parameter (forcing frequency, forcing amplitude or gap) the
// model is copied, that one number changed, and the case run by any registered solver (the
// case's Simulation/Solver) from the model's initial state, or, with continuation, from the
// previous value's final state, past a transient of whole forcing periods. The Poincaré points are the displacement and velocity of
// the probe at t = k T (T = 2 pi / omega of the forcing) for the recorded periods after the
// transient. Every value is independent and deterministic: a share of the values (round-robin
// over ranks) gives bit for bit the same points as the serial run. No MPI and no files here:
// the sweep study (sweep_study.h) distributes, gathers and writes. Derivation and figures: doc/sweeps.md.
#pragma once

#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/io/csv_table.h>
#include <vibroimpact/model/structural_model.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <utility>
#include <string>
#include <vector>

namespace vibroimpact::io
{
  class ParameterSection;
}

namespace vibroimpact::studies
{
  enum class SweptParameter
  {
    forcing_frequency, // omega of the harmonic load(s)
    gap,               // gap0 of the contact(s)
    amplitude,         // amplitude of the harmonic load(s)
    seed               // realizations of the random loads: a SupportEnsemble (support_ensemble.h),
                       // not a ParameterSweep
  };

  enum class FrequencyUnit
  {
    rad_per_s,
    first_natural_frequency // values are omega / omega_1 (omega_1 of the model without contacts)
  };

  struct SweepSettings
  {
    std::string    filename; // the case file, for the InputErrors of check_sweep()
    SweptParameter parameter = SweptParameter::forcing_frequency;
    std::string    load;    // the harmonic load changed (frequency, amplitude); empty: every harmonic load
    std::string    contact; // the contact whose gap is changed; empty: every contact
    double         from     = 0.5;
    double         to       = 1.5;
    unsigned int   n_values = 21;
    FrequencyUnit  frequency_unit = FrequencyUnit::first_natural_frequency;

    unsigned int transient_periods = 50;
    unsigned int recorded_periods  = 20;
    // Where in the forcing period the points are taken: t = (transient + k + phase) T, phase in
    // [0, 1) (rounded to a fraction j/S with S <= 360).
    double sampling_phase = 0;

    // The point whose u, v are sampled; empty: the first contact's own coordinate H u (for a
    // contact with the obstacle below, the deflection at the contact point: g = g0 + u).
    std::string probe;

    // Each value starts from the previous value's final state (the model's initial state for
    // the first): follows a branch of responses instead of restarting. The values then run one
    // after the other on one rank.
    bool continuation = false;
  };

  void bind_sweep_parameters(io::ParameterSection &section, SweepSettings &settings);

  // Checks the settings against the model (names of load, contact and probe; a harmonic load
  // with omega > 0 for the Poincaré period). Throws io::InputError naming "Sweep/<Entry>" in
  // settings.filename.
  void check_sweep(const SweepSettings &settings, const model::StructuralModel &model);

  // The values of the swept parameter, as given (From, To, Number of values, evenly spaced;
  // one value: From).
  std::vector<double> sweep_values(const SweepSettings &settings);

  // One Poincaré point: the probe at t = (transient + period + phase) T, period = 1 .. recorded.
  struct PoincarePoint
  {
    unsigned int period = 0;
    double       time   = 0;
    double       u      = 0;
    double       v      = 0;
    double       gap    = 0;     // smallest gap of the contacts at that time
    bool         stuck  = false; // some contact sticking at that time (multiplier active)
  };

  // One impact in the recorded window: an impact Poincaré section (e.g. two distinct approach
  // velocities per period for the paper's "period-II", two-impacts-a-cycle orbits).
  struct ImpactPoint
  {
    double       time     = 0;
    double       phase    = 0; // t / T modulo 1
    unsigned int contact  = 0;
    double       velocity = 0; // contact velocity before the impact, U- (negative)
    bool         sticks   = false; // this impact started a sticking phase
  };

  struct SweepValueResult
  {
    unsigned int               index = 0;
    double                     value = 0;  // in the settings' unit
    double                     omega = 0;  // forcing frequency used, rad/s
    double                     wall_time = 0; // seconds, this value alone
    double                     cpu_time  = 0; // processor seconds of this value (wall time without
                                              // the waiting when ranks share cores)
    unsigned long              impacts = 0;   // over the recorded periods
    double                     sticking_fraction = 0; // of the recorded time, some contact stuck
    unsigned int               rank = 0;      // which MPI rank computed it
    std::vector<PoincarePoint> points;
    std::vector<ImpactPoint>   impact_points; // every impact after the transient
  };

  class ParameterSweep
  {
  public:
    // Runs check_sweep() (throws io::InputError), computes omega_1 if needed. The sweep sets the
    // run control (output interval, final time) of each value.
    ParameterSweep(const model::StructuralModel &model, SweepSettings settings, const integrators::Solver &solver);

    const SweepSettings       &settings() const { return settings_; }
    const integrators::Solver &solver() const { return *solver_; }
    const std::vector<double> &values() const { return values_; }
    double                     first_natural_frequency() const { return omega1_; }

    // The model with the swept number set to values()[index] (converted to rad/s if needed).
    model::StructuralModel model_for(unsigned int index) const;
    // The forcing frequency (rad/s) that sets the Poincaré period for values()[index].
    double forcing_omega(unsigned int index) const;

    // One value, from the model's initial state or from `start` (u, v). Throws
    // std::runtime_error on a numerical failure. final_state: where the run ended (u, v).
    SweepValueResult run_value(unsigned int index, unsigned int rank = 0,
                               const std::pair<model::Vector, model::Vector> *start       = nullptr,
                               std::pair<model::Vector, model::Vector>       *final_state = nullptr) const;

    // The values index = rank, rank + n_ranks, ... (round-robin), in increasing index;
    // with continuation, every value on rank 0 in order (the other ranks get none);
    // done(k) after each of them (k = how many this share has finished). After SIGINT/SIGTERM
    // the share ends with the values finished before it.
    std::vector<SweepValueResult> run_share(unsigned int rank, unsigned int n_ranks,
                                            const std::function<void(unsigned int)> &done = {}) const;

  private:
    model::StructuralModel model_;
    SweepSettings          settings_;
    std::shared_ptr<const integrators::Solver> solver_;
    std::vector<double>    values_;
    double                 omega1_ = 0;
    std::vector<std::size_t> loads_;    // indices of the loads changed / read for the period
    std::vector<std::size_t> contacts_; // indices of the contacts changed (gap sweep)
  };

  // How many different Poincaré points one value has: points whose u and v agree to
  // tolerance * (1 + |u|, |v| scale) count once (1: period-I, 2: period-II, ...; as many as
  // recorded: no short period).
  unsigned int distinct_points(const SweepValueResult &result, double tolerance = 1e-6);


  // The tables of the sweep's files (write_sweep writes them, the Python module returns them):
  // poincare.csv: value, omega, period, time, u, v, gap, stuck (one row a point);
  // impacts.csv: value, omega, time, phase, contact, velocity, sticks (one row an impact);
  // sweep_summary.csv: value, omega, wall_time, cpu_time, impacts, sticking_fraction,
  // distinct_points, rank.
  io::CsvTable poincare_table(const std::vector<SweepValueResult> &results);
  io::CsvTable impacts_table(const std::vector<SweepValueResult> &results);
  io::CsvTable sweep_summary_table(const std::vector<SweepValueResult> &results);

  std::string to_string(SweptParameter parameter);
} // namespace vibroimpact::studies
