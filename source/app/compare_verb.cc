// `vibroimpact compare case.prm`: every "Run <name>" of the case (a registered solver plus its
// own overrides) on the one model, each run's history.csv and events.csv in <output>/<run>/,
// the differences of every run from the reference run in comparison.txt and impacts_<run>.csv,
// and overlay plots of the contact gaps and the total energy of all runs; with clearance supports,
// every run's statistics.csv (and plots) in its folder and support_statistics.csv side by side.
#include <vibroimpact/integrators/run_bounds.h>
#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/io/write_error.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/solver_comparison.h>
#include <vibroimpact/studies/support_statistics.h>

#include "case_file.h"
#include "verbs.h"

#include <deque>
#include <sstream>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

namespace vibroimpact::app
{
  int run_compare(const CommonOptions &options)
  {
    const CaseFile c = read_case_file(options.case_file, options.overrides);
    if (c.runs.size() < 2)
      throw io::InputError(c.filename, "Run <name>",
                           "compare needs at least two runs (subsection Run <name> with Solver and Overrides), the "
                           "file has " + std::to_string(c.runs.size()));
    const std::string reference = c.comparison.reference.empty() ? c.runs.front().name : c.comparison.reference;

    // Every run's case is read and checked before anything runs: bad input fails early.
    struct Prepared
    {
      CaseFile               file;
      model::StructuralModel model;
    };
    std::deque<Prepared> prepared; // not a vector: CaseFile only moves, and vector would try to copy
    for (const auto &run : c.runs)
      {
        CaseFile rc    = read_run(c, run);
        auto     model = structure::build_model(rc.description);
        rc.run.quiet   = options.quiet;
        integrators::check_run(rc.solver(), model, rc.run, rc.filename);
        prepared.push_back(Prepared{std::move(rc), std::move(model)});
      }

    io::OutputFolder                          out(output_directory(options, c.description), "compare");
    std::vector<integrators::ResponseHistory> histories;
    std::vector<std::string>                  names;
    std::unique_ptr<io::CsvWriter>            support_table;
    for (std::size_t k = 0; k < c.runs.size(); ++k)
      {
        const auto &[rc, model] = prepared[k];
        if (!options.quiet)
          std::cout << "run " << c.runs[k].name << ": " << rc.solver_name << "\n";
        histories.push_back(integrators::run_to_history(rc.solver(), model, rc.run));
        const auto folder = out.staging() / c.runs[k].name;
        std::filesystem::create_directories(folder);
        integrators::write_history_csv(folder / "history.csv", histories.back());
        integrators::write_events_csv(folder / "events.csv", histories.back());
        for (const auto &warning : histories.back().summary.warnings)
          std::cerr << "warning: run " << c.runs[k].name << ": " << warning << "\n";
        names.push_back(c.runs[k].name);
        if (!model.supports.empty())
          {
            // The support statistics of every run, by one rule (studies/support_statistics.h).
            const auto statistics = studies::support_statistics(model, histories.back(), c.statistics_start, c.psd_segment);
            studies::write_support_statistics(folder, model, histories.back(), statistics, false);
            if (!support_table)
              support_table = std::make_unique<io::CsvWriter>(
                out / "support_statistics.csv",
                std::vector<std::string>{"run", "solver", "support", "impacts", "impact_rate", "contact_fraction",
                                         "rms_force", "peak_force", "impact_work", "work_rate"});
            for (const auto &s : statistics)
              support_table->write_cells({c.runs[k].name, rc.solver_name, s.name, io::CsvWriter::format(double(s.impacts)),
                                          io::CsvWriter::format(s.impact_rate), io::CsvWriter::format(s.contact_fraction),
                                          io::CsvWriter::format(s.rms_force), io::CsvWriter::format(s.peak_force),
                                          io::CsvWriter::format(s.impact_work), io::CsvWriter::format(s.work_rate)});
          }
      }
    support_table.reset();

    std::size_t r = 0;
    while (names[r] != reference)
      ++r;
    std::ostringstream report;
    for (std::size_t k = 0; k < names.size(); ++k)
      {
        if (k == r)
          continue;
        const auto difference = studies::compare_responses(names[r], histories[r], names[k], histories[k],
                                                           c.comparison, prepared[r].file.run.final_time);
        studies::write_report(report, difference);
        if (!options.quiet)
          studies::write_report(std::cout, difference);
        studies::write_matches_csv(out / ("impacts_" + names[k] + ".csv"), difference);
      }
    io::write_file(out / "comparison.txt", report.str());
    for (const auto &contact : histories[r].contact_names())
      studies::plot_overlay(out.staging(), names, "gap_" + contact, "gap of contact " + contact);
    studies::plot_overlay(out.staging(), names, "total_energy", "total energy");
    out.commit();
    return io::exit_success;
  }
} // namespace vibroimpact::app
