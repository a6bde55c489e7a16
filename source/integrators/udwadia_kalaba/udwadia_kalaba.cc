// The modal Udwadia–Kalaba solver (Antunes et al. 2017, eqs. 10–12, 15, 18–19), registered as
// "modal-uk". Derivation and limits: doc/udwadia_kalaba.md.
#include <vibroimpact/integrators/udwadia_kalaba.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_section.h>

#include <Eigen/QR>

#include <map>
#include <stdexcept>

#include "../modal_recorder.h"
#include "spatial_udwadia_kalaba.h"

namespace vibroimpact::integrators
{
  void bind_settings(io::ParameterSection &section, ModalUdwadiaKalabaSettings &s)
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
    : ModalIntegrator(model, std::move(settings))
    , supports_(model.spatial_supports)
  {
    if (!(settings_.time_step > 0))
      throw std::invalid_argument("modal Udwadia-Kalaba: the time step must be positive");
  }

  namespace
  {
    // One run: velocity-Verlet steps under the constraints of the closed contacts, contacts
    // closing at their stop and opening where their multiplier turns tensile.
    class UdwadiaKalabaRun : ModalSteppingRun
    {
    public:
      UdwadiaKalabaRun(const ModalUdwadiaKalabaSettings &settings, const ModalProjection &projection,
                       const RunControl &control, ResponseObserver &observer)
        : ModalSteppingRun(projection, settings.time_step, control, observer, "modal Udwadia-Kalaba")
        , projection_(settings.projection)
        , closed_(nc_, false)
        , force_(Eigen::VectorXd::Zero(nc_))
        , sticking_(nc_, false)
      {}

      RunSummary run()
      {
        start();
        for (unsigned long k = 1; k <= n_; ++k)
          {
            const double t = time_of(k);
            step(t);
            follow_closed_contacts();
            recorder_.record(k, q_, v_, force_);
          }
        return summarise();
      }

    private:
      // t = 0: contacts at their stop (to rounding) are closed; one arriving there impacts.
      void start()
      {
        recorder_.initial_energy = recorder_.energy(q_, v_);
        double scale             = 0.0;
        for (unsigned int i = 0; i < nc_; ++i)
          scale = std::max(scale, std::abs(P_.gap0()[i]) + B_.row(i).cwiseAbs().dot(q_.cwiseAbs()));
        a_                 = P_.free_acceleration(q_, v_, 0.0);
        const auto closing = closings(1e-12 * scale, v_);
        constrain(a_, 0.0);
        close_and_project(closing, 0.0);
        a_ = P_.free_acceleration(q_, v_, 0.0);
        constrain(a_, 0.0);
        recorder_.record(0, q_, v_, force_);
      }

      // One velocity-Verlet step (ModalSteppingRun::verlet_step) with the closed set's
      // constrained acceleration, then the impacts and the projection.
      void step(const double t)
      {
        std::vector<unsigned int> closing;
        verlet_step(t, [&](Eigen::VectorXd &a_end, const Eigen::VectorXd &v_predicted) {
          closing = closings(0.0, v_predicted);
          constrain(a_end, t);
        });
        // The constraint forces act over the step: their impulse reaches the history.
        recorder_.impulse_since_row += h_ * force_;
        if (projection_ || !closing.empty())
          close_and_project(closing, t);
      }

      // The closed contacts after a step: their sticking time and how far they drifted.
      void follow_closed_contacts()
      {
        for (unsigned int i = 0; i < nc_; ++i)
          if (closed_[i])
            {
              largest_violation_ = std::max(largest_violation_, std::abs(P_.gap(i, q_)));
              summary_.sticking_time += h_;
            }
      }

      // The rows and pseudo-inverse of the current closed set, each state built once (3^P exist
      // for P two-sided supports; few are visited).
      const ConstraintState &constraint()
      {
        auto found = cache_.find(closed_);
        if (found != cache_.end())
          return found->second;
        ConstraintState state;
        for (unsigned int i = 0; i < nc_; ++i)
          if (closed_[i])
            state.contacts.push_back(i);
        state.rows.resize(state.contacts.size(), B_.cols());
        for (std::size_t k = 0; k < state.contacts.size(); ++k)
          state.rows.row(k) = B_.row(state.contacts[k]);
        if (!state.contacts.empty())
          state.inverse = Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(state.rows).pseudoInverse();
        return cache_.emplace(closed_, std::move(state)).first->second;
      }

      // The end of a sticking phase (a contact still closed at the end of the step that closed it).
      void separation(const unsigned int c, const double t)
      {
        if (!sticking_[c])
          return;
        ContactEvent event;
        event.kind    = ContactEvent::Kind::separation;
        event.time    = t;
        event.contact = c;
        report(event);
        sticking_[c] = false;
      }

      // The contact forces and the constrained acceleration (eqs. 10–12). a: the free
      // acceleration, replaced by the constrained one. While a multiplier is tensile the contact
      // cannot hold: the most tensile one opens and the rest are solved again.
      void constrain(Eigen::VectorXd &a, const double t)
      {
        const Eigen::VectorXd free = a;
        while (true)
          {
            const ConstraintState &S = constraint();
            force_.setZero();
            a = free;
            if (S.contacts.empty())
              return;
            const Eigen::VectorXd lambda = -S.inverse.transpose() * free; // (B_S⁺)ᵀ (b − B_S a), b = 0
            Eigen::Index          worst  = 0;
            if (lambda.minCoeff(&worst) >= 0)
              {
                a += S.rows.transpose() * lambda; // = a − B_S⁺ B_S a
                for (std::size_t k = 0; k < S.contacts.size(); ++k)
                  force_[S.contacts[k]] = lambda[k];
                return;
              }
            closed_[S.contacts[worst]] = false;
            ++releases_;
            ++state_changes_;
            separation(S.contacts[worst], t);
          }
      }

      // Contacts that reach their stop: closed, and (with projection) brought onto it with no
      // approach velocity: an inelastic impact whose impulse is that of the velocity projection.
      void close_and_project(const std::vector<unsigned int> &closing, const double t)
      {
        std::vector<double> before(nc_);
        for (unsigned int i = 0; i < nc_; ++i)
          before[i] = B_.row(i).dot(v_);
        const Eigen::VectorXd impulse = project(closing);
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
                event.post_velocity = B_.row(c).dot(v_);
                event.impulse       = impulse[c];
                report(event);
              }
            if (closed_[c])
              {
                sticking_[c]  = true;
                event.kind    = ContactEvent::Kind::sticking_start;
                event.impulse = event.pre_velocity = event.post_velocity = 0.0;
                report(event);
              }
          }
      }

      // With projection, the violations of the closed set and of the contacts closing now (even
      // if their first multiplier was tensile: the impact happened) projected out (eqs. 18–19);
      // returns the impulse per contact.
      Eigen::VectorXd project(const std::vector<unsigned int> &closing)
      {
        Eigen::VectorXd impulse = Eigen::VectorXd::Zero(nc_);
        if (!projection_)
          return impulse;
        StateKey held = closed_;
        for (unsigned int c : closing)
          closed_[c] = true;
        const ConstraintState *S = &constraint();
        closed_                  = held;
        if (S->contacts.empty())
          return impulse;
        const double    energy_before = recorder_.energy(q_, v_);
        Eigen::VectorXd g(S->contacts.size());
        for (std::size_t k = 0; k < S->contacts.size(); ++k)
          g[k] = P_.gap(S->contacts[k], q_);
        q_ -= S->inverse * g;                                   // eq. (18)
        const Eigen::VectorXd p = -S->inverse.transpose() * v_; // q' jumps by B_Sᵀ p
        v_ += S->rows.transpose() * p;                          // eq. (19)
        recorder_.impact_dissipation += energy_before - recorder_.energy(q_, v_);
        for (std::size_t k = 0; k < S->contacts.size(); ++k)
          impulse[S->contacts[k]] = p[k];
        recorder_.impulse_since_row += impulse;
        return impulse;
      }

      // A contact closes when its gap reaches zero (the paper's test X ≤ δ, eq. 15) unless it
      // already recedes: a contact released at its stop sits there at a rounding-level gap of
      // either sign and must not re-close while it leaves.
      std::vector<unsigned int> closings(const double tolerance, const Eigen::VectorXd &velocity)
      {
        std::vector<unsigned int> closing;
        for (unsigned int i = 0; i < nc_; ++i)
          if (!closed_[i] && P_.gap(i, q_) <= tolerance && B_.row(i).dot(velocity) <= 0)
            {
              closed_[i] = true;
              closing.push_back(i);
              ++state_changes_;
            }
        return closing;
      }

      RunSummary summarise()
      {
        finish_summary();
        count("contact states visited", double(cache_.size()));
        count("contact state changes", double(state_changes_));
        count("releases", double(releases_));
        count("largest |gap| of a closed contact", largest_violation_);
        count("impact dissipation", recorder_.impact_dissipation);
        return summary_;
      }

      const bool                          projection_; // eqs. 18–19 after every step
      std::map<StateKey, ConstraintState> cache_;
      StateKey                            closed_;
      Eigen::VectorXd                     force_; // per contact, of the last constrained acceleration
      std::vector<bool>                   sticking_;
      unsigned long                       state_changes_ = 0, releases_ = 0;
      double                              largest_violation_ = 0.0;
    };
  } // namespace

  RunSummary ModalUdwadiaKalaba::run(const RunControl &control, ResponseObserver &observer) const
  {
    if (!supports_.empty())
      return run_spatial_udwadia_kalaba(settings_, projection_, supports_, control, observer);
    return UdwadiaKalabaRun(settings_, projection_, control, observer).run();
  }

  namespace
  {
    class ModalUdwadiaKalabaSolver
      : public IntegratorSolverBase<ModalUdwadiaKalabaSolver, ModalUdwadiaKalabaSettings, ModalUdwadiaKalaba>
    {
    public:
      static constexpr SolverIdentity identity{"modal-uk",
                                               "modal Udwadia-Kalaba with intermittent constraints, e = 0 impacts, "
                                               "geometric projection, velocity-Verlet (Antunes et al.)",
                                               "Modal Udwadia-Kalaba"};

      void check(const model::StructuralModel &model, const RunControl &control, const std::string &file) const override
      {
        check_modal_stepping(settings_, model, control, file, parameter_section());
        // Coulomb friction has no U–K form that holds here (doc/udwadia_kalaba.md): refused.
        for (const auto &support : model.spatial_supports)
          if (support.friction > 0)
            throw io::InputError(file, "Support " + support.name + "/Friction coefficient",
                                 "modal-uk takes frictionless spatial supports only: use modal-penalty or moreau-jean");
      }

      bool takes_spatial_supports() const override { return true; }
    };

    const SolverRegistration<ModalUdwadiaKalabaSolver> modal_uk_solver_registration;
  } // namespace
} // namespace vibroimpact::integrators
