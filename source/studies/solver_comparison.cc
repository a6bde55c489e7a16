#include <vibroimpact/integrators/simulation.h>
#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/io/parameter_file.h>
#include <vibroimpact/io/parameter_section.h>
#include <vibroimpact/studies/solver_comparison.h>

#include <deal.II/base/parameter_handler.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>

namespace vibroimpact::studies
{
  void declare_comparison_parameters(io::ParameterFile &file)
  {
    using namespace dealii::Patterns;
    auto &prm = file.handler();
    prm.enter_subsection("Compare");
    prm.declare_entry("Solvers", "moreau-jean, modal-cor", Anything(),
                      "The solvers `vibroimpact compare` runs: moreau-jean (the FE time stepper, "
                      "subsection Integrator) and modal-cor (subsection Modal restitution).");
    prm.declare_entry("Reference", "modal-cor", Anything(), "The solver the others are measured against.");
    prm.declare_entry("Window start", "0", Double(), "Start of the time window of the differences.");
    prm.declare_entry("Window end", "0", Double(), "End of the window; 0: Integrator/Final time.");
    prm.declare_entry("Impacts compared", "12", Integer(),
                      "Impacts matched one to one per contact from the window's start.");
    prm.leave_subsection();
  }

  ComparisonSettings parse_comparison_parameters(io::ParameterFile &file)
  {
    const io::ParameterSection section(file, "Compare");
    ComparisonSettings         s;
    s.solvers = io::split_list(section.text("Solvers"));
    for (const auto &solver : s.solvers)
      if (solver != "moreau-jean" && solver != "modal-cor")
        section.fail("Solvers", "unknown solver '" + solver + "' (moreau-jean, modal-cor)");
    if (s.solvers.size() < 2)
      section.fail("Solvers", "a comparison needs two solvers");
    s.reference = section.text("Reference");
    if (std::find(s.solvers.begin(), s.solvers.end(), s.reference) == s.solvers.end())
      section.fail("Reference", "'" + s.reference + "' is not one of the Solvers");
    s.window_start = section.non_negative("Window start");
    s.window_end   = section.non_negative("Window end");
    if (s.window_end != 0 && s.window_end <= s.window_start)
      section.fail("Window end", "must exceed Window start");
    s.max_impacts = section.count("Impacts compared", 1);
    return s;
  }

  ResponseRecord record_moreau_jean(const model::StructuralModel          &model,
                                    const integrators::IntegratorSettings &settings,
                                    const std::filesystem::path           &output_dir,
                                    const bool                             quiet)
  {
    ResponseRecord record;
    record.solver           = "moreau-jean";
    const auto n_contacts   = model.contacts.size();
    const auto gaps_of      = [&](const model::Vector &u) {
      std::vector<double> g(n_contacts);
      for (std::size_t c = 0; c < n_contacts; ++c)
        g[c] = model.contacts[c].gap0 + model.contacts[c].row.dot(u);
      return g;
    };
    const auto energy_of = [&](const integrators::State &s) {
      return model.kinetic_energy(s.v) + model.potential_energy(s.u);
    };
    record.times.push_back(0.0);
    record.gaps.push_back(gaps_of(model.initial_displacement));
    record.total_energy.push_back(model.kinetic_energy(model.initial_velocity) +
                                  model.potential_energy(model.initial_displacement));

    std::vector<double> gap_before = record.gaps.front();
    std::vector<int>    open(n_contacts, -1); // index of the impact being accumulated
    unsigned long       step = 0;
    const double        h    = settings.time_step;
    integrators::run_simulation(
      model, settings, output_dir, quiet,
      [&](const integrators::State &state, const integrators::StepReport &report) {
        ++step;
        const double t_start = state.t - h;
        for (std::size_t c = 0; c < n_contacts; ++c)
          {
            const double p = report.impulse[c];
            if (p > 0 && open[c] < 0)
              {
                const double approach = -report.velocity_before[c];
                const double delay =
                  approach > 0 ? std::clamp(gap_before[c] / approach, 0.0, h) : 0.0;
                open[c] = static_cast<int>(record.impacts.size());
                record.impacts.push_back({t_start + delay, static_cast<unsigned int>(c), 0.0});
              }
            if (p > 0)
              record.impacts[open[c]].impulse += p;
            else
              open[c] = -1;
            gap_before[c] = report.gap[c];
          }
        if (step % settings.output_every == 0)
          {
            record.times.push_back(state.t);
            record.gaps.push_back(gaps_of(state.u));
            record.total_energy.push_back(energy_of(state));
          }
      });
    return record;
  }

  ResponseRecord record_modal_restitution(const model::StructuralModel                &model,
                                          const integrators::ModalRestitutionSettings &settings,
                                          const std::filesystem::path                 &output_dir)
  {
    integrators::ModalRestitutionHistory history;
    integrators::run_modal_restitution_simulation(model, settings, output_dir, &history);
    ResponseRecord record;
    record.solver = "modal-cor";
    record.times  = history.times;
    record.gaps   = history.gaps;
    for (std::size_t k = 0; k < history.times.size(); ++k)
      record.total_energy.push_back(history.kinetic_energy[k] + history.potential_energy[k]);
    for (const auto &impact : history.impacts)
      record.impacts.push_back({impact.time, impact.contact, impact.impulse});
    return record;
  }

  void Difference::add(const double value)
  {
    max = std::max(max, std::abs(value));
    rms += value * value;
    ++count;
  }

  void Difference::finish()
  {
    rms = count > 0 ? std::sqrt(rms / count) : 0.0;
  }

  namespace
  {
    // Linear interpolation of a sampled series at t (clamped at the ends).
    double interpolate(const std::vector<double> &times, const std::vector<double> &values, const double t)
    {
      const auto   it = std::lower_bound(times.begin(), times.end(), t);
      if (it == times.begin())
        return values.front();
      if (it == times.end())
        return values.back();
      const auto   k = static_cast<std::size_t>(it - times.begin());
      const double w = (t - times[k - 1]) / (times[k] - times[k - 1]);
      return (1 - w) * values[k - 1] + w * values[k];
    }
  } // namespace

  ComparisonReport compare_responses(const ResponseRecord     &reference,
                                     const ResponseRecord     &candidate,
                                     const ComparisonSettings &settings,
                                     const double              final_time)
  {
    ComparisonReport report;
    report.reference    = reference.solver;
    report.candidate    = candidate.solver;
    report.window_start = settings.window_start;
    report.window_end   = settings.window_end > 0 ? settings.window_end : final_time;
    const auto in_window = [&](double t) { return t >= report.window_start && t <= report.window_end; };

    const std::size_t n_contacts = reference.gaps.empty() ? 0 : reference.gaps.front().size();
    report.reference_impacts.assign(n_contacts, 0);
    report.candidate_impacts.assign(n_contacts, 0);
    for (std::size_t c = 0; c < n_contacts; ++c)
      {
        std::vector<ImpactRecord> ref, cand;
        for (const auto &i : reference.impacts)
          if (i.contact == c && in_window(i.time))
            ref.push_back(i);
        for (const auto &i : candidate.impacts)
          if (i.contact == c && in_window(i.time))
            cand.push_back(i);
        report.reference_impacts[c] = ref.size();
        report.candidate_impacts[c] = cand.size();
        const std::size_t n = std::min({ref.size(), cand.size(), std::size_t(settings.max_impacts)});
        for (std::size_t k = 0; k < n; ++k)
          {
            report.matches.push_back({static_cast<unsigned int>(c), ref[k].time, cand[k].time, ref[k].impulse,
                                      cand[k].impulse});
            report.impact_time.add(cand[k].time - ref[k].time);
            if (ref[k].impulse > 0)
              report.impact_impulse.add((cand[k].impulse - ref[k].impulse) / ref[k].impulse);
          }
      }

    const double energy_scale = std::abs(reference.total_energy.front()) > 0 ? std::abs(reference.total_energy.front()) : 1.0;
    for (std::size_t c = 0; c < n_contacts; ++c)
      {
        std::vector<double> candidate_gap(candidate.times.size());
        for (std::size_t k = 0; k < candidate.times.size(); ++k)
          candidate_gap[k] = candidate.gaps[k][c];
        for (std::size_t k = 0; k < reference.times.size(); ++k)
          if (in_window(reference.times[k]))
            report.gap.add(interpolate(candidate.times, candidate_gap, reference.times[k]) - reference.gaps[k][c]);
      }
    for (std::size_t k = 0; k < reference.times.size(); ++k)
      if (in_window(reference.times[k]))
        report.energy.add((interpolate(candidate.times, candidate.total_energy, reference.times[k]) -
                           reference.total_energy[k]) /
                          energy_scale);
    report.impact_time.finish();
    report.impact_impulse.finish();
    report.gap.finish();
    report.energy.finish();
    return report;
  }

  void write_report(std::ostream &out, const ComparisonReport &r)
  {
    out << "comparison of " << r.candidate << " against " << r.reference << " over t in [" << r.window_start
        << ", " << r.window_end << "]\n";
    for (std::size_t c = 0; c < r.reference_impacts.size(); ++c)
      out << "  contact " << c << ": " << r.reference_impacts[c] << " impacts (" << r.reference << "), "
          << r.candidate_impacts[c] << " (" << r.candidate << ")\n";
    const auto line = [&](const char *what, const Difference &d) {
      out << "  " << std::left << std::setw(34) << what << std::right << " max " << std::setw(12)
          << std::setprecision(4) << d.max << "  rms " << std::setw(12) << d.rms << "  over " << d.count << "\n";
    };
    line("impact time |dt|", r.impact_time);
    line("impulse per impact |dp|/p", r.impact_impulse);
    line("contact gap |dg|", r.gap);
    line("total energy |dE|/E0", r.energy);
  }

  void write_matches_csv(const std::filesystem::path &file, const ComparisonReport &r)
  {
    io::CsvWriter csv(file, {"contact", "time_" + r.reference, "time_" + r.candidate, "impulse_" + r.reference,
                             "impulse_" + r.candidate});
    for (const auto &m : r.matches)
      csv.write_row({double(m.contact), m.reference_time, m.candidate_time, m.reference_impulse,
                     m.candidate_impulse});
  }
} // namespace vibroimpact::studies
