// Mesh convergence of natural frequencies: the case is solved on successively bisected meshes
// and the frequency errors (against a closed form, or against the finest mesh) are tabulated
// with observed rates.
#pragma once

#include <vibroimpact/studies/convergence.h>
#include <vibroimpact/studies/exact_solutions.h>
#include <vibroimpact/structure/case_description.h>

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace vibroimpact::studies
{
  struct ModalConvergenceRow
  {
    unsigned int        n_elements = 0; // of all bodies
    unsigned int        n_dofs     = 0;
    std::vector<double> omegas;
    std::vector<double> relative_errors; // |omega - reference| / reference; NaN for rigid-body modes
  };

  struct ModalConvergence
  {
    std::vector<ModalConvergenceRow> rows;
    std::vector<double>              reference; // exact, or the finest mesh's
    bool                             exact_reference = false;
    // Rigid-body modes (ω = 0; computed to round-off, which grows under refinement): no relative
    // error or rate exists for them; the table leaves them out and says so.
    std::vector<unsigned int> rigid_body_modes; // 0-based
    double                    largest_rigid_body_omega = 0.0;

    // Observed rate of mode j between rows r-1 and r: log(e_{r-1}/e_r) / log(n_r / n_{r-1}).
    double observed_rate(unsigned int mode, unsigned int row) const;

    // deal.II ConvergenceTable text, rates included.
    void write_table(std::ostream &out) const;

    // One line per mode whose error grows under refinement after it had fallen (round-off).
    std::vector<std::string> round_off_warnings() const;
  };

  ModalConvergence run_modal_convergence(const structure::CaseDescription         &description,
                                         const ConvergenceSettings                &settings,
                                         const std::function<void(unsigned int)> &on_cycle = {});
} // namespace vibroimpact::studies
