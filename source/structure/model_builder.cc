#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/resources.h>
#include <vibroimpact/model/modal_analysis.h>
#include <vibroimpact/structure/body.h>
#include <vibroimpact/structure/expression.h>
#include <vibroimpact/structure/model_builder.h>

#include "bodies.h"

#include <Eigen/SparseCholesky>
#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

namespace vibroimpact::structure
{
  std::unique_ptr<Body> make_body(const BodyDescription &description,
                                  const std::string     &case_file,
                                  const std::string     &mesh_directory)
  {
    switch (description.type)
      {
        case BodyType::beam:
          return make_beam(description, case_file, mesh_directory);
        case BodyType::rod:
          return make_rod(description, case_file, mesh_directory);
        case BodyType::mass:
          return make_mass(description);
      }
    return nullptr;
  }

  namespace
  {
    using model::SparseRow;
    using model::Vector;

    std::array<double, 3> unit(std::array<double, 3> v)
    {
      const double norm = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
      if (norm > 0)
        for (auto &c : v)
          c /= norm;
      return v;
    }

    // The bodies of the case with their place in the global DoF vector.
    class Assembly
    {
    public:
      explicit Assembly(const CaseDescription &description)
        : description_(description)
      {
        const std::string directory =
          std::filesystem::path(description.filename).parent_path().string();
        for (const auto &body : description.bodies)
          {
            offsets_.push_back(n_dofs_);
            bodies_.push_back(std::shared_ptr<const Body>(make_body(body, description.filename, directory)));
            n_dofs_ += bodies_.back()->n_dofs();
          }
      }

      unsigned int n_dofs() const { return n_dofs_; }
      const auto  &bodies() const { return bodies_; }
      unsigned int offset(std::size_t b) const { return offsets_[b]; }

      [[noreturn]] void fail(const std::string &parameter, const std::string &reason) const
      {
        throw io::InputError(description_.filename, parameter, reason);
      }

      std::size_t body_index(const std::string &name, const std::string &parameter) const
      {
        for (std::size_t b = 0; b < bodies_.size(); ++b)
          if (bodies_[b]->name() == name)
            return b;
        fail(parameter, name.empty() ? "no body given" : "there is no body named '" + name + "'");
      }

      // The row of the displacement at a point; section names the subsection for errors.
      SparseRow row(const PointOnBody &point, const std::string &section, const std::string &body_entry,
                    const std::string &position_entry) const
      {
        SparseRow   result(n_dofs_);
        const auto  b    = body_index(point.body, section + "/" + body_entry);
        const auto &body = *bodies_[b];
        if (body.description().type == BodyType::mass && point.x != 0.0)
          fail(section + "/" + position_entry,
               "body '" + body.name() + "' is a point mass: its only point is x = 0, got " + std::to_string(point.x));
        if (body.description().type != BodyType::mass &&
            !(point.x >= -1e-12 * body.length() && point.x <= body.length() * (1 + 1e-12)))
          fail(section + "/" + position_entry,
               "x = " + std::to_string(point.x) + " lies outside body '" + body.name() + "' [0, " +
                 std::to_string(body.length()) + "]");
        for (const auto &[dof, weight] : body.displacement_row(std::clamp(point.x, 0.0, body.length())))
          result.coeffRef(offsets_[b] + dof) += weight;
        return result;
      }

      std::array<double, 3> location(const PointOnBody &point) const
      {
        if (point.is_ground())
          return {{0, 0, 0}};
        const auto &body = bodies_[body_index(point.body, "")]->description();
        const auto  axis = unit(body.axis);
        return {{body.origin[0] + point.x * axis[0], body.origin[1] + point.x * axis[1],
                 body.origin[2] + point.x * axis[2]}};
      }

      // A global vector from a body's local one.
      Vector place(std::size_t b, const Vector &local) const
      {
        Vector global                                 = Vector::Zero(n_dofs_);
        global.segment(offsets_[b], local.size())     = local;
        return global;
      }

    private:
      const CaseDescription             &description_;
      std::vector<std::shared_ptr<const Body>> bodies_; // shared: the continuum's rows keep them
      std::vector<unsigned int>          offsets_;
      unsigned int                       n_dofs_ = 0;
    };

    void add_outer_product(std::vector<Eigen::Triplet<double>> &triplets, const SparseRow &r, double scale)
    {
      for (SparseRow::InnerIterator i(r); i; ++i)
        for (SparseRow::InnerIterator j(r); j; ++j)
          triplets.emplace_back(i.index(), j.index(), scale * i.value() * j.value());
    }

    // One period 2π/Δω of Σ_k a cos((k0 + k) Δω t + φ_k), k = 1..N, and its derivative, sampled by
    // inverse real FFTs at M ≥ 16 (k0 + N) points (a power of two): 16 samples a period of the
    // highest line keep the Hermite interpolation error below 1e-4 of a line's amplitude.
    model::SampledPeriod sample_period(const long k0, const std::vector<double> &phases, const double step,
                                       const double amplitude)
    {
      const long top = k0 + static_cast<long>(phases.size());
      long       M   = 64;
      while (M < 16 * top)
        M *= 2;
      std::vector<fftw_complex> spectrum(M / 2 + 1);
      std::vector<double>       signal(M);
      model::SampledPeriod      period;
      period.interval = 2 * M_PI / step / M;
      fftw_plan plan  = fftw_plan_dft_c2r_1d(static_cast<int>(M), spectrum.data(), signal.data(), FFTW_ESTIMATE);
      for (const bool derivative : {false, true})
        {
          // c2r: x_j = Σ_k X_k e^{2πi jk/M} over the Hermitian spectrum, so X_k = (a/2) e^{iφ}
          // gives a cos(2π jk/M + φ); the derivative multiplies by i k Δω.
          for (auto &x : spectrum)
            x[0] = x[1] = 0.0;
          for (std::size_t k = 0; k < phases.size(); ++k)
            {
              const double w = (k0 + 1 + static_cast<long>(k)) * step;
              const double c = 0.5 * amplitude * std::cos(phases[k]), d = 0.5 * amplitude * std::sin(phases[k]);
              auto        &X = spectrum[k0 + 1 + k];
              X[0]           = derivative ? -w * d : c;
              X[1]           = derivative ? w * c : d;
            }
          fftw_execute(plan); // the plan is kept; its arrays are refilled in place
          (derivative ? period.slopes : period.values) = signal;
        }
      fftw_destroy_plan(plan);
      return period;
    }

    model::TimeFunction time_function(const LoadDescription &load)
    {
      model::TimeFunction f;
      f.amplitude = load.amplitude;
      switch (load.time)
        {
          case TimeDependence::constant:
            f.kind = model::TimeFunction::Kind::constant;
            break;
          case TimeDependence::harmonic:
            f.kind  = model::TimeFunction::Kind::harmonic;
            f.omega = load.omega;
            f.phase = load.phase;
            break;
          case TimeDependence::random:
            {
              // N lines k Δω (Δω = band / N, k = k0+1 .. k0+N, k0 = round(low/Δω)) of equal
              // amplitude, phases from the seed: a flat one-sided PSD RMS² / band, periodic in
              // 2π/Δω. The phase is made from the generator's raw bits so the same seed gives
              // the same load with any standard library.
              f.kind = model::TimeFunction::Kind::random;
              std::mt19937_64    generator(load.seed);
              const double       step = (load.band_high - load.band_low) / load.n_harmonics;
              const long         k0   = std::lround(load.band_low / step);
              for (unsigned int k = 1; k <= load.n_harmonics; ++k)
                {
                  f.omegas.push_back((k0 + k) * step);
                  f.phases.push_back(2 * M_PI * static_cast<double>(generator() >> 11) * 0x1.0p-53);
                }
              f.samples = std::make_shared<const model::SampledPeriod>(
                sample_period(k0, f.phases, step, load.amplitude * std::sqrt(2.0 / load.n_harmonics)));
              break;
            }
        }
      return f;
    }

    model::OutputGeometry make_geometry(const Assembly &assembly, const CaseDescription &description)
    {
      model::OutputGeometry               geometry;
      std::vector<Eigen::Triplet<double>> map;
      for (std::size_t b = 0; b < assembly.bodies().size(); ++b)
        {
          const Body &body      = *assembly.bodies()[b];
          const auto  axis      = unit(body.description().axis);
          const auto  direction = unit(body.motion_direction());
          geometry.body_names.push_back(body.name());
          geometry.body_directions.push_back(direction);
          const auto   xs    = body.sample_coordinates(description.samples_per_element);
          const auto   first = static_cast<unsigned int>(geometry.points.size());
          for (const double x : xs)
            {
              const auto p = static_cast<unsigned int>(geometry.points.size());
              geometry.point_body.push_back(b);
              geometry.point_coordinate.push_back(x);
              geometry.points.push_back({{body.description().origin[0] + x * axis[0],
                                          body.description().origin[1] + x * axis[1],
                                          body.description().origin[2] + x * axis[2]}});
              for (const auto &[dof, weight] : body.displacement_row(x))
                for (unsigned int c = 0; c < 3; ++c)
                  if (direction[c] != 0.0)
                    map.emplace_back(3 * p + c, assembly.offset(b) + dof, weight * direction[c]);
            }
          const auto last = static_cast<unsigned int>(geometry.points.size()) - 1;
          if (first == last) // a point mass is drawn as a vertex
            geometry.segments.push_back({{first, first}}), geometry.segment_body.push_back(b);
          for (unsigned int p = first; p < last; ++p)
            geometry.segments.push_back({{p, p + 1}}), geometry.segment_body.push_back(b);
        }
      // Each contact is drawn as a vertex that moves with its point, to carry its impulse.
      for (const auto &contact : description.contacts)
        {
          const auto b         = assembly.body_index(contact.point.body, "Contact " + contact.name + "/Body");
          const auto &body     = *assembly.bodies()[b];
          const auto direction = unit(body.motion_direction());
          const auto p         = static_cast<unsigned int>(geometry.points.size());
          geometry.points.push_back(assembly.location(contact.point));
          geometry.point_body.push_back(b);
          geometry.point_coordinate.push_back(contact.point.x);
          geometry.contact_points.push_back(p);
          geometry.segments.push_back({{p, p}});
          geometry.segment_body.push_back(b);
          for (const auto &[dof, weight] : body.displacement_row(std::clamp(contact.point.x, 0.0, body.length())))
            for (unsigned int c = 0; c < 3; ++c)
              if (direction[c] != 0.0)
                map.emplace_back(3 * p + c, assembly.offset(b) + dof, weight * direction[c]);
        }
      geometry.displacement_map.resize(3 * geometry.points.size(), assembly.n_dofs());
      geometry.displacement_map.setFromTriplets(map.begin(), map.end());
      return geometry;
    }

    // Largest displacement over the drawn points: the peak of a shape between nodes too.
    double peak_displacement(const model::OutputGeometry &geometry, const Vector &u)
    {
      return (geometry.displacement_map * u).cwiseAbs().maxCoeff();
    }

    void set_initial_state(model::StructuralModel &m,
                           const Assembly         &assembly,
                           const CaseDescription  &description)
    {
      const auto &file = description.filename;
      m.initial_displacement = Vector::Zero(assembly.n_dofs());
      m.initial_velocity     = Vector::Zero(assembly.n_dofs());
      for (std::size_t b = 0; b < assembly.bodies().size(); ++b)
        {
          const Body       &body    = *assembly.bodies()[b];
          const std::string section = "Body " + body.name() + "/";
          const auto u = parse_expression(body.description().initial_displacement, file, section + "Initial displacement");
          const auto v = parse_expression(body.description().initial_velocity, file, section + "Initial velocity");
          if (description.initial_state.type == InitialStateType::expressions)
            m.initial_displacement += assembly.place(b, body.interpolate(u.value, u.derivative));
          m.initial_velocity += assembly.place(b, body.interpolate(v.value, v.derivative));
        }

      const auto &initial = description.initial_state;
      if (initial.type == InitialStateType::mode)
        {
          if (initial.mode > m.n_dofs())
            assembly.fail("Initial state/Mode", "the model has only " + std::to_string(m.n_dofs()) + " modes");
          const auto   modes = model::compute_modes(m, initial.mode);
          const Vector shape = modes.shapes.col(initial.mode - 1);
          m.initial_displacement = initial.amplitude / peak_displacement(m.geometry, shape) * shape;
        }
      else if (initial.type == InitialStateType::static_load)
        {
          const SparseRow r = assembly.row(initial.load_point, "Initial state", "Load body", "Load position");
          Eigen::SimplicialLDLT<model::SparseMatrix> factor(m.stiffness);
          if (factor.info() != Eigen::Success || factor.vectorD().minCoeff() <= 0)
            assembly.fail("Initial state/Type",
                          "a static initial state needs a structure held against rigid-body motion");
          Vector u = factor.solve(initial.force * Vector(r));
          if (initial.target_displacement != 0.0)
            {
              const double at_load = r.dot(u);
              if (std::abs(at_load) == 0.0)
                assembly.fail("Initial state/Target displacement", "the loaded point does not move");
              u *= initial.target_displacement / at_load;
            }
          m.initial_displacement = u;
        }
    }

    // The closed-form modes of a lone uniform pinned–pinned beam (nothing attached: no masses,
    // springs or dampers), interpolated at its DoFs: the closure keeps only each DoF's
    // coordinate and kind (from the model's continuum description), not the mesh.
    model::ExactModes exact_modes(const model::StructuralModel &m)
    {
      using Body = model::ContinuumBody;
      const auto &bodies = m.continuum.bodies;
      if (bodies.size() != 1 || m.continuum.n_lumped_elements != 0)
        return {};
      const Body &beam = bodies.front();
      if (beam.type != Body::Type::beam || beam.left != Body::End::pinned || beam.right != Body::End::pinned)
        return {};
      std::vector<std::pair<double, bool>> dofs; // (x, is slope)
      for (std::size_t i = 0; i < beam.dof_coordinates.size(); ++i)
        dofs.emplace_back(beam.dof_coordinates[i], m.dof_kinds[beam.first_dof + i] == model::DofKind::slope);
      const double L = beam.length, rhoA = beam.mass_per_length, c = std::sqrt(beam.stiffness / rhoA);
      return {"pinned-pinned beam", [dofs, L, rhoA, c](const unsigned int n, Vector &omegas, Eigen::MatrixXd &shapes) {
                const double amplitude = std::sqrt(2 / (rhoA * L));
                omegas.resize(n);
                shapes.resize(static_cast<Eigen::Index>(dofs.size()), n);
                for (unsigned int j = 0; j < n; ++j)
                  {
                    const double k = (j + 1) * M_PI / L;
                    omegas[j]      = k * k * c;
                    for (std::size_t i = 0; i < dofs.size(); ++i)
                      shapes(static_cast<Eigen::Index>(i), j) =
                        dofs[i].second ? amplitude * k * std::cos(k * dofs[i].first) : amplitude * std::sin(k * dofs[i].first);
                  }
              }};
    }

    bool finite(const Triplets &entries)
    {
      return std::all_of(entries.begin(), entries.end(), [](const auto &t) { return std::isfinite(t.value()); });
    }

    // Element matrices of a body whose data are finite but whose products (EI/L³, ρAL, ...) are
    // not: blame the data entry furthest from 1 in magnitude.
    void check_finite_matrices(const Assembly &assembly, const Body &body, const Triplets &mass,
                               const Triplets &stiffness)
    {
      if (finite(mass) && finite(stiffness))
        return;
      const auto &d = body.description();
      std::vector<std::pair<std::string, double>> data;
      if (d.type == BodyType::mass)
        data = {{"Mass", d.mass_per_length}};
      else
        data = {{"Length", d.length},
                {d.type == BodyType::beam ? "Bending stiffness" : "Axial stiffness", d.stiffness},
                {"Mass per unit length", d.mass_per_length}};
      const auto extreme = *std::max_element(data.begin(), data.end(), [](const auto &a, const auto &b) {
        return std::abs(std::log10(a.second)) < std::abs(std::log10(b.second));
      });
      std::ostringstream reason;
      reason << extreme.second << " makes the " << (finite(mass) ? "stiffness" : "mass")
             << " matrix overflow (entries beyond the range of a double)";
      assembly.fail("Body " + body.name() + "/" + extreme.first, reason.str());
    }

    // A non-finite initial field or energy, blamed on the entry that set it: the body's
    // expression, or the Initial state entry that scaled a mode or static shape.
    void check_finite_initial_state(const model::StructuralModel &m, const Assembly &assembly,
                                    const CaseDescription &description)
    {
      const auto &initial = description.initial_state;
      // The body holding the largest (or a non-finite) entry of a field.
      const auto body_entry = [&](const Vector &field, const std::string &entry) {
        Eigen::Index worst = 0;
        for (Eigen::Index i = 0; i < field.size(); ++i)
          if (!std::isfinite(field[i]) || std::abs(field[i]) > std::abs(field[worst]))
            {
              worst = i;
              if (!std::isfinite(field[i]))
                break;
            }
        std::size_t b = 0;
        while (b + 1 < assembly.bodies().size() && worst >= static_cast<Eigen::Index>(assembly.offset(b + 1)))
          ++b;
        return "Body " + assembly.bodies()[b]->name() + "/" + entry;
      };
      const auto displacement_entry = [&] {
        switch (initial.type)
          {
            case InitialStateType::mode:
              return std::string("Initial state/Amplitude");
            case InitialStateType::static_load:
              return std::string(initial.target_displacement != 0.0 ? "Initial state/Target displacement" :
                                                                       "Initial state/Force");
            case InitialStateType::expressions:
              break;
          }
        return body_entry(m.initial_displacement, "Initial displacement");
      };
      if (!m.initial_displacement.allFinite())
        assembly.fail(displacement_entry(), "the initial displacement is not finite (nan or inf)");
      if (!m.initial_velocity.allFinite())
        assembly.fail(body_entry(m.initial_velocity, "Initial velocity"), "the initial velocity is not finite (nan or inf)");
      if (!std::isfinite(m.potential_energy(m.initial_displacement)))
        assembly.fail(displacement_entry(), "the initial strain energy overflows a double");
      if (!std::isfinite(m.kinetic_energy(m.initial_velocity)))
        assembly.fail(body_entry(m.initial_velocity, "Initial velocity"), "the initial kinetic energy overflows a double");
    }

    // The memory a model needs grows with its elements (mesh, DoF handler, sparse matrices and
    // factorisations, output geometry): measured about 3.5 kB per beam element with `modes`
    // (197 MB at 5 000 elements, 249 MB at 20 000). A model that cannot fit is refused up front
    // instead of growing until the machine swaps or kills it.
    constexpr double bytes_per_element = 4096;

    void check_model_size(const CaseDescription &description)
    {
      double      elements = 0, largest = 0;
      std::string largest_body;
      for (const auto &body : description.bodies)
        if (body.type != BodyType::mass && body.mesh_file.empty())
          {
            const double n = body.n_elements * std::ldexp(1.0, static_cast<int>(body.refinements));
            elements += n;
            if (n > largest)
              largest = n, largest_body = body.name;
          }
      const double needed = elements * bytes_per_element, available = io::available_memory();
      if (needed > 0.8 * available)
        {
          std::ostringstream reason;
          reason << elements << " elements in all need about " << needed / 1e9 << " GB, more than the "
                 << available / 1e9 << " GB this machine has available";
          throw io::InputError(description.filename, "Body " + largest_body + "/Number of elements", reason.str());
        }
    }

    model::ContinuumBody::End continuum_end(const EndCondition end)
    {
      switch (end)
        {
          case EndCondition::pinned:
            return model::ContinuumBody::End::pinned;
          case EndCondition::clamped:
            return model::ContinuumBody::End::clamped;
          case EndCondition::sliding:
            return model::ContinuumBody::End::sliding;
          case EndCondition::free:
          default:
            return model::ContinuumBody::End::free;
        }
    }

    // The bodies as continua (for the wave-mode reference): data, ends, where the DoFs sit, and
    // a row closure that keeps the body (not the assembly) alive.
    model::Continuum make_continuum(const Assembly &assembly, const CaseDescription &description)
    {
      model::Continuum continuum;
      continuum.n_lumped_elements = static_cast<unsigned int>(description.elements.size());
      for (std::size_t b = 0; b < assembly.bodies().size(); ++b)
        {
          const auto  body = assembly.bodies()[b];
          const auto &d    = body->description();
          model::ContinuumBody c;
          c.name            = d.name;
          c.type            = d.type == BodyType::beam ? model::ContinuumBody::Type::beam :
                              d.type == BodyType::rod  ? model::ContinuumBody::Type::rod :
                                                         model::ContinuumBody::Type::mass;
          c.length          = body->length();
          c.stiffness       = d.stiffness;
          c.mass_per_length = d.mass_per_length;
          c.left            = continuum_end(d.left);
          c.right           = continuum_end(d.right);
          c.lumped_mass     = d.lumped_mass;
          c.first_dof       = assembly.offset(b);
          c.n_dofs          = body->n_dofs();
          if (d.type != BodyType::mass)
            {
              const Vector value_x = body->interpolate([](double x) { return x; }, [](double) { return 0.0; });
              const Vector slope_x = body->interpolate([](double) { return 0.0; }, [](double x) { return x; });
              const auto   kinds   = body->dof_kinds();
              for (std::size_t i = 0; i < kinds.size(); ++i)
                c.dof_coordinates.push_back(kinds[i] == model::DofKind::slope ? slope_x[i] : value_x[i]);
              c.element_boundaries = body->sample_coordinates(1);
            }
          else
            c.dof_coordinates = {0.0};
          const unsigned int offset = assembly.offset(b), n = assembly.n_dofs();
          c.displacement_row        = [body, offset, n](double x) {
            SparseRow row(n);
            for (const auto &[dof, weight] : body->displacement_row(std::clamp(x, 0.0, body->length())))
              row.coeffRef(offset + dof) += weight;
            return row;
          };
          continuum.bodies.push_back(std::move(c));
        }
      return continuum;
    }

    // The supports as what they are made of: per support, a probe at the point, a contact with
    // each stop (rigid: the ground; flexible: a point-mass body on a spring and a dashpot to the
    // ground), and a constant point load for a preload. Names: <s>_lower, <s>_upper (contacts and
    // stop bodies <s>_lower_stop, ...), <s> (probe), <s>_preload.
    CaseDescription expand_supports(const CaseDescription &original)
    {
      CaseDescription d = original;
      for (const auto &support : original.supports)
        {
          const std::string section = "Support " + support.name + "/";
          const BodyDescription *body = original.find_body(support.point.body);
          if (body == nullptr)
            throw io::InputError(original.filename, section + "Body",
                                 support.point.body.empty() ? "no body given" :
                                                              "there is no body named '" + support.point.body + "'");
          if (body->type != BodyType::beam)
            throw io::InputError(original.filename, section + "Body",
                                 "body '" + body->name + "' is not a beam: a clearance support holds a beam");
          if (!(support.point.x >= 0 && support.point.x <= body->length))
            throw io::InputError(original.filename, section + "Position",
                                 "x = " + std::to_string(support.point.x) + " lies outside beam '" + body->name +
                                   "' [0, " + std::to_string(body->length) + "]");
          d.probes.push_back({support.name, support.point});
          const auto axis = unit(body->axis), up = unit(body->deflection);
          for (const bool upper : {false, true})
            {
              const std::string name = support.name + (upper ? "_upper" : "_lower");
              const double      gap  = upper ? support.upper_gap : support.lower_gap;
              ContactDescription contact;
              contact.name        = name;
              contact.point       = support.point;
              contact.gap         = upper ? gap : -gap;
              contact.side        = upper ? ContactSide::above : ContactSide::below;
              contact.restitution = support.restitution;
              if (support.flexible)
                {
                  BodyDescription stop;
                  stop.name            = name + "_stop";
                  stop.type            = BodyType::mass;
                  stop.mass_per_length = support.stop_mass;
                  stop.length          = 0.0;
                  stop.deflection      = body->deflection;
                  for (int c = 0; c < 3; ++c) // drawn where it stands
                    stop.origin[c] = body->origin[c] + support.point.x * axis[c] + gap * up[c];
                  d.bodies.push_back(stop);
                  d.elements.push_back({name + "_spring", ElementType::spring, {stop.name, 0.0}, {}, support.stop_stiffness});
                  if (support.stop_damping > 0)
                    d.elements.push_back({name + "_dashpot", ElementType::dashpot, {stop.name, 0.0}, {}, support.stop_damping});
                  contact.other = {stop.name, 0.0};
                }
              d.contacts.push_back(contact);
            }
          if (support.preload != 0.0)
            {
              LoadDescription load;
              load.name         = support.name + "_preload";
              load.distribution = LoadDistribution::point;
              load.point        = support.point;
              load.time         = TimeDependence::constant;
              load.amplitude    = support.preload;
              d.loads.push_back(load);
            }
        }
      return d;
    }

    model::BodyPoint body_point(const Assembly &assembly, const PointOnBody &point)
    {
      if (point.is_ground())
        return {};
      return {static_cast<int>(assembly.body_index(point.body, "")), point.x};
    }
  } // namespace

  model::StructuralModel build_model(const CaseDescription &original)
  {
    const CaseDescription description = expand_supports(original);
    check_model_size(description);
    const Assembly         assembly(description);
    const unsigned int     n = assembly.n_dofs();
    model::StructuralModel m;
    m.name = description.name;

    std::vector<Eigen::Triplet<double>> mass, stiffness, damping, dashpots;
    // The stiffness of what cannot give its strain energy from strains (rods, springs), and the
    // bodies that can (beams): together the model's cancellation-free strain energy.
    std::vector<Eigen::Triplet<double>>           other_stiffness;
    std::vector<std::pair<std::size_t, unsigned>> strain_bodies; // (body, offset)
    for (std::size_t b = 0; b < assembly.bodies().size(); ++b)
      {
        Triplets body_mass, body_stiffness;
        assembly.bodies()[b]->assemble(body_mass, body_stiffness);
        check_finite_matrices(assembly, *assembly.bodies()[b], body_mass, body_stiffness);
        const int  offset      = assembly.offset(b);
        const bool from_strain = assembly.bodies()[b]->strain_energy(Vector::Zero(assembly.bodies()[b]->n_dofs())).has_value();
        if (from_strain)
          strain_bodies.emplace_back(b, offset);
        for (const auto &t : body_mass)
          mass.emplace_back(t.row() + offset, t.col() + offset, t.value());
        for (const auto &t : body_stiffness)
          {
            stiffness.emplace_back(t.row() + offset, t.col() + offset, t.value());
            if (!from_strain)
              other_stiffness.emplace_back(t.row() + offset, t.col() + offset, t.value());
          }
        m.n_elements += assembly.bodies()[b]->n_elements();
        const auto kinds = assembly.bodies()[b]->dof_kinds();
        m.dof_kinds.insert(m.dof_kinds.end(), kinds.begin(), kinds.end());
      }

    for (const auto &element : description.elements)
      {
        const std::string section = "Element " + element.name;
        SparseRow         r       = assembly.row(element.point, section, "Body", "Position");
        if (element.type == ElementType::mass)
          {
            add_outer_product(mass, r, element.value);
            continue;
          }
        if (!element.other.is_ground())
          r -= assembly.row(element.other, section, "Other body", "Other position");
        add_outer_product(element.type == ElementType::spring ? stiffness : damping, r, element.value);
        if (element.type == ElementType::dashpot)
          add_outer_product(dashpots, r, element.value);
        if (element.type == ElementType::spring)
          add_outer_product(other_stiffness, r, element.value);
      }

    m.mass.resize(n, n);
    m.mass.setFromTriplets(mass.begin(), mass.end());
    m.stiffness.resize(n, n);
    m.stiffness.setFromTriplets(stiffness.begin(), stiffness.end());
    m.damping.resize(n, n);
    m.damping.setFromTriplets(damping.begin(), damping.end());
    m.dashpots.resize(n, n);
    m.dashpots.setFromTriplets(dashpots.begin(), dashpots.end());
    if (!strain_bodies.empty())
      {
        model::SparseMatrix rest(n, n);
        rest.setFromTriplets(other_stiffness.begin(), other_stiffness.end());
        std::vector<std::pair<std::shared_ptr<const Body>, unsigned int>> bodies;
        for (const auto &[b, offset] : strain_bodies)
          bodies.emplace_back(assembly.bodies()[b], offset);
        m.strain_energy = [bodies, rest](const Vector &u) {
          double energy = 0.5 * u.dot(rest * u);
          for (const auto &[body, offset] : bodies)
            energy += *body->strain_energy(u.segment(offset, body->n_dofs()));
          return energy;
        };
      }

    for (const auto &contact : description.contacts)
      {
        const std::string section = "Contact " + contact.name;
        SparseRow         r       = assembly.row(contact.point, section, "Body", "Position");
        if (!contact.other.is_ground())
          r -= assembly.row(contact.other, section, "Other body", "Other position");
        if (contact.side == ContactSide::above)
          r = -r;
        r.prune(0.0);
        if (r.nonZeros() == 0)
          assembly.fail(section + "/Position",
                        contact.other.is_ground() ?
                          "the contact point cannot move (it sits on a constrained end)" :
                          contact.other.body == contact.point.body && contact.other.x == contact.point.x ?
                          "the contact's two points are one point of body '" + contact.point.body +
                            "': their gap can never change" :
                          "the contact's two points cannot move relative to each other");
        m.contacts.push_back(model::Contact{contact.name, r, contact.gap, contact.restitution,
                                            assembly.location(contact.point), body_point(assembly, contact.point),
                                            body_point(assembly, contact.other),
                                            contact.side == ContactSide::above ? -1.0 : 1.0});
      }

    for (const auto &probe : description.probes)
      m.probes.push_back(model::Probe{probe.name, assembly.row(probe.point, "Probe " + probe.name, "Body", "Position"),
                                      body_point(assembly, probe.point)});

    for (const auto &load : description.loads)
      {
        const std::string section = "Load " + load.name;
        Vector            spatial = Vector::Zero(n);
        switch (load.distribution)
          {
            case LoadDistribution::point:
              spatial = Vector(assembly.row(load.point, section, "Body", "Position"));
              break;
            case LoadDistribution::uniform:
            case LoadDistribution::expression:
              {
                const auto b = assembly.body_index(load.point.body, section + "/Body");
                const auto q = load.distribution == LoadDistribution::uniform ?
                                 ParsedFunction{[](double) { return 1.0; }, {}} :
                                 parse_expression(load.expression, description.filename, section + "/Expression");
                spatial = assembly.place(b, assembly.bodies()[b]->distributed_load(q.value));
                break;
              }
            case LoadDistribution::gravity:
              for (std::size_t b = 0; b < assembly.bodies().size(); ++b)
                {
                  const double rhoA = assembly.bodies()[b]->description().mass_per_length;
                  spatial += assembly.place(b, assembly.bodies()[b]->distributed_load([rhoA](double) { return rhoA; }));
                }
              break;
          }
        if (!spatial.allFinite())
          assembly.fail(section + "/" + (load.distribution == LoadDistribution::expression ? "Expression" : "Amplitude"),
                        "the load vector is not finite (nan or inf)");
        model::BodyPoint point;
        if (load.distribution != LoadDistribution::gravity)
          point = body_point(assembly, load.point);
        m.loads.push_back(model::LoadTerm{load.name, spatial, time_function(load),
                                          load.distribution == LoadDistribution::point, point});
      }

    const auto index_of = [](const auto &items, const std::string &name) {
      for (std::size_t i = 0; i < items.size(); ++i)
        if (items[i].name == name)
          return static_cast<unsigned int>(i);
      throw std::logic_error("support part '" + name + "' missing");
    };
    for (const auto &support : description.supports)
      m.supports.push_back(model::ClearanceSupport{support.name, index_of(m.contacts, support.name + "_lower"),
                                                   index_of(m.contacts, support.name + "_upper"),
                                                   index_of(m.probes, support.name), support.lower_gap,
                                                   support.upper_gap, support.flexible, support.preload});

    const auto &d = description.damping;
    if (d.rayleigh_mass > 0 || d.rayleigh_stiffness > 0)
      m.damping += d.rayleigh_mass * m.mass + d.rayleigh_stiffness * m.stiffness;
    if (d.n_damped_modes > 0)
      {
        if (d.n_damped_modes > n)
          assembly.fail("Damping/Number of damped modes", "the model has only " + std::to_string(n) + " DoFs");
        const auto modes = model::compute_modes(m, d.n_damped_modes);
        m.modal_damping.basis = m.mass * modes.shapes;
        m.modal_damping.coefficients.resize(d.n_damped_modes);
        for (unsigned int j = 0; j < d.n_damped_modes; ++j)
          m.modal_damping.coefficients[j] =
            2 * d.modal_ratios[std::min<std::size_t>(j, d.modal_ratios.size() - 1)] * modes.omegas[j];
      }

    m.geometry = make_geometry(assembly, description);
    set_initial_state(m, assembly, description);
    check_finite_initial_state(m, assembly, description);
    m.continuum   = make_continuum(assembly, description);
    m.exact_modes = exact_modes(m);

    // A solver cannot start inside an obstacle: the impact law would act on a closed gap that
    // never opens. Zero (resting on the stop) is fine.
    for (std::size_t c = 0; c < m.contacts.size(); ++c)
      {
        const auto  &contact = m.contacts[c];
        const double moved   = contact.row.dot(m.initial_displacement);
        const double gap     = contact.gap0 + moved;
        if (gap < -1e-9 * std::max(std::abs(contact.gap0), std::abs(moved)))
          assembly.fail("Contact " + contact.name + "/Gap",
                        "the initial state penetrates the contact: g(0) = " + std::to_string(gap) +
                          " (Gap " + std::to_string(contact.gap0) + ", initial displacement " +
                          std::to_string(moved) + ")");
      }
    return m;
  }
} // namespace vibroimpact::structure

namespace vibroimpact::structure
{
  std::vector<ConditioningEstimate> conditioning_estimates(const CaseDescription &description)
  {
    std::vector<ConditioningEstimate> estimates;
    const double epsilon = std::numeric_limits<double>::epsilon();
    for (const auto &body : description.bodies)
      {
        if (body.type == BodyType::mass || !body.mesh_file.empty())
          continue;
        ConditioningEstimate e;
        e.body                 = body.name;
        e.elements             = body.n_elements << body.refinements;
        const double ratio     = M_PI / e.elements; // πh/L
        const bool   beam      = body.type == BodyType::beam;
        const bool   quadratic = !beam && body.degree == 2;
        e.roundoff_bound       = 0.5 * epsilon * std::pow(ratio, beam ? -4 : -2);
        e.discretisation_error = beam ? std::pow(ratio, 4) / 1440 : quadratic ? std::pow(ratio, 4) / 2880 : ratio * ratio / 24;
        estimates.push_back(e);
      }
    return estimates;
  }

  std::vector<std::string> conditioning_warnings(const CaseDescription &description, const double threshold)
  {
    std::vector<std::string> warnings;
    for (const auto &e : conditioning_estimates(description))
      {
        const bool dominant = e.roundoff_bound > e.discretisation_error;
        if (threshold > 0 ? e.roundoff_bound <= threshold : !dominant)
          continue;
        std::ostringstream line;
        line << "Body " << e.body << ": at " << e.elements << " elements round-off in the relative error of omega_1 is estimated at "
             << e.roundoff_bound << " (eps (L/(pi h))^p / 2), " << (dominant ? "above" : "against")
             << " its discretisation error " << e.discretisation_error
             << (dominant ? ": refining further does not make it more accurate" : "");
        warnings.push_back(line.str());
      }
    return warnings;
  }
} // namespace vibroimpact::structure
