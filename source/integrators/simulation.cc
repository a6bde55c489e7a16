#include <vibroimpact/integrators/energy_ledger.h>
#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/integrators/simulation.h>
#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/io/progress_bar.h>
#include <vibroimpact/io/vtk_writer.h>

#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>
#include <sstream>

namespace vibroimpact::integrators
{
  std::vector<std::string> history_columns(const model::StructuralModel &model)
    {
      std::vector<std::string> columns{"time", "kinetic_energy", "potential_energy", "total_energy",
                                       "external_work", "damping_dissipation", "impact_dissipation",
                                       "numerical_dissipation", "correction_beta", "correction_work",
                                       "balance_error"};
      for (const auto &c : model.contacts)
        {
          columns.push_back("gap_" + c.name);
          columns.push_back("impulse_" + c.name);
        }
      for (const auto &p : model.probes)
        columns.push_back("u_" + p.name);
      for (const auto &p : model.probes)
        columns.push_back("v_" + p.name);
      return columns;
    }

  SimulationSummary run_simulation(const model::StructuralModel &model,
                                   const IntegratorSettings     &settings,
                                   const std::filesystem::path  &output_dir,
                                   const bool                    quiet,
                                   const StepObserver           &observer)
  {
    const auto start = std::chrono::steady_clock::now();
    const MoreauJean osi(model, settings);
    State            state = osi.initial_state();
    EnergyLedger     ledger(osi.kinetic_energy(state.v), osi.potential_energy(state.u));

    const double h       = settings.time_step;
    const auto   n_steps = static_cast<unsigned long>(std::ceil(settings.final_time / h - 1e-9));
    const auto   n_contacts = model.contacts.size();

    io::CsvWriter history(output_dir / "history.csv", history_columns(model));
    std::unique_ptr<io::VtkSeries> frames;
    if (settings.frames_every > 0)
      frames = std::make_unique<io::VtkSeries>(output_dir, "solution", model.geometry);

    Vector impulse = Vector::Zero(n_contacts);           // of the last step (VTK frames)
    Vector impulse_since_row = Vector::Zero(n_contacts); // history.csv: every impulse counted once
    double beta    = 0.0;
    const auto write_row = [&]() {
      std::vector<double> row{state.t, ledger.kinetic(), ledger.potential(), ledger.total(),
                              ledger.external_work(), ledger.damping_dissipation(),
                              ledger.impact_dissipation(), ledger.numerical_dissipation(), beta,
                              ledger.correction_work(), ledger.balance_error()};
      for (std::size_t i = 0; i < n_contacts; ++i)
        {
          row.push_back(model.contacts[i].gap0 + model.contacts[i].row.dot(state.u));
          row.push_back(impulse_since_row[i]);
        }
      impulse_since_row.setZero();
      for (const auto &p : model.probes)
        row.push_back(p.row.dot(state.u));
      for (const auto &p : model.probes)
        row.push_back(p.row.dot(state.v));
      history.write_row(row);
    };
    const auto write_frame = [&]() {
      if (frames)
        frames->write_frame(state.t, {{"displacement", state.u}, {"velocity", state.v}},
                            {{"contact_impulse", impulse}});
    };

    SimulationSummary summary;
    summary.initial_energy = ledger.total();
    write_row();
    write_frame();

    io::ProgressBar   progress("simulate", settings.final_time, quiet);
    std::vector<bool> closed(n_contacts, false);
    for (unsigned long k = 1; k <= n_steps; ++k)
      {
        const auto report = osi.step(state);
        if (report.lcp_solved)
          {
            ++summary.lcp_solves;
            if (report.lcp_failed)
              {
                ++summary.lcp_failures;
                std::ostringstream message;
                message << "step " << k << " (t = " << state.t << "): " << report.lcp_message;
                throw NumericalFailure(message.str());
              }
            if (report.lcp_attempts > 1)
              {
                ++summary.lcp_fallbacks;
                std::cerr << "warning: step " << k << " (t = " << state.t << "): " << report.lcp_message
                          << "accepted with error " << report.lcp_error << "\n";
              }
          }
        bool sticking = false;
        for (std::size_t i = 0; i < n_contacts; ++i)
          {
            const bool now = report.impulse[i] > 0;
            summary.impacts += (now && !closed[i]);
            sticking = sticking || (now && closed[i]);
            closed[i] = now;
          }
        summary.sticking_time += sticking ? h : 0.0;
        if (report.corrected)
          {
            ++summary.corrections;
            summary.largest_beta = std::max(summary.largest_beta, std::abs(report.energy.correction_beta));
          }
        ledger.record(report.energy, osi.kinetic_energy(state.v), osi.potential_energy(state.u));
        if (observer)
          observer(state, report);
        impulse = report.impulse;
        impulse_since_row += report.impulse;
        state.t = k * h; // not a sum of k rounded steps
        beta    = report.energy.correction_beta;
        // Every step with a correction gets its row, so that every beta is in history.csv.
        if (k % settings.output_every == 0 || k == n_steps || report.corrected)
          write_row();
        if (frames && (k % settings.frames_every == 0 || k == n_steps))
          write_frame();
        progress.update(state.t);
      }
    progress.finish();
    if (frames)
      {
        frames->write_record();
        summary.frames = frames->n_frames();
      }

    summary.steps                  = n_steps;
    summary.final_energy           = ledger.total();
    summary.balance_error          = ledger.balance_error();
    summary.relative_balance_error = ledger.relative_balance_error();
    summary.wall_time =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    summary.steps_per_second = summary.wall_time > 0 ? n_steps / summary.wall_time : 0.0;
    return summary;
  }

  void print_summary(std::ostream &out, const SimulationSummary &s)
  {
    const bool stepper = s.method == "moreau-jean";
    out << (stepper ? "steps                  " : "ODE steps              ") << s.steps << "\n"
        << "impacts                " << s.impacts << "\n"
        << "sticking time          " << s.sticking_time << "\n";
    if (stepper)
      out << "LCP solves             " << s.lcp_solves << " (fallbacks " << s.lcp_fallbacks
          << ", failures " << s.lcp_failures << ")\n"
          << "energy corrections     " << s.corrections << " (largest |beta| " << s.largest_beta << ")\n";
    out << "energy                 " << s.initial_energy << " -> " << s.final_energy << "\n"
        << "energy balance error   " << s.balance_error << " (relative " << s.relative_balance_error
        << ")\n";
    if (stepper)
      out << "VTK frames             " << s.frames << "\n";
    out << "wall time              " << s.wall_time << " s (" << s.steps_per_second
        << (stepper ? " steps/s)\n" : " ODE steps/s)\n");
  }
} // namespace vibroimpact::integrators
