// Mesh convergence of natural frequencies (see studies/modal_convergence.h): bisected meshes,
// relative errors, observed rates in a deal.II ConvergenceTable.
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/model/modal_analysis.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/modal_convergence.h>

#include <deal.II/base/convergence_table.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <ostream>
#include <sstream>

namespace vibroimpact::studies
{
  double ModalConvergence::observed_rate(const unsigned int mode, const unsigned int row) const
  {
    const auto &coarse = rows.at(row - 1), &fine = rows.at(row);
    return std::log(coarse.relative_errors.at(mode) / fine.relative_errors.at(mode)) /
           std::log(static_cast<double>(fine.n_elements) / coarse.n_elements);
  }

  void ModalConvergence::write_table(std::ostream &out) const
  {
    const auto is_rigid = [this](const std::size_t j) {
      return std::find(rigid_body_modes.begin(), rigid_body_modes.end(), j) != rigid_body_modes.end();
    };
    dealii::ConvergenceTable table;
    for (const auto &row : rows)
      {
        if (row.relative_errors.empty())
          continue;
        table.add_value("elements", row.n_elements);
        table.add_value("dofs", row.n_dofs);
        for (std::size_t j = 0; j < row.relative_errors.size(); ++j)
          {
            if (is_rigid(j))
              continue;
            const std::string mode = std::to_string(j + 1);
            table.add_value("omega_" + mode, row.omegas[j]);
            table.add_value("error_" + mode, row.relative_errors[j]);
            table.set_precision("omega_" + mode, 10);
            table.set_scientific("error_" + mode, true);
            table.set_precision("error_" + mode, 3);
          }
      }
    if (rows.empty() || rows.front().relative_errors.empty())
      return;
    for (std::size_t j = 0; j < rows.front().relative_errors.size(); ++j)
      if (!is_rigid(j))
        table.evaluate_convergence_rates("error_" + std::to_string(j + 1), "elements",
                                         dealii::ConvergenceTable::reduction_rate_log2, 1);
    out << "# relative frequency errors against "
        << (exact_reference ? "the exact solution" : "the finest mesh") << "\n";
    if (!rigid_body_modes.empty())
      {
        out << "# rigid-body mode" << (rigid_body_modes.size() > 1 ? "s" : "");
        for (const auto j : rigid_body_modes)
          out << " " << j + 1;
        out << " (omega = 0; computed to round-off, at most " << largest_rigid_body_omega
            << " rad/s): no relative error, left out\n";
      }
    table.write_text(out, dealii::TableHandler::org_mode_table);
  }

  std::vector<std::string> ModalConvergence::round_off_warnings() const
  {
    // An error that grows under refinement after it fell: round-off has overtaken the
    // discretisation error there (the elements' error only falls).
    std::vector<std::string> warnings;
    if (rows.size() < 3)
      return warnings;
    for (std::size_t j = 0; j < rows.front().relative_errors.size(); ++j)
      {
        if (std::isnan(rows.front().relative_errors[j]))
          continue;
        for (unsigned int r = 2; r < rows.size(); ++r)
          if (observed_rate(j, r - 1) > 1 && observed_rate(j, r) < 0)
            {
              std::ostringstream line;
              line << "mode " << j + 1 << ": the error grew from " << rows[r - 1].n_elements << " to "
                   << rows[r].n_elements << " elements (" << rows[r - 1].relative_errors[j] << " -> "
                   << rows[r].relative_errors[j] << "): round-off dominates beyond " << rows[r - 1].n_elements
                   << " elements";
              warnings.push_back(line.str());
              break;
            }
      }
    return warnings;
  }

  ModalConvergence run_modal_convergence(const structure::CaseDescription         &description,
                                         const ConvergenceSettings                &settings,
                                         const std::function<void(unsigned int)> &on_cycle)
  {
    ModalConvergence result;
    const unsigned int n_modes = description.n_modes;
    result.reference = exact_frequencies(settings.exact, description, n_modes);
    result.exact_reference = !result.reference.empty();

    // After SIGINT/SIGTERM the meshes finished are kept (an eigensolve under way cannot stop: the
    // check is between meshes).
    for (unsigned int cycle = 0; cycle < settings.n_cycles && io::interrupt_signal() == 0; ++cycle)
      {
        structure::CaseDescription refined = description;
        for (auto &body : refined.bodies)
          body.refinements += cycle;
        const auto model = structure::build_model(refined);
        if (n_modes > model.n_dofs())
          throw io::InputError(description.filename, "Modes/Number of modes",
                               "the coarsest mesh of the study has only " + std::to_string(model.n_dofs()) +
                                 " DoFs, asked for " + std::to_string(n_modes) + " modes");
        const auto modes = model::compute_modes(model, n_modes);
        // A rigid-body mode is computed to round-off: ω² of the order of ε times the scale of
        // K against M (max K_ii / max M_ii, about the highest mode's ω²); 1000 ε leaves room for
        // the eigensolver and stays far below any elastic mode a mesh can resolve.
        const double omega_scale_squared =
          Eigen::VectorXd(model.stiffness.diagonal()).cwiseAbs().maxCoeff() /
          Eigen::VectorXd(model.mass.diagonal()).cwiseAbs().maxCoeff();
        const double largest = modes.omegas.size() > 0 ? modes.omegas.maxCoeff() : 0.0;
        for (Eigen::Index j = 0; j < modes.omegas.size(); ++j)
          if (modes.omegas[j] * modes.omegas[j] < 1e3 * std::numeric_limits<double>::epsilon() * omega_scale_squared &&
              modes.omegas[j] < 1e-4 * largest) // and far below an elastic mode: fine beams have ω₁² ≪ max K_ii/M_ii
            {
              const auto mode = static_cast<unsigned int>(j);
              if (std::find(result.rigid_body_modes.begin(), result.rigid_body_modes.end(), mode) ==
                  result.rigid_body_modes.end())
                result.rigid_body_modes.push_back(mode);
              result.largest_rigid_body_omega = std::max(result.largest_rigid_body_omega, std::abs(modes.omegas[j]));
            }
        ModalConvergenceRow row;
        row.n_elements = model.n_elements;
        row.n_dofs     = model.n_dofs();
        row.omegas.assign(modes.omegas.data(), modes.omegas.data() + modes.omegas.size());
        result.rows.push_back(row);
        if (on_cycle)
          on_cycle(cycle);
      }

    if (result.rows.empty())
      io::throw_if_interrupted("before the first mesh finished: nothing written");
    const bool interrupted = io::interrupt_signal() != 0;
    if (!result.exact_reference)
      {
        result.reference = result.rows.back().omegas;
        if (!interrupted)
          result.rows.pop_back(); // the reference itself has no error to report
      }
    for (auto &row : result.rows)
      for (std::size_t j = 0; j < row.omegas.size() && j < result.reference.size(); ++j)
        row.relative_errors.push_back(
          std::find(result.rigid_body_modes.begin(), result.rigid_body_modes.end(), j) != result.rigid_body_modes.end() ||
              (interrupted && !result.exact_reference && &row == &result.rows.back()) // kept reference: no error
            ? std::numeric_limits<double>::quiet_NaN()
            : std::abs(row.omegas[j] - result.reference[j]) / result.reference[j]);
    return result;
  }
} // namespace vibroimpact::studies
