// What users of clearance supports read (Antunes et al. 2017; the fretting-wear literature):
// per support, over a record, the impacts and their peak forces, the contact time, the contact
// force's RMS and peak, the energy the support takes and the normal work rate, and the PSD of
// the displacement at the support (Welch, FFTW); for a support in space also the
// shock and rebound durations, the tangential force, the friction and wear work and the Archard
// wear per angular sector, and the PSDs of its orbit along e1 and e2. Computed from the rows of
// a ResponseHistory, so that every solver is measured by one rule (doc/udwadia_kalaba.md,
// "Support statistics"), and accumulated row by row as they are formed, so that a record
// streamed to disk is never held.
#pragma once

#include <vibroimpact/integrators/response_history.h>
#include <vibroimpact/io/line_envelope.h>
#include <vibroimpact/model/structural_model.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vibroimpact::structure
{
  struct CaseDescription;
}

namespace vibroimpact::studies
{
  // One-sided power spectral density: ∫ density df over [0, fs/2] is the variance.
  struct PowerSpectrum
  {
    std::vector<double> frequency; // Hz (for a time in s)
    std::vector<double> density;   // unit² / Hz
  };

  // Welch's estimate: Hann-windowed segments of `segment` samples (a power of two is fastest),
  // half overlapping, mean removed per segment, periodograms averaged. `interval` is the sample
  // spacing. Throws std::invalid_argument when the signal is shorter than one segment.
  PowerSpectrum welch_psd(const std::vector<double> &signal, double interval, std::size_t segment);

  // The Archard inputs of a support in space (Support <name>/Wear sectors, Tube wear
  // coefficient, Support wear coefficient, Support thickness).
  struct WearInputs
  {
    unsigned int sectors             = 1;    // equal sectors from e1 towards e2
    double       tube_coefficient    = 0.0;  // m³ per N per m of sliding
    double       support_coefficient = 0.0;  // m³ per N per m of sliding
    double       thickness           = 0.02; // m, the support plate's axial width
  };

  // The Wear entries of the case's supports in space, in the model's order of them.
  std::vector<WearInputs> wear_inputs(const structure::CaseDescription &description);

  // One angular sector of a support in space: [angle_from, angle_to) degrees from e1 towards e2,
  // of the contact's outward normal ν.
  struct SectorWear
  {
    double angle_from = 0.0, angle_to = 0.0;
    double wear_work      = 0.0; // ∫ F_N |v_t| dt attributed to the sector
    double wear_work_rate = 0.0; // wear_work / duration
    double tube_volume = 0.0, tube_depth = 0.0;       // Archard: coefficient × wear work; / worn area
    double support_volume = 0.0, support_depth = 0.0; // (NaN: a worn area of zero or unbounded)
  };

  struct SupportStatistics
  {
    std::string   name;
    double        duration         = 0.0; // of the record (after the skipped start)
    unsigned long impacts          = 0;   // contact episodes that begin in the record
    double        impact_rate      = 0.0; // impacts / duration
    double        contact_fraction = 0.0; // time in contact / duration
    double        mean_force       = 0.0; // impulse / duration
    double        rms_force        = 0.0;
    double        peak_force       = 0.0;
    double        impact_work      = 0.0; // energy the support took from the structure, −∫ λ ġ dt
    double        work_rate        = 0.0; // normal work rate (1/T) ∫ λ |ġ| dt
    std::vector<double> impact_peaks;     // largest force of every episode
    PowerSpectrum       displacement_psd; // of the beam at the support (in space: r1, along e1)

    // A support in space (in_space; for planar stops these stay 0): the normal force above is
    // F_N, and
    bool                    in_space              = false;
    double                  mean_shock_duration   = 0.0; // contact time / contact episodes
    double                  mean_rebound_duration = 0.0; // free time / free episodes
    double                  mean_tangential_force = 0.0, rms_tangential_force = 0.0, peak_tangential_force = 0.0;
    double                  friction_work  = 0.0; // the friction_work_ column's increase
    double                  wear_work      = 0.0; // ∫ F_N |v_t| dt, the wear_work_ column's increase
    double                  wear_work_rate = 0.0; // wear_work / duration
    std::vector<SectorWear> sectors;
    PowerSpectrum           second_psd; // of r2, along e2
  };

  // The force of a support over each row (t_{k−1}, t_k] is the impulse both stops delivered
  // then over the row span; a row with impulse is a row in contact, an impact is a row in
  // contact after one without, and the work is the impulse times the gap's change over the span.
  // Rows must be equally spaced (Simulation/Output interval) and fine against a contact time.
  // Rows before skip_time are left out; psd_segment: Welch segment in rows (0: the largest power
  // of two giving at least 8 segments). The planar supports come first, then those in space,
  // measured by the rule of doc/udwadia_kalaba.md ("Supports in space") with `wear` (one per
  // support in space; empty: WearInputs' defaults).
  std::vector<SupportStatistics> support_statistics(const model::StructuralModel        &model,
                                                    const integrators::ResponseHistory &history,
                                                    double skip_time = 0.0, std::size_t psd_segment = 0,
                                                    const std::vector<WearInputs> &wear = {});

  // A curve of support_forces.png: a support's displacement and contact force over the rows of
  // support_forces.csv, reduced to what a plot's pixel columns show (io::LineEnvelope).
  struct SupportForcesCurve
  {
    std::size_t      support; // index in StructuralModel::supports
    io::LineEnvelope displacement, force;
  };
  // Columns of a curve's envelope: at least the pixels of a 600-pixel-wide panel.
  inline constexpr std::size_t support_forces_plot_columns = 600;

  // support_forces.csv's rows (time, then u_<support> and force_<support> per planar support),
  // formed from the history's rows as they come: the force over a row is the impulse both stops
  // delivered then over the row's span (0 on the first row). Keeps the curves of its plot
  // (supports 1 and 3 as in the paper's figures, or as many as there are).
  class SupportForces
  {
  public:
    // history_columns: ResponseHistory::columns().
    SupportForces(const model::StructuralModel &model, const std::vector<std::string> &history_columns);
    static std::vector<std::string> columns(const model::StructuralModel &model);
    // The table's row for this history row (valid until the next call).
    const std::vector<double>             &row(const std::vector<double> &values);
    const std::vector<SupportForcesCurve> &curves() const { return curves_; }

  private:
    std::vector<SupportForcesCurve> curves_;
    std::vector<std::size_t>        u_, lower_, upper_; // history columns per support
    std::vector<double>             line_;
    double                          previous_time_ = 0.0;
    bool                            first_         = true;
  };

  // support_statistics() fed one row at a time (a RowSink), with the same sums in the same order,
  // so the same doubles: per support running sums and the impact peaks (one double an impact);
  // the displacements at the supports, which Welch's PSD reads back segment by segment in
  // finish(), are spooled to a file of raw doubles in `folder` (removed by finish()) or, without
  // a folder, kept in memory. With a folder (a streamed run, whose rows are not kept), the
  // supports in space's orbits are tallied as well (support_orbits()). It writes no file.
  class SupportStatisticsAccumulator : public integrators::RowSink
  {
  public:
    // columns: the history's (ResponseHistory::columns()).
    SupportStatisticsAccumulator(const model::StructuralModel &model, const std::vector<std::string> &columns,
                                 double skip_time = 0.0, std::size_t psd_segment = 0,
                                 const std::filesystem::path &folder = {}, const std::vector<WearInputs> &wear = {});
    ~SupportStatisticsAccumulator() override;

    void row(const std::vector<double> &values) override;
    // The statistics of the rows so far; throws std::invalid_argument as support_statistics().
    std::vector<SupportStatistics> finish();
    // With a folder and supports in space: support_orbits.csv's table of the rows so far (the
    // time each spent per pixel, OrbitOccupancy); otherwise none.
    std::optional<io::CsvTable> support_orbits() const;
    // Rows of the record held in memory now (0 when the displacements spool to a file, whose
    // write buffer holds 64 k values whatever the record's length).
    std::size_t rows_in_memory() const;

  private:
    // What every support sums over the record's rows, planar or in space, and the one rule that
    // makes the sums its statistics.
    struct ContactSums
    {
      double contact_time = 0, impulse_sum = 0, square = 0, work = 0, absolute_work = 0;
      // A row's normal work ∫ λ ġ dt: the impulse times the mean ġ.
      void add_work(const double w)
      {
        work += w;
        absolute_work += std::abs(w);
      }
      // A row's normal impulse p, its mean force f over the span.
      void add_impulse(const double p, const double f, const double span)
      {
        impulse_sum += p;
        square += f * f * span;
      }
      // Over a record of duration T: duration, impact_rate (of s.impacts), contact_fraction,
      // mean_force, rms_force, impact_work and work_rate.
      void into(SupportStatistics &s, double T) const;
    };
    struct Support;
    struct State;
    class SpatialTally;
    static void add_row_of_record(Support &s, const std::vector<double> &values, double span);

    std::unique_ptr<State> state_;
  };

  // One support's statistics by statistics.csv's columns after `support`, in its order (duration
  // first), with the columns of supports in space appended when `in_space` (zero tangential force
  // and wear for planar stops): the one list of them, for the table, HDF5 and the ensembles.
  std::vector<std::pair<std::string, double>> statistic_values(const SupportStatistics &s, bool in_space);

  // The displacement spectra by column name: psd_<support>, and psd_<support>_e1, _e2 in space.
  std::vector<std::pair<std::string, const PowerSpectrum *>> named_spectra(const std::vector<SupportStatistics> &statistics);

} // namespace vibroimpact::studies
