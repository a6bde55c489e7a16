// The period map of the Moreau–Jean time stepper (the seed's shooting method, any model): N steps
// of h = T/N from x0 = (u0, v0). Its Jacobian is that of the discrete map along the recorded
// active sets: each step is affine once its active set is fixed, and the tangents are chained
// through the one factored W (MoreauJean::tangent_step); steps with an energy correction are
// differentiated by central differences of that one step. What this misses at an active-set
// change (the event-time sensitivity) is discussed and measured in doc/periodic.md §3.
#pragma once

#include <vibroimpact/integrators/moreau_jean_settings.h>
#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/periodic/flow_map.h>

#include <memory>

namespace vibroimpact::periodic
{
  class MoreauJeanFlow : public PeriodicFlowMap
  {
  public:
    MoreauJeanFlow(const model::StructuralModel &model, const integrators::MoreauJeanSettings &settings,
                   unsigned int steps_per_period);
    ~MoreauJeanFlow() override;

    std::string  name() const override { return "moreau-jean"; }
    Eigen::Index dimension() const override;
    FlowResult   flow(const Vector &x0, double period, double alpha, bool with_jacobian) const override;
    Vector       vector_field(const Vector &x) const override;
    double       energy(const Vector &x) const override;
    OrbitSamples sample(const Vector &x0, double period, unsigned int n_samples) const override;
    Vector       linear_mode_state(unsigned int mode, double energy) const override;
    double       linear_period(unsigned int mode) const override;
    double       grazing_energy(unsigned int mode) const override;
    std::optional<std::pair<Vector, double>> one_impact_orbit(unsigned int mode, double energy,
                                                              unsigned int cycles = 1) const override;
    std::optional<std::pair<Vector, double>> simulated_orbit(double time, const Vector &x0 = {}) const override;
    Vector initial_state() const override;
    // N of h = T/N; 0: N = T / (the settings' time step), fixed at the first flow of each period.
    void set_steps_per_period(unsigned int steps);
    bool         forced() const override;
    void         set_forcing_frequency(double omega) override;
    double       forcing_frequency() const override;

  private:
    struct Implementation;
    std::unique_ptr<Implementation> impl_;
  };
} // namespace vibroimpact::periodic
