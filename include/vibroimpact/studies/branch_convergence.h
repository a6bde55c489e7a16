// Mesh convergence of a nonsmooth mode (`vibroimpact converge` with Convergence/Study = branch):
// the case's Continuation family traced on the case's mesh and on bisections of it
// (Convergence/Refinement cycles, the meshes the other convergence studies use), then each branch
// interpolated at fixed energies (cubic in ln E on neighbouring backbone points) for its frequency
// and its orbit's contact fraction (the part of the period a contact is closed, summed over the
// contacts: 0 for orbits of instantaneous impacts), measured against a closed form
// (Convergence/Exact solution = fixed-free rod: the continuum's first nonsmooth mode) or the finest
// mesh, with observed rates log2(e_coarse / e_fine).
//
// Tongue points (a label in branch.csv's `tongue` column, periodic/tongues.h) are never used to
// interpolate: an energy that only a tongue covers on some mesh is reported as such ("tongue"),
// and one the branch does not reach as "outside". Where a branch covers an energy twice (after a
// tongue that comes back) the first backbone stretch along the branch is used.
#pragma once

#include <vibroimpact/integrators/moreau_jean_settings.h>
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/io/csv_table.h>
#include <vibroimpact/periodic/closed_forms.h>
#include <vibroimpact/periodic/continuation_parameters.h>
#include <vibroimpact/structure/case_description.h>
#include <vibroimpact/studies/convergence.h>

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vibroimpact::studies
{
  // One mesh's branch (the first family of the case), as the study keeps it.
  struct MeshBranch
  {
    unsigned int             cycle = 0, n_elements = 0;
    unsigned int             n_modes   = 0; // coordinates of the period map (modes kept)
    double                   wall_time = 0; // set-up and continuation, seconds
    std::vector<double>      energy, frequency;
    std::vector<std::string> tongue;        // per point; empty: on the backbone
    std::string              stop_reason;   // why the continuation ended (a failure's message)
    bool                     failed = false;
  };

  // Where a fixed energy falls on one mesh's branch.
  enum class EnergyCover
  {
    backbone, // between two neighbouring backbone points: interpolated
    tongue,   // only between points of which one is on a tongue
    outside   // the branch does not reach it
  };

  struct BranchValue
  {
    EnergyCover cover            = EnergyCover::outside;
    double      frequency        = 0; // NaN unless on the backbone
    double      contact_fraction = 0;
    double      frequency_error  = 0; // |ω/ω_ref − 1|; NaN without a value or reference
    double      contact_error    = 0; // |f − f_ref|
  };

  struct BranchConvergence
  {
    std::vector<double>                   energies;
    std::string                           reference; // "the closed form ...", "the finest mesh (N elements)"
    bool                                  finest_is_reference = false;
    std::vector<double>                   reference_frequency, reference_contact_fraction; // per energy
    std::vector<MeshBranch>               meshes;
    std::vector<std::vector<BranchValue>> values; // [energy][mesh]
    std::optional<periodic::Rod>          closed_form; // Exact solution = fixed-free rod

    // log2(e_{m−1} / e_m) of the frequency (contact = false) or the contact fraction at energy e.
    double observed_rate(unsigned int energy, unsigned int mesh, bool contact) const;
    // The order p from the three finest meshes' values, log2(|v_{n−3} − v_{n−2}| / |v_{n−2} − v_{n−1}|)
    // (NaN with fewer meshes or a value missing). Against the finest mesh the observed rates are
    // biased: with errors C h^p, the last one is log2(2^p + 1) (4.09 for p = 4); this one is not.
    double richardson_order(unsigned int energy, bool contact) const;
    // Against the closed form: the largest |ω/ω_ref − 1| over mesh's backbone points whose energy
    // lies within the tabulated energies' range, and how many points that is (NaN, 0: none).
    std::pair<double, unsigned int> largest_frequency_error(std::size_t mesh) const;
    // Per energy a deal.II ConvergenceTable (meshes as rows, the reference mesh left out), and
    // the meshes' branches (points, tongue points, energy range, stop reason).
    void write_table(std::ostream &out) const;
    // convergence.csv: one row per energy and mesh, with the rates and the energy's Richardson orders.
    io::CsvTable table() const;
    // branches.csv: every mesh's branch points (energy, frequency, tongue; the closed form's
    // frequency at the point's energy where there is one).
    io::CsvTable branches_table() const;
    // branches.png (the branches over each other, tongues as crosses, the closed form, the
    // energies) and convergence.png (errors against the elements); reads the two CSVs in folder.
    void plot(const std::filesystem::path &folder) const;
  };

  // Traces the continuation of `continuation` on each mesh (cycle k: every body bisected k more
  // times) with the Moreau-Jean solver's settings the flow maps share, and compares the branches.
  // `exact`: ExactSolution::fixed_free_rod or none. on_cycle(k) after mesh k. A mesh whose
  // continuation fails numerically keeps an empty branch with the reason.
  BranchConvergence run_branch_convergence(const structure::CaseDescription        &description,
                                           const periodic::ContinuationCase        &continuation,
                                           const integrators::MoreauJeanSettings   &moreau_jean,
                                           const ConvergenceSettings               &settings,
                                           const std::function<void(unsigned int)> &on_cycle = {});

  // The value of a branch at energy E, from neighbouring backbone points (exposed for the tests):
  // contact_fraction(k) gives point k's contact fraction (evaluated only where needed).
  BranchValue interpolate_branch(const MeshBranch &branch, double energy,
                                 const std::function<double(std::size_t)> &contact_fraction);
} // namespace vibroimpact::studies
