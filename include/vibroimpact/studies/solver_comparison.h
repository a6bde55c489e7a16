// One case through two solvers — the Moreau–Jean FE time stepper and the modal CoR reference —
// and what differs: impact times, impulse per impact, contact gaps and energy over a window.
#pragma once

#include <vibroimpact/integrators/integrator_settings.h>
#include <vibroimpact/integrators/modal_restitution.h>
#include <vibroimpact/model/structural_model.h>

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace vibroimpact::io
{
  class ParameterFile;
}

namespace vibroimpact::studies
{
  struct ComparisonSettings
  {
    std::vector<std::string> solvers{"moreau-jean", "modal-cor"};
    std::string              reference    = "modal-cor";
    double                   window_start = 0.0;
    double                   window_end   = 0.0; // 0: the final time
    // Impacts matched one to one, per contact, from the window's start. Vibro-impact responses
    // are sensitive to small differences: late impacts drift apart whatever the accuracy.
    unsigned int max_impacts = 12;
  };

  void               declare_comparison_parameters(io::ParameterFile &file);
  ComparisonSettings parse_comparison_parameters(io::ParameterFile &file);

  struct ImpactRecord
  {
    double       time    = 0.0;
    unsigned int contact = 0;
    double       impulse = 0.0;
  };

  // What is compared of one solver's run.
  struct ResponseRecord
  {
    std::string                      solver;
    std::vector<double>              times;
    std::vector<std::vector<double>> gaps; // [row][contact]
    std::vector<double>              total_energy;
    std::vector<ImpactRecord>        impacts;
  };

  // Runs the solver, writes its history.csv into output_dir, and records what is compared.
  // Moreau–Jean impacts are contact episodes (consecutive steps with an impulse), their time the
  // step start plus the time to close the gap at the pre-impact velocity, their impulse the sum.
  ResponseRecord record_moreau_jean(const model::StructuralModel          &model,
                                    const integrators::IntegratorSettings &settings,
                                    const std::filesystem::path           &output_dir,
                                    bool                                   quiet);
  ResponseRecord record_modal_restitution(const model::StructuralModel                &model,
                                          const integrators::ModalRestitutionSettings &settings,
                                          const std::filesystem::path                 &output_dir);

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
    Difference                energy;          // |E_candidate - E_reference| / E_reference(0)
    struct Match
    {
      unsigned int contact;
      double       reference_time, candidate_time, reference_impulse, candidate_impulse;
    };
    std::vector<Match> matches;
  };

  ComparisonReport compare_responses(const ResponseRecord     &reference,
                                     const ResponseRecord     &candidate,
                                     const ComparisonSettings &settings,
                                     double                    final_time);

  void write_report(std::ostream &out, const ComparisonReport &report);
  void write_matches_csv(const std::filesystem::path &file, const ComparisonReport &report);
} // namespace vibroimpact::studies
