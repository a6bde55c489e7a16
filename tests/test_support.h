// Small builders of case descriptions shared by the tests.
#pragma once

#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/structure/case_description.h>

#include <vibroimpact/studies/case_file.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace vibroimpact::test_cases
{
  // A case file read as the program reads it (all sections declared), with overrides.
  using LoadedCase = studies::CaseFile;
  // A row of n entries that reads DoF `dof`: the kinematic rows of hand-built models.
  inline model::SparseRowVector unit_row(const Eigen::Index n, const int dof)
  {
    model::SparseRowVector row(n);
    row.insert(dof) = 1.0;
    return row;
  }

  // A diagonal sparse matrix (lumped masses and springs of hand-built models).
  inline model::SparseMatrix diagonal_matrix(const Eigen::VectorXd &d)
  {
    model::SparseMatrix m(d.size(), d.size());
    for (Eigen::Index i = 0; i < d.size(); ++i)
      if (d[i] != 0.0)
        m.insert(i, i) = d[i];
    m.makeCompressed();
    return m;
  }

  inline LoadedCase load_case(const std::string &path, const std::vector<std::string> &overrides = {})
  {
    return studies::read_case_file(path, overrides);
  }

  // The Moreau–Jean settings a case file gives (its "Moreau-Jean" subsection).
  inline const integrators::MoreauJeanSettings &moreau_jean(const LoadedCase &c)
  {
    return *integrators::settings_of<integrators::MoreauJeanSettings>(c.solver("moreau-jean"));
  }

  // A numeric column of a CSV file with a header row (a missing column fails the test; an empty
  // or non-numeric cell throws).
  inline std::vector<double> csv_column(const std::filesystem::path &file, const std::string &name)
  {
    std::ifstream in(file);
    std::string   line, cell;
    std::getline(in, line);
    std::istringstream header(line);
    int                index = -1;
    for (int k = 0; std::getline(header, cell, ','); ++k)
      if (cell == name)
        index = k;
    EXPECT_GE(index, 0) << name << " not in " << file;
    std::vector<double> values;
    while (std::getline(in, line))
      {
        std::istringstream row(line);
        for (int k = 0; std::getline(row, cell, ','); ++k)
          if (k == index)
            values.push_back(std::stod(cell));
      }
    return values;
  }

  // An example's case file, from the source tree.
  inline std::string example(const std::string &name)
  {
    return std::string(VIBROIMPACT_SOURCE_DIR) + "/examples/" + name + "/case.prm";
  }

  inline structure::BodyDescription beam(const std::string         &name,
                                         unsigned int               n_elements,
                                         structure::EndCondition    left,
                                         structure::EndCondition    right,
                                         double                     length = 1.0)
  {
    structure::BodyDescription body;
    body.name       = name;
    body.type       = structure::BodyType("beam");
    body.length     = length;
    body.n_elements = n_elements;
    body.left       = left;
    body.right      = right;
    return body;
  }

  inline structure::BodyDescription rod(const std::string &name, unsigned int n_elements, unsigned int degree)
  {
    structure::BodyDescription body;
    body.name       = name;
    body.type       = structure::BodyType("rod");
    body.n_elements = n_elements;
    body.degree     = degree;
    body.left       = structure::EndCondition::clamped; // "fixed"
    body.right      = structure::EndCondition::free;
    return body;
  }

  inline structure::BodyDescription point_mass(const std::string &name, double mass)
  {
    structure::BodyDescription body;
    body.name            = name;
    body.type            = structure::BodyType("mass");
    body.mass_per_length = mass;
    return body;
  }

  inline structure::ElementDescription spring(const std::string &name,
                                              const std::string &body,
                                              const std::string &other_body,
                                              double             k)
  {
    structure::ElementDescription element;
    element.name  = name;
    element.type  = structure::ElementType::spring;
    element.point = {body, 0.0};
    element.other = {other_body, 0.0};
    element.value = k;
    return element;
  }

  // The pinned–pinned unit beam of Vyasarayani et al., Section 3 (EI = rho A = L = 1), an
  // obstacle below x = 0.4 at gap 0, and a probe at the contact point.
  inline structure::CaseDescription pinned_beam_on_obstacle(unsigned int       n_elements,
                                                            double             restitution,
                                                            const std::string &w0 = "3*sin(pi*x)")
  {
    structure::CaseDescription c;
    c.name   = "pinned_beam";
    c.bodies = {beam("beam", n_elements, structure::EndCondition::pinned, structure::EndCondition::pinned)};
    c.bodies[0].initial_displacement = w0;
    structure::ContactDescription obstacle;
    obstacle.name        = "obstacle";
    obstacle.point       = {"beam", 0.4};
    obstacle.side        = structure::ContactSide::below;
    obstacle.restitution = restitution;
    c.contacts           = {obstacle};
    c.probes             = {{"x04", {"beam", 0.4}}};
    return c;
  }

  // F sin(omega t), distributed uniformly over a body or at a point.
  inline structure::LoadDescription harmonic_load(const std::string                &name,
                                                  structure::LoadDistribution       distribution,
                                                  const structure::PointOnBody     &point,
                                                  double                            amplitude,
                                                  double                            omega)
  {
    structure::LoadDescription load;
    load.name         = name;
    load.distribution = distribution;
    load.point        = point;
    load.time         = structure::TimeDependence::harmonic;
    load.amplitude    = amplitude;
    load.omega        = omega;
    return load;
  }

  // wall - k1 - m1 - k2 - m2, a stop at gap d on m2 (the seed talk's 2-DOF benchmark).
  inline structure::CaseDescription two_dof_chain(double m = 1, double k = 1, double gap = 0.1)
  {
    structure::CaseDescription c;
    c.name = "two_dof_chain";
    c.bodies   = {point_mass("m1", m), point_mass("m2", m)};
    c.elements = {spring("k1", "m1", "", k), spring("k2", "m2", "m1", k)};
    structure::ContactDescription stop;
    stop.name  = "stop";
    stop.point = {"m2", 0.0};
    stop.gap   = gap;
    stop.side  = structure::ContactSide::above;
    c.contacts = {stop};
    c.n_modes  = 2;
    return c;
  }
} // namespace vibroimpact::test_cases
