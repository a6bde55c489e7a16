// The model in its first N mass-normalised modes (see integrators/modal_projection.h): Ω, the
// contact and probe rows in modal coordinates, the modal loads and initial state.
#include <vibroimpact/integrators/modal_projection.h>
#include <vibroimpact/model/modal_analysis.h>

#include <algorithm>
#include <stdexcept>

namespace vibroimpact::integrators
{
  ModalProjection::ModalProjection(const model::StructuralModel &model, const unsigned int n_modes,
                                   const std::vector<double> &damping_ratios, const ModeSource source)
  {
    const auto n = static_cast<unsigned int>(model.n_dofs());
    const unsigned int N = n_modes == 0 ? n : n_modes;
    if (N > n)
      throw std::invalid_argument("modal projection: " + std::to_string(N) + " modes asked of a model with " +
                                  std::to_string(n) + " DoFs");
    if (source == ModeSource::exact)
      {
        if (!model.exact_modes.available())
          throw std::invalid_argument("modal projection: the model has no closed-form modes");
        model.exact_modes.compute(N, omegas_, shapes_);
        method_ = "closed form (" + model.exact_modes.name + ")";
      }
    else
      {
        const model::ModalBasis basis = model::compute_modes(model, N);
        shapes_                       = basis.shapes;
        omegas_                       = basis.omegas;
        method_                       = basis.method;
      }

    damping_.resize(N);
    for (unsigned int j = 0; j < N; ++j)
      {
        const double zeta =
          damping_ratios.empty() ? 0.0 : damping_ratios[std::min<std::size_t>(j, damping_ratios.size() - 1)];
        damping_[j] = 2 * zeta * omegas_[j];
      }
    // The lumped dashpots (a flexible support's stops) on the modes: diag(Φᵀ C_d Φ). The
    // off-diagonal terms are dropped; they vanish for a stop's own modes (its dashpot is c_c/m_c
    // times its mass there), which are the modes a stop's dashpot acts on.
    if (model.dashpots.rows() == n && model.dashpots.nonZeros() > 0)
      for (unsigned int j = 0; j < N; ++j)
        damping_[j] += shapes_.col(j).dot(model.dashpots * shapes_.col(j));

    const std::size_t nc = model.contacts.size();
    contact_rows_.resize(nc, N);
    gap0_.resize(nc);
    stiffness_.resize(nc);
    for (std::size_t i = 0; i < nc; ++i)
      {
        contact_rows_.row(i) = (shapes_.transpose() * Eigen::VectorXd(model.contacts[i].row)).transpose();
        gap0_[i]             = model.contacts[i].gap0;
        stiffness_[i]        = model.contacts[i].stiffness;
      }
    probe_rows_.resize(model.probes.size(), N);
    for (std::size_t p = 0; p < model.probes.size(); ++p)
      probe_rows_.row(p) = (shapes_.transpose() * Eigen::VectorXd(model.probes[p].row)).transpose();
    for (const auto &load : model.loads)
      {
        load_shapes_.push_back(shapes_.transpose() * load.spatial);
        load_times_.push_back(load.time);
      }

    const Eigen::VectorXd u0 =
      model.initial_displacement.size() == n ? model.initial_displacement : Eigen::VectorXd::Zero(n);
    const Eigen::VectorXd v0 = model.initial_velocity.size() == n ? model.initial_velocity : Eigen::VectorXd::Zero(n);
    q0_ = shapes_.transpose() * (model.mass * u0);
    v0_ = shapes_.transpose() * (model.mass * v0);
  }

  Eigen::VectorXd ModalProjection::load(const double t) const
  {
    Eigen::VectorXd f = Eigen::VectorXd::Zero(size());
    for (std::size_t k = 0; k < load_shapes_.size(); ++k)
      f += load_shapes_[k] * load_times_[k].value(t);
    return f;
  }

  Eigen::VectorXd ModalProjection::free_acceleration(const Eigen::Ref<const Eigen::VectorXd> &q,
                                                     const Eigen::Ref<const Eigen::VectorXd> &v, const double t) const
  {
    return load(t) - damping_.cwiseProduct(v) - omegas_.cwiseAbs2().cwiseProduct(q);
  }
} // namespace vibroimpact::integrators
