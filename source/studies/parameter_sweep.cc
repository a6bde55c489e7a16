// The parameter sweep: one solver run per value of a swept parameter (forcing frequency, gap,
// amplitude, seed), sampled stroboscopically into Poincaré points, impacts and sticking.
#include <vibroimpact/io/csv_table.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_section.h>
#include <vibroimpact/model/modal_analysis.h>
#include <vibroimpact/studies/indexed_shares.h>
#include <vibroimpact/studies/parameter_sweep.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace vibroimpact::studies
{
  namespace
  {
    const io::Choices<SweptParameter> parameter_names{{"forcing frequency", SweptParameter::forcing_frequency},
                                                      {"gap", SweptParameter::gap},
                                                      {"amplitude", SweptParameter::amplitude},
                                                      {"seed", SweptParameter::seed}};
    const io::Choices<FrequencyUnit>  unit_names{{"rad/s", FrequencyUnit::rad_per_s},
                                                {"first natural frequency", FrequencyUnit::first_natural_frequency}};
  } // namespace

  std::string to_string(SweptParameter parameter)
  {
    for (const auto &[name, p] : parameter_names)
      if (p == parameter)
        return name;
    return "?";
  }

  void bind_sweep_parameters(io::ParameterSection &s, SweepSettings &r)
  {
    constexpr unsigned int unbounded = std::numeric_limits<unsigned int>::max();
    s.add("Parameter", r.parameter, parameter_names,
          "What is swept: forcing frequency (omega of the harmonic load), gap (g0 of the contact), amplitude (of "
          "the harmonic load) or seed (Number of values independent realizations of the random loads, each "
          "record's support statistics and their ensemble means with 95 % confidence intervals; From, To and the "
          "Poincaré entries unused).");
    s.add("Load", r.load,
          "The harmonic load whose omega or amplitude is swept, and whose period sets the Poincaré sampling; empty: "
          "every harmonic load.");
    s.add("Contact", r.contact, "The contact whose gap is swept; empty: every contact.");
    s.add("From", r.from, io::finite(), "First value.");
    s.add("To", r.to, io::finite(), "Last value.");
    s.add("Number of values", r.n_values, 1, unbounded, "Evenly spaced values from From to To (1: From only).");
    s.add("Frequency unit", r.frequency_unit, unit_names,
          "rad/s or first natural frequency (values are omega/omega_1, omega_1 of the model without contacts); "
          "forcing frequency only.");
    s.add("Transient periods", r.transient_periods, 0, unbounded,
          "Forcing periods run from the initial state before any point is recorded.");
    s.add("Recorded periods", r.recorded_periods, 1, unbounded,
          "Poincaré points per value: u, v at the probe at t = (transient + k + phase) T, k = 1..this.");
    io::Bounds phase = io::in_range(0, 1);
    phase.open_high  = true;
    s.add("Sampling phase", r.sampling_phase, phase,
          "Fraction of the forcing period in [0, 1) at which the points are taken: t = (transient + k + phase) T "
          "(rounded to j/S, S <= 360).");
    s.add("Probe", r.probe,
          "The probe whose displacement and velocity are sampled; empty: the first contact's own coordinate H u (the "
          "deflection at the contact point for an obstacle below).");
    s.add("Continuation", r.continuation,
          "Start each value from the previous value's final state (the values then run in order on one rank).");
    if (!s.reading())
      return;
    if (!std::isfinite((r.to - r.from) * double(std::max(r.n_values, 2u) - 1)))
      s.fail(std::abs(r.from) > std::abs(r.to) ? "From" : "To", "the values from From to To overflow a double");
    if (r.parameter == SweptParameter::forcing_frequency && !(r.from > 0 && r.to > 0))
      s.fail(r.from > 0 ? "To" : "From", "a forcing frequency must be positive");
    if (r.parameter == SweptParameter::gap && !(r.from >= 0 && r.to >= 0))
      s.fail(r.from >= 0 ? "To" : "From", "a gap must not be negative (the initial state would penetrate)");
  }

  void check_sweep(const SweepSettings &s, const model::StructuralModel &model)
  {
    const auto fail = [&](const std::string &entry, const std::string &reason) {
      throw io::InputError(s.filename, "Sweep/" + entry, reason);
    };
    const auto harmonic = [&](const model::LoadTerm &l) { return l.time.kind == model::TimeFunction::Kind::harmonic; };
    if (!s.load.empty())
      {
        const auto it =
          std::find_if(model.loads.begin(), model.loads.end(), [&](const auto &l) { return l.name == s.load; });
        if (it == model.loads.end())
          fail("Load", "no load named '" + s.load + "'");
        if (!harmonic(*it))
          fail("Load", "load '" + s.load + "' is not harmonic (Time dependence = harmonic)");
      }
    else if (std::none_of(model.loads.begin(), model.loads.end(), harmonic))
      fail("Load", "the case has no harmonic load: the Poincaré sampling needs a forcing period");
    if (s.parameter != SweptParameter::forcing_frequency)
      for (const auto &l : model.loads)
        if (harmonic(l) && (s.load.empty() || l.name == s.load) && !(l.time.omega > 0))
          fail("Load", "load '" + l.name + "' has no angular frequency: the Poincaré period is undefined");
    if (model.contacts.empty())
      fail("Contact", "the case has no contact");
    if (!s.contact.empty() &&
        std::none_of(model.contacts.begin(), model.contacts.end(), [&](const auto &c) { return c.name == s.contact; }))
      fail("Contact", "no contact named '" + s.contact + "'");
    if (!s.probe.empty() &&
        std::none_of(model.probes.begin(), model.probes.end(), [&](const auto &p) { return p.name == s.probe; }))
      fail("Probe", "no probe named '" + s.probe + "'");
  }

  std::vector<double> sweep_values(const SweepSettings &s)
  {
    std::vector<double> values(s.n_values);
    for (unsigned int k = 0; k < s.n_values; ++k)
      values[k] = s.n_values == 1 ? s.from : s.from + (s.to - s.from) * double(k) / double(s.n_values - 1);
    if (s.n_values > 1)
      values.back() = s.to;
    return values;
  }

  ParameterSweep::ParameterSweep(const model::StructuralModel &model, SweepSettings settings,
                                 const integrators::Solver &solver)
    : model_(model)
    , settings_(std::move(settings))
    , solver_(solver.clone())
    , values_(sweep_values(settings_))
  {
    if (settings_.parameter == SweptParameter::seed)
      throw std::logic_error("ParameterSweep: a seed ensemble is a SupportEnsemble");
    check_sweep(settings_, model_);
    for (std::size_t k = 0; k < model_.loads.size(); ++k)
      if (model_.loads[k].time.kind == model::TimeFunction::Kind::harmonic &&
          (settings_.load.empty() || model_.loads[k].name == settings_.load))
        loads_.push_back(k);
    for (std::size_t i = 0; i < model_.contacts.size(); ++i)
      if (settings_.contact.empty() || model_.contacts[i].name == settings_.contact)
        contacts_.push_back(i);
    omega1_ = model::compute_modes(model_, 1).omegas[0];
    if (settings_.parameter == SweptParameter::forcing_frequency &&
        settings_.frequency_unit == FrequencyUnit::first_natural_frequency && !(omega1_ > 0))
      throw io::InputError(settings_.filename, "Sweep/Frequency unit",
                           "the model has a rigid-body mode (omega_1 = 0): give frequencies in rad/s");

    // Default probe: the first contact's own coordinate H u.
    if (settings_.probe.empty())
      {
        model::Probe p;
        p.name = "contact " + model_.contacts.front().name;
        p.row  = model_.contacts.front().row;
        model_.probes.push_back(p);
        settings_.probe = p.name;
      }
  }

  double ParameterSweep::forcing_omega(unsigned int index) const
  {
    if (settings_.parameter == SweptParameter::forcing_frequency)
      return settings_.frequency_unit == FrequencyUnit::first_natural_frequency ? values_.at(index) * omega1_ :
                                                                                   values_.at(index);
    return model_.loads[loads_.front()].time.omega;
  }

  model::StructuralModel ParameterSweep::model_for(unsigned int index) const
  {
    model::StructuralModel m     = model_;
    const double           value = values_.at(index);
    switch (settings_.parameter)
      {
        case SweptParameter::forcing_frequency:
          for (const auto k : loads_)
            m.loads[k].time.omega = forcing_omega(index);
          break;
        case SweptParameter::amplitude:
          for (const auto k : loads_)
            m.loads[k].time.amplitude = value;
          break;
        case SweptParameter::gap:
          for (const auto i : contacts_)
            m.contacts[i].gap0 = value;
          break;
        case SweptParameter::seed: // refused by the constructor
          break;
      }
    return m;
  }

  namespace
  {
    // Outputs every T/S, S the smallest with phase = j/S: point k is at output S (n0 + k) + j.
    struct StroboscopicSchedule
    {
      unsigned int            S = 1, j = 0;
      unsigned long           n0 = 0, last = 0; // transient periods; the final output
      integrators::RunControl control;

      StroboscopicSchedule(const SweepSettings &settings, const double T)
      {
        for (; S < 360; ++S)
          if (std::abs(settings.sampling_phase * S - std::round(settings.sampling_phase * S)) < 1e-9)
            break;
        j    = static_cast<unsigned int>(std::lround(settings.sampling_phase * S)) % S;
        n0   = settings.transient_periods;
        last = S * (n0 + settings.recorded_periods) + j;
        control.output_interval = T / S;
        control.final_time      = last * control.output_interval; // the same product as the solvers' k * interval
      }

      // The output of period k after the transient (k = 0: the start of the recorded window).
      unsigned long output(const unsigned long k) const { return S * (n0 + k) + j; }
    };

    // The row at output k: exact for event-driven solvers, the nearest step of a time stepper.
    std::size_t row_at(const std::vector<double> &times, const integrators::RunControl &control, const unsigned long k)
    {
      const double target = k * control.output_interval;
      const auto   it     = std::lower_bound(times.begin(), times.end(), target - 1e-12 * control.final_time);
      std::size_t  row    = static_cast<std::size_t>(std::min(it, times.end() - 1) - times.begin());
      if (row > 0 && std::abs(times[row - 1] - target) < std::abs(times[row] - target))
        --row;
      if (std::abs(times[row] - target) > 0.5 * control.output_interval)
        throw std::runtime_error("sweep: the solver wrote no history row near t = " + std::to_string(target));
      return row;
    }

    // The probe's displacement and velocity, the smallest gap and whether a contact sticks, once
    // a period at the sampling phase.
    std::vector<PoincarePoint> poincare_points(const integrators::ResponseHistory           &h,
                                               const std::vector<integrators::StickingPhase> &phases,
                                               const StroboscopicSchedule &schedule, const SweepSettings &settings)
    {
      const std::vector<double> times = h.times();
      const std::string         probe = "u_" + settings.probe, probe_v = "v_" + settings.probe;
      const auto stuck_at = [&](double t) {
        return std::any_of(phases.begin(), phases.end(), [t](const auto &p) { return p.start <= t && t <= p.end; });
      };
      std::vector<PoincarePoint> points;
      for (unsigned int k = 1; k <= settings.recorded_periods; ++k)
        {
          const std::size_t row = row_at(times, schedule.control, schedule.output(k));
          PoincarePoint     p;
          p.period = k;
          p.time   = times[row];
          p.u      = h.at(row, probe);
          p.v      = h.at(row, probe_v);
          p.gap    = std::numeric_limits<double>::infinity();
          for (const auto &c : h.contact_names())
            p.gap = std::min(p.gap, h.at(row, "gap_" + c));
          p.stuck = stuck_at(p.time);
          points.push_back(p);
        }
      return points;
    }

    // The impacts after t0 with their phase in the forcing period and whether sticking follows.
    std::vector<ImpactPoint> impact_points(const integrators::ResponseHistory           &h,
                                           const std::vector<integrators::StickingPhase> &phases, const double t0,
                                           const double T)
    {
      std::vector<ImpactPoint> points;
      for (const auto &e : h.impacts())
        if (e.time > t0)
          {
            ImpactPoint ip;
            ip.time     = e.time;
            ip.phase    = std::fmod(e.time / T, 1.0);
            ip.contact  = e.contact;
            ip.velocity = e.pre_velocity;
            ip.sticks   = std::any_of(phases.begin(), phases.end(), [&](const auto &p) {
              return p.contact == e.contact && std::abs(p.start - e.time) <= 1e-12 * std::max(1.0, e.time);
            });
            points.push_back(ip);
          }
      return points;
    }

    // Union of the sticking phases of all contacts, clipped to the recorded window [t0, t1], as
    // a fraction of it.
    double sticking_fraction(const std::vector<integrators::StickingPhase> &phases, const double t0, const double t1)
    {
      std::vector<std::pair<double, double>> clipped;
      for (const auto &phase : phases)
        if (phase.end > t0 && phase.start < t1)
          clipped.emplace_back(std::max(phase.start, t0), std::min(phase.end, t1));
      std::sort(clipped.begin(), clipped.end());
      double stuck_time = 0, covered = t0;
      for (const auto &[a, b] : clipped)
        {
          if (b > covered)
            stuck_time += b - std::max(a, covered);
          covered = std::max(covered, b);
        }
      return stuck_time / (t1 - t0);
    }
  } // namespace

  SweepValueResult ParameterSweep::run_value(unsigned int index, unsigned int rank,
                                             const std::pair<model::Vector, model::Vector> *start,
                                             std::pair<model::Vector, model::Vector>       *final_state) const
  {
    const auto         wall_start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start  = std::clock();

    SweepValueResult r;
    r.index = index;
    r.value = values_.at(index);
    r.omega = forcing_omega(index);
    r.rank  = rank;

    model::StructuralModel m = model_for(index);
    if (start)
      {
        m.initial_displacement = start->first;
        m.initial_velocity     = start->second;
      }
    const double               T = 2 * M_PI / r.omega;
    const StroboscopicSchedule schedule(settings_, T);
    const auto h = [&] {
      try
        {
          return integrators::run_to_history(*solver_, m, schedule.control);
        }
      catch (const integrators::NumericalFailure &e)
        {
          // Say which value of Sweep/From .. To the run failed at.
          std::ostringstream message;
          message << "sweep value " << index + 1 << " of " << values_.size() << " (" << to_string(settings_.parameter)
                  << " = " << r.value << ", Sweep/From .. To): " << e.what();
          throw integrators::NumericalFailure(message.str());
        }
    }();

    const std::vector<double> times  = h.times();
    const auto                phases = h.sticking_phases(schedule.control.final_time);
    const double t0 = times[row_at(times, schedule.control, schedule.output(0))];
    const double t1 = times[row_at(times, schedule.control, schedule.last)];
    r.points            = poincare_points(h, phases, schedule, settings_);
    r.impact_points     = impact_points(h, phases, t0, T);
    r.impacts           = r.impact_points.size();
    r.sticking_fraction = sticking_fraction(phases, t0, t1);
    if (final_state)
      *final_state = {h.final_displacement(), h.final_velocity()};

    r.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    r.cpu_time  = double(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    return r;
  }

  std::vector<SweepValueResult> ParameterSweep::run_share(unsigned int rank, unsigned int n_ranks,
                                                          const std::function<void(unsigned int)> &done) const
  {
    if (n_ranks == 0 || rank >= n_ranks)
      throw std::invalid_argument("sweep: rank " + std::to_string(rank) + " of " + std::to_string(n_ranks));
    if (!settings_.continuation)
      return run_indexed_share<SweepValueResult>(
        rank, n_ranks, values_.size(), [&](const unsigned int index) { return run_value(index, rank); }, done);
    if (rank != 0)
      return {};
    std::pair<model::Vector, model::Vector> state; // each value starts where the one before ended
    return run_indexed_share<SweepValueResult>(
      0, 1, values_.size(),
      [&](const unsigned int index) { return run_value(index, rank, index > 0 ? &state : nullptr, &state); }, done);
  }

  unsigned int distinct_points(const SweepValueResult &r, const double tolerance)
  {
    double su = 0, sv = 0;
    for (const auto &p : r.points)
      {
        su = std::max(su, std::abs(p.u));
        sv = std::max(sv, std::abs(p.v));
      }
    const double tu = tolerance * (1 + su), tv = tolerance * (1 + sv);
    std::vector<const PoincarePoint *> kept;
    for (const auto &p : r.points)
      if (std::none_of(kept.begin(), kept.end(), [&](const PoincarePoint *q) {
            return std::abs(q->u - p.u) <= tu && std::abs(q->v - p.v) <= tv;
          }))
        kept.push_back(&p);
    return static_cast<unsigned int>(kept.size());
  }

  io::CsvTable poincare_table(const std::vector<SweepValueResult> &results)
  {
    io::CsvTable table({"value", "omega", "period", "time", "u", "v", "gap", "stuck"});
    for (const auto &r : results)
      for (const auto &p : r.points)
        table.add_row({r.value, r.omega, double(p.period), p.time, p.u, p.v, p.gap, p.stuck ? 1.0 : 0.0});
    return table;
  }

  io::CsvTable impacts_table(const std::vector<SweepValueResult> &results)
  {
    io::CsvTable table({"value", "omega", "time", "phase", "contact", "velocity", "sticks"});
    for (const auto &r : results)
      for (const auto &e : r.impact_points)
        table.add_row({r.value, r.omega, e.time, e.phase, double(e.contact), e.velocity, e.sticks ? 1.0 : 0.0});
    return table;
  }

  io::CsvTable sweep_summary_table(const std::vector<SweepValueResult> &results)
  {
    io::CsvTable table({"value", "omega", "wall_time", "cpu_time", "impacts", "sticking_fraction", "distinct_points",
                        "rank"});
    for (const auto &r : results)
      table.add_row({r.value, r.omega, r.wall_time, r.cpu_time, double(r.impacts), r.sticking_fraction,
                     double(distinct_points(r)), double(r.rank)});
    return table;
  }
} // namespace vibroimpact::studies
