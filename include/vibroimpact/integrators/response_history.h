// What a time-domain solver produced, in one type for every solver: rows at the output times
// (time, energies, per contact gap / impulse since the previous row / mean force, per probe u
// and v, and any column an observer adds by name) and contact events (impacts, starts of
// sticking, separations) at their exact times (event-driven solvers) or steps (time steppers).
//
// A solver reports through a ResponseObserver: sample() at every output time, event() at every
// contact event. ResponseHistory is the observer that forms the rows and keeps the events; it
// keeps the rows too, or only hands them to RowSinks as they are formed (a record streamed to
// disk, whose memory does not grow with its length). Others (VTK frames, a progress bar) can
// listen too. events_table() is events.csv's table; the files are the studies' to write.
#pragma once

#include <vibroimpact/io/csv_table.h>
#include <vibroimpact/model/structural_model.h>

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <limits>
#include <string>
#include <utility>
#include <array>
#include <vector>

namespace vibroimpact::integrators
{
  using Vector = Eigen::VectorXd;

  // Energies at a sample and what the solver's ledger has accumulated since t = 0. A term the
  // solver does not track is NaN.
  struct EnergyTerms
  {
    static constexpr double untracked = std::numeric_limits<double>::quiet_NaN();

    double kinetic               = 0.0;
    double potential             = 0.0;
    double external_work         = untracked;
    double damping_dissipation   = untracked;
    double impact_dissipation    = untracked;
    double friction_dissipation  = 0.0; // Coulomb friction at spatial supports (column only with them)
    double numerical_dissipation = 0.0;
    double correction_beta       = 0.0; // β of the step that ends at this sample (0: none)
    double correction_work       = 0.0;
    double balance_error         = untracked; // E − E0 − W_ext + dissipations − W_correction

    double total() const { return kinetic + potential; }
  };

  // What a spatial support (model::SpatialSupport) took since the previous sample and since t = 0,
  // summed over its candidate contacts: impulses, and from them the mean forces over the row;
  // friction work Σ −U_t+·p_t and wear work Σ p_n |U_t+| (= ∫ F_N |v_t| dt), accumulated at every
  // step by the solver (rows are too coarse to integrate them afterwards).
  struct SupportSample
  {
    double normal_impulse = 0.0, tangential_impulse = 0.0; // since the previous sample; |p_t| per step
    double normal_force = 0.0, tangential_force = 0.0;     // the same over the row's time span
    double friction_work = 0.0, wear_work = 0.0;           // cumulative since t = 0
    // r1, r2 (the support's transverse rows) at the row, from a solver that forms no DoF vector u
    // there (the modal ones); ignored where the sample has u.
    std::array<double, 2> position{{std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()}};
  };

  // The state of a run at one output time.
  struct ResponseSample
  {
    double        time = 0.0;
    const Vector *u    = nullptr; // displacement, every DoF of the model
    const Vector *v    = nullptr; // velocity
    const Vector *impulse = nullptr; // per contact, delivered since the previous sample
    // Per contact, the contact force at this time where the solver knows it (the multiplier of a
    // stuck contact, zero between impacts of an event-driven solver; a penalty force); null:
    // the history takes the mean force over the row, impulse / row span (time steppers).
    const Vector *contact_force = nullptr;
    // Solvers that know the continuous fields (the wave-mode reference) give the gaps and the
    // probes' u and v directly; null: the history reads them through the rows from u and v.
    // With all three given, u and v may be null except at frames and at the final sample.
    const Vector *gap     = nullptr;
    const Vector *probe_u = nullptr;
    const Vector *probe_v = nullptr;
    // Per spatial support of the model, in its order (null: the solver does not report them).
    const std::vector<SupportSample> *supports = nullptr;
    EnergyTerms   energy;
    bool          frame = false;   // also a VTK frame time

    // The contacts' impulses since the previous sample and their forces (null: the mean).
    void set_contacts(const Vector *impulses, const Vector *forces)
    {
      impulse       = impulses;
      contact_force = forces;
    }
    // The gaps and the probes' u and v, from a solver that knows them without u and v.
    void set_fields(const Vector *gaps, const Vector *probe_displacements, const Vector *probe_velocities)
    {
      gap     = gaps;
      probe_u = probe_displacements;
      probe_v = probe_velocities;
    }
  };

  struct ContactEvent
  {
    enum class Kind
    {
      impact,         // the contact closes with an impulse (U− < 0)
      sticking_start, // it stays closed after the impact (a persistent contact begins)
      separation      // a persistent contact opens again (the end of a sticking phase)
    };
    Kind         kind          = Kind::impact;
    double       time          = 0.0;
    unsigned int contact       = 0;
    double       pre_velocity  = 0.0; // U− (impacts)
    double       post_velocity = 0.0; // U+ (impacts)
    double       impulse       = 0.0; // p >= 0: the impact's (for a time stepper: the contact episode's)
  };

  std::string to_string(ContactEvent::Kind kind);

  // An event of one contact of a spatial support: an impact (a contact episode begins), the start
  // of tangential sticking within an episode (|U_t+| = 0), or the separation that ends an episode
  // of more than one step; where on the wall (the angle of the outward normal ν).
  struct SupportEvent
  {
    ContactEvent::Kind kind      = ContactEvent::Kind::impact;
    double             time      = 0.0;
    unsigned int       support   = 0; // index into StructuralModel::spatial_supports
    unsigned int       candidate = 0; // annular 0, polygonal the side
    double             angle     = 0.0;
    double             pre_velocity = 0.0, post_velocity = 0.0; // U_n−, U_n+ (impacts)
    double             impulse   = 0.0; // p_n of the episode (impacts)
  };

  // A sticking phase of one contact, from its sticking_start to its separation (or the end).
  struct StickingPhase
  {
    unsigned int contact  = 0;
    double       start    = 0.0;
    double       end      = 0.0;
    bool         released = false; // false: still stuck at the final time
  };

  // What a run did, for the summary the program prints.
  struct RunSummary
  {
    std::string   solver;
    std::string   step_name = "steps"; // what `steps` counts ("steps", "ODE steps")
    unsigned long steps     = 0;
    unsigned long impacts   = 0;
    double        sticking_time = 0.0; // summed over contacts
    double        initial_energy = 0.0, final_energy = 0.0;
    double        balance_error = EnergyTerms::untracked, relative_balance_error = EnergyTerms::untracked;
    double        wall_time     = 0.0; // s
    // The solver's own counts ("LCP solves", "energy corrections", ...), one line each.
    std::vector<std::pair<std::string, double>> counters;
    double counter(const std::string &name) const; // NaN when the solver has no such count
    // Numerical trouble the solver recovered from (LCP fallbacks, ...): printed as warnings.
    std::vector<std::string> warnings;
    // A run stopped by SIGINT/SIGTERM (run_to_history with partial results): the signal and
    // the time of the last sample recorded.
    int    interrupt_signal = 0;
    double interrupted_at   = EnergyTerms::untracked;
  };

  class ResponseObserver
  {
  public:
    virtual ~ResponseObserver() = default;
    virtual void sample(const ResponseSample &sample) = 0;
    virtual void event(const ContactEvent &) {}
    virtual void support_event(const SupportEvent &) {}
  };

  // Several observers as one.
  class ObserverList : public ResponseObserver
  {
  public:
    void add(ResponseObserver &observer) { observers_.push_back(&observer); }
    void sample(const ResponseSample &sample) override;
    void event(const ContactEvent &event) override;
    void support_event(const SupportEvent &event) override;

  private:
    std::vector<ResponseObserver *> observers_;
  };

  // Where rows go as they are formed (history.csv, records.h5, the support statistics).
  class RowSink
  {
  public:
    virtual ~RowSink() = default;
    // One row: the values of ResponseHistory::columns(), in their order.
    virtual void row(const std::vector<double> &values) = 0;
  };

  class ResponseHistory : public ResponseObserver
  {
  public:
    using ColumnFunction = std::function<double(const ResponseSample &)>;

    // The columns of history.csv for this model (doc/user-guide.md): time, the energies, per
    // contact c gap_c, impulse_c (since the previous row) and force_c (the sample's contact
    // force, else impulse_c over the row's time span), per probe p u_p and v_p.
    explicit ResponseHistory(const model::StructuralModel &model);

    // One more column, filled at every sample from then on (earlier rows get NaN); not once a
    // sink takes the rows.
    void add_column(const std::string &name, ColumnFunction value);

    // Every row from now on also goes to `sink`, as it is formed.
    void add_sink(RowSink &sink);
    // false: rows go to the sinks only and n_rows() stays 0 (the default keeps them).
    void keep_rows(bool keep) { keep_rows_ = keep; }
    // Rows formed, kept or not.
    std::size_t n_samples() const { return n_samples_; }

    void sample(const ResponseSample &sample) override;
    void event(const ContactEvent &event) override;

    const std::vector<std::string> &columns() const { return names_; }
    bool                            has_column(const std::string &name) const;
    std::size_t                     n_rows() const { return rows_.size(); }
    const std::vector<double>      &row(std::size_t k) const { return rows_.at(k); }
    // Throws std::invalid_argument naming the column when there is none.
    std::vector<double> column(const std::string &name) const;
    double              at(std::size_t row, const std::string &name) const;
    std::vector<double> times() const { return column("time"); }

    void support_event(const SupportEvent &event) override;

    // Events in time order.
    const std::vector<ContactEvent> &events() const { return events_; }
    // Events of spatial supports' contacts, in time order (events.csv adds them, with an angle).
    const std::vector<SupportEvent> &support_events() const { return support_events_; }
    const std::vector<std::string>  &support_names() const { return supports_; }
    std::vector<ContactEvent>        impacts() const;
    std::vector<StickingPhase>       sticking_phases(double final_time) const;

    const std::vector<std::string> &contact_names() const { return contacts_; }
    const std::vector<std::string> &probe_names() const { return probes_; }

    // The state at the last sample (for continuation: the next run's initial state).
    const Vector &final_displacement() const { return final_u_; }
    const Vector &final_velocity() const { return final_v_; }

    RunSummary summary;

  private:
    std::size_t index_of(const std::string &name) const;

    std::vector<std::string>         names_;
    std::vector<ColumnFunction>      functions_;
    std::vector<std::vector<double>> rows_;
    std::vector<RowSink *>           sinks_;
    bool                             keep_rows_ = true;
    std::size_t                      n_samples_ = 0;
    double                           last_time_ = 0.0; // of the last row formed
    std::vector<double>              row_;             // the row being formed when none is kept
    std::vector<ContactEvent>        events_;
    std::vector<std::string>         contacts_, probes_, supports_;
    std::vector<SupportEvent>        support_events_;
    Vector                           final_u_, final_v_;
  };

  // Linear interpolation of a history column (values at times, ascending) at t, clamped at the
  // ends: how two histories with different rows are compared.
  double interpolate(const std::vector<double> &times, const std::vector<double> &values, double t);

  // events.csv's table (and the HDF5 group /events): time, contact (its name), kind, U−, U+,
  // impulse, one row per event; with spatial supports also their events (contact: the support's
  // name) and a last column, angle (NaN, an empty field, for planar contacts).
  io::CsvTable events_table(const ResponseHistory &history);
} // namespace vibroimpact::integrators
