#ifndef hamilton_lumped_steady_state_h
#define hamilton_lumped_steady_state_h

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
} // namespace hamilton::lumped

#endif
