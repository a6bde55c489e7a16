// The comparison study (see the header): the case's runs, their differences and their files.
#include <vibroimpact/integrators/run_bounds.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/write_error.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/comparison_study.h>
#include <vibroimpact/studies/simulation_study.h>
#include <vibroimpact/studies/support_output.h>

#include "spatial_statistics.h"

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
        setup.runs.push_back(
          {run.name, rc.solver_name, std::move(model), rc.solver().clone(), rc.run, wear_inputs(rc.description)});
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
        if (!run.model.supports.empty() || !run.model.spatial_supports.empty())
          // The support statistics of every run, by one rule (studies/support_statistics.h).
          statistics =
            support_statistics(run.model, history, setup.statistics_start, setup.psd_segment, run.wear);
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

  std::vector<std::pair<std::string, io::CsvTable>> comparison_tables(const ComparisonResult &result)
  {
    using Kind = io::CsvTable::Column::Kind;
    std::vector<std::pair<std::string, io::CsvTable>> tables;
    io::CsvTable support;
    for (const char *name : {"run", "solver", "support"})
      support.add(name, Kind::text);
    // statistics.csv's columns (the one list, statistic_values) but the duration and the mean
    // force, which this table never had; those of supports in space where a run has them.
    bool in_space = false;
    for (const auto &run : result.runs)
      for (const auto &s : run.statistics)
        in_space = in_space || s.in_space;
    const auto kept = [](const std::string &name) { return name != "duration" && name != "mean_force"; };
    for (const auto &[name, value] : statistic_values(SupportStatistics{}, in_space))
      if (kept(name))
        support.add(name);
    for (const auto &run : result.runs)
      for (const auto &s : run.statistics)
        {
          support.columns[0].cells.push_back(run.name);
          support.columns[1].cells.push_back(run.solver_name);
          support.columns[2].cells.push_back(s.name);
          std::size_t column = 3;
          for (const auto &[name, value] : statistic_values(s, in_space))
            if (kept(name))
              support.columns[column++].numbers.push_back(value);
        }
    if (support.n_rows() > 0) // written with clearance supports only
      tables.emplace_back("support_statistics.csv", std::move(support));
    for (const auto &difference : result.reports)
      tables.emplace_back("impacts_" + difference.candidate + ".csv", matches_table(difference));
    return tables;
  }

  std::string comparison_text(const ComparisonResult &result)
  {
    std::ostringstream report;
    for (const auto &difference : result.reports)
      write_report(report, difference);
    return report.str();
  }

  void write_comparison(const ComparisonResult &result, io::OutputFolder &out)
  {
    std::vector<std::string> names;
    for (const auto &run : result.runs)
      {
        const auto folder = out.staging() / run.name;
        std::filesystem::create_directories(folder);
        write_history_csv(folder / "history.csv", run.history);
        io::write_csv_table(folder / "events.csv", integrators::events_table(run.history));
        if (!run.statistics.empty())
          write_support_statistics(folder, run.model, run.history, run.statistics, false);
        names.push_back(run.name);
      }
    for (const auto &[file, table] : comparison_tables(result))
      io::write_csv_table(out / file, table);
    io::write_file(out / "comparison.txt", comparison_text(result));
    for (const auto &contact : result.runs[result.reference].history.contact_names())
      plot_overlay(out.staging(), names, "gap_" + contact, "gap of contact " + contact);
    plot_overlay(out.staging(), names, "total_energy", "total energy");
  }
} // namespace vibroimpact::studies
