// A StructuralModel in the coordinates of its first N mass-normalised modes, u = Φ q: what the
// modal solvers (modal CoR, and the modal Udwadia–Kalaba and penalty solvers to come) share.
//
//   q'' + D q' + Ω² q = Φᵀ f(t) + Bᵀ λ,   B = H Φ (one row per contact),
//
// with D = diag(2 ζ_j ω_j) from given modal damping ratios (the model's C is not used: a modal
// method damps its modes), the initial modal state q0 = Φᵀ M u0, q̇0 = Φᵀ M v0, and the probe rows
// Φ-projected so that probes are read in modal coordinates.
#pragma once

#include <vibroimpact/model/structural_model.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace vibroimpact::integrators
{
  // Where the modes come from: the eigensolver on the model's M and K, or the closed form of
  // model.exact_modes (e.g. √2 sin jπx, ω_j = (jπ)² for the unit pinned–pinned beam).
  enum class ModeSource
  {
    finite_element,
    exact
  };

  class ModalProjection
  {
  public:
    // n_modes = 0: every mode of the model. damping_ratios: ζ_1, ζ_2, ...; the last repeats;
    // empty: undamped. Throws std::invalid_argument when the model has fewer DoFs than modes, or
    // has no closed-form modes and ModeSource::exact is asked for.
    ModalProjection(const model::StructuralModel &model, unsigned int n_modes,
                    const std::vector<double> &damping_ratios,
                    ModeSource                 source = ModeSource::finite_element);

    Eigen::Index size() const { return omegas_.size(); }

    const Eigen::VectorXd &omegas() const { return omegas_; }
    const Eigen::VectorXd &damping() const { return damping_; } // 2 ζ_j ω_j
    const Eigen::MatrixXd &shapes() const { return shapes_; }   // Φ, n × N
    const Eigen::MatrixXd &contact_rows() const { return contact_rows_; } // B = H Φ
    const Eigen::VectorXd &gap0() const { return gap0_; }
    const Eigen::MatrixXd &probe_rows() const { return probe_rows_; }
    const Eigen::VectorXd &initial_displacement() const { return q0_; }
    const Eigen::VectorXd &initial_velocity() const { return v0_; }
    const std::string     &eigensolver() const { return method_; }

    // Φᵀ f(t).
    Eigen::VectorXd load(double t) const;
    // Ω² q + D q' subtracted from the load: the acceleration without contact forces.
    Eigen::VectorXd free_acceleration(const Eigen::Ref<const Eigen::VectorXd> &q,
                                      const Eigen::Ref<const Eigen::VectorXd> &v, double t) const;

    double gap(unsigned int contact, const Eigen::Ref<const Eigen::VectorXd> &q) const
    {
      return gap0_[contact] + contact_rows_.row(contact).dot(q);
    }

    // ½ q̇ᵀq̇ and ½ Σ ω_j² q_j².
    double kinetic_energy(const Eigen::Ref<const Eigen::VectorXd> &v) const { return 0.5 * v.squaredNorm(); }
    double potential_energy(const Eigen::Ref<const Eigen::VectorXd> &q) const
    {
      return 0.5 * omegas_.cwiseAbs2().dot(q.cwiseAbs2());
    }

    // k per contact: 0 for a rigid stop, > 0 for an elastic one (model::Contact::stiffness).
    const Eigen::VectorXd &contact_stiffness() const { return stiffness_; }
    // Σ ½ k_i min(g_i, 0)² of the elastic contacts: the energy stored in the obstacles.
    double spring_energy(const Eigen::Ref<const Eigen::VectorXd> &q) const
    {
      double energy = 0.0;
      for (Eigen::Index i = 0; i < stiffness_.size(); ++i)
        if (stiffness_[i] > 0)
          energy += 0.5 * stiffness_[i] * std::pow(std::min(gap(static_cast<unsigned int>(i), q), 0.0), 2);
      return energy;
    }

    bool undamped() const { return damping_.isZero(0.0); }
    bool unforced() const { return load_shapes_.empty(); }

  private:
    Eigen::VectorXd                  omegas_, damping_;
    Eigen::MatrixXd                  shapes_, contact_rows_, probe_rows_;
    Eigen::VectorXd                  gap0_, stiffness_, q0_, v0_;
    std::vector<Eigen::VectorXd>     load_shapes_; // Φᵀ s_k
    std::vector<model::TimeFunction> load_times_;
    std::string                      method_;
  };

  // What a modal integrator (modal-cor, modal-uk, modal-penalty) is made of, once per model: its
  // settings and the projection on the modes they ask for (n_modes, damping_ratios,
  // mode_source); its run() may then be called many times.
  template <typename Settings>
  class ModalIntegrator
  {
  public:
    const Settings        &settings() const { return settings_; }
    const ModalProjection &projection() const { return projection_; }

  protected:
    ModalIntegrator(const model::StructuralModel &model, Settings settings)
      : settings_(std::move(settings))
      , projection_(model, settings_.n_modes, settings_.damping_ratios, settings_.mode_source)
    {}

    Settings        settings_;
    ModalProjection projection_;
  };
} // namespace vibroimpact::integrators
