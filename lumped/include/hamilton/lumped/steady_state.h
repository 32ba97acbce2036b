#ifndef hamilton_lumped_steady_state_h
#define hamilton_lumped_steady_state_h

#include <optional>
#include <string>
#include <vector>

namespace hamilton::lumped
{
  /** The dominant period of a sampled signal, or why there is none. */
  struct DetectedPeriod
  {
    bool        found     = false;
    double      frequency = 0; ///< Hz
    /**
     * The normalized autocorrelation of the detrended signal at the lag of
     * the detected period (1: exactly periodic).
     */
    double      correlation = 0;
    std::string reason; ///< why no period was found
  };

  /**
   * The dominant period of the signal y(t), sampled at uniformly spaced
   * times t (a last row at a shorter spacing, as at the end of a run, is
   * left out). The linear trend is removed; the normalized (unbiased)
   * autocorrelation rho(lag) is computed by FFT; the period is the first
   * local maximum of rho, after rho has become negative, that reaches 0.9 of
   * the highest maximum up to half the span, located to a fraction of a
   * sample by a parabola through the three samples around it, refined at the
   * peaks near 2, 4, 8 ... times the period up to half the span, then
   * polished by Gauss-Newton on the frequency of the least-squares fit
   * y ~ a + b t + harmonics 1 to 3 (kept if it moves the phase over the span
   * by less than a quarter of a period). No period: a constant or straight
   * signal, one whose autocorrelation has no peak after its first zero (a
   * transient, a drift, fewer than two periods), or a highest peak below
   * 0.5 (a run-up, a decay, a chaotic or broadband signal).
   */
  DetectedPeriod
  detect_period(const std::vector<double> &t, const std::vector<double> &y);

  /**
   * The frequency (Hz) of the least-squares fit of y(t) by a + b t +
   * harmonics 1 to 3, by Gauss-Newton from `frequency`; none if it moves the
   * phase over the span by a quarter of a period or more (no period near
   * `frequency`) or if there are fewer than 16 samples.
   */
  std::optional<double>
  polish_frequency(const std::vector<double> &t, const std::vector<double> &y, double frequency);

  /** Whether a signal is periodic over the periods that are fitted (check_periodicity()). */
  struct Periodicity
  {
    bool        periodic = false;
    std::string reason; ///< not periodic: why, with the numbers
    /**
     * Between the first and the second half of the fitted periods: the
     * relative change of the frequency (each half's own, polish_frequency()),
     * of the amplitude (harmonics 1 to 3 of the detected frequency together)
     * and of the mean (relative to |mean| + amplitude).
     */
    double frequency_change = 0, amplitude_change = 0, mean_change = 0;
    /** The largest residual of the fit by the mean and harmonics 1 to 3 over all the periods, over the amplitude. */
    double residual = 0;
  };

  /** The largest relative change of the frequency between the halves of the fitted periods. */
  constexpr double largest_frequency_change = 1e-3;
  /** The largest relative change of the amplitude or the mean between the halves (and between windows). */
  constexpr double largest_level_change = 1e-2;
  /** The largest fit residual over the amplitude. */
  constexpr double largest_fit_residual = 1;

  /**
   * Whether y(t), the rows of the periods to be fitted at `frequency` (Hz),
   * is periodic over them: the two halves have the same frequency (to
   * largest_frequency_change), amplitude and mean (to largest_level_change),
   * and the fit by the mean and harmonics 1 to 3 describes the signal (its
   * largest residual at most largest_fit_residual times the amplitude).
   * A run-up (a chirp), a decaying transient or a drift is not periodic.
   */
  Periodicity
  check_periodicity(const std::vector<double> &t, const std::vector<double> &y, double frequency);
} // namespace hamilton::lumped

#endif
