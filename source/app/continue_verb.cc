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
          if (cc.flow == periodic::FlowKind::event_driven)
            return std::make_unique<periodic::LinearImpactFlow>(model, cc.event_driven);
          const auto &mj = dynamic_cast<const integrators::MoreauJeanSolver &>(c.solver("moreau-jean")).settings();
          return std::make_unique<periodic::MoreauJeanFlow>(model, mj, cc.steps_per_period);
        }
      catch (const std::invalid_argument &e)
        {
          throw io::InputError(c.filename, "Continuation/Flow map", e.what());
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
          std::vector<double> row{samples.time[k], model.kinetic_energy(v) + model.potential_energy(u)};
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

  int run_continue(const CommonOptions &options)
  {
    const CaseFile c     = read_case_file(options.case_file, options.overrides);
    const auto     model = structure::build_model(c.description);
    const auto    &cc    = c.continuation;
    periodic::check_continuation(cc, model);
    auto flow = make_flow(c, model);
    io::OutputFolder out(output_directory(options, c.description), "continue");

    std::vector<periodic::Branch> branches;
    std::vector<double>           linear_frequencies;
    const auto                    start = std::chrono::steady_clock::now();
    const std::vector<double> families =
      cc.kind == periodic::OrbitKind::forced || cc.start == periodic::StartKind::simulation ? std::vector<double>{1}
                                                                                          : cc.families;
    for (const double family : families)
      {
        periodic::ContinuationSettings settings = cc.settings;
        std::string                    label    = "forced response";
        if (cc.kind == periodic::OrbitKind::free)
          {
            settings.mode = static_cast<unsigned int>(family);
            if (cc.start == periodic::StartKind::simulation)
              label = "family from the simulated orbit";
            label         = "family of mode " + std::to_string(settings.mode);
            linear_frequencies.push_back(2 * M_PI / flow->linear_period(settings.mode));
            if (!std::isfinite(settings.max_energy))
              settings.max_energy = cc.max_energy_factor * flow->grazing_energy(settings.mode);
          }
        io::ProgressBar bar(label, settings.max_points, options.quiet);
        const auto      progress = [&](const periodic::BranchPoint &, unsigned int k) { bar.update(k + 1); };
        periodic::Branch branch;
        try
          {
            if (cc.kind == periodic::OrbitKind::forced)
              branch = periodic::continue_forced_response(*flow, settings, {}, progress);
            else if (cc.start == periodic::StartKind::simulation)
              {
                const auto start = flow->simulated_orbit(cc.simulation_time);
                if (!start)
                  throw integrators::NumericalFailure(
                    "the simulation of the initial state shows no recurring impact pattern after " +
                    std::to_string(cc.simulation_time) + " (Continuation/Simulation time)");
                if (!std::isfinite(cc.settings.max_energy))
                  settings.max_energy = 100 * flow->energy(start->first);
                branch = periodic::continue_free_family(*flow, settings, start->first, start->second, progress);
              }
            else
              branch = periodic::continue_free_family(*flow, settings, progress);
          }
        catch (const std::invalid_argument &e)
          {
            throw io::InputError(c.filename, "Continuation/Families", e.what());
          }
        bar.finish();
        if (cc.kind == periodic::OrbitKind::free)
          branch.family = cc.start == periodic::StartKind::simulation ? "simulated" : "mode " + std::to_string(settings.mode);
        branches.push_back(branch);
      }
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
                         "max_penetration", "grazing_gap", "restarted"};
    for (const auto &probe : model.probes)
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
                           p.min_impact_velocity, p.max_penetration, p.grazing_gap, double(p.restarted)};
          if (!model.probes.empty())
            {
              const auto samples = flow->sample(p.state, p.period, 360);
              for (const auto &probe : model.probes)
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
          write_orbit(*flow, model, branches[b].points[std::size_t(k)],
                      "orbit_" + std::to_string(b) + "_" + std::to_string(unsigned(k)), out, cc.orbit_samples);
    plot_frequency_energy(out, branches, linear_frequencies, cc.kind == periodic::OrbitKind::forced);
    out.commit();

    if (!options.quiet)
      std::printf("%s: %s map, %u unknowns, %.3g s\n", model.name.c_str(), flow->name().c_str(),
                  unsigned(flow->dimension()), wall);
    for (const auto &branch : branches)
      {
        if (branch.failed)
          std::fprintf(stderr, "vibroimpact: warning: %s stopped after %zu points: %s\n", branch.family.c_str(),
                       branch.points.size(), branch.stop_reason.c_str());
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
