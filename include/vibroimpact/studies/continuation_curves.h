// The continuation study's curves of special points in two parameters (periodic/
// special_point_curves.h): the case's period map as a function of Continuation/Second parameter
// (the case read again with that entry set to each value, the last few models kept), the curves
// traced from the branches' located points of the kinds Continuation/Follow names, and their
// table (curves.csv) and plot (curves.png).
#pragma once

#include <vibroimpact/io/csv_table.h>
#include <vibroimpact/periodic/continuation_parameters.h>
#include <vibroimpact/periodic/special_point_curves.h>

#include <memory>
#include <vector>

namespace vibroimpact::io
{
  class OutputFolder;
}

namespace vibroimpact::studies
{
  struct CaseFile;

  struct CurveSetup
  {
    std::shared_ptr<periodic::MapFamily> maps; // null: the case follows no special point
    periodic::SecondParameter            second;
  };

  // The map family and the second parameter of a case with Continuation/Follow. Throws
  // io::InputError naming Continuation/Second parameter (an entry the case does not have, or
  // not a number) or Continuation/Second parameter range (not holding the case's value).
  CurveSetup prepare_curves(const CaseFile &c);

  // The curves through the branches' located points of the followed kinds (a progress bar unless
  // quiet); what was traced when a signal came.
  std::vector<periodic::SpecialPointCurve> trace_curves(const std::vector<periodic::Branch> &branches,
                                                        const periodic::ContinuationCase    &cc,
                                                        CurveSetup &setup, bool quiet);

  // curves.csv: curve, kind, frequency, energy, parameter, special (the codimension-two points),
  // then family, period, impacts, kappa (Neimark-Sacker: cos θ) and phase (grazing: t_g / T).
  io::CsvTable curves_table(const std::vector<periodic::SpecialPointCurve> &curves);

  // curves.csv and curves.png (the second parameter against the frequency, or the energy of free
  // families, a colour per kind, the codimension-two points marked).
  void write_curves(const std::vector<periodic::SpecialPointCurve> &curves, const periodic::ContinuationCase &cc,
                    io::OutputFolder &out);
} // namespace vibroimpact::studies
