// The continuation study (see the header): families traced on MPI ranks, gathered through
// deal.II's serialising collectives, and written as branch.csv, orbits and a frequency–energy plot.
#include <vibroimpact/integrators/moreau_jean_settings.h>
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/io/gnuplot.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/progress_bar.h>
#include <vibroimpact/io/vtk_writer.h>
#include <vibroimpact/io/write_error.h>
#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/periodic/flow_map_registry.h>
#include <vibroimpact/periodic/periodic_problem.h>
#include <vibroimpact/periodic/tongues.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/continuation_curves.h>
#include <vibroimpact/studies/continuation_study.h>

#include "continuation_plots.h"

#include <deal.II/base/mpi.h>

#include <boost/serialization/complex.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>

// Branches cross MPI ranks through Utilities::MPI::gather, which serialises with Boost.
namespace boost::serialization
{
  template <class Archive>
  void serialize(Archive &ar, vibroimpact::periodic::Vector &v, const unsigned int)
  {
    Eigen::Index n = v.size();
    ar &n;
    if (Archive::is_loading::value)
      v.resize(n);
    ar &boost::serialization::make_array(v.data(), std::size_t(n));
  }

  template <class Archive>
  void serialize(Archive &ar, vibroimpact::periodic::BranchPoint &p, const unsigned int)
  {
    ar &p.period &p.frequency &p.energy &p.impacts &p.sticking_phases &p.multipliers &p.max_multiplier &p.stable;
    ar &p.newton_iterations &p.residual &p.admissible &p.min_gap &p.min_impact_velocity &p.max_penetration;
    ar &p.grazing_gap &p.unfolding &p.fold &p.period_doubling &p.impacts_changed &p.restarted &p.jumped &p.special &p.state;
    ar &p.coefficients;
  }

  template <class Archive>
  void serialize(Archive &ar, vibroimpact::periodic::Branch::AtFrequency &a, const unsigned int)
  {
    ar &a.point &a.orbit;
  }

  template <class Archive>
  void serialize(Archive &ar, vibroimpact::periodic::Branch &b, const unsigned int)
  {
    ar &b.family &b.points &b.stop_reason &b.restarts &b.failed &b.flow_evaluations &b.at_frequencies &b.children &b.parent &b.born_at
      &b.born_at_parameter;
    ar &b.way_down;
  }
} // namespace boost::serialization

namespace vibroimpact::studies
{
  namespace
  {
    // orbit_<family>_<point>.csv's table of one period's samples.
    io::CsvTable orbit_table(const model::StructuralModel &model, const periodic::OrbitSamples &samples)
    {
      std::vector<std::string> columns{"time", "total_energy"};
      for (const auto &contact : model.contacts)
        columns.push_back("gap_" + contact.name);
      for (const auto &probe : model.probes)
        {
          columns.push_back("u_" + probe.name);
          columns.push_back("v_" + probe.name);
        }
      io::CsvTable table(columns);
      for (std::size_t k = 0; k < samples.time.size(); ++k)
        {
          const auto  &u      = samples.displacement[k];
          const auto  &v      = samples.velocity[k];
          const double energy = samples.energy.empty() ? model.kinetic_energy(v) + model.potential_energy(u)
                                                       : samples.energy[k];
          std::vector<double> row{samples.time[k], energy};
          for (const auto &contact : model.contacts)
            row.push_back(contact.gap0 + contact.row.dot(u));
          for (const auto &probe : model.probes)
            {
              row.push_back(probe.row.dot(u));
              row.push_back(probe.row.dot(v));
            }
          table.add_row(row);
        }
      return table;
    }

    void write_orbit(const SampledOrbit &orbit, const model::StructuralModel &model, io::OutputFolder &out)
    {
      io::write_csv_table(out / (orbit.name + ".csv"), orbit.table);
      io::VtkSeries vtk(out.staging(), orbit.name, model.geometry);
      const auto   &samples = orbit.samples;
      for (std::size_t k = 0; k < samples.time.size(); ++k)
        vtk.write_frame(samples.time[k], {{"displacement", samples.displacement[k]}, {"velocity", samples.velocity[k]}});
      vtk.write_record();
    }

    // How a case's orbits are solved, in words: "event-driven map" (shooting or a scan on it), or
    // "harmonic balance H=41 N=512 on the event-driven map's model".
    std::string method_of(const periodic::ContinuationCase &cc, const periodic::PeriodicFlowMap &flow)
    {
      if (cc.settings.method == periodic::PeriodicMethod::harmonic_balance)
        return "harmonic balance H=" + std::to_string(cc.settings.harmonics) +
               " N=" + std::to_string(periodic::harmonic_balance_samples(cc.settings)) + " on the " + flow.name() +
               " map's model";
      return flow.name() + " map";
    }

    // On a terminal, before the first orbit (which can take minutes on a fine model): what is
    // solved, its size and bounds, and, for a case without a Continuation section, that the
    // defaults are in force.
    void announce(const io::ProgressBar &bar, const periodic::ContinuationCase &cc,
                  const periodic::PeriodicFlowMap &flow, const std::string &label,
                  const periodic::ContinuationSettings &settings)
    {
      if (!bar.visible())
        return;
      const bool         free     = cc.kind == periodic::OrbitKind::free;
      const auto unknowns = periodic::periodic_unknowns(flow, settings, free);
      const bool harmonic = settings.method == periodic::PeriodicMethod::harmonic_balance;
      std::ostringstream line;
      if (!cc.section_given)
        line << cc.filename << " has no Continuation section: its defaults (vibroimpact parameters continue) apply.\n";
      if (flow.scanned_in_energy())
        line << label << ": scanning the " << flow.name() << " map in energy, " << flow.dimension()
             << " state values, " << settings.max_points << " orbits up to energy " << settings.max_energy
             << ", each simulated from its state of rest (no Newton)";
      else
        line << label << ": " << (harmonic ? "" : "shooting on the ") << method_of(cc, flow) << ", " << unknowns
             << (harmonic ? (free ? " unknowns (the contacts' harmonics, frequency, unfolding κ), energy up to "
                                  : " unknowns (the contacts' harmonics), frequency up to ")
                          : (free ? " unknowns (start state, period, unfolding α), energy up to "
                                  : " unknowns (start state), frequency up to "))
             << (free ? settings.max_energy : settings.max_frequency) << ", at most " << settings.max_points
             << " orbits, " << settings.max_newton << " Newton iterations each";
      if (cc.start == periodic::StartKind::simulation || cc.start == periodic::StartKind::simulated_mode)
        line << "; the start is simulated over " << cc.simulation_time << " first";
      bar.say(line.str());
    }

    // One family's branch: the settings it runs with and the continuation itself.
    periodic::Branch compute_family(const periodic::ContinuationCase &cc, periodic::PeriodicFlowMap &flow,
                                    const double family, const unsigned int cycles, const bool quiet)
    {
      periodic::ContinuationSettings settings = cc.settings;
      settings.quiet                          = quiet;
      std::string                    label    = "forced response";
      if (cc.kind == periodic::OrbitKind::free)
        {
          settings.mode   = static_cast<unsigned int>(family);
          settings.cycles = cc.start == periodic::StartKind::linear_mode ? cycles : 1;
          label = cc.start == periodic::StartKind::simulation      ? "family from the simulated orbit"
                  : cc.start == periodic::StartKind::initial_state ? "family from the initial state"
                                                                   : "family of " + periodic::family_name(settings);
          if (!std::isfinite(settings.max_energy))
            settings.max_energy = cc.max_energy_factor * flow.grazing_energy(settings.mode);
        }
      io::ProgressBar  bar(label, settings.max_points, quiet);
      announce(bar, cc, flow, label, settings);
      // On SIGINT/SIGTERM the branch ends at its next flow evaluation (LOCA unwinds) and keeps
      // the points converged so far; rank 0 writes them marked INTERRUPTED.
      unsigned int points   = 0;
      const auto   progress = [&](const periodic::BranchPoint &, unsigned int k) { bar.update(points = k + 1); };
      settings.newton_iteration = [&](const unsigned int iteration, const double residual) {
        char text[96];
        std::snprintf(text, sizeof text, "orbit %u: Newton iteration %u, |F| = %.2g", points + 1, iteration, residual);
        bar.status(text);
      };
      settings.status = [&](const std::string &what) { bar.status(what); };
      periodic::Branch branch;
      try
        {
          if (cc.kind == periodic::OrbitKind::forced)
            branch = periodic::continue_forced_response(flow, settings, {}, progress);
          else if (cc.start == periodic::StartKind::initial_state)
            {
              branch = periodic::continue_free_family(flow, settings, flow.initial_state(), cc.start_period, progress);
            }
          else if (cc.start != periodic::StartKind::linear_mode)
            {
              const auto start = flow.simulated_orbit(
                cc.simulation_time,
                cc.start == periodic::StartKind::simulated_mode
                  ? flow.linear_mode_state(settings.mode, settings.start_energy_factor * flow.grazing_energy(settings.mode))
                  : periodic::Vector());
              if (!start)
                {
                  // This family has no start; the others may.
                  std::ostringstream after;
                  after << cc.simulation_time;
                  branch.failed      = true;
                  branch.stop_reason = "the simulation shows no recurring impact pattern after " + after.str() +
                                       " (Continuation/Simulation time)";
                  branch.family = "mode " + std::to_string(settings.mode);
                  return branch;
                }
              if (!std::isfinite(cc.settings.max_energy))
                settings.max_energy = 100 * flow.energy(start->first);
              branch = periodic::continue_free_family(flow, settings, start->first, start->second, progress);
            }
          else
            branch = periodic::continue_free_family(flow, settings, progress);
        }
      catch (const std::invalid_argument &e)
        {
          throw io::InputError(cc.filename, "Continuation/Families", e.what());
        }
      bar.finish();
      if (cc.kind == periodic::OrbitKind::free)
        branch.family = cc.start == periodic::StartKind::simulation      ? "simulated"
                        : cc.start == periodic::StartKind::initial_state ? "initial state"
                                                                         : periodic::family_name(settings);
      return branch;
    }

  } // namespace

  ContinuationSetup prepare_continuation(const CaseFile &c)
  {
    auto setup   = prepare_continuation(c.description, c.continuation, c.settings_of<integrators::MoreauJeanSettings>());
    setup.curves = prepare_curves(c);
    return setup;
  }

  ContinuationSetup prepare_continuation(const structure::CaseDescription &description,
                                         const periodic::ContinuationCase &continuation,
                                         const integrators::MoreauJeanSettings &moreau_jean)
  {
    ContinuationSetup setup;
    setup.continuation = continuation;
    setup.model        = std::make_unique<model::StructuralModel>(structure::build_model(description));
    periodic::check_continuation(setup.continuation, *setup.model);
    // Every map with impacts shares the Moreau-Jean subsection's energy correction.
    setup.flow = periodic::make_flow_map({*setup.model, setup.continuation, moreau_jean});
    return setup;
  }

  bool ContinuationResult::any_orbit() const
  {
    for (const auto &branch : branches)
      if (!branch.points.empty())
        return true;
    return false;
  }

  namespace
  {
    // The entry that places a family's first orbit: the one to change when none converged.
    std::string start_entry(const periodic::ContinuationCase &c)
    {
      if (c.kind == periodic::OrbitKind::forced)
        return "Continuation/Minimum frequency";
      switch (c.start)
        {
          case periodic::StartKind::simulation:
            return "Continuation/Simulation time";
          case periodic::StartKind::initial_state:
            return "Continuation/Start period";
          default:
            return "Continuation/Start energy factor";
        }
    }
  } // namespace

  std::string no_orbit_message(const ContinuationResult &result, const periodic::ContinuationCase &c)
  {
    std::vector<std::pair<std::string, std::string>> reasons; // (reason, its families), in order
    for (const auto &branch : result.branches)
      {
        auto same = std::find_if(reasons.begin(), reasons.end(),
                                 [&](const auto &r) { return r.first == branch.stop_reason; });
        if (same == reasons.end())
          reasons.emplace_back(branch.stop_reason, branch.family);
        else
          same->second += ", " + branch.family;
      }
    std::string text = c.filename + ": no periodic orbit converged, nothing written:";
    bool        names_an_entry = false;
    for (std::size_t k = 0; k < reasons.size(); ++k)
      {
        text += (k == 0 ? " " : "; ") + reasons[k].second + ": " + reasons[k].first;
        names_an_entry = names_an_entry || reasons[k].first.find("Continuation/") != std::string::npos;
      }
    if (!names_an_entry)
      text += " (change " + start_entry(c) + ")";
    for (char &ch : text) // a reason from a library's exception may hold line breaks
      if (ch == '\n')
        ch = ' ';
    return text;
  }

  std::vector<double> families_of(const periodic::ContinuationCase &cc)
  {
    return cc.kind == periodic::OrbitKind::forced || cc.start == periodic::StartKind::simulation ||
               cc.start == periodic::StartKind::initial_state
             ? std::vector<double>{1}
             : cc.families;
  }

  namespace
  {
    // This rank's families, round-robin; a failure ends the rank's share (reported by rank 0).
    std::vector<periodic::Branch> trace_share(const periodic::ContinuationCase &cc, periodic::PeriodicFlowMap &flow,
                                              const std::vector<double> &families, const unsigned int rank,
                                              const unsigned int n_ranks, const bool quiet, std::string &failure)
    {
      std::vector<periodic::Branch> share;
      for (std::size_t f = rank; f < families.size(); f += n_ranks)
        try
          {
            share.push_back(compute_family(cc, flow, families[f], cc.cycles_of(f), quiet));
          }
        catch (const io::InputError &)
          {
            throw;
          }
        catch (const std::exception &e)
          {
            failure = e.what();
            break;
          }
      return share;
    }
  } // namespace

  namespace
  {
    // The children of the last branch (tongue families, switched families) moved behind it, each
    // followed by its own, depth first.
    void append_children(ContinuationResult &result, const bool free)
    {
      auto children = std::move(result.branches.back().children);
      result.branches.back().children.clear();
      for (auto &child : children)
        {
          result.branches.push_back(std::move(child));
          if (free)
            result.linear_frequencies.push_back(result.linear_frequencies.back());
          append_children(result, free);
        }
    }
  } // namespace

  ContinuationResult run_continuation(const periodic::ContinuationCase &cc, periodic::PeriodicFlowMap &flow,
                                      const MPI_Comm comm, const bool quiet)
  {
    const unsigned int rank    = dealii::Utilities::MPI::this_mpi_process(comm);
    const unsigned int n_ranks = dealii::Utilities::MPI::n_mpi_processes(comm);
    const auto         start   = std::chrono::steady_clock::now();
    const auto         families = families_of(cc);
    std::string        failure;
    const auto share     = trace_share(cc, flow, families, rank, n_ranks, quiet || rank != 0, failure);
    const auto shares    = dealii::Utilities::MPI::gather(comm, share, 0);
    const auto failures  = dealii::Utilities::MPI::gather(comm, failure, 0);
    ContinuationResult result;
    // After a signal the branches keep their converged points: written, marked INTERRUPTED.
    result.interrupt_signal = dealii::Utilities::MPI::max(io::interrupt_signal(), comm);
    if (rank != 0)
      return result;
    if (result.interrupt_signal == 0)
      for (const auto &f : failures)
        if (!f.empty())
          throw integrators::NumericalFailure(f);
    for (std::size_t f = 0; f < families.size(); ++f)
      {
        if (f / n_ranks >= shares[f % n_ranks].size()) // its rank was interrupted before it
          {
            result.branches.emplace_back();
            result.branches.back().stop_reason = "not started: interrupted";
          }
        else
          result.branches.push_back(shares[f % n_ranks][f / n_ranks]);
        if (cc.kind == periodic::OrbitKind::free)
          {
            // Where the family is born: ω_j, or ω_j / n for one impact every n periods.
            const unsigned int n = cc.start == periodic::StartKind::linear_mode ? cc.cycles_of(f) : 1;
            result.linear_frequencies.push_back(2 * M_PI / (n * flow.linear_period(static_cast<unsigned int>(families[f]))));
          }
        // The families born on it follow it (their own children after each), born where it is.
        append_children(result, cc.kind == periodic::OrbitKind::free);
      }
    result.method   = method_of(cc, flow);
    result.unknowns = static_cast<unsigned int>(periodic::periodic_unknowns(flow, cc.settings, false));
    result.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  }

  std::vector<periodic::Branch> trace_families(const periodic::ContinuationCase &cc, periodic::PeriodicFlowMap &flow,
                                               const bool quiet)
  {
    std::string failure;
    auto        branches = trace_share(cc, flow, families_of(cc), 0, 1, quiet, failure);
    if (!failure.empty() && io::interrupt_signal() == 0)
      throw integrators::NumericalFailure(failure);
    return branches;
  }

  std::vector<std::vector<std::string>> tongue_labels(const std::vector<periodic::Branch> &branches,
                                                      const periodic::ContinuationCase    &cc,
                                                      const periodic::PeriodicFlowMap     &flow)
  {
    std::vector<double> free, held;
    // A scanned map's family is a staircase: every plateau is a lock at a whole number of steps,
    // the scheme's resolution rather than an internal resonance, so nothing is labelled.
    if (cc.kind == periodic::OrbitKind::free && !flow.scanned_in_energy())
      {
        for (unsigned int k = 1; k <= flow.dimension() / 2; ++k)
          free.push_back(2 * M_PI / flow.linear_period(k));
        held = flow.held_contact_frequencies();
      }
    std::vector<std::vector<std::string>> labels;
    for (std::size_t b = 0; b < branches.size(); ++b)
      {
        const auto        &branch = branches[b];
        const unsigned int mode   = cc.start == periodic::StartKind::linear_mode && b < cc.families.size()
                                      ? static_cast<unsigned int>(cc.families[b]) : 1;
        labels.push_back(free.empty() ? std::vector<std::string>(branch.points.size())
                                      : periodic::tongue_labels(branch, free, held, mode));
      }
    return labels;
  }

  namespace
  {
    // The `tongue` column: per point, the internal resonance whose tongue it lies on (empty on
    // the backbone, and for forced responses). periodic/tongues.h says how.
    io::CsvTable::Column tongue_column(const ContinuationResult &result, const periodic::ContinuationCase &cc,
                                       const periodic::PeriodicFlowMap &flow)
    {
      io::CsvTable::Column column{"tongue", io::CsvTable::Column::Kind::text, {}, {}};
      for (const auto &labels : tongue_labels(result.branches, cc, flow))
        column.cells.insert(column.cells.end(), labels.begin(), labels.end());
      return column;
    }
  } // namespace

  namespace
  {
    // branch.csv's columns up to the probes' (tongue and special follow there).
    io::CsvTable orbit_columns(const model::StructuralModel &m)
    {
      std::vector<std::string> columns = {"family", "point", "period", "frequency", "energy", "impacts", "sticking_phases",
                     "max_multiplier", "multiplier_2", "stable", "newton_iterations", "residual", "admissible",
                     "fold", "period_doubling", "impacts_changed", "unfolding", "min_gap", "min_impact_velocity",
                     "max_penetration", "grazing_gap", "restarted", "jumped"};
      for (const auto &probe : m.probes)
        {
          columns.push_back("u_" + probe.name);
          columns.push_back("v_" + probe.name);
          columns.push_back("amplitude_" + probe.name); // the largest |u| over the orbit
        }
      return io::CsvTable(columns);
    }

    // One orbit's row of those columns (b: its family, k: its point).
    void add_orbit_row(io::CsvTable &table, const std::size_t b, const std::size_t k, const periodic::BranchPoint &p,
                   const periodic::ContinuationCase &cc, periodic::PeriodicFlowMap &flow,
                   const model::StructuralModel &m)
    {
      // The probes at t = phase T, T the forcing period for a forced orbit (over several of them,
      // a switched family's: its first Poincaré point, where a sweep samples) and the orbit's own
      // for a free one: one sampled orbit, 360 samples (the phase rounded to 1/360 of the orbit).
      const double periods =
        cc.kind == periodic::OrbitKind::forced ? std::max(1.0, std::round(p.period * p.frequency / (2 * M_PI))) : 1.0;
      const unsigned int phase_index =
        static_cast<unsigned int>(std::lround(cc.sampling_phase * 360 / periods)) % 360;
      const double second = p.multipliers.size() > 1 ? std::abs(p.multipliers[1]) : 0.0;
      std::vector<double> row{double(b), double(k), p.period, p.frequency, p.energy, double(p.impacts),
                       double(p.sticking_phases), p.max_multiplier, second, double(p.stable),
                       double(p.newton_iterations), p.residual, double(p.admissible), double(p.fold),
                       double(p.period_doubling), double(p.impacts_changed), p.unfolding, p.min_gap,
                       p.min_impact_velocity, p.max_penetration, p.grazing_gap, double(p.restarted),
                       double(p.jumped)};
      if (!m.probes.empty())
        {
          // A forced orbit is sampled under its own forcing (sample_orbit sets it).
          const auto samples = periodic::sample_orbit(flow, cc.settings, p, 360);
          // A harmonic-balance orbit's amplitude from its series sampled finely (it is cheap).
          const bool series  = p.coefficients.size() > 0;
          const auto fine    = series && cc.kind == periodic::OrbitKind::forced
                                 ? periodic::sample_orbit(flow, cc.settings, p, 7200)
                                 : periodic::OrbitSamples{};
          for (const auto &probe : m.probes)
            {
              row.push_back(probe.row.dot(samples.displacement[phase_index]));
              row.push_back(probe.row.dot(samples.velocity[phase_index]));
              // Refined on the flow for the forced response curve (frc.png); a free family's
              // (each refinement costs ~50 flows of a model that may be large) is the samples'.
              if (series)
                row.push_back(periodic::largest_sample(probe.row, fine.time.empty() ? samples : fine));
              else
                row.push_back(cc.kind == periodic::OrbitKind::forced
                                ? periodic::largest_displacement(flow, p.state, p.period, probe.row, samples)
                                : periodic::largest_sample(probe.row, samples));
            }
        }
      table.add_row(row);
    }
  } // namespace

  io::CsvTable branch_table(const ContinuationResult &result, const periodic::ContinuationCase &cc,
                            periodic::PeriodicFlowMap &flow, const model::StructuralModel &m)
  {
    io::CsvTable table   = orbit_columns(m);
    auto         tongues = tongue_column(result, cc, flow); // the last columns: tongue, special, parent, born_at
    using Kind           = io::CsvTable::Column::Kind;
    io::CsvTable::Column special{"special", Kind::text, {}, {}}, parent{"parent", Kind::text, {}, {}},
      born_at{"born_at", Kind::text, {}, {}}, method{"method", Kind::text, {}, {}};
    // How the orbits were computed, on every row (two runs' files compared side by side say it).
    const std::string how = cc.settings.method == periodic::PeriodicMethod::harmonic_balance
                              ? "harmonic balance H=" + std::to_string(cc.settings.harmonics) +
                                  " N=" + std::to_string(periodic::harmonic_balance_samples(cc.settings))
                              : "shooting";
    const auto &branches = result.branches;
    for (std::size_t b = 0; b < branches.size(); ++b)
      {
        // The family this one was born on (its index in the family column), and at what point.
        std::string parent_index;
        for (std::size_t f = 0; f < b && !branches[b].parent.empty(); ++f)
          if (branches[f].family == branches[b].parent)
            parent_index = std::to_string(f);
        for (std::size_t k = 0; k < branches[b].points.size(); ++k)
          {
            add_orbit_row(table, b, k, branches[b].points[k], cc, flow, m);
            special.cells.emplace_back(periodic::name(branches[b].points[k].special));
            parent.cells.push_back(parent_index);
            born_at.cells.emplace_back(periodic::name(branches[b].born_at));
            method.cells.push_back(how);
          }
      }
    for (auto *column : {&tongues, &special, &parent, &born_at, &method})
      table.columns.push_back(std::move(*column));
    return table;
  }

  io::CsvTable at_frequencies_table(const ContinuationResult &result, const periodic::ContinuationCase &cc,
                                    periodic::PeriodicFlowMap &flow, const model::StructuralModel &m)
  {
    io::CsvTable table = orbit_columns(m);
    for (std::size_t b = 0; b < result.branches.size(); ++b)
      for (const auto &at : result.branches[b].at_frequencies)
        add_orbit_row(table, b, at.point, at.orbit, cc, flow, m);
    return table;
  }

  std::vector<SampledOrbit> sampled_orbits(const ContinuationResult &result, const periodic::ContinuationCase &cc,
                                           periodic::PeriodicFlowMap &flow, const model::StructuralModel &m)
  {
    std::vector<SampledOrbit> orbits;
    for (std::size_t b = 0; b < result.branches.size(); ++b)
      for (const double k : cc.orbit_points)
        if (k < result.branches[b].points.size())
          {
            const auto &p = result.branches[b].points[std::size_t(k)];
            SampledOrbit orbit{"orbit_" + std::to_string(b) + "_" + std::to_string(unsigned(k)), b, std::size_t(k),
                               periodic::sample_orbit(flow, cc.settings, p, cc.orbit_samples), {}};
            orbit.table = orbit_table(m, orbit.samples);
            orbits.push_back(std::move(orbit));
          }
    return orbits;
  }

  namespace
  {
    template <typename... Args>
    std::string formatted(const char *format, Args... args)
    {
      const int   n = std::snprintf(nullptr, 0, format, args...);
      std::string text(std::size_t(n) + 1, '\0');
      std::snprintf(text.data(), text.size(), format, args...);
      text.pop_back();
      return text;
    }
  } // namespace

  std::vector<std::string> continuation_warnings(const ContinuationResult &result, const periodic::ContinuationCase &cc)
  {
    std::vector<std::string> warnings;
    for (const auto &branch : result.branches)
      {
        if (branch.failed)
          warnings.push_back(formatted("%s stopped after %zu points: %s", branch.family.c_str(), branch.points.size(),
                                       branch.stop_reason.c_str()));
        for (std::size_t k = 0; k < branch.points.size(); ++k)
          if (k > 0 && k == branch.way_down)
            warnings.push_back(formatted("%s, point %zu: the way down starts (at %.6g rad/s, Direction = both): a break "
                                         "in the branch (branch.csv columns 'restarted', 'jumped')",
                                         branch.family.c_str(), k, branch.points[k].frequency));
          else if (branch.points[k].jumped && branch.points[k].restarted)
            warnings.push_back(formatted(
              "%s, point %zu: a restart past a failure found only an orbit far from the last one (at %.6g rad/s): a "
              "break in the branch (branch.csv columns 'restarted', 'jumped')",
              branch.family.c_str(), k, branch.points[k].frequency));
          else if (branch.points[k].jumped)
            warnings.push_back(formatted("%s, point %zu: the period changed by more than %g %% in one step (T = %.6g): "
                                         "possibly another family (branch.csv column 'jumped')",
                                         branch.family.c_str(), k, 100 * periodic::BranchPoint::jump_tolerance,
                                         branch.points[k].period));
      }
    // An Orbit point a family stopped short of (or beyond Maximum points: a quick run of an
    // example with fewer points keeps its Orbit points): its orbit file is missing.
    for (std::size_t b = 0; b < result.branches.size(); ++b)
      for (const double k : cc.orbit_points)
        if (k >= result.branches[b].points.size())
          warnings.push_back(formatted("%s: Continuation/Orbit points: %s stopped after %zu points: no orbit_%zu_%lu written",
                                       cc.filename.c_str(), result.branches[b].family.c_str(),
                                       result.branches[b].points.size(), b, static_cast<unsigned long>(k)));
    return warnings;
  }

  io::CsvTable families_table(const ContinuationResult &result)
  {
    using Kind = io::CsvTable::Column::Kind;
    io::CsvTable table;
    table.add("family", Kind::text);
    for (const auto *name : {"points", "stable"})
      table.add(name, Kind::count);
    for (const auto *name : {"first_energy", "last_energy", "first_frequency", "last_frequency"})
      table.add(name);
    for (const auto *name : {"first_impacts", "last_impacts", "newton_iterations", "flow_evaluations"})
      table.add(name, Kind::count);
    table.add("stop_reason", Kind::text);
    for (const auto &branch : result.branches)
      {
        const auto  &p      = branch.points;
        unsigned int stable = 0, newton = 0;
        for (const auto &point : p)
          stable += point.stable, newton = std::max(newton, point.newton_iterations);
        const double none = std::numeric_limits<double>::quiet_NaN();
        const std::vector<double> numbers{double(p.size()),
                                          double(stable),
                                          p.empty() ? none : p.front().energy,
                                          p.empty() ? none : p.back().energy,
                                          p.empty() ? none : p.front().frequency,
                                          p.empty() ? none : p.back().frequency,
                                          p.empty() ? none : double(p.front().impacts),
                                          p.empty() ? none : double(p.back().impacts),
                                          double(newton),
                                          double(branch.flow_evaluations)};
        table.columns[0].cells.push_back(branch.family);
        for (std::size_t c = 0; c < numbers.size(); ++c)
          table.columns[c + 1].numbers.push_back(numbers[c]);
        table.columns.back().cells.push_back(branch.stop_reason);
      }
    return table;
  }

  std::vector<std::string> continuation_summary(const ContinuationResult &result, const model::StructuralModel &m,
                                                const unsigned int n_ranks)
  {
    std::vector<std::string> lines{formatted("%s: %s, %u unknowns, %u rank%s, %.3g s", m.name.c_str(),
                                             result.method.c_str(), result.unknowns, n_ranks,
                                             n_ranks == 1 ? "" : "s", result.wall_time)};
    const auto               table = families_table(result);
    const auto               at    = [&](const std::size_t column, const std::size_t row) {
      return table.columns[column].numbers[row];
    };
    for (std::size_t b = 0; b < result.branches.size(); ++b)
      {
        if (result.branches[b].points.empty())
          continue;
        lines.push_back(formatted(
          "  %s: %zu points (%u stable), energy %.6g .. %.6g, frequency %.6g .. %.6g rad/s, impacts per period %u .. "
          "%u, at most %u Newton iterations, %lu flow evaluations; stopped: %s",
          table.columns[0].cells[b].c_str(), std::size_t(at(1, b)), unsigned(at(2, b)), at(3, b), at(4, b), at(5, b),
          at(6, b), unsigned(at(7, b)), unsigned(at(8, b)), unsigned(at(9, b)), static_cast<unsigned long>(at(10, b)),
          table.columns[11].cells[b].c_str()));
        for (const auto &reason : result.branches[b].restarts)
          lines.push_back("    restarted past: " + reason);
      }
    for (std::size_t c = 0; c < result.curves.size(); ++c)
      {
        const auto &curve = result.curves[c];
        if (curve.points.empty())
        {
          lines.push_back(formatted("  curve %zu, %s at %.6g on %s: no point (%s)", c,
                                    std::string(periodic::name(curve.kind)).c_str(), curve.start.frequency,
                                    curve.family.c_str(), curve.stop_reason.c_str()));
          continue;
        }
        lines.push_back(formatted("  curve %zu, %s at %.6g on %s: %zu points, parameter %.6g .. %.6g, frequency %.6g "
                                  ".. %.6g rad/s, %lu flow evaluations; stopped %s",
                                  c, std::string(periodic::name(curve.kind)).c_str(), curve.start.frequency,
                                  curve.family.c_str(), curve.points.size(), curve.points.front().parameter,
                                  curve.points.back().parameter, curve.points.front().frequency,
                                  curve.points.back().frequency, curve.flow_evaluations, curve.stop_reason.c_str()));
      }
    return lines;
  }

  void write_continuation(const ContinuationResult &result, const periodic::ContinuationCase &cc,
                          periodic::PeriodicFlowMap &flow, const model::StructuralModel &m, io::OutputFolder &out)
  {
    const auto &branches = result.branches;
    const io::CsvTable table = branch_table(result, cc, flow, m);
    io::write_csv_table(out / "branch.csv", table); // closed before gnuplot reads it
    if (!cc.settings.report_frequencies.empty())
      io::write_csv_table(out / "at_frequencies.csv", at_frequencies_table(result, cc, flow, m));
    for (const auto &orbit : sampled_orbits(result, cc, flow, m))
      write_orbit(orbit, m, out);
    plot_frequency_energy(out, branches, result.linear_frequencies, cc.kind == periodic::OrbitKind::forced, table);
    if (cc.kind == periodic::OrbitKind::forced && !m.probes.empty())
      plot_forced_response(out, table, branches);
    if (!cc.follow.empty())
      write_curves(result.curves, cc, out);
    if (result.interrupt_signal != 0)
      {
        std::size_t points = 0;
        for (const auto &branch : branches)
          points += branch.points.size();
        io::write_file(out / "INTERRUPTED", "interrupted by signal " + std::to_string(result.interrupt_signal) +
                                              ": branch.csv holds the " + std::to_string(points) +
                                              " orbits converged before it\n");
      }
  }
} // namespace vibroimpact::studies
