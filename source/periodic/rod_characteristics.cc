// The wave-based period map of a uniform fixed–free rod against a stop at its free end
// (rod_characteristics.h; derivation in doc/periodic.md §10): strain waves moved one cell a step.
#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/periodic/continuation_parameters.h>
#include <vibroimpact/periodic/flow_map_registry.h>
#include <vibroimpact/periodic/rod_characteristics.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace vibroimpact::periodic
{
  struct RodCharacteristicsFlow::Implementation
  {
    const model::StructuralModel &model;
    const model::ContinuumBody   *rod = nullptr;
    unsigned int                  N   = 0;   // cells (the rod's elements)
    double L = 0, EA = 0, c = 0, h = 0, dt = 0;
    double gap0   = 0; // the stop's distance at rest
    double toward = 1; // +1: the stop lies in the end's positive displacement (Side = above)

    // The waves' slots in a state vector: r_j (running toward the end) at j, l_j (running toward
    // the clamp) at N + j.
    double end_displacement(const Vector &w) const { return h * w.sum(); } // h Σ (r_j + l_j)
    double gap(const double end) const { return gap0 - toward * end; }

    // A step Δt = Δx/c moves r_j to r_{j+1}, r_{N−1} to l_{N−1} (reflected at the end), l_j to
    // l_{j−1} and l_0 to r_0 (reflected unchanged at the clamp): every value one place on along
    // one ring of 2N places, p = j for r_j and p = 2N − 1 − j for l_j. So the values stay where
    // they are in memory and the step count says where each one is, (place − k) mod 2N: a step
    // costs O(1). Only the value passing the end changes: its sign flips (free: the end moves
    // by −2Δx r) or not (held on the stop). Signorini: held when the free reflection would carry
    // the end past the stop.
    struct Ring
    {
      Vector              values;
      std::size_t         steps = 0;
      double              end   = 0; // u(L)
      std::vector<double> sign;      // per value, its sign against the start (for the Jacobian)
    };

    std::size_t slot(const std::size_t place, const std::size_t steps) const
    {
      return (place + 2 * N - steps % (2 * N)) % (2 * N);
    }
    // The state-vector index of ring place p.
    Eigen::Index state_index(const std::size_t p) const { return p < N ? Eigen::Index(p) : Eigen::Index(3 * N - 1 - p); }

    Ring ring_of(const Vector &w, const bool with_sign) const
    {
      Ring ring{Vector(2 * N), 0, end_displacement(w), {}};
      for (std::size_t p = 0; p < 2 * N; ++p)
        ring.values(p) = w(state_index(p));
      if (with_sign)
        ring.sign.assign(2 * N, 1.0);
      return ring;
    }

    Vector state_of(const Ring &ring) const
    {
      Vector w(2 * N);
      for (std::size_t p = 0; p < 2 * N; ++p)
        w(state_index(p)) = ring.values(slot(p, ring.steps));
      return w;
    }

    // One step; returns whether the end was held.
    bool step(Ring &ring) const
    {
      const std::size_t i        = slot(N - 1, ring.steps);
      const double      incoming = ring.values(i);
      const bool        held     = gap(ring.end - 2 * h * incoming) < -1e-12 * gap0;
      if (!held)
        {
          ring.values(i) = -incoming;
          ring.end -= 2 * h * incoming;
          if (!ring.sign.empty())
            ring.sign[i] = -ring.sign[i];
        }
      ++ring.steps;
      return held;
    }

    // The state of rest with uniform strain, the end farthest from the stop, of energy E.
    Vector rest_state(const double energy) const
    {
      const double B = std::sqrt(energy / (2 * EA * L)); // E = EA Δx Σ 2B² = 2 EA L B²
      return Vector::Constant(2 * N, -toward * B);
    }

    // The fields at the rod's DoFs (its slice of u and v) from the cell waves: u by integrating
    // the strain r + l from the clamp (a running sum, once), v = c (l − r) in the cell, the mean
    // of two cells on their common boundary; the clamp does not move and the end moves at −2c r
    // unless the next step holds it.
    void fields(const Vector &w, Vector &u, Vector &v) const
    {
      std::vector<double> at_node(N + 1, 0.0); // u at the cell boundaries
      for (unsigned int j = 0; j < N; ++j)
        at_node[j + 1] = at_node[j] + h * (w(j) + w(N + j));
      const auto velocity = [&](const unsigned int j) { return c * (w(N + j) - w(j)); };
      for (unsigned int d = 0; d < rod->n_dofs; ++d)
        {
          const double       x    = rod->dof_coordinates[d];
          const double       cell = std::clamp(x / h, 0.0, double(N));
          const unsigned int full = std::min(N, static_cast<unsigned int>(std::floor(cell + 1e-9)));
          const long         near = std::lround(cell);
          const auto         dof  = rod->first_dof + d;
          u(dof) = at_node[full] + (full < N ? (x - full * h) * (w(full) + w(N + full)) : 0.0);
          if (x <= 0)
            v(dof) = 0.0;
          else if (full >= N)
            v(dof) = gap(at_node[N] - 2 * h * w(N - 1)) < -1e-12 * gap0 ? 0.0 : -2 * c * w(N - 1);
          else if (std::abs(cell - near) < 1e-9 && near > 0)
            v(dof) = 0.5 * (velocity(near - 1) + velocity(near));
          else
            v(dof) = velocity(full);
        }
    }
  };

  namespace
  {
    [[noreturn]] void refuse(const std::string &what)
    {
      throw std::invalid_argument("the characteristics map takes one uniform rod clamped at x = 0 and free at x = L, "
                                  "with one stop at x = L on the ground, no load and no damping: " + what);
    }

    const model::ContinuumBody &the_rod(const model::StructuralModel &m)
    {
      const auto &bodies = m.continuum.bodies;
      if (bodies.size() != 1 || bodies.front().field != model::ContinuumBody::Field::axial)
        refuse("the model is not one rod");
      const auto &rod = bodies.front();
      if (rod.left != model::ContinuumBody::End::clamped || rod.right != model::ContinuumBody::End::free)
        refuse("rod " + rod.name + " is not fixed at x = 0 and free at x = L");
      if (m.continuum.n_lumped_elements > 0)
        refuse("the model has masses, springs or dashpots");
      if (!m.loads.empty())
        refuse("the model has a load (" + m.loads.front().name + ")");
      if (m.damping.nonZeros() > 0 || !m.modal_damping.empty())
        refuse("the model is damped");
      if (m.contacts.size() != 1)
        refuse("the model has " + std::to_string(m.contacts.size()) + " contacts");
      const auto &contact = m.contacts.front();
      if (contact.point.body != 0 || std::abs(contact.point.x - rod.length) > 1e-12 * rod.length ||
          !contact.other.on_ground() || !(contact.gap0 > 0))
        refuse("contact " + contact.name + " is not at x = L on the ground with a positive gap");
      if (contact.elastic())
        throw std::invalid_argument("Contact " + contact.name + "/Stiffness: the characteristics map takes a rigid "
                                    "stop (the end reflects its waves), not an elastic one");
      return rod;
    }
  } // namespace

  RodCharacteristicsFlow::RodCharacteristicsFlow(const model::StructuralModel &model)
    : impl_(new Implementation{model})
  {
    auto &I  = *impl_;
    I.rod    = &the_rod(model);
    I.N      = static_cast<unsigned int>(I.rod->element_boundaries.size() - 1);
    // A wave crosses one cell a step only if every cell has the same length.
    const auto &x = I.rod->element_boundaries;
    for (unsigned int j = 0; j < I.N; ++j)
      if (std::abs(x[j + 1] - x[j] - I.rod->length / I.N) > 1e-9 * I.rod->length / I.N)
        refuse("rod " + I.rod->name + "'s elements are not all of one length (element " + std::to_string(j + 1) +
               "): the waves cross one element a step");
    I.L      = I.rod->length;
    I.EA     = I.rod->stiffness;
    I.c      = std::sqrt(I.rod->stiffness / I.rod->mass_per_length);
    I.h      = I.L / I.N;
    I.dt     = I.h / I.c;
    I.gap0   = model.contacts.front().gap0;
    I.toward = -model.contacts.front().side; // side +1: the ground lies below the end
  }

  RodCharacteristicsFlow::~RodCharacteristicsFlow() = default;

  Eigen::Index RodCharacteristicsFlow::dimension() const { return 2 * impl_->N; }
  double       RodCharacteristicsFlow::time_step() const { return impl_->dt; }
  unsigned int RodCharacteristicsFlow::cells() const { return impl_->N; }

  FlowResult RodCharacteristicsFlow::flow(const Vector &x0, const double period, double, const bool with_jacobian) const
  {
    const auto &I     = *impl_;
    const long  steps = std::lround(period / I.dt);
    FlowResult  result;
    result.grazing_gap = std::numeric_limits<double>::infinity();
    auto ring          = I.ring_of(x0, with_jacobian);
    result.min_gap     = I.gap(ring.end);
    bool was_held      = false;
    for (long k = 0; k < steps; ++k)
      {
        const bool held = I.step(ring);
        if (held != was_held)
          result.events.push_back({held ? ContactEvent::Kind::sticking_start : ContactEvent::Kind::separation,
                                   k * I.dt, 0, 0.0, 0.0, 0.0});
        was_held       = held;
        result.min_gap = std::min(result.min_gap, I.gap(ring.end));
      }
    result.x           = I.state_of(ring);
    result.evaluations = 1;
    if (with_jacobian)
      {
        // The value at place p started at place slot(p, k): a signed permutation.
        result.jacobian = Matrix::Zero(2 * I.N, 2 * I.N);
        for (std::size_t p = 0; p < 2 * I.N; ++p)
          {
            const std::size_t from = I.slot(p, ring.steps);
            result.jacobian(I.state_index(p), I.state_index(from)) = ring.sign[from];
          }
        result.d_period    = Vector::Zero(2 * I.N);
        result.d_unfolding = Vector::Zero(2 * I.N);
      }
    return result;
  }

  Vector RodCharacteristicsFlow::vector_field(const Vector &x) const { return Vector::Zero(x.size()); }

  double RodCharacteristicsFlow::energy(const Vector &x) const { return impl_->EA * impl_->h * x.squaredNorm(); }

  OrbitSamples RodCharacteristicsFlow::sample(const Vector &x0, const double period, const unsigned int n_samples) const
  {
    const auto  &I = *impl_;
    OrbitSamples samples;
    auto         ring     = I.ring_of(x0, false);
    bool         was_held = false;
    for (unsigned int s = 0; s < n_samples; ++s)
      {
        const double t = period * s / n_samples;
        while ((ring.steps + 1) * I.dt <= t + 1e-12 * I.dt) // the state at the last step before t
          {
            const double at   = ring.steps * I.dt;
            const bool   held = I.step(ring);
            if (held != was_held)
              samples.events.push_back({held ? ContactEvent::Kind::sticking_start : ContactEvent::Kind::separation,
                                        at, 0, 0.0, 0.0, 0.0});
            was_held = held;
          }
        const Vector w = I.state_of(ring);
        Vector       u = Vector::Zero(I.model.n_dofs()), v = Vector::Zero(I.model.n_dofs());
        I.fields(w, u, v);
        samples.time.push_back(t);
        samples.displacement.push_back(std::move(u));
        samples.velocity.push_back(std::move(v));
        samples.energy.push_back(energy(w));
      }
    return samples;
  }

  Vector RodCharacteristicsFlow::linear_mode_state(const unsigned int mode, const double energy) const
  {
    if (mode != 1)
      throw std::invalid_argument("the characteristics map starts families from mode 1 only (the square-wave "
                                  "motion the first nonsmooth mode leaves)");
    return impl_->rest_state(energy);
  }

  double RodCharacteristicsFlow::linear_period(const unsigned int mode) const
  {
    return 4 * impl_->L / ((2.0 * mode - 1) * impl_->c);
  }

  double RodCharacteristicsFlow::grazing_energy(const unsigned int mode) const
  {
    // From uniform strain −2B at rest the end swings from −2BL to +2BL: it touches the stop at
    // 2BL = g, where E = 2 EA L B² = EA g²/(2L); on the grid too (it moves 2Δx B a step, 2N steps).
    if (mode != 1)
      throw std::invalid_argument("the characteristics map has the family of mode 1 only (mode " +
                                  std::to_string(mode) + " asked): doc/periodic.md §10");
    return impl_->EA * impl_->gap0 * impl_->gap0 / (2 * impl_->L);
  }

  std::optional<std::pair<Vector, double>> RodCharacteristicsFlow::one_impact_orbit(const unsigned int mode,
                                                                                    const double       energy,
                                                                                    const unsigned int cycles) const
  {
    if (mode != 1 || cycles != 1 || !(energy > 0))
      return std::nullopt;
    const auto  &I     = *impl_;
    const Vector x0    = I.rest_state(energy);
    auto         ring  = I.ring_of(x0, false);
    const double start = x0(0);
    // Every value of the rest state is the same, so the state is back exactly when no value is
    // negated (counted as the end negates them: O(1) a step); a period is at most the linear one,
    // 4N steps (the contact shortens it).
    std::size_t negated = 0;
    for (std::size_t k = 1; k <= 4 * I.N + 2; ++k)
      {
        const double before = ring.values(I.slot(I.N - 1, ring.steps));
        I.step(ring);
        const double after = ring.values(I.slot(I.N - 1, ring.steps - 1));
        if (after != before)
          negated = after == start ? negated - 1 : negated + 1;
        if (negated == 0 && I.state_of(ring) == x0)
          return std::make_pair(x0, k * I.dt);
      }
    return std::nullopt;
  }

  Vector RodCharacteristicsFlow::initial_state() const
  {
    const auto &I = *impl_;
    Vector      w = Vector::Zero(2 * I.N);
    const auto &u = I.model.initial_displacement, &v = I.model.initial_velocity;
    for (unsigned int j = 0; j < I.N; ++j)
      {
        // Cell averages: the strain from the displacement at the cell's ends, the velocity at its centre.
        const double strain = u.size() ? (I.rod->displacement_row((j + 1) * I.h).dot(u) -
                                          I.rod->displacement_row(j * I.h).dot(u)) / I.h : 0.0;
        const double speed  = v.size() ? I.rod->displacement_row((j + 0.5) * I.h).dot(v) : 0.0;
        w(j)         = 0.5 * (strain - speed / I.c);
        w(I.N + j)   = 0.5 * (strain + speed / I.c);
      }
    return w;
  }

  namespace
  {
    const FlowMapRegistration characteristics{
      "characteristics",
      "a uniform fixed–free rod's strain waves moved one element a step (Δx = c Δt, no dispersion), its stop at "
      "x = L held by Signorini's condition each step; families are scanned in energy, without Newton",
      [](const FlowMapInput &in) -> std::unique_ptr<PeriodicFlowMap> {
        const auto &c = in.continuation;
        if (c.start == StartKind::simulation || c.start == StartKind::simulated_mode)
          throw std::invalid_argument("the characteristics map finds its orbits from a state of rest, not by "
                                      "simulation: Start = linear mode or initial state");
        for (std::size_t f = 0; f < c.families.size(); ++f)
          if (c.start == StartKind::linear_mode && (c.families[f] != 1 || c.cycles_of(f) != 1))
            throw std::invalid_argument("the characteristics map has the family of mode 1 only, one cycle (Families, "
                                        "Cycles): doc/periodic.md §10");
        return std::make_unique<RodCharacteristicsFlow>(in.model);
      }};
  } // namespace
} // namespace vibroimpact::periodic
