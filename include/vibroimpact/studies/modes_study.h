// The modal analysis of a case (`vibroimpact modes`, the Python module's Case.modes()): its
// natural frequencies and mass-normalised modes, the shapes as drawn (unit peak), returned as
// data; write_modes then writes modes.csv, mode_shapes.csv, modes.pvd and the contact markers.
// As every study: prepare (all input checks, before any output), run, write.
#pragma once

#include <vibroimpact/model/modal_analysis.h>
#include <vibroimpact/model/structural_model.h>

#include <string>
#include <vector>

namespace vibroimpact::io
{
  class OutputFolder;
}

namespace vibroimpact::studies
{
  struct CaseFile;

  // The model and the number of modes asked for (Modes/Number of modes), checked.
  struct ModesSetup
  {
    model::StructuralModel   model;
    unsigned int             n_modes = 0;
    std::vector<std::string> warnings; // fewer modes than the default: the model has fewer DoFs
  };

  struct ModesResult
  {
    model::StructuralModel model;
    model::ModalBasis      modes; // mass-normalised
    model::DrawnModes      drawn; // unit peak, and the displacement at the output points
    std::vector<std::string> warnings; // the setup's

    // The columns of modes.csv, one entry a mode.
    std::vector<double> frequencies_hz() const;
    std::vector<double> periods() const; // +inf for a rigid-body mode
    // The output points of mode_shapes.csv: the bodies' sample points, the contact markers left out.
    std::vector<std::size_t> shape_points() const;
  };

  // Builds the model and checks the number of modes: one the case gives beyond the model's DoFs is
  // an io::InputError naming Modes/Number of modes; the default is cut to the DoFs, with a warning.
  ModesSetup prepare_modes(const CaseFile &c);
  ModesResult run_modes(ModesSetup setup);
  // modes.csv, mode_shapes.csv, modes.pvd (+ .vtu), contacts.csv and contacts.vtu (with contacts).
  void write_modes(const ModesResult &result, io::OutputFolder &out);
} // namespace vibroimpact::studies
