// Binds the "Continuation" subsection (continuation_parameters.h) in named groups, in the order
// the entries are declared, and checks a case against the model it will run on.
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/integrators/modal_time_stepping.h>
#include <vibroimpact/io/parameter_section.h>
#include <vibroimpact/model/modal_analysis.h>
#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/periodic/continuation_parameters.h>
#include <vibroimpact/periodic/flow_map_registry.h>

#include <cmath>
#include <cstdio>
#include <limits>

namespace vibroimpact::periodic
{
  namespace
  {
    // Which map, and which orbits on it.
    void bind_map_and_orbits(io::ParameterSection &s, ContinuationCase &c)
    {
      const io::Choices<OrbitKind> kinds{{"free", OrbitKind::free}, {"forced", OrbitKind::forced}};
      s.add_choice("Flow map", c.flow_map, FlowMapRegistry::names(), FlowMapRegistry::documentation());
      s.add("Kind", c.kind, kinds,
            "free: conservative families leaving the linear modes of Families, continued in energy; forced: the "
            "periodic response to the harmonic load, continued in its frequency from Minimum to Maximum frequency.");
      s.add("Families", c.families, io::in_range(1, 1e6),
            "Linear modes (1-based) whose families are continued (free orbits), e.g. 1, 2.");
      const io::Choices<PeriodicMethod> methods{{"shooting", PeriodicMethod::shooting},
                                                {"harmonic balance", PeriodicMethod::harmonic_balance}};
      s.add("Method", c.settings.method, methods,
            "shooting: Newton on the Flow map's period map (exact for the event-driven map); harmonic balance: the "
            "contact DoFs' Fourier series (Harmonics, Samples per period), the linear part condensed onto them per "
            "harmonic in every mode of the event-driven map; needs a force law at every contact (Contact "
            "<name>/Stiffness > 0). Its orbits' stability is that of the reconstructed orbit's monodromy.");
      s.add("Harmonics", c.settings.harmonics, 1, 100000,
            "Harmonic balance: harmonics H of the orbit's frequency (its base frequency: the forcing's / Forcing periods).");
      s.add("Samples per period", c.settings.samples_per_period, 0, 10000000,
            "Harmonic balance: samples N of the alternating frequency-time evaluation of the contact forces (N > 2 H); "
            "0: the smallest power of two >= 8 H, at least 64.");
      s.add("Cycles", c.cycles, io::in_range(1, 1e6),
            "Per family of Families (the last repeats): the family with one impact every this many periods of its "
            "linear mode, born where the mode grazes at that multiple of its period (2, 3, ...: subharmonic families; "
            "e = 1 orbits, undamped). 1: the fundamental families.");
    }

    // Where a branch starts and where it stops, in energy or in frequency.
    void bind_bounds(io::ParameterSection &s, ContinuationCase &c)
    {
      ContinuationSettings &p = c.settings;
      s.add("Start energy factor", p.start_energy_factor, io::positive(),
            "First point: this multiple of the family's grazing energy (the linear mode touching a contact); above 1 "
            "the start is the one-impact orbit of that energy where it is known in closed form; below 1 too where the "
            "family first dips below its grazing energy (then the start lies before that energy fold), else the linear "
            "mode. Subharmonic families (Cycles > 1) start on that orbit where their energy first differs from grazing "
            "by |factor - 1|, on either side (most first go down in energy).");
      s.add("Start stiffness", p.start_stiffness, io::non_negative(),
            "Free families on stiff or rigid contacts, whose start Newton does not reach: the start is found with "
            "every contact of this stiffness (as soft as a start converges) and carried at the start energy, the "
            "stiffness raised geometrically (shorter steps where Newton fails), to the case's contacts: elastic ones, "
            "or rigid stops on Massless contact nodes (the limit of an obstacle spring in series with the node's); 0: "
            "the family starts on the case's contacts.");
      s.add("Minimum energy", p.min_energy, io::non_negative(), "Free families stop below this energy.");
      s.add("Maximum energy", p.max_energy, io::non_negative(),
            "Free families stop above this energy; 0: Maximum energy factor × the family's grazing energy.");
      s.add("Maximum energy factor", c.max_energy_factor, io::positive(),
            "The energy bound, as a multiple of the grazing energy, when Maximum energy = 0.");
      s.add("Minimum frequency", p.min_frequency, io::non_negative(),
            "rad/s. Free: a family stops below it; forced: the lower end of the frequencies.");
      s.add("Maximum frequency", p.max_frequency, io::non_negative(),
            "rad/s. Free: a family stops above it (0: no bound); forced: the upper end.");
      s.add("Direction", p.direction, io::Choices<double>{{"up", 1.0}, {"down", -1.0}, {"both", 0.0}},
            "Forced: up from Minimum to Maximum frequency, or down from Maximum to Minimum (what a sweep down "
            "follows: past a fold the two directions end on different branches), or both: up, then down, in one "
            "branch (each way with Maximum points; the way down starts with a visible break). Free (up or down): "
            "the sign of the first step in energy, where the start does not set it.");
    }

    // The arc-length steps, Newton, stability and restarts.
    void bind_steps(io::ParameterSection &s, ContinuationSettings &p)
    {
      const io::Choices<bool> jacobians{{"exact", true}, {"finite differences", false}};
      s.add("Maximum points", p.max_points, 2, 100000,
            "Points per branch (a map scanned in energy, Flow map = characteristics: its energies, log-spaced from "
            "the start to the energy bound).");
      s.add("Initial step", p.initial_step, io::positive(), "First arc-length step, in scaled unknowns.");
      s.add("Minimum step", p.min_step, io::positive(), "A branch stops (failed) when the step falls below it.");
      s.add("Maximum step", p.max_step, io::positive(), "Largest arc-length step.");
      s.add("Residual tolerance", p.tolerance, io::in_range(1e-15, 1e-2),
            "Every reported orbit has |x(T) - x0| / |x0| below this.");
      s.add("Maximum Newton iterations", p.max_newton, 1, 1000, "Per continuation step.");
      s.add("Jacobian", p.exact_jacobian, jacobians,
            "exact: saltation matrices (event-driven) or step matrices along the active sets (moreau-jean); finite "
            "differences: one flow per unknown (the seed's method, for comparison).");
      s.add("Stability tolerance", p.stability_tolerance, io::in_range(0, 1),
            "An orbit is stable when its non-trivial Floquet multipliers have |mu| <= 1 + this.");
      s.add("Restarts", p.max_restarts, 0, 10000,
            "After Newton fails (a grazing adds an impact per period, a chatter sequence gains one), restart from the "
            "last orbit this many times at most, the parameter moved by Restart jump.");
      s.add("Maximum corrector distance", p.max_corrector_distance, io::non_negative(),
            "A Newton corrector that moves farther from its predictor than this multiple of the step has left the "
            "branch for another orbit: the step is refused and retried shorter; 0: off.");
      s.add("Grazing step", p.grazing_step, io::non_negative(),
            "Forced responses: largest step (scaled arc length) on which the number of impacts or sticking phases "
            "per period may change: a longer step that changes it is retried shorter, so that a grazing is approached "
            "and located instead of stepped over; 0: any step may change it.");
      s.add("Locate crossed grazings", p.locate_crossed_grazings,
            "Forced responses: also locate (to 1e-11 of the frequency) each grazing (an impact, or an elastic "
            "contact's touching, appearing or disappearing) or chatter–sticking transition that an ordinary step "
            "crosses, as a special point between its two orbits (false: only the step's impacts_changed shows it; "
            "where a stretch ends it is always located). 1.6 to 1.8 × the run's time on "
            "examples/pinned_beam_frequency_sweep.");
      s.add("Restart jump", p.restart_jump, io::in_range(1e-8, 0.5), "Relative parameter change of a restart.");
      s.add("Tongue jump", p.tongue_jump, io::in_range(0, 1),
            "Free families started on the map's own orbit guess (the one-impact orbit; elastic contacts: the "
            "family's mode alone on the spring): where the frequency locks while the energy moves (an "
            "internal-resonance tongue, |d ln w| < 1e-3 |d ln E| over two steps) the branch stops and starts again "
            "from that guess this fraction of the energy beyond, to follow the backbone past its tongues; 0: "
            "tongues are followed.");
      s.add("Tongue family points", p.tongue_family_points, 0, 100000,
            "With a Tongue jump: each tongue the backbone stepped over is traced as its own family (the subharmonic "
            "family meeting the backbone there: the tongue's column names the mode and harmonic), onward from where "
            "the frequency locked and back from the first orbit past the jump, down to the family's start energy, "
            "at most this many points each; 0: not traced.");
      s.add("Maximum period change", p.max_period_change, io::in_range(0, 1),
            "Free families: a step whose orbit's period differs from the last one's by more than this fraction is "
            "refused and retried shorter, so that the branch follows what is continuous (through an internal-resonance "
            "tongue and back) rather than landing on another family; 0: such steps are kept, flagged `jumped` "
            "(above 3 %).");
    }

    // Which families are followed from the located special points (branch switching).
    void bind_switching(io::ParameterSection &s, ContinuationCase &c)
    {
      ContinuationSettings    &p = c.settings;
      std::vector<std::string> kinds;
      for (const SpecialPoint kind : p.switch_at)
        kinds.emplace_back(name(kind));
      if (kinds.empty())
        kinds.emplace_back("none");
      s.add("Switch branches", kinds,
            "none, or the special points whose families are followed too: period doubling (the period-2 family, "
            "over twice the period, traced from the point until it ends), branch point (the secondary family, "
            "both ways). Each family is a family of its own in branch.csv, its parent and the point named.");
      s.add("Switch depth", p.switch_depth, 1, 10,
            "Switching again on the families switched to, down to this depth (2: the period-4 family at the "
            "period-2 family's own period doubling).");
      if (!s.reading())
        return;
      p.switch_at.clear();
      for (const auto &text : kinds)
        {
          if (text == "none" || text.empty())
            continue;
          const auto kind = special_point_named(text);
          if (!kind || switching(*kind) == Switching::none)
            s.fail("Switch branches", "'" + text + "' is not a special point one switches at (none, period doubling, "
                                      "branch point)");
          p.switch_at.push_back(*kind);
        }
    }

    // Curves of special points in two parameters (special_point_curves.h).
    void bind_curves(io::ParameterSection &s, ContinuationCase &c)
    {
      std::vector<std::string> kinds;
      for (const SpecialPoint kind : c.follow)
        kinds.emplace_back(name(kind));
      if (kinds.empty())
        kinds.emplace_back("none");
      s.add("Follow", kinds,
            "none, or the special points continued as curves in two parameters, the branch parameter (frequency; "
            "energy for free families) and Second parameter: fold, period doubling, Neimark-Sacker, grazing. Each "
            "located point of these kinds starts a curve traced both ways over Second parameter range (curves.csv, "
            "curves.png), where cusps, fold-flips, meetings with a grazing and 1:1 and 1:2 resonances are marked.");
      s.add("Second parameter", c.second_parameter,
            "With Follow: the case entry the curves are continued in, as Section/Entry (Load F/Amplitude, Contact "
            "stop/Gap, Contact stop/Stiffness, Contact stop/Restitution, Continuation/Damping ratios): for each "
            "value the case is read again with the entry set to it. Its value in the case is where the curves start.");
      s.add("Second parameter range", c.second_parameter_range, io::finite(),
            "With Follow: the lowest and the highest value of Second parameter.");
      if (!s.reading())
        return;
      c.follow.clear();
      for (const auto &text : kinds)
        {
          if (text == "none" || text.empty())
            continue;
          const auto kind = special_point_named(text);
          if (!kind || !followed_in_two_parameters(*kind))
            s.fail("Follow", "'" + text + "' is not a special point followed in two parameters (none, fold, period "
                             "doubling, Neimark-Sacker, grazing)");
          c.follow.push_back(*kind);
        }
      if (c.follow.empty())
        return;
      if (c.second_parameter.find('/') == std::string::npos)
        s.fail("Second parameter", "Follow needs the case entry to continue in, as Section/Entry (got '" +
                                     c.second_parameter + "')");
      const auto &range = c.second_parameter_range;
      if (range.size() != 2 || !(range[0] < range[1]))
        s.fail("Second parameter range", "Follow needs two values, the lowest first");
    }

    // The maps' own entries: the event-driven map's modes, damping, chatter and massless nodes;
    // the Moreau–Jean map's steps.
    void bind_map_settings(io::ParameterSection &s, ContinuationCase &c)
    {
      constexpr unsigned int unbounded = std::numeric_limits<unsigned int>::max();
      integrators::bind_modal_basis(s, c.event_driven.n_modes, c.event_driven.mode_source,
                                    c.event_driven.damping_ratios, "N: modes kept", "Event-driven map: ");
      s.add("Chatter threshold", c.event_driven.chatter_threshold, io::non_negative(),
            "Event-driven map: a contact whose rebound speed e|U-| is below this sticks.");
      s.add("Chatter time", c.event_driven.chatter_time, io::non_negative(),
            "Event-driven map: an impact within this time of the previous one of the same contact is perfectly "
            "inelastic and starts sticking (the modal CoR's Chatter threshold epsilon); 0: off.");
      s.add("Massless contact nodes", c.event_driven.massless_contact_nodes,
            "Event-driven map: mass redistribution (Khenous, Laborde & Renard 2008). The contacts' DoFs give their mass "
            "to their neighbours and are condensed statically; each contact becomes a unilateral spring, so there are "
            "no impacts and Restitution is not used. The semi-discrete model conserves energy and its contact "
            "converges to the continuum's (the rod's nonsmooth modes, doc/periodic.md §6).");
      s.add("Steps per period", c.steps_per_period, 0, unbounded,
            "Moreau–Jean map: N, h = T/N; 0: N = T / Moreau-Jean/Time step (fixed by the start orbit's period).");
    }

    // How a family starts, and what is written of its orbits.
    void bind_start_and_output(io::ParameterSection &s, ContinuationCase &c)
    {
      const io::Choices<StartKind> starts{{"linear mode", StartKind::linear_mode},
                                           {"simulation", StartKind::simulation},
                                           {"simulated mode", StartKind::simulated_mode},
                                           {"initial state", StartKind::initial_state}};
      s.add("Start", c.start, starts,
            "linear mode: each family from its linear mode at Start energy factor × its grazing energy; simulation: one "
            "family from the orbit a simulation of the model's initial state (by the Flow map: Moreau–Jean steps, or the "
            "exact event-driven flow) settles on after Simulation "
            "time (the seed's sticking families, e = 0 with the energy correction); simulated mode: the same from each "
            "family's linear mode at Start energy factor × its grazing energy; initial state: one family, Newton directly "
            "from the model's initial state (each body's Initial displacement and velocity) with period Start period, "
            "e.g. a closed-form orbit of the continuum.");
      s.add("Start period", c.start_period, io::non_negative(), "The period guess of Start = initial state.");
      s.add("Simulation time", c.simulation_time, io::positive(), "Length of the simulation of Start = simulation.");
      s.add("Orbit points", c.orbit_points, io::non_negative(),
            "Branch points (0-based, per family) whose orbit over one period is written (orbit_<family>_<point>.csv and "
            ".pvd).");
      s.add("Samples per orbit", c.orbit_samples, 2, 100000, "Rows of a written orbit.");
      io::Bounds phase = io::in_range(0, 1);
      phase.open_high  = true;
      s.add("Sampling phase", c.sampling_phase, phase,
            "branch.csv gives every probe's u and v at t = phase T of each orbit (forced: T the forcing period, the "
            "sweep's Poincaré point for the same phase, the first of a period-2 family's two).");
      s.add("Report frequencies", c.settings.report_frequencies, io::positive(),
            "Forced responses: forcing frequencies (rad/s) at which the branch's orbits are solved once it is traced, "
            "one per stretch that passes each, written to at_frequencies.csv with branch.csv's columns (e.g. a "
            "sweep's values, to compare with its Poincaré points).");
    }

    // What harmonic balance takes: the event-driven map's linear model, and no curves of special
    // points (their defining systems are shooting's).
    void check_harmonic_balance(const io::ParameterSection &s, const ContinuationCase &c)
    {
      const ContinuationSettings &p = c.settings;
      if (c.flow_map != "event-driven")
        s.fail("Method", "harmonic balance condenses the event-driven map's linear model (Flow map = event-driven), "
                         "not '" + c.flow_map + "'");
      if (c.event_driven.massless_contact_nodes)
        s.fail("Massless contact nodes", "harmonic balance takes elastic contacts (Contact <name>/Stiffness), not "
                                         "condensed contact nodes");
      if (!c.follow.empty())
        s.fail("Follow", "curves of special points are solved by shooting: none with Method = harmonic balance");
      if (p.samples_per_period != 0 && p.samples_per_period <= 2 * p.harmonics)
        s.fail("Samples per period", std::to_string(p.samples_per_period) + " samples cannot resolve " +
                                       std::to_string(p.harmonics) + " harmonics: more than 2 H are needed");
    }

    // What single entries cannot say, once the section is read: 0 bounds become ∞, and the
    // entries that must agree.
    void check_read_values(const io::ParameterSection &s, ContinuationCase &c)
    {
      ContinuationSettings &p = c.settings;
      if (p.max_energy == 0.0)
        p.max_energy = std::numeric_limits<double>::infinity();
      if (p.max_frequency == 0.0)
        p.max_frequency = std::numeric_limits<double>::infinity();
      if (p.min_energy >= p.max_energy)
        s.fail("Maximum energy", "must be above Minimum energy");
      if (p.min_frequency >= p.max_frequency)
        s.fail("Maximum frequency", "must be above Minimum frequency");
      if (p.min_step > p.initial_step || p.initial_step > p.max_step)
        s.fail("Initial step", "must lie between Minimum step and Maximum step");
      if (c.kind == OrbitKind::forced && !(p.min_frequency > 0 && std::isfinite(p.max_frequency)))
        s.fail("Minimum frequency", "a forced response needs 0 < Minimum frequency < Maximum frequency");
      if (c.steps_per_period != 0 && c.steps_per_period < ContinuationCase::min_steps_per_period)
        s.fail("Steps per period", "at least " + std::to_string(ContinuationCase::min_steps_per_period) +
                                     " steps per period (or 0: from the time step)");
      if (c.kind == OrbitKind::free && c.start == StartKind::initial_state && !(c.start_period > 0))
        s.fail("Start period", "Start = initial state needs a period guess above 0");
      for (const double f : c.families)
        if (f != std::floor(f))
          s.fail("Families", "'" + std::to_string(f) + "' is not a mode number");
      for (const double n : c.cycles)
        if (n != std::floor(n))
          s.fail("Cycles", "'" + std::to_string(n) + "' is not a whole number of periods");
      for (const double k : c.orbit_points)
        if (k != std::floor(k))
          s.fail("Orbit points", "'" + std::to_string(k) + "' is not a point index");
      if (c.kind == OrbitKind::free && !p.report_frequencies.empty())
        s.fail("Report frequencies", "forced responses only (Kind = forced): a free family is continued in energy");
      if (c.kind == OrbitKind::free && p.locate_crossed_grazings && s.gives("Locate crossed grazings"))
        s.fail("Locate crossed grazings", "forced responses only (Kind = forced)");
      if (c.kind == OrbitKind::free && p.direction == 0)
        s.fail("Direction", "both is for forced responses (Kind = forced): a free family is continued in energy");
      if (p.method == PeriodicMethod::harmonic_balance)
        check_harmonic_balance(s, c);
      if (p.start_stiffness > 0 && (c.kind != OrbitKind::free || c.start != StartKind::linear_mode ||
                                    c.flow_map != "event-driven"))
        s.fail("Start stiffness", "carries the start of a free family from its linear mode (Kind = free, Start = "
                                  "linear mode) on the event-driven map");
      if (p.tongue_family_points > 0 && (c.kind != OrbitKind::free || !(p.tongue_jump > 0)))
        s.fail("Tongue family points", "traces the tongues a Tongue jump steps over: a free family with Tongue jump > 0");
    }
  } // namespace

  void bind_continuation_parameters(io::ParameterSection &s, ContinuationCase &c)
  {
    if (!s.reading())
      c.settings.max_energy = c.settings.max_frequency = 0.0; // declared as 0: no bound
    bind_map_and_orbits(s, c);
    bind_bounds(s, c);
    bind_steps(s, c.settings);
    bind_switching(s, c);
    bind_curves(s, c);
    bind_map_settings(s, c);
    bind_start_and_output(s, c);
    if (s.reading())
      check_read_values(s, c);
  }

  namespace
  {
    // Inputs that would make a continuation run without end or without anything to follow.
    void check_continuation_is_bounded(const ContinuationCase &c, const model::StructuralModel &model)
    {
      if (c.kind == OrbitKind::free && c.start == StartKind::linear_mode && c.families.empty())
        throw io::InputError(c.filename, "Continuation/Families", "is empty: name the modes whose families to trace");
      bool all_closed = true;
      for (const auto &contact : model.contacts)
        all_closed = all_closed && contact.gap0 == 0.0;
      if (c.kind == OrbitKind::free && all_closed)
        throw io::InputError(c.filename, "Continuation/Kind",
                             "every contact has a zero gap: without a load the system is then homogeneous (an orbit "
                             "scaled in amplitude is an orbit of the same period), so no branch changes with energy; "
                             "give a contact a positive gap");
      if (c.kind != OrbitKind::forced)
        return;
      // The forced response settles from rest over 200 periods of the lowest forcing frequency:
      // a frequency far below the first mode's makes that an endless integration.
      const auto   first   = model::compute_modes(model, 1);
      const double omega_1 = first.omegas.size() > 0 ? first.omegas[0] : 0.0;
      if (omega_1 > 0 && c.settings.min_frequency < 1e-3 * omega_1)
        {
          char text[160];
          std::snprintf(text, sizeof text,
                        "%g rad/s is below 1e-3 of the first natural frequency (%g rad/s): start nearer the resonances",
                        c.settings.min_frequency, omega_1);
          throw io::InputError(c.filename, "Continuation/Minimum frequency", text);
        }
    }
  } // namespace

  void check_continuation(const ContinuationCase &c, const model::StructuralModel &model)
  {
    if (model.contacts.empty())
      throw io::InputError(c.filename, "Continuation/Kind", "the model has no contact: its periodic orbits are linear");
    const auto n_modes = c.event_driven.n_modes ? c.event_driven.n_modes : model.n_dofs();
    if (c.kind == OrbitKind::free)
      for (const double f : c.families)
        if (f > n_modes)
          throw io::InputError(c.filename, "Continuation/Families",
                               "mode " + std::to_string(unsigned(f)) + " is beyond the " + std::to_string(n_modes) +
                                 " modes of the map");
    if (c.settings.method == PeriodicMethod::harmonic_balance)
      for (const auto &contact : model.contacts)
        if (!contact.elastic())
          throw io::InputError(c.filename, "Contact " + contact.name + "/Stiffness",
                               "harmonic balance needs a force law (an elastic contact, Stiffness > 0); a rigid "
                               "contact's impact law is shooting's (Continuation/Method = shooting)");
    if (c.settings.start_stiffness > 0)
      for (const auto &contact : model.contacts)
        if (contact.elastic() ? !(contact.stiffness > c.settings.start_stiffness)
                              : !c.event_driven.massless_contact_nodes)
          throw io::InputError(c.filename, "Continuation/Start stiffness",
                               contact.elastic() ? "contact " + contact.name + " is not stiffer than the start"
                                                 : "contact " + contact.name + " is rigid: a rigid stop is the limit "
                                                   "of stiffer springs on Massless contact nodes only");
    bool harmonic = false;
    for (const auto &load : model.loads)
      harmonic = harmonic || load.time.kind == model::TimeFunction::Kind::harmonic;
    if (c.kind == OrbitKind::forced && !harmonic)
      throw io::InputError(c.filename, "Continuation/Kind", "a forced response needs a harmonic load (subsection Load)");
    if (c.kind == OrbitKind::free && !model.loads.empty())
      throw io::InputError(c.filename, "Continuation/Kind",
                           "free families are conservative: the model must have no load (use Kind = forced)");
    check_continuation_is_bounded(c, model);
    if (c.event_driven.n_modes > model.n_dofs())
      throw io::InputError(c.filename, "Continuation/Number of modes",
                           "the model has only " + std::to_string(model.n_dofs()) + " DoFs");
  }
} // namespace vibroimpact::periodic
