// The modal Udwadia–Kalaba solver (Antunes et al. 2017, eqs. 10–12, 15, 18–19), registered as
// "modal-uk". Derivation and limits: doc/udwadia_kalaba.md.
#include <vibroimpact/integrators/udwadia_kalaba.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_section.h>

#include <Eigen/QR>

#include <map>
#include <stdexcept>

#include "../modal_recorder.h"

namespace vibroimpact::integrators
{
  void bind_modal_udwadia_kalaba_parameters(io::ParameterSection &section, ModalUdwadiaKalabaSettings &s)
  {
    bind_modal_stepping_parameters(section, s);
    section.add("Projection", s.projection,
                "true: after every step, project the displacement and velocity violations of the closed "
                "contacts out (Yoon et al., the paper's eqs. 18-19); false: constraints at the acceleration "
                "level only, which drift (the paper's Fig. 3, left).");
  }

  namespace
  {
    // The closed set S of one contact state: its rows B_S and the Moore–Penrose pseudo-inverse
    // B_S⁺ (with unit modal mass, the U–K matrix M^{-1/2}(A M^{-1/2})⁺ is B_S⁺). The pseudo-inverse
    // keeps dependent rows (more closed contacts than the modes can separate) well defined.
    struct ConstraintState
    {
      std::vector<unsigned int> contacts;
      Eigen::MatrixXd           rows;    // B_S, |S| × N
      Eigen::MatrixXd           inverse; // B_S⁺, N × |S|
    };

    using StateKey = std::vector<bool>; // s(t): closed or not, per contact
  } // namespace

  ModalUdwadiaKalaba::ModalUdwadiaKalaba(const model::StructuralModel &model, ModalUdwadiaKalabaSettings settings)
    : settings_(std::move(settings))
    , projection_(model, settings_.n_modes, settings_.damping_ratios, settings_.mode_source)
  {
    if (!(settings_.time_step > 0))
      throw std::invalid_argument("modal Udwadia-Kalaba: the time step must be positive");
  }

  RunSummary ModalUdwadiaKalaba::run(const RunControl &control, ResponseObserver &observer) const
  {
    const ModalProjection &P  = projection_;
    const Eigen::MatrixXd &B  = P.contact_rows();
    const auto             nc = static_cast<unsigned int>(B.rows());
    const double           h  = settings_.time_step;
    const unsigned long    n  = modal_step_count(h, control.final_time);
    if (n == 0)
      throw std::invalid_argument("modal Udwadia-Kalaba: the final time is shorter than a step");

    // ---- contact states, each built once (3^P exist for P two-sided supports; few are visited)
    std::map<StateKey, ConstraintState> cache;
    StateKey                            closed(nc, false);
    unsigned long                       state_changes = 0, releases = 0;
    const auto constraint = [&]() -> const ConstraintState & {
      auto found = cache.find(closed);
      if (found != cache.end())
        return found->second;
      ConstraintState state;
      for (unsigned int i = 0; i < nc; ++i)
        if (closed[i])
          state.contacts.push_back(i);
      state.rows.resize(state.contacts.size(), B.cols());
      for (std::size_t k = 0; k < state.contacts.size(); ++k)
        state.rows.row(k) = B.row(state.contacts[k]);
      if (!state.contacts.empty())
        state.inverse = Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(state.rows).pseudoInverse();
      return cache.emplace(closed, std::move(state)).first->second;
    };

    // ---- the contact force of each contact and the constrained acceleration (eqs. 10–12)
    Eigen::VectorXd force = Eigen::VectorXd::Zero(nc);
    // Sticking phases: a contact still closed at the end of the step that closed it.
    std::vector<bool> sticking(nc, false);
    const auto        separation = [&](unsigned int c, double t) {
      if (!sticking[c])
        return;
      ContactEvent event;
      event.kind    = ContactEvent::Kind::separation;
      event.time    = t;
      event.contact = c;
      observer.event(event);
      sticking[c] = false;
    };
    // a: the free acceleration, replaced by the constrained one. While a multiplier is tensile the
    // contact cannot hold: the most tensile one opens and the rest are solved again.
    const auto constrain = [&](Eigen::VectorXd &a, const double t) {
      const Eigen::VectorXd free = a;
      while (true)
        {
          const ConstraintState &S = constraint();
          force.setZero();
          a = free;
          if (S.contacts.empty())
            return;
          const Eigen::VectorXd lambda = -S.inverse.transpose() * free; // (B_S⁺)ᵀ (b − B_S a), b = 0
          Eigen::Index          worst  = 0;
          if (lambda.minCoeff(&worst) >= 0)
            {
              a += S.rows.transpose() * lambda; // = a − B_S⁺ B_S a
              for (std::size_t k = 0; k < S.contacts.size(); ++k)
                force[S.contacts[k]] = lambda[k];
              return;
            }
          closed[S.contacts[worst]] = false;
          ++releases;
          ++state_changes;
          separation(S.contacts[worst], t);
        }
    };

    // ---- state
    Eigen::VectorXd q = P.initial_displacement(), v = P.initial_velocity();
    Eigen::VectorXd f = P.load(0.0);
    ModalRecorder   recorder(P, control, h, n, observer);
    recorder.initial_energy = recorder.energy(q, v);
    double          largest_violation = 0.0;
    RunSummary      summary;

    // Contacts that reach their stop: closed, and (with projection) brought onto it with no
    // approach velocity: an inelastic impact whose impulse is that of the velocity projection.
    const auto close_and_project = [&](const std::vector<unsigned int> &closing, const double t) {
      const ConstraintState *S = nullptr;
      if (settings_.projection)
        {
          // Project on the closed set and on the contacts closing now (even if their first
          // multiplier was tensile: the impact happened).
          StateKey held = closed;
          for (unsigned int c : closing)
            closed[c] = true;
          S      = &constraint();
          closed = held;
        }
      Eigen::VectorXd impulse = Eigen::VectorXd::Zero(nc);
      std::vector<double> before(nc);
      for (unsigned int i = 0; i < nc; ++i)
        before[i] = B.row(i).dot(v);
      if (S && !S->contacts.empty())
        {
          const double energy_before = recorder.energy(q, v);
          Eigen::VectorXd g(S->contacts.size());
          for (std::size_t k = 0; k < S->contacts.size(); ++k)
            g[k] = P.gap(S->contacts[k], q);
          q -= S->inverse * g;                                           // eq. (18)
          const Eigen::VectorXd p = -S->inverse.transpose() * v;         // q' jumps by B_Sᵀ p
          v += S->rows.transpose() * p;                                  // eq. (19)
          recorder.impact_dissipation += energy_before - recorder.energy(q, v);
          for (std::size_t k = 0; k < S->contacts.size(); ++k)
            impulse[S->contacts[k]] = p[k];
          recorder.impulse_since_row += impulse;
        }
      for (unsigned int c : closing)
        {
          ContactEvent event;
          event.time    = t;
          event.contact = c;
          // A contact that closes at rest (resting on its stop at t = 0) has no impact.
          if (before[c] < 0)
            {
              event.kind          = ContactEvent::Kind::impact;
              event.pre_velocity  = before[c];
              event.post_velocity = B.row(c).dot(v);
              event.impulse       = impulse[c];
              observer.event(event);
              ++summary.impacts;
            }
          if (closed[c])
            {
              sticking[c] = true;
              event.kind  = ContactEvent::Kind::sticking_start;
              event.impulse = event.pre_velocity = event.post_velocity = 0.0;
              observer.event(event);
            }
        }
    };

    // A contact closes when its gap reaches zero (the paper's test X ≤ δ, eq. 15) unless it
    // already recedes: a contact released at its stop sits there at a rounding-level gap of
    // either sign and must not re-close while it leaves.
    const auto closings = [&](const double tolerance, const Eigen::VectorXd &velocity) {
      std::vector<unsigned int> closing;
      for (unsigned int i = 0; i < nc; ++i)
        if (!closed[i] && P.gap(i, q) <= tolerance && B.row(i).dot(velocity) <= 0)
          {
            closed[i] = true;
            closing.push_back(i);
            ++state_changes;
          }
      return closing;
    };

    // t = 0: contacts at their stop (to rounding) are closed; one arriving there impacts.
    double scale = 0.0;
    for (unsigned int i = 0; i < nc; ++i)
      scale = std::max(scale, std::abs(P.gap0()[i]) + B.row(i).cwiseAbs().dot(q.cwiseAbs()));
    Eigen::VectorXd a = P.free_acceleration(q, v, 0.0);
    {
      const auto closing = closings(1e-12 * scale, v);
      constrain(a, 0.0);
      close_and_project(closing, 0.0);
      a = P.free_acceleration(q, v, 0.0);
      constrain(a, 0.0);
    }
    recorder.record(0, q, v, force);

    for (unsigned long k = 1; k <= n; ++k)
      {
        const double t = k == n ? control.final_time : k * h;
        // Velocity-Verlet: q at the end of the step from the start's acceleration; the damping
        // of the end acceleration reads the predicted velocity q' + h q''.
        q += h * v + 0.5 * h * h * a;
        const Eigen::VectorXd v_predicted = v + h * a;
        const auto            closing     = closings(0.0, v_predicted);
        const Eigen::VectorXd f_end       = P.load(t);
        Eigen::VectorXd       a_end = f_end - P.damping().cwiseProduct(v_predicted) - P.omegas().cwiseAbs2().cwiseProduct(q);
        constrain(a_end, t);
        const Eigen::VectorXd v_start = v;
        v += 0.5 * h * (a + a_end);
        recorder.add_step_work(v_start, f, v, f_end);
        // The constraint forces act over the step: their impulse reaches the history.
        recorder.impulse_since_row += h * force;
        if (settings_.projection || !closing.empty())
          close_and_project(closing, t);
        for (unsigned int i = 0; i < nc; ++i)
          if (closed[i])
            {
              largest_violation = std::max(largest_violation, std::abs(P.gap(i, q)));
              summary.sticking_time += h;
            }
        a = a_end;
        f = f_end;
        recorder.record(k, q, v, force);
      }
    recorder.finish(summary, q, v);
    summary.step_name = "steps";
    summary.counters  = {{"modes", double(P.size())},
                        {"contact states visited", double(cache.size())},
                        {"contact state changes", double(state_changes)},
                        {"releases", double(releases)},
                        {"largest |gap| of a closed contact", largest_violation},
                        {"impact dissipation", recorder.impact_dissipation}};
    return summary;
  }

  namespace
  {
    class ModalUdwadiaKalabaSolver : public Solver
    {
    public:
      std::string name() const override { return "modal-uk"; }
      std::string description() const override
      {
        return "modal Udwadia-Kalaba with intermittent constraints, e = 0 impacts, geometric projection, "
               "velocity-Verlet (Antunes et al.)";
      }
      std::string parameter_section() const override { return "Modal Udwadia-Kalaba"; }
      void        bind_parameters(io::ParameterSection &section) override
      {
        bind_modal_udwadia_kalaba_parameters(section, settings_);
      }
      std::unique_ptr<Solver> clone() const override { return std::make_unique<ModalUdwadiaKalabaSolver>(*this); }

      std::optional<double>       time_step() const override { return settings_.time_step; }
      void                        set_time_step(double h) override { settings_.time_step = h; }
      std::optional<unsigned int> number_of_modes() const override { return settings_.n_modes; }
      void set_number_of_modes(const unsigned int n) override { settings_.n_modes = n; }

      void check(const model::StructuralModel &model, const RunControl &control, const std::string &file) const override
      {
        check_modal_stepping(settings_, model, control, file, parameter_section());
      }

      RunSummary run(const model::StructuralModel &model, const RunControl &control,
                     ResponseObserver &observer) const override
      {
        return ModalUdwadiaKalaba(model, settings_).run(control, observer);
      }

    private:
      ModalUdwadiaKalabaSettings settings_;
    };

    const SolverRegistration<ModalUdwadiaKalabaSolver> registration;
  } // namespace
} // namespace vibroimpact::integrators
