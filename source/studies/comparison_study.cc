// The comparison study (see the header): the case's runs, their differences and their files.
#include <vibroimpact/integrators/run_bounds.h>
#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/write_error.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/comparison_study.h>

#include <filesystem>
#include <sstream>

namespace vibroimpact::studies
{
  ComparisonSetup prepare_comparison(const CaseFile &c, const bool quiet)
  {
    if (c.runs.size() < 2)
      throw io::InputError(c.filename, "Run <name>",
                           "compare needs at least two runs (subsection Run <name> with Solver and Overrides), the "
                           "file has " + std::to_string(c.runs.size()));
    ComparisonSetup setup;
    setup.reference        = c.comparison.reference.empty() ? c.runs.front().name : c.comparison.reference;
    setup.settings         = c.comparison;
    setup.statistics_start = c.statistics_start;
    setup.psd_segment      = c.psd_segment;
    // Every run's case is read and checked before anything runs: bad input fails early.
    for (const auto &run : c.runs)
      {
        CaseFile rc  = read_run(c, run);
        auto   model = structure::build_model(rc.description);
        rc.run.quiet = quiet;
        integrators::check_run(rc.solver(), model, rc.run, rc.filename);
        setup.runs.push_back({run.name, rc.solver_name, std::move(model), rc.solver().clone(), rc.run});
      }
    return setup;
  }

  ComparisonResult run_comparison(ComparisonSetup setup,
                                  const std::function<void(const std::string &, const std::string &)> &on_run)
  {
    ComparisonResult result;
    for (auto &run : setup.runs)
      {
        if (on_run)
          on_run(run.name, run.solver_name);
        auto history = integrators::run_to_history(*run.solver, run.model, run.control);
        std::vector<SupportStatistics> statistics;
        if (!run.model.supports.empty())
          // The support statistics of every run, by one rule (studies/support_statistics.h).
          statistics = support_statistics(run.model, history, setup.statistics_start, setup.psd_segment);
        result.runs.push_back({run.name, run.solver_name, std::move(run.model), std::move(history), std::move(statistics)});
      }
    while (result.runs[result.reference].name != setup.reference)
      ++result.reference;
    const auto &reference = result.runs[result.reference];
    for (std::size_t k = 0; k < result.runs.size(); ++k)
      if (k != result.reference)
        result.reports.push_back(compare_responses(reference.name, reference.history, result.runs[k].name,
                                                   result.runs[k].history, setup.settings,
                                                   setup.runs[result.reference].control.final_time));
    return result;
  }

  namespace
  {
    void write_support_table(const ComparisonResult &result, io::OutputFolder &out)
    {
      std::unique_ptr<io::CsvWriter> table;
      for (const auto &run : result.runs)
        for (const auto &s : run.statistics)
          {
            if (!table)
              table = std::make_unique<io::CsvWriter>(
                out / "support_statistics.csv",
                std::vector<std::string>{"run", "solver", "support", "impacts", "impact_rate", "contact_fraction",
                                         "rms_force", "peak_force", "impact_work", "work_rate"});
            table->write_cells({run.name, run.solver_name, s.name, io::CsvWriter::format(double(s.impacts)),
                                io::CsvWriter::format(s.impact_rate), io::CsvWriter::format(s.contact_fraction),
                                io::CsvWriter::format(s.rms_force), io::CsvWriter::format(s.peak_force),
                                io::CsvWriter::format(s.impact_work), io::CsvWriter::format(s.work_rate)});
          }
    }
  } // namespace

  void write_comparison(const ComparisonResult &result, io::OutputFolder &out)
  {
    std::vector<std::string> names;
    for (const auto &run : result.runs)
      {
        const auto folder = out.staging() / run.name;
        std::filesystem::create_directories(folder);
        integrators::write_history_csv(folder / "history.csv", run.history);
        integrators::write_events_csv(folder / "events.csv", run.history);
        if (!run.model.supports.empty())
          write_support_statistics(folder, run.model, run.history, run.statistics, false);
        names.push_back(run.name);
      }
    write_support_table(result, out);
    std::ostringstream report;
    for (const auto &difference : result.reports)
      {
        write_report(report, difference);
        write_matches_csv(out / ("impacts_" + difference.candidate + ".csv"), difference);
      }
    io::write_file(out / "comparison.txt", report.str());
    for (const auto &contact : result.runs[result.reference].history.contact_names())
      plot_overlay(out.staging(), names, "gap_" + contact, "gap of contact " + contact);
    plot_overlay(out.staging(), names, "total_energy", "total energy");
  }
} // namespace vibroimpact::studies
