// The modal CoR reference written as the time stepper writes: the same history.csv columns, so
// that both are read by the same tools (compare, plots).
#include <vibroimpact/integrators/simulation.h>
#include <vibroimpact/io/csv_writer.h>

#include <chrono>
#include <cmath>
#include <limits>

namespace vibroimpact::integrators
{
  SimulationSummary run_modal_restitution_simulation(const model::StructuralModel   &model,
                                                     const ModalRestitutionSettings &settings,
                                                     const std::filesystem::path    &output_dir,
                                                     ModalRestitutionHistory        *history_out)
  {
    const auto             start = std::chrono::steady_clock::now();
    const ModalRestitution solver(model, settings);
    const auto             history = solver.run();

    // Without loads or damping the ledger closes: E - E0 + impact dissipation = 0.
    const bool conservative = model.loads.empty() && settings.damping_ratios.empty();
    const double nan        = std::numeric_limits<double>::quiet_NaN();
    const auto   n_contacts = model.contacts.size();
    const double e0         = history.kinetic_energy.front() + history.potential_energy.front();

    io::CsvWriter csv(output_dir / "history.csv", history_columns(model));
    std::size_t   next_impact = 0;
    for (std::size_t k = 0; k < history.times.size(); ++k)
      {
        const double t      = history.times[k];
        const double t_prev = k > 0 ? history.times[k - 1] : t;
        std::vector<double> impulse(n_contacts, 0.0);
        for (; next_impact < history.impacts.size() && history.impacts[next_impact].time <= t; ++next_impact)
          impulse[history.impacts[next_impact].contact] += history.impacts[next_impact].impulse;
        for (std::size_t c = 0; c < n_contacts; ++c)
          impulse[c] += history.contact_force[k][c] * (t - t_prev);

        const double total = history.kinetic_energy[k] + history.potential_energy[k];
        std::vector<double> row{t,
                                history.kinetic_energy[k],
                                history.potential_energy[k],
                                total,
                                conservative ? 0.0 : nan,
                                conservative ? 0.0 : nan,
                                history.impact_dissipation[k],
                                0.0,
                                0.0,
                                0.0,
                                conservative ? total - e0 + history.impact_dissipation[k] : nan};
        for (std::size_t c = 0; c < n_contacts; ++c)
          {
            row.push_back(history.gaps[k][c]);
            row.push_back(impulse[c]);
          }
        for (const double u : history.probe_displacement[k])
          row.push_back(u);
        for (const double v : history.probe_velocity[k])
          row.push_back(v);
        csv.write_row(row);
      }

    SimulationSummary summary;
    summary.method         = "modal-cor";
    summary.steps          = history.ode_steps;
    summary.impacts        = history.impacts.size();
    for (const auto &phase : history.sticking)
      summary.sticking_time += phase.end - phase.start;
    summary.initial_energy = e0;
    summary.final_energy   = history.kinetic_energy.back() + history.potential_energy.back();
    summary.balance_error  = conservative ?
                               summary.final_energy - e0 + history.impact_dissipation.back() :
                               nan;
    summary.relative_balance_error = conservative && e0 > 0 ? summary.balance_error / e0 : nan;
    summary.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    summary.steps_per_second = summary.wall_time > 0 ? summary.steps / summary.wall_time : 0.0;
    if (history_out)
      *history_out = history;
    return summary;
  }
} // namespace vibroimpact::integrators
