// What users of clearance supports read (Antunes et al. 2017; the fretting-wear literature):
// per support, over a record, the impacts and their peak forces, the contact time, the contact
// force's RMS and peak, the energy the support takes and the normal work rate, and the PSD of
// the displacement at the support (Welch, FFTW). Computed from the rows of a ResponseHistory, so
// that every solver is measured by one rule (doc/udwadia_kalaba.md, "Support statistics"), and
// accumulated row by row as they are formed, so that a record streamed to disk is never held.
#pragma once

#include <vibroimpact/integrators/response_history.h>
#include <vibroimpact/io/gnuplot.h>
#include <vibroimpact/io/line_envelope.h>
#include <vibroimpact/model/structural_model.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

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
    PowerSpectrum       displacement_psd; // of the beam at the support
  };

  // The force of a support over each row (t_{k−1}, t_k] is the impulse both stops delivered
  // then over the row span; a row with impulse is a row in contact, an impact is a row in
  // contact after one without, and the work is the impulse times the gap's change over the span.
  // Rows must be equally spaced (Simulation/Output interval) and fine against a contact time.
  // Rows before skip_time are left out; psd_segment: Welch segment in rows (0: the largest power
  // of two giving at least 8 segments).
  std::vector<SupportStatistics> support_statistics(const model::StructuralModel        &model,
                                                    const integrators::ResponseHistory &history,
                                                    double skip_time = 0.0, std::size_t psd_segment = 0);

  // A curve of support_forces.png: a support's displacement and contact force over the rows of
  // support_forces.csv, reduced to what a plot's pixel columns show (io::LineEnvelope).
  struct SupportForcesCurve
  {
    std::size_t      support; // index in StructuralModel::supports
    io::LineEnvelope displacement, force;
  };

  // support_statistics() fed one row at a time (a RowSink), with the same sums in the same order,
  // so the same doubles: per support running sums and the impact peaks (one double an impact);
  // the displacements at the supports, which Welch's PSD reads back segment by segment in
  // finish(), are spooled to a file of raw doubles in `folder` (removed by finish()) or, without
  // a folder, kept in memory. With a folder, support_forces.csv is written there row by row.
  class SupportStatisticsAccumulator : public integrators::RowSink
  {
  public:
    // columns: the history's (ResponseHistory::columns()).
    SupportStatisticsAccumulator(const model::StructuralModel &model, const std::vector<std::string> &columns,
                                 double skip_time = 0.0, std::size_t psd_segment = 0,
                                 const std::filesystem::path &folder = {});
    ~SupportStatisticsAccumulator() override;

    void row(const std::vector<double> &values) override;
    // The statistics of the rows so far; throws std::invalid_argument as support_statistics().
    std::vector<SupportStatistics> finish();
    // After finish(), with a folder: the curves support_forces.png draws (write_support_summaries).
    const std::vector<SupportForcesCurve> &support_forces_curves() const;
    // Rows of the record held in memory now (0 when the displacements spool to a file, whose
    // write buffer holds 64 k values whatever the record's length).
    std::size_t rows_in_memory() const;

  private:
    struct Support;
    struct State;
    static void add_row_of_record(Support &s, const std::vector<double> &values, double span);
    void        close_support_forces();

    std::unique_ptr<State> state_;
  };

  // statistics.csv: one row per support (DESIGN.md); spectra.csv (frequency, psd_<support>);
  // force_pdf.csv (force, pdf_<support>: a density of the impact peak forces, 20 common bins);
  // support_forces.csv (time, u_<support>, force_<support>); and, if gnuplot is there,
  // support_forces.png (supports 1 and 3, the layout of the paper's Figs 4–7), spectra.png and
  // force_pdf.png.
  void write_support_statistics(const std::filesystem::path &folder, const model::StructuralModel &model,
                                const integrators::ResponseHistory   &history,
                                const std::vector<SupportStatistics> &statistics, bool plots = true);
  // The same but support_forces.csv (an accumulator with a folder wrote it as the rows came, and
  // the curves of its plot: SupportStatisticsAccumulator::support_forces_curves()).
  // The plots are drawn while the caller goes on: wait() for them (or let them be destroyed)
  // before the folder is committed.
  std::vector<io::GnuplotRun> write_support_summaries(const std::filesystem::path          &folder,
                                                      const model::StructuralModel          &model,
                                                      const std::vector<SupportStatistics>  &statistics,
                                                      const std::vector<SupportForcesCurve> &curves,
                                                      bool                                   plots = true);

  // statistics.csv's table as the group /statistics of an HDF5 file (its columns as datasets).
  void write_statistics_hdf5(io::Hdf5Records &file, const std::vector<SupportStatistics> &statistics);
} // namespace vibroimpact::studies
