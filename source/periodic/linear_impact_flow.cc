// The event-driven period map of a linear structure (linear_impact_flow.h): the model in modal
// coordinates with its loads as extra states, and what the map offers beyond the flow itself
// (energy, sampled orbits, linear modes, grazing, start orbits, the modal state of a DoF state).
// The flow is in exponential_event_flow.cc and oscillator_flow.cc, each closed set's dynamics in
// closed_set_dynamics.cc, massless contact nodes in contact_condensation.cc.
#include <vibroimpact/periodic/continuation_parameters.h>
#include <vibroimpact/periodic/flow_map_registry.h>

#include "linear_impact_flow_implementation.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace vibroimpact::periodic
{
  LinearImpactFlow::Implementation::Implementation(const model::StructuralModel &model,
                                                   const LinearImpactFlowSettings &s)
    : settings(s)
    , condensation(s.massless_contact_nodes ? condense_contact_nodes(model, s.mode_source) : ContactCondensation{})
    , projection(s.massless_contact_nodes ? condensation.reduced : model, s.n_modes, s.damping_ratios, s.mode_source)
  {
    // Every contact's stiffness: the model's, or the one a start carried in stiffness sets.
    const auto stiffness = [&](const model::Contact &contact) {
      return s.contact_stiffness >= 0 ? s.contact_stiffness : contact.stiffness;
    };
    bool elastic = false;
    for (const auto &contact : model.contacts)
      elastic = elastic || stiffness(contact) > 0;
    compliant = s.massless_contact_nodes || elastic;
    for (const auto &contact : model.contacts)
      if (elastic && !(stiffness(contact) > 0))
        throw std::invalid_argument("Contact " + contact.name +
                                    "/Stiffness: the event-driven map takes contacts all rigid or all elastic, "
                                    "and this one is rigid beside elastic ones");
    init(s.massless_contact_nodes ? condensation.reduced : model);
    spring         = Vector::Zero(gap0.size());
    closure        = Vector::Ones(gap0.size());
    for (Eigen::Index i = 0; i < spring.size() && compliant; ++i)
      {
        const double k = stiffness(model.contacts[i]);
        if (!s.massless_contact_nodes)
          spring[i] = k;
        else if (k > 0) // the node's condensed stiffness κ in series with the obstacle's k
          {
            const double kappa = condensation.stiffness[i];
            spring[i]          = kappa * k / (kappa + k);
            closure[i]         = k / (kappa + k);
          }
        else
          spring[i] = condensation.stiffness[i];
      }
  }

  void LinearImpactFlow::Implementation::init(const model::StructuralModel &model)
  {
    const auto &s = settings;
    m     = projection.size();
    B     = projection.contact_rows();
    gap0  = projection.gap0();
    omega = projection.omegas();
    D     = projection.damping();
    mass_shapes = model.mass * projection.shapes();
    initial_displacement = model.initial_displacement;
    initial_velocity     = model.initial_velocity;
    restitution.resize(model.contacts.size());
    for (std::size_t i = 0; i < model.contacts.size(); ++i)
      restitution[i] = model.contacts[i].restitution;

    // Loads: constant ones add to the column of ξ0 = 1, harmonic ones to sin and cos.
    bool has_load = false;
    G = Matrix::Zero(m, 3);
    for (const auto &load : model.loads)
      {
        const Vector modal = projection.shapes().transpose() * load.spatial;
        if (load.time.kind == model::TimeFunction::Kind::constant)
          G.col(0) += load.time.amplitude * modal;
        else if (load.time.kind == model::TimeFunction::Kind::harmonic)
          {
            if (forcing_omega > 0 && std::abs(load.time.omega - forcing_omega) > 1e-12 * forcing_omega)
              throw std::invalid_argument("load '" + load.name +
                                          "': harmonic loads must share one forcing frequency");
            forcing_omega = load.time.omega;
            G.col(1) += load.time.amplitude * std::cos(load.time.phase) * modal;
            G.col(2) += load.time.amplitude * std::sin(load.time.phase) * modal;
          }
        else
          throw std::invalid_argument("load '" + load.name +
                                      "': periodic orbits need constant or harmonic loads");
        has_load = true;
      }
    // Unilateral springs need the constant state ξ0 = 1 for their gap0 term.
    n_forcing = has_load || compliant ? 3 : 0;
    harmonic  = forcing_omega > 0;
    nz        = 2 * m + n_forcing;

    // The correction's base direction on the DoFs (Moreau–Jean's rule), and each contact's DoFs,
    // where it is zeroed.
    const Eigen::Index n = model.n_dofs();
    correction_base      = Vector::Ones(n);
    if (s.correction_direction == integrators::CorrectionDirection::values)
      for (Eigen::Index j = 0; j < n && j < static_cast<Eigen::Index>(model.dof_kinds.size()); ++j)
        if (model.dof_kinds[j] == model::DofKind::slope)
          correction_base[j] = 0.0;
    contact_dofs.resize(model.contacts.size());
    for (std::size_t i = 0; i < model.contacts.size(); ++i)
      for (model::SparseRow::InnerIterator it(model.contacts[i].row); it; ++it)
        contact_dofs[i].push_back(it.index());
  }

  LinearImpactFlow::LinearImpactFlow(const model::StructuralModel &model, const LinearImpactFlowSettings &settings)
    : model_(model)
    , impl_(std::make_unique<Implementation>(model, settings))
  {}

  LinearImpactFlow::~LinearImpactFlow() = default;

  Eigen::Index LinearImpactFlow::dimension() const { return 2 * impl_->m; }

  FlowResult LinearImpactFlow::flow(const Vector &x0, const double period, const double alpha,
                                    const bool with_jacobian) const
  {
    return impl_->run(x0, period, alpha, with_jacobian, nullptr);
  }

  Vector LinearImpactFlow::vector_field(const Vector &x) const
  {
    const auto &I = *impl_;
    const Vector z    = I.initial_z(x);
    ClosedSet    closed(I.B.rows(), false);
    if (I.compliant)
      for (unsigned int i = 0; i < I.B.rows(); ++i)
        closed[i] = I.gap(i, z) < 0;
    return (I.make_mode(closed, 0.0).A * z).head(2 * I.m);
  }

  double LinearImpactFlow::energy(const Vector &x) const
  {
    const auto &I = *impl_;
    double      springs = 0.0; // ½ κ min(γ, 0)² of the elastic contacts or massless contact nodes
    if (I.compliant)
      for (unsigned int i = 0; i < I.B.rows(); ++i)
        springs += 0.5 * I.spring[i] * std::pow(std::min(I.projection.gap(i, x.head(I.m)), 0.0), 2);
    return I.projection.kinetic_energy(x.tail(I.m)) + I.projection.potential_energy(x.head(I.m)) + springs;
  }

  OrbitSamples LinearImpactFlow::sample(const Vector &x0, const double period, const unsigned int n_samples) const
  {
    const auto &I = *impl_;
    Implementation::Recorder recorder;
    for (unsigned int k = 0; k <= n_samples; ++k)
      recorder.times.push_back(period * k / n_samples);
    const FlowResult result = I.run(x0, period, 0.0, false, &recorder);
    OrbitSamples     samples;
    samples.time   = recorder.times;
    samples.events = result.events;
    for (const Vector &z : recorder.states)
      {
        const Vector u = I.projection.shapes() * z.head(I.m), v = I.projection.shapes() * z.segment(I.m, I.m);
        samples.energy.push_back(energy(z.head(2 * I.m)));
        if (!I.settings.massless_contact_nodes)
          {
            samples.displacement.push_back(u);
            samples.velocity.push_back(v);
            continue;
          }
        // Every DoF of the model: the massless nodes where statics puts them, on their stop
        // (at rest) while it is closed.
        const auto &c = I.condensation;
        Vector      u_full = Vector::Zero(c.n_full), v_full = Vector::Zero(c.n_full);
        for (std::size_t k = 0; k < c.kept.size(); ++k)
          u_full[c.kept[k]] = u[k], v_full[c.kept[k]] = v[k];
        for (std::size_t i = 0; i < c.node.size(); ++i)
          {
            const double free_u = c.recovery[i].dot(u), free_v = c.recovery[i].dot(v);
            u_full[c.node[i]]   = free_u;
            v_full[c.node[i]]   = free_v;
          }
        // A closed node takes back its closure share of the gap it would have (all of it on a
        // rigid stop, where it rests; k/(κ + k) on an elastic obstacle, the springs in series).
        for (std::size_t i = 0; i < c.node.size(); ++i)
          if (const double gap = I.gap(static_cast<unsigned int>(i), z); gap <= 0)
            {
              const double closing = I.B.row(static_cast<Eigen::Index>(i)).dot(z.segment(I.m, I.m));
              u_full[c.node[i]] -= I.closure[i] * gap / c.coefficient[i];
              v_full[c.node[i]] -= I.closure[i] * closing / c.coefficient[i];
            }
        samples.displacement.push_back(u_full);
        samples.velocity.push_back(v_full);
      }
    return samples;
  }

  double LinearImpactFlow::linear_period(const unsigned int mode) const
  {
    return 2 * M_PI / impl_->omega[mode - 1];
  }

  double LinearImpactFlow::grazing_energy(const unsigned int mode) const
  {
    const auto &I         = *impl_;
    double      amplitude = infinity;
    for (Eigen::Index i = 0; i < I.B.rows(); ++i)
      if (std::abs(I.B(i, mode - 1)) > 0)
        amplitude = std::min(amplitude, std::max(0.0, I.gap0[i]) / std::abs(I.B(i, mode - 1)));
    return 0.5 * std::pow(I.omega[mode - 1] * amplitude, 2);
  }

  Vector LinearImpactFlow::linear_mode_state(const unsigned int mode, const double energy) const
  {
    const auto &I = *impl_;
    // At its largest distance from the contact that grazes first, so that impacts fall inside
    // the period, never at its ends.
    double       amplitude = std::sqrt(2 * energy) / I.omega[mode - 1];
    Eigen::Index first     = -1;
    double       ratio     = infinity;
    for (Eigen::Index i = 0; i < I.B.rows(); ++i)
      if (std::abs(I.B(i, mode - 1)) > 0 && I.gap0[i] / std::abs(I.B(i, mode - 1)) < ratio)
        ratio = I.gap0[i] / std::abs(I.B(i, mode - 1)), first = i;
    if (first >= 0 && I.B(first, mode - 1) < 0)
      amplitude = -amplitude;
    Vector x = Vector::Zero(2 * I.m);
    x[mode - 1] = amplitude;
    return x;
  }

  Vector LinearImpactFlow::one_impact_turning_point(const unsigned int contact, const double period) const
  {
    const auto  &I = *impl_;
    const Vector b = I.B.row(contact).transpose();
    // Undamped modes from (p, 0): q(T/2) = diag(cos ω T/2) p, q̇(T/2) = −diag(ω sin ω T/2) p.
    const Vector C = (I.omega * (period / 2)).array().cos();
    const Vector S = -(I.omega.array() * (I.omega * (period / 2)).array().sin()).matrix();
    // Conditions: b·q(T/2) = −g0 (on the stop), and q̇(T/2) ∥ b (e = 1 reverses it onto −q̇, the
    // mirror image, so the orbit closes by time reversibility): (I − b bᵀ/|b|²) S p = 0.
    const Eigen::Index m = I.m;
    Matrix             A(m + 1, m);
    Vector             rhs = Vector::Zero(m + 1);
    A.row(0)               = (b.array() * C.array()).matrix().transpose();
    rhs[0]                 = -I.gap0[contact];
    const Matrix P         = Matrix::Identity(m, m) - b * b.transpose() / b.squaredNorm();
    A.bottomRows(m)        = P * S.asDiagonal();
    Vector x               = Vector::Zero(2 * m);
    x.head(m)              = A.colPivHouseholderQr().solve(rhs); // m + 1 rows of rank m
    return x;
  }

  std::optional<std::pair<Vector, double>> LinearImpactFlow::one_impact_orbit(const unsigned int mode,
                                                                              const double energy,
                                                                              const unsigned int cycles) const
  {
    const auto &I = *impl_;
    // Damped (harmonic balance's extended periodic motion concept, whose unfolding cancels the
    // mode's damping): the undamped mode's orbit is still the guess.
    if (I.compliant && cycles == 1 && !I.harmonic && I.G.isZero(0.0))
      return one_mode_spring_orbit(mode, energy);
    if (I.n_forcing > 0 || !I.D.isZero(0.0) || I.compliant || cycles == 0)
      return std::nullopt;
    // The contact that mode j grazes first.
    Eigen::Index contact = -1;
    double       ratio   = infinity;
    for (Eigen::Index i = 0; i < I.B.rows(); ++i)
      if (std::abs(I.B(i, mode - 1)) > 0 && I.gap0[i] / std::abs(I.B(i, mode - 1)) < ratio)
        ratio = I.gap0[i] / std::abs(I.B(i, mode - 1)), contact = i;
    if (contact < 0 || I.restitution[contact] != 1.0)
      return std::nullopt;
    // At T0 = cycles × the linear period the orbit is the grazing linear mode (impact velocity 0).
    // The family leaves it on the side of T0 where the impact approaches the stop (the gap's rate
    // b·q̇(T/2⁻) < 0; on the other side the stop would pull); walk away from T0 in steps of T0/400
    // to the first period where the energy has reached E (fundamental families, which stiffen;
    // they may dip below E_g first: by 3 % for the 4-mode beam example, and an E below E_g is
    // looked for on that dip) or, for a subharmonic family,
    // where it differs from E_g by |E − E_g| (they first go down in energy), then bisect.
    const double T0       = cycles * linear_period(mode);
    const auto   approach = [&](double T) {
      const Vector p    = one_impact_turning_point(contact, T).head(I.m);
      const Vector rate = -(I.omega.array() * (I.omega * (T / 2)).array().sin() * p.array()).matrix();
      return I.B.row(contact).dot(rate);
    };
    const double side     = approach(T0 * (1 - 1e-6)) < 0 ? -1.0 : 1.0;
    const double graze    = grazing_energy(mode);
    const double distance = std::abs(energy - graze);
    const auto   reached  = [&](double T) {
      const double E = this->energy(one_impact_turning_point(contact, T));
      if (cycles > 1)
        return std::abs(E - graze) >= distance;
      return energy >= graze ? E >= energy : E <= energy; // below E_g: on a family that dips first
    };
    double near = T0 * (1 + side * 1e-9), far = near;
    for (int k = 1; k <= 400 && !reached(far); ++k)
      near = far, far = T0 * (1 + side * 0.0025 * k);
    if (!reached(far))
      return std::nullopt;
    for (int k = 0; k < 60; ++k)
      {
        const double mid = 0.5 * (near + far);
        (reached(mid) ? far : near) = mid;
      }
    return std::make_pair(one_impact_turning_point(contact, far), far);
  }

  std::optional<std::pair<Vector, double>> LinearImpactFlow::one_mode_spring_orbit(const unsigned int mode,
                                                                                   const double energy) const
  {
    const auto &I = *impl_;
    // The elastic contact that mode j reaches first, at modal amplitude a = gap0/|b| (b = B_ij).
    Eigen::Index contact = -1;
    double       reach   = infinity;
    for (Eigen::Index i = 0; i < I.B.rows(); ++i)
      if (std::abs(I.B(i, mode - 1)) > 0 && I.gap0[i] > 0 && I.gap0[i] / std::abs(I.B(i, mode - 1)) < reach)
        reach = I.gap0[i] / std::abs(I.B(i, mode - 1)), contact = i;
    const double w1 = I.omega[mode - 1], A = std::sqrt(2 * energy) / w1;
    if (contact < 0 || !(A > reach))
      return std::nullopt;
    // Mode j alone is a bilinear oscillator: free at ω1 = ω_j, on the spring at ω2 = √(ω_j² + k b²)
    // about its closed-phase rest a k b²/ω2², which it enters a ω_j²/ω2² above with speed
    // v1 = ω_j √(A² − a²). Free flight below the stop takes (2π − 2 acos(a/A))/ω_j, the spring
    // 2 atan2(v1, ω2 y0)/ω2 (doc/periodic.md §11). Start at the turning point away from the stop.
    const double b  = I.B(contact, mode - 1);
    const double w2 = std::sqrt(w1 * w1 + I.spring[contact] * b * b);
    const double v1 = w1 * std::sqrt(A * A - reach * reach), y0 = reach * w1 * w1 / (w2 * w2);
    const double period = (2 * M_PI - 2 * std::acos(reach / A)) / w1 + 2 * std::atan2(v1, w2 * y0) / w2;
    Vector       x      = Vector::Zero(2 * I.m);
    x[mode - 1]         = b > 0 ? A : -A;
    return std::make_pair(x, period);
  }

  std::unique_ptr<PeriodicFlowMap> LinearImpactFlow::on_first_modes(const unsigned int r) const
  {
    const auto &I = *impl_;
    // Only unilateral springs (elastic contacts, massless contact nodes' condensed stops) start on a
    // one-mode orbit (one_mode_spring_orbit) that more modes perturb.
    if (!I.compliant || I.harmonic || !I.D.isZero(0.0) || !I.G.isZero(0.0) ||
        r == 0 || r >= static_cast<unsigned int>(I.m))
      return nullptr;
    LinearImpactFlowSettings fewer = I.settings;
    fewer.n_modes                  = r;
    return std::make_unique<LinearImpactFlow>(model_, fewer);
  }

  std::unique_ptr<PeriodicFlowMap> LinearImpactFlow::with_contact_stiffness(const double k) const
  {
    LinearImpactFlowSettings other = impl_->settings;
    other.contact_stiffness        = k;
    return std::make_unique<LinearImpactFlow>(model_, other);
  }

  Vector LinearImpactFlow::from_first_modes(const Vector &x) const
  {
    const Eigen::Index m = impl_->m, r = x.size() / 2;
    if (x.size() % 2 != 0 || r > m)
      throw std::invalid_argument("a state of " + std::to_string(x.size()) + " entries is not one of a map on the first "
                                  "modes of this map's " + std::to_string(m));
    Vector z            = Vector::Zero(2 * m);
    z.head(r)           = x.head(r);
    z.segment(m, r)     = x.tail(r);
    return z;
  }

  std::vector<double> LinearImpactFlow::held_contact_frequencies() const
  {
    const auto &I = *impl_;
    // Unit modal masses. Elastic contacts and massless nodes: every contact's spring κ b bᵀ added to Ω²; rigid
    // contacts: Ω² projected onto the motions that keep every gap (B q = 0), whose zero
    // eigenvalues (one per contact) are the constraints, not modes.
    Matrix K = Matrix(I.omega.cwiseAbs2().asDiagonal());
    if (I.compliant)
      for (Eigen::Index i = 0; i < I.B.rows(); ++i)
        K += I.spring[i] * I.B.row(i).transpose() * I.B.row(i);
    else if (I.B.rows() > 0)
      {
        const Matrix P = Matrix::Identity(I.m, I.m) - I.B.transpose() * (I.B * I.B.transpose()).inverse() * I.B;
        K              = P * K * P;
      }
    const Vector        lambda = Eigen::SelfAdjointEigenSolver<Matrix>(K, Eigen::EigenvaluesOnly).eigenvalues();
    std::vector<double> frequencies;
    for (Eigen::Index k = 0; k < lambda.size(); ++k)
      if (lambda[k] > 1e-10 * lambda.maxCoeff())
        frequencies.push_back(std::sqrt(lambda[k]));
    return frequencies;
  }

  std::optional<std::pair<Vector, double>> LinearImpactFlow::simulated_orbit(const double time, const Vector &x0) const
  {
    const auto &I     = *impl_;
    const Vector start = x0.size() == 2 * I.m ? x0 : modal_state(I.initial_displacement, I.initial_velocity);
    // The impact times of the run (a long flow: the map is exact, so the run is a simulation).
    std::vector<double> impacts;
    try
      {
        for (const auto &event : I.run(start, time, 0.0, false, nullptr).events)
          if (event.kind == ContactEvent::Kind::impact)
            impacts.push_back(event.time);
      }
    catch (const std::runtime_error &)
      {
        return std::nullopt; // endless chatter: no orbit to start from
      }
    // The shortest p such that the last 2p intervals between impacts repeat with period p, to a
    // thousandth of that period (a conservative run settles only approximately: Newton polishes).
    const auto n = impacts.size();
    for (std::size_t p = 1; 3 * p + 1 <= n; ++p)
      {
        const double period = impacts[n - 1] - impacts[n - 1 - p];
        bool         periodic = period > 0;
        for (std::size_t j = n - 2 * p; j < n && periodic; ++j)
          periodic = std::abs((impacts[j] - impacts[j - 1]) - (impacts[j - p] - impacts[j - p - 1])) <= 1e-3 * period;
        if (!periodic)
          continue;
        // Half-way through the last period: away from its impacts. The spacings can repeat
        // before the state does (an orbit whose two halves take equal times), so the state
        // must come back too, to a percent (a conservative run settles only approximately).
        const double t_mid = impacts[n - 1 - p] + 0.5 * (impacts[n - p] - impacts[n - 1 - p]);
        const Vector x_mid = I.run(start, t_mid, 0.0, false, nullptr).x;
        const Vector x_back = I.run(x_mid, period, 0.0, false, nullptr).x;
        if ((x_back - x_mid).norm() > 1e-2 * x_mid.norm())
          continue;
        return std::make_pair(x_mid, period);
      }
    return std::nullopt;
  }

  Vector LinearImpactFlow::initial_state() const
  {
    return modal_state(impl_->initial_displacement, impl_->initial_velocity);
  }

  bool LinearImpactFlow::ignore_impacts(const int contact, const double from, const double to, const double period)
  {
    if (impl_->uses_oscillators()) // the closed-set oscillators' scan does not ask
      return false;
    impl_->ignored = {contact, from, to, period};
    return true;
  }

  bool LinearImpactFlow::forced() const { return impl_->harmonic; }

  void LinearImpactFlow::set_forcing_frequency(const double omega) { impl_->forcing_omega = omega; }

  double LinearImpactFlow::forcing_frequency() const { return impl_->forcing_omega; }

  const integrators::ModalProjection &LinearImpactFlow::projection() const { return impl_->projection; }

  const Matrix &LinearImpactFlow::load_columns() const { return impl_->G; }

  Vector LinearImpactFlow::modal_state(const Vector &u, const Vector &v) const
  {
    const auto &I = *impl_;
    const auto  kept = [&](const Vector &w) -> Vector {
      if (!I.settings.massless_contact_nodes || w.size() != I.condensation.n_full)
        return w;
      Vector r(I.condensation.kept.size());
      for (std::size_t k = 0; k < I.condensation.kept.size(); ++k)
        r[k] = w[I.condensation.kept[k]];
      return r;
    };
    Vector x(2 * I.m);
    x.head(I.m) = I.mass_shapes.transpose() * kept(u);
    x.tail(I.m) = I.mass_shapes.transpose() * kept(v);
    return x;
  }

  namespace
  {
    // Continuation/Flow map = event-driven, with the Moreau-Jean subsection's energy correction
    // (one correction for both maps).
    const FlowMapRegistration event_driven{
      "event-driven", "exact between impacts, in modal coordinates (linear structures)",
      [](const FlowMapInput &in) -> std::unique_ptr<PeriodicFlowMap> {
        // Shooting's free families are conservative: the modal damping is for forced responses.
        // Harmonic balance's take it, by the extended periodic motion concept (κ cancels it).
        if (in.continuation.kind == OrbitKind::free &&
            in.continuation.settings.method != PeriodicMethod::harmonic_balance)
          for (const double z : in.continuation.event_driven.damping_ratios)
            if (z > 0)
              throw std::invalid_argument("Continuation/Damping ratios: free families by shooting need an undamped "
                                          "model (Method = harmonic balance takes a damped one: the extended periodic "
                                          "motion concept)");
        auto settings                 = in.continuation.event_driven;
        settings.energy_correction    = in.moreau_jean.energy_correction;
        settings.correction_direction = in.moreau_jean.correction_direction;
        return std::make_unique<LinearImpactFlow>(in.model, settings);
      },
      [] {
        FlowMapProperties p;
        p.massless_contact_nodes = true;
        p.is_default             = true; // of Continuation/Flow map
        return p;
      }()};
  } // namespace
} // namespace vibroimpact::periodic
