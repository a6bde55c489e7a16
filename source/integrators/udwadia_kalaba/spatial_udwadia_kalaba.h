// Internal to the modal Udwadia–Kalaba solver: its run on a model with spatial supports
// (annular and polygonal, frictionless; spatial_udwadia_kalaba.cc). A model without them runs
// the planar solver of udwadia_kalaba.cc, unchanged.
#pragma once

#include <vibroimpact/integrators/udwadia_kalaba.h>

#include "../modal_recorder.h"
#include "../modal_supports.h"

namespace vibroimpact::integrators
{
  RunSummary run_spatial_udwadia_kalaba(const ModalUdwadiaKalabaSettings &settings, const ModalProjection &projection,
                                        const std::vector<model::SpatialSupport> &supports, const RunControl &control,
                                        ResponseObserver &observer);
} // namespace vibroimpact::integrators
