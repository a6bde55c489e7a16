// `vibroimpact continue case.prm`: families of periodic orbits (subsection Continuation), written
// as branch.csv, a frequency–energy plot (fep.png) and, for chosen points, the orbit over one
// period (orbit_<family>_<point>.csv and .pvd).
#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/io/gnuplot.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/progress_bar.h>
#include <vibroimpact/io/vtk_writer.h>
#include <vibroimpact/periodic/continuation.h>
#include <vibroimpact/periodic/linear_impact_flow.h>
#include <vibroimpact/periodic/moreau_jean_flow.h>
#include <vibroimpact/structure/model_builder.h>

#include <deal.II/base/mpi.h>

#include <vibroimpact/io/interrupt.h>

#include "case_file.h"
#include "verbs.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

namespace vibroimpact::app
{
  namespace
  {
    std::unique_ptr<periodic::PeriodicFlowMap> make_flow(const CaseFile &c, const model::StructuralModel &model)
    {
      const auto &cc = c.continuation;
      try
        {
          // One energy correction for both maps: the Moreau-Jean subsection's.
          const auto &mj = dynamic_cast<const integrators::MoreauJeanSolver &>(c.solver("moreau-jean")).settings();
          if (cc.flow == periodic::FlowKind::event_driven)
            {
              auto settings                 = cc.event_driven;
              settings.energy_correction    = mj.energy_correction;
              settings.correction_direction = mj.correction_direction;
              return std::make_unique<periodic::LinearImpactFlow>(model, settings);
            }
          return std::make_unique<periodic::MoreauJeanFlow>(model, mj, cc.steps_per_period);
        }
      catch (const std::invalid_argument &e)
        {
          // The condensation's refusals (their text starts with the parameter's name) belong to it.
          const std::string prefix = "massless contact nodes: ", what = e.what();
          if (what.rfind(prefix, 0) == 0)
            throw io::InputError(c.filename, "Continuation/Massless contact nodes", what.substr(prefix.size()));
          throw io::InputError(c.filename, "Continuation/Flow map", what);
        }
    }

    void write_orbit(const periodic::PeriodicFlowMap &flow, const model::StructuralModel &model,
                     const periodic::BranchPoint &p, const std::string &name, io::OutputFolder &out,
                     const unsigned int n_samples)
    {
      const auto samples = flow.sample(p.state, p.period, n_samples);
      std::vector<std::string> columns{"time", "total_energy"};
      for (const auto &contact : model.contacts)
        columns.push_back("gap_" + contact.name);
      for (const auto &probe : model.probes)
        {
          columns.push_back("u_" + probe.name);
          columns.push_back("v_" + probe.name);
        }
      io::CsvWriter  table(out / (name + ".csv"), columns);
      io::VtkSeries  vtk(out.staging(), name, model.geometry);
      for (std::size_t k = 0; k < samples.time.size(); ++k)
        {
          const auto &u = samples.displacement[k];
          const auto &v = samples.velocity[k];
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
          table.write_row(row);
          vtk.write_frame(samples.time[k], {{"displacement", u}, {"velocity", v}});
        }
      vtk.write_record();
    }

    void plot_frequency_energy(io::OutputFolder &out, const std::vector<periodic::Branch> &branches,
                               const std::vector<double> &linear_frequencies, const bool forced)
    {
      std::ostringstream gp;
      gp << "# Frequency-energy plot of the branches in branch.csv (written by vibroimpact continue).\n"
         << "set terminal pngcairo size 900,600\nset output 'fep.png'\nset datafile separator ','\n"
         << "set key outside right\nset grid\n";
      if (forced)
        gp << "set xlabel 'forcing frequency [rad/s]'\nset ylabel 'energy at t = 0'\nset logscale y\n";
      else
        gp << "set xlabel 'energy'\nset ylabel 'frequency [rad/s]'\nset logscale x\n";
      for (const double w : linear_frequencies)
        if (!forced)
          gp << "set arrow from graph 0, first " << w << " to graph 1, first " << w << " nohead dt 2 lc 'gray'\n";
      gp << "plot ";
      bool first = true;
      for (std::size_t b = 0; b < branches.size(); ++b)
        for (const int stable : {1, 0})
          {
            const std::string family = std::to_string(b);
            gp << (first ? "" : ", \\\n     ") << "'branch.csv' every ::1 using ("
               << "($1 == " << b << " && $10 == " << stable << ") ? " << (forced ? "$4" : "$5") << " : 1/0):"
               << (forced ? "5" : "4") << " with points pt " << (stable ? 7 : 6) << " lc " << b + 1 << " title '"
               << branches[b].family << (stable ? " stable" : " unstable") << "'";
            first = false;
          }
      gp << "\n";
      io::run_gnuplot(out / "fep.gp", gp.str());
    }
  } // namespace

  namespace
  {
    // One family's branch: the settings it runs with and the continuation itself.
    periodic::Branch compute_family(const CaseFile &c, periodic::PeriodicFlowMap &flow, const double family,
                                    const bool quiet)
    {
      const auto                    &cc       = c.continuation;
      periodic::ContinuationSettings settings = cc.settings;
      std::string                    label    = "forced response";
      if (cc.kind == periodic::OrbitKind::free)
        {
          settings.mode = static_cast<unsigned int>(family);
          label = cc.start == periodic::StartKind::simulation      ? "family from the simulated orbit"
                  : cc.start == periodic::StartKind::initial_state ? "family from the initial state"
                                                                   : "family of mode " + std::to_string(settings.mode);
          if (!std::isfinite(settings.max_energy))
            settings.max_energy = cc.max_energy_factor * flow.grazing_energy(settings.mode);
        }
      io::ProgressBar  bar(label, settings.max_points, quiet);
      // On SIGINT/SIGTERM the branch ends at its next point (LOCA unwinds), and rank 0 then
      // writes nothing (io::throw_if_interrupted below).
      const auto progress = [&](const periodic::BranchPoint &, unsigned int k) {
        bar.update(k + 1);
        io::throw_if_interrupted("during the continuation: nothing written");
      };
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
                  branch.failed      = true;
                  branch.stop_reason = "the simulation shows no recurring impact pattern after " +
                                       std::to_string(cc.simulation_time) + " (Continuation/Simulation time)";
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
          throw io::InputError(c.filename, "Continuation/Families", e.what());
        }
      bar.finish();
      if (cc.kind == periodic::OrbitKind::free)
        branch.family = cc.start == periodic::StartKind::simulation      ? "simulated"
                        : cc.start == periodic::StartKind::initial_state ? "initial state"
                                                                         : "mode " + std::to_string(settings.mode);
      return branch;
    }

    // Branches as numbers and text, to gather them from the MPI ranks (round-trip exact).
    constexpr char separator = '\x1f';

    void pack(const periodic::Branch &b, std::vector<double> &numbers, std::string &text)
    {
      numbers.push_back(double(b.points.size()));
      numbers.push_back(double(b.flow_evaluations));
      numbers.push_back(double(b.failed));
      for (const auto &p : b.points)
        {
          const double second = p.multipliers.size() > 1 ? std::abs(p.multipliers[1]) : 0.0;
          numbers.insert(numbers.end(),
                         {p.period, p.frequency, p.energy, double(p.impacts), double(p.sticking_phases), p.max_multiplier,
                          second, double(p.stable), double(p.newton_iterations), p.residual, double(p.admissible),
                          p.min_gap, p.min_impact_velocity, p.max_penetration, p.grazing_gap, p.unfolding, double(p.fold),
                          double(p.period_doubling), double(p.impacts_changed), double(p.restarted), double(p.jumped),
                          double(p.state.size())});
          numbers.insert(numbers.end(), p.state.data(), p.state.data() + p.state.size());
        }
      text += b.family + separator + b.stop_reason + separator + std::to_string(b.restarts.size()) + separator;
      for (const auto &r : b.restarts)
        text += r + separator;
    }

    std::vector<periodic::Branch> unpack(const std::vector<double> &numbers, const std::string &text)
    {
      std::vector<periodic::Branch> branches;
      std::vector<std::string>      words;
      std::string                   word;
      for (const char ch : text)
        if (ch == separator)
          words.push_back(word), word.clear();
        else
          word += ch;
      std::size_t n = 0, w = 0;
      while (n < numbers.size())
        {
          periodic::Branch b;
          const auto       n_points = std::size_t(numbers[n++]);
          b.flow_evaluations        = static_cast<unsigned long>(numbers[n++]);
          b.failed                  = numbers[n++] != 0;
          for (std::size_t k = 0; k < n_points; ++k)
            {
              periodic::BranchPoint p;
              p.period = numbers[n++], p.frequency = numbers[n++], p.energy = numbers[n++];
              p.impacts = unsigned(numbers[n++]), p.sticking_phases = unsigned(numbers[n++]);
              p.max_multiplier    = numbers[n++];
              const double second = numbers[n++];
              p.multipliers       = {p.max_multiplier, second};
              p.stable = numbers[n++] != 0, p.newton_iterations = unsigned(numbers[n++]);
              p.residual = numbers[n++], p.admissible = numbers[n++] != 0;
              p.min_gap = numbers[n++], p.min_impact_velocity = numbers[n++], p.max_penetration = numbers[n++];
              p.grazing_gap = numbers[n++], p.unfolding = numbers[n++];
              p.fold = numbers[n++] != 0, p.period_doubling = numbers[n++] != 0;
              p.impacts_changed = numbers[n++] != 0, p.restarted = numbers[n++] != 0;
              p.jumped = numbers[n++] != 0;
              p.state.resize(Eigen::Index(numbers[n++]));
              for (Eigen::Index i = 0; i < p.state.size(); ++i)
                p.state[i] = numbers[n++];
              b.points.push_back(p);
            }
          b.family      = words[w++];
          b.stop_reason = words[w++];
          const auto n_restarts = std::stoul(words[w++]);
          for (std::size_t r = 0; r < n_restarts; ++r)
            b.restarts.push_back(words[w++]);
          branches.push_back(b);
        }
      return branches;
    }
  } // namespace

  int run_continue(const CommonOptions &options, int &argc, char **&argv)
  {
    dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
    const MPI_Comm     comm    = MPI_COMM_WORLD;
    const unsigned int rank    = dealii::Utilities::MPI::this_mpi_process(comm);
    const unsigned int n_ranks = dealii::Utilities::MPI::n_mpi_processes(comm);
    const bool         root    = rank == 0;

    // Every rank reads the same file and fails the same way: only rank 0 reports.
    std::unique_ptr<CaseFile>                   c;
    std::unique_ptr<model::StructuralModel>     model;
    std::unique_ptr<periodic::PeriodicFlowMap>  flow;
    std::string                                 destination;
    try
      {
        c     = std::make_unique<CaseFile>(read_case_file(options.case_file, options.overrides));
        model = std::make_unique<model::StructuralModel>(structure::build_model(c->description));
        periodic::check_continuation(c->continuation, *model);
        flow        = make_flow(*c, *model);
        destination = output_directory(options, c->description);
      }
    catch (const io::InputError &)
      {
        if (root)
          throw;
        return io::exit_bad_input;
      }
    catch (const std::exception &)
      {
        if (root)
          throw;
        return io::exit_numerical_failure;
      }
    const auto &cc = c->continuation;
    std::string folder_error;
    std::unique_ptr<io::OutputFolder> out_folder; // rank 0's, checked and locked before computing
    if (root)
      try
        {
          out_folder = std::make_unique<io::OutputFolder>(destination, "continue");
        }
      catch (const io::InputError &e)
        {
          folder_error = e.what();
        }
    if (dealii::Utilities::MPI::max(folder_error.empty() ? 0u : 1u, comm) > 0)
      {
        if (root)
          std::cerr << "vibroimpact: error: " << folder_error << "\n";
        return io::exit_bad_input;
      }

    // One family a rank, round-robin; rank 0 gathers them in the order of Families.
    const auto                    start = std::chrono::steady_clock::now();
    const std::vector<double>     families =
      cc.kind == periodic::OrbitKind::forced || cc.start == periodic::StartKind::simulation ||
          cc.start == periodic::StartKind::initial_state
        ? std::vector<double>{1}
        : cc.families;
    std::vector<double> numbers;
    std::string         text, failure;
    for (std::size_t f = rank; f < families.size(); f += n_ranks)
      try
        {
          pack(compute_family(*c, *flow, families[f], options.quiet || !root), numbers, text);
        }
      catch (const std::exception &e)
        {
          failure = e.what();
          break;
        }
    const auto all_numbers = dealii::Utilities::MPI::gather(comm, numbers, 0);
    const auto all_text    = dealii::Utilities::MPI::gather(comm, text, 0);
    const auto failures    = dealii::Utilities::MPI::gather(comm, failure, 0);
    if (!root)
      return io::exit_success;
    io::throw_if_interrupted("during the continuation: nothing written");
    for (const auto &f : failures)
      if (!f.empty())
        throw integrators::NumericalFailure(f);
    std::vector<std::vector<periodic::Branch>> per_rank;
    for (unsigned int r = 0; r < n_ranks; ++r)
      per_rank.push_back(unpack(all_numbers[r], all_text[r]));
    std::vector<periodic::Branch> branches;
    std::vector<double>           linear_frequencies;
    for (std::size_t f = 0; f < families.size(); ++f)
      {
        branches.push_back(per_rank[f % n_ranks][f / n_ranks]);
        if (cc.kind == periodic::OrbitKind::free)
          linear_frequencies.push_back(2 * M_PI / flow->linear_period(static_cast<unsigned int>(families[f])));
      }
    io::OutputFolder &out = *out_folder;
    const model::StructuralModel &m = *model;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    bool         any  = false;
    for (const auto &branch : branches)
      any = any || !branch.points.empty();
    if (!any)
      {
        for (const auto &branch : branches)
          std::fprintf(stderr, "vibroimpact: error: %s: %s\n", branch.family.c_str(), branch.stop_reason.c_str());
        std::fprintf(stderr, "vibroimpact: error: no periodic orbit converged (nothing written)\n");
        return 1;
      }

    {
      // Closed (flushed) before gnuplot reads it.
    std::vector<std::string> columns{"family", "point", "period", "frequency", "energy", "impacts", "sticking_phases",
                         "max_multiplier", "multiplier_2", "stable", "newton_iterations", "residual", "admissible",
                         "fold", "period_doubling", "impacts_changed", "unfolding", "min_gap", "min_impact_velocity",
                         "max_penetration", "grazing_gap", "restarted", "jumped"};
    for (const auto &probe : m.probes)
      {
        columns.push_back("u_" + probe.name);
        columns.push_back("v_" + probe.name);
      }
    io::CsvWriter table(out / "branch.csv", columns);
    // The probes at t = phase T: one sampled period, 360 samples (the phase rounded to 1/360).
    const unsigned int phase_index = static_cast<unsigned int>(std::lround(cc.sampling_phase * 360)) % 360;
    for (std::size_t b = 0; b < branches.size(); ++b)
      for (std::size_t k = 0; k < branches[b].points.size(); ++k)
        {
          const auto &p = branches[b].points[k];
          const double second = p.multipliers.size() > 1 ? std::abs(p.multipliers[1]) : 0.0;
          std::vector<double> row{double(b), double(k), p.period, p.frequency, p.energy, double(p.impacts),
                           double(p.sticking_phases), p.max_multiplier, second, double(p.stable),
                           double(p.newton_iterations), p.residual, double(p.admissible), double(p.fold),
                           double(p.period_doubling), double(p.impacts_changed), p.unfolding, p.min_gap,
                           p.min_impact_velocity, p.max_penetration, p.grazing_gap, double(p.restarted),
                           double(p.jumped)};
          if (!m.probes.empty())
            {
              // A forced orbit is sampled under its own forcing (the flow holds the last one tried).
              if (cc.kind == periodic::OrbitKind::forced)
                flow->set_forcing_frequency(p.frequency);
              const auto samples = flow->sample(p.state, p.period, 360);
              for (const auto &probe : m.probes)
                {
                  row.push_back(probe.row.dot(samples.displacement[phase_index]));
                  row.push_back(probe.row.dot(samples.velocity[phase_index]));
                }
            }
          table.write_row(row);
        }
    }
    for (std::size_t b = 0; b < branches.size(); ++b)
      for (const double k : cc.orbit_points)
        if (k < branches[b].points.size())
          {
            if (cc.kind == periodic::OrbitKind::forced)
              flow->set_forcing_frequency(branches[b].points[std::size_t(k)].frequency);
            write_orbit(*flow, m, branches[b].points[std::size_t(k)],
                        "orbit_" + std::to_string(b) + "_" + std::to_string(unsigned(k)), out, cc.orbit_samples);
          }
    plot_frequency_energy(out, branches, linear_frequencies, cc.kind == periodic::OrbitKind::forced);
    out.commit();

    if (!options.quiet)
      std::printf("%s: %s map, %u unknowns, %u rank%s, %.3g s\n", m.name.c_str(), flow->name().c_str(),
                  unsigned(flow->dimension()), n_ranks, n_ranks == 1 ? "" : "s", wall);
    for (const auto &branch : branches)
      {
        if (branch.failed)
          std::fprintf(stderr, "vibroimpact: warning: %s stopped after %zu points: %s\n", branch.family.c_str(),
                       branch.points.size(), branch.stop_reason.c_str());
        for (std::size_t k = 0; k < branch.points.size(); ++k)
          if (branch.points[k].jumped)
            std::fprintf(stderr,
                         "vibroimpact: warning: %s, point %zu: the period changed by more than %g %% in one step "
                         "(T = %.6g): possibly another family (branch.csv column 'jumped')\n",
                         branch.family.c_str(), k, 100 * periodic::BranchPoint::jump_tolerance, branch.points[k].period);
        if (options.quiet || branch.points.empty())
          continue;
        const auto &first = branch.points.front(), &last = branch.points.back();
        unsigned    stable = 0, newton = 0;
        for (const auto &p : branch.points)
          stable += p.stable, newton = std::max(newton, p.newton_iterations);
        std::printf("  %s: %zu points (%u stable), energy %.6g .. %.6g, frequency %.6g .. %.6g rad/s, impacts per "
                    "period %u .. %u, at most %u Newton iterations, %lu flow evaluations; stopped: %s\n",
                    branch.family.c_str(), branch.points.size(), stable, first.energy, last.energy, first.frequency,
                    last.frequency, first.impacts, last.impacts, newton, branch.flow_evaluations,
                    branch.stop_reason.c_str());
        for (const auto &reason : branch.restarts)
          std::printf("    restarted past: %s\n", reason.c_str());
      }
    return 0;
  }
} // namespace vibroimpact::app
