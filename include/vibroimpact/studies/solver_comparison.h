// One case through several runs — each a registered solver with its own parameter overrides
// (the same solver twice with different settings counts) — and what differs from a reference
// run: impact times, impulse per impact, contact gaps and energy over a window.
#pragma once

#include <vibroimpact/integrators/response_history.h>
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/io/csv_table.h>

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace vibroimpact::io
{
  class ParameterSection;
}

namespace vibroimpact::studies
{
  // A named run of the case (the "Run <name>" family): a solver and the overrides, in the -s
  // syntax 'Section/Entry=value', applied to the case file for this run only.
  struct RunDefinition
  {
    std::string              name;
    std::string              solver = integrators::SolverRegistry::default_name();
    std::vector<std::string> overrides;
  };

  void bind_run_definition(io::ParameterSection &section, RunDefinition &run, const std::string &name,
                           const std::vector<std::string> &solvers);

  struct ComparisonSettings
  {
    std::string  reference;           // the name of a run
    double       window_start = 0.0;
    double       window_end   = 0.0;  // 0: the final time
    // Impacts matched one to one, per contact, from the window's start. Vibro-impact responses
    // are sensitive to small differences: late impacts drift apart whatever the accuracy.
    unsigned int max_impacts = 12;
  };

  void bind_comparison_parameters(io::ParameterSection &section, ComparisonSettings &settings);

  struct Difference
  {
    double       max   = 0.0;
    double       rms   = 0.0;
    unsigned int count = 0;
    void         add(double value);
    void         finish();
  };

  struct ComparisonReport
  {
    std::string               reference, candidate;
    double                    window_start = 0.0, window_end = 0.0;
    std::vector<unsigned int> reference_impacts, candidate_impacts; // per contact, in the window
    Difference                impact_time;     // |t_candidate - t_reference|
    Difference                impact_impulse;  // |p_candidate - p_reference| / p_reference
    Difference                gap;             // |g_candidate - g_reference| at the reference's rows
    Difference                energy;          // |E_candidate - E_reference| / energy_scale
    // E_reference(0), or, for a run that starts at rest (E0 = 0), the largest |E_reference| in
    // the window; energy_scale_name says which.
    double      energy_scale      = 1.0;
    std::string energy_scale_name = "E0";
    struct Match
    {
      unsigned int contact;
      double       reference_time, candidate_time, reference_impulse, candidate_impulse;
    };
    std::vector<Match> matches;
  };

  ComparisonReport compare_responses(const std::string &reference_name, const integrators::ResponseHistory &reference,
                                     const std::string &candidate_name, const integrators::ResponseHistory &candidate,
                                     const ComparisonSettings &settings, double final_time);

  void write_report(std::ostream &out, const ComparisonReport &report);
  // impacts_<candidate>.csv: contact, time_<reference>, time_<candidate>, impulse_<reference>,
  // impulse_<candidate> (one row a matched impact).
  io::CsvTable matches_table(const ComparisonReport &report);

  // overlay_<column>.png in folder: that column of every run's <run>/history.csv against time.
  void plot_overlay(const std::filesystem::path &folder, const std::vector<std::string> &runs,
                    const std::string &column, const std::string &title);
} // namespace vibroimpact::studies
