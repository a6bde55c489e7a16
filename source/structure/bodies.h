// The three kinds of body; make_body (model_builder.cc) picks one.
#pragma once

#include <vibroimpact/structure/body.h>

#include <memory>

namespace vibroimpact::structure
{
  std::unique_ptr<Body> make_beam(const BodyDescription &description,
                                  const std::string     &case_file,
                                  const std::string     &mesh_directory);
  std::unique_ptr<Body> make_rod(const BodyDescription &description,
                                 const std::string     &case_file,
                                 const std::string     &mesh_directory);
  std::unique_ptr<Body> make_mass(const BodyDescription &description);
} // namespace vibroimpact::structure
