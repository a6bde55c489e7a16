// Boost serialisation of the sweep and ensemble results, so that they cross MPI ranks through
// deal.II's Utilities::MPI::gather (bit-exact: doubles are copied, not printed). Only the
// sources that transport results include it.
#pragma once

#include <vibroimpact/studies/parameter_sweep.h>
#include <vibroimpact/studies/support_ensemble.h>

#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>

namespace boost::serialization
{
  template <class Archive>
  void serialize(Archive &ar, vibroimpact::studies::PoincarePoint &p, const unsigned int)
  {
    ar &p.period &p.time &p.u &p.v &p.gap &p.stuck;
  }

  template <class Archive>
  void serialize(Archive &ar, vibroimpact::studies::ImpactPoint &p, const unsigned int)
  {
    ar &p.time &p.phase &p.contact &p.velocity &p.sticks;
  }

  template <class Archive>
  void serialize(Archive &ar, vibroimpact::studies::SweepValueResult &r, const unsigned int)
  {
    ar &r.index &r.value &r.omega &r.wall_time &r.cpu_time &r.impacts &r.sticking_fraction &r.rank &r.points;
    ar &r.impact_points;
  }

  template <class Archive>
  void serialize(Archive &ar, vibroimpact::studies::PowerSpectrum &s, const unsigned int)
  {
    ar &s.frequency &s.density;
  }

  template <class Archive>
  void serialize(Archive &ar, vibroimpact::studies::SectorWear &w, const unsigned int)
  {
    ar &w.angle_from &w.angle_to &w.wear_work &w.wear_work_rate &w.tube_volume &w.tube_depth &w.support_volume;
    ar &w.support_depth;
  }

  template <class Archive>
  void serialize(Archive &ar, vibroimpact::studies::SupportStatistics &s, const unsigned int)
  {
    ar &s.name &s.duration &s.impacts &s.impact_rate &s.contact_fraction &s.mean_force &s.rms_force &s.peak_force;
    ar &s.impact_work &s.work_rate &s.impact_peaks &s.displacement_psd;
    ar &s.in_space &s.mean_shock_duration &s.mean_rebound_duration &s.mean_tangential_force &s.rms_tangential_force;
    ar &s.peak_tangential_force &s.friction_work &s.wear_work &s.wear_work_rate &s.sectors &s.second_psd;
  }

  template <class Archive>
  void serialize(Archive &ar, vibroimpact::studies::RealizationResult &r, const unsigned int)
  {
    ar &r.index &r.rank &r.wall_time &r.statistics;
  }
} // namespace boost::serialization
