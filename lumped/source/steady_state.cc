#include <hamilton/base/format.h>
#include <hamilton/lumped/steady_state.h>

#include <Eigen/Dense>
#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <cmath>
#include <complex>
#include <optional>

namespace hamilton::lumped
{
  namespace
  {
    /** The offset (-1/2 ... 1/2 samples) of the vertex of the parabola through (-1, a), (0, b), (1, c). */
    double
    vertex(double a, double b, double c)
    {
      const double curvature = a - 2 * b + c;
      return curvature < 0 ? std::clamp(0.5 * (a - c) / curvature, -0.5, 0.5) : 0.;
    }
  } // namespace

  std::optional<double>
  polish_frequency(const std::vector<double> &t, const std::vector<double> &y, double frequency)
  {
    // Gauss-Newton on the frequency of the least-squares fit y ~ a + b (t -
    // tm) + harmonics 1 to 3: the new column is the fit's derivative by the
    // angular frequency. Quadratic convergence from a close estimate; kept
    // only if it stays within a quarter of a period over the span (else
    // none). Over the last 2e5 rows at most (a 2e5 x 9 matrix, 14 MB).
    const std::size_t n = std::min(t.size(), y.size());
    if (n < 16 || !(frequency > 0))
      return std::nullopt;
    double tm = 0;
    for (std::size_t k = 0; k < n; ++k)
      tm += t[k];
    tm /= n;
    const std::size_t from = n > 200000 ? n - 200000 : 0, rows = n - from;
    const double      span = t[n - 1] - t[from], w0 = 2 * M_PI * frequency;
    double            w    = w0;
    Eigen::VectorXd   Y    = Eigen::Map<const Eigen::VectorXd>(y.data() + from, rows);
    Eigen::MatrixXd   A(rows, 9);
    for (unsigned int iteration = 0; iteration < 20; ++iteration)
      {
        for (std::size_t i = 0; i < rows; ++i)
          {
            const double tc = t[from + i] - tm;
            A(i, 0)         = 1;
            A(i, 1)         = tc;
            for (unsigned int k = 1; k <= 3; ++k)
              {
                A(i, 2 * k)     = std::cos(k * w * tc);
                A(i, 2 * k + 1) = std::sin(k * w * tc);
              }
          }
        const Eigen::VectorXd c = A.leftCols(8).colPivHouseholderQr().solve(Y);
        for (std::size_t i = 0; i < rows; ++i)
          {
            const double tc = t[from + i] - tm;
            double       d  = 0;
            for (unsigned int k = 1; k <= 3; ++k)
              d += k * tc * (-c[2 * k] * std::sin(k * w * tc) + c[2 * k + 1] * std::cos(k * w * tc));
            A(i, 8) = d;
          }
        const Eigen::VectorXd step = A.colPivHouseholderQr().solve(Y - A.leftCols(8) * c);
        w += step[8];
        if (!(std::abs(w - w0) * span < M_PI / 2))
          return std::nullopt;
        if (std::abs(step[8]) < 1e-14 * w)
          break;
      }
    return w / (2 * M_PI);
  }

  DetectedPeriod
  detect_period(const std::vector<double> &t, const std::vector<double> &y)
  {
    DetectedPeriod result;
    std::size_t    n = t.size();
    if (n < 16)
      {
        result.reason = "only " + std::to_string(n) + " rows (at least 16 are needed)";
        return result;
      }
    const double h = t[1] - t[0];
    // the uniformly spaced rows (the last one may end the run at a shorter step)
    for (std::size_t k = 2; k < n; ++k)
      if (std::abs(t[k] - t[k - 1] - h) > 1e-6 * h)
        {
          n = k;
          break;
        }
    // the linear trend by least squares, removed
    double tm = 0, ym = 0;
    for (std::size_t k = 0; k < n; ++k)
      {
        tm += t[k];
        ym += y[k];
      }
    tm /= n;
    ym /= n;
    double stt = 0, sty = 0, largest = 0;
    for (std::size_t k = 0; k < n; ++k)
      {
        stt += (t[k] - tm) * (t[k] - tm);
        sty += (t[k] - tm) * (y[k] - ym);
        largest = std::max(largest, std::abs(y[k]));
      }
    const double        slope = sty / stt;
    std::vector<double> x(n);
    double              spread = 0;
    for (std::size_t k = 0; k < n; ++k)
      {
        x[k] = y[k] - ym - slope * (t[k] - tm);
        spread = std::max(spread, std::abs(x[k]));
      }
    if (!(spread > 1e-12 * largest) || spread == 0)
      {
        result.reason = "the signal is constant or a straight line (it varies by at most 1e-12 of its magnitude "
                        "about its trend)";
        return result;
      }
    // the autocorrelation R(k) = sum_i x_i x_{i+k} by FFT, zero-padded to no wrap-around
    std::size_t size = 1;
    while (size < 2 * n)
      size *= 2;
    std::vector<double> padded(size, 0.);
    std::copy(x.begin(), x.end(), padded.begin());
    Eigen::FFT<double>                fft;
    std::vector<std::complex<double>> spectrum;
    fft.fwd(spectrum, padded);
    for (auto &c : spectrum)
      c = std::norm(c);
    std::vector<double> R;
    fft.inv(R, spectrum);
    // unbiased and normalized: rho(k) = (R(k) / (n - k)) / (R(0) / n)
    const std::size_t   last = n / 2;
    std::vector<double> rho(last + 2);
    for (std::size_t k = 0; k < rho.size(); ++k)
      rho[k] = R[k] / (n - k) / (R[0] / n);

    std::size_t negative = 1;
    while (negative <= last && rho[negative] >= 0)
      ++negative;
    if (negative > last)
      {
        result.reason = "the signal does not oscillate about its trend within half the analysed span (monotone, or "
                        "fewer than two periods)";
        return result;
      }
    const auto is_peak = [&](std::size_t k) { return rho[k] >= rho[k - 1] && rho[k] > rho[k + 1]; };
    double     highest = -1;
    for (std::size_t k = negative; k <= last; ++k)
      if (is_peak(k))
        highest = std::max(highest, rho[k]);
    if (highest < 0)
      {
        result.reason = "the signal does not repeat within half the analysed span (its autocorrelation has no peak "
                        "after its first zero): a transient or a drift, no steady oscillation";
        return result;
      }
    if (highest < 0.5)
      {
        result.reason = "no dominant period: the autocorrelation's highest peak after the first oscillation is " +
                        format_significant(highest, 3) +
                        " (below 0.5): the period or the amplitude changes over the span (a run-up, a decay), or "
                        "the signal is chaotic or broadband";
        return result;
      }
    std::size_t first = negative;
    while (!(is_peak(first) && rho[first] >= 0.9 * highest))
      ++first;
    result.correlation = rho[first];
    result.frequency   = 1 / ((first + vertex(rho[first - 1], rho[first], rho[first + 1])) * h);
    result.found       = true;

    // refined at the multiples 2, 4, 8 ... of the period up to half the span:
    // the peak near m times the period so far, located by its parabola
    double period = result.frequency > 0 ? 1 / result.frequency : 0;
    for (unsigned int m = 2; m * period <= last * h; m *= 2)
      {
        const double expected = m * period / h, reach = std::max(2., 0.25 * period / h);
        std::size_t  best     = 0;
        for (std::size_t k = static_cast<std::size_t>(std::max(1., std::ceil(expected - reach)));
             k <= std::min<std::size_t>(last, static_cast<std::size_t>(expected + reach)); ++k)
          if (is_peak(k) && (best == 0 || rho[k] > rho[best]))
            best = k;
        if (best == 0 || rho[best] < 0.5)
          break;
        period = (best + vertex(rho[best - 1], rho[best], rho[best + 1])) * h / m;
      }
    result.frequency = 1 / period;

    // polished by Gauss-Newton on the frequency of the least-squares fit
    // (kept only if it converges within a quarter of a period over the span)
    if (const auto polished = polish_frequency(std::vector<double>(t.begin(), t.begin() + n),
                                               std::vector<double>(y.begin(), y.begin() + n), result.frequency))
      result.frequency = *polished;
    return result;
  }
  namespace
  {
    /** Mean and the amplitude of harmonics 1 to 3 of f together (sqrt of the sum of squares) of y(t), least squares. */
    std::pair<double, double>
    mean_and_amplitude(const std::vector<double> &t, const std::vector<double> &y, double frequency,
                       double *largest_residual = nullptr)
    {
      const double    w = 2 * M_PI * frequency;
      Eigen::MatrixXd A(t.size(), 7);
      for (std::size_t i = 0; i < t.size(); ++i)
        A.row(i) << 1, std::cos(w * t[i]), std::sin(w * t[i]), std::cos(2 * w * t[i]), std::sin(2 * w * t[i]),
          std::cos(3 * w * t[i]), std::sin(3 * w * t[i]);
      const Eigen::Map<const Eigen::VectorXd> Y(y.data(), y.size());
      const Eigen::VectorXd                   c = A.colPivHouseholderQr().solve(Y);
      if (largest_residual)
        *largest_residual = (A * c - Y).lpNorm<Eigen::Infinity>();
      return {c[0], c.tail(6).norm()};
    }
  } // namespace

  Periodicity
  check_periodicity(const std::vector<double> &t, const std::vector<double> &y, double frequency)
  {
    Periodicity p;
    const std::size_t n = std::min(t.size(), y.size());
    if (n < 32)
      {
        p.reason = "only " + std::to_string(n) + " rows in the fitted periods (at least 32 are needed to compare "
                   "their two halves)";
        return p;
      }
    const double middle = 0.5 * (t.front() + t[n - 1]);
    std::vector<double> t1, y1, t2, y2;
    for (std::size_t k = 0; k < n; ++k)
      {
        (t[k] < middle ? t1 : t2).push_back(t[k]);
        (t[k] < middle ? y1 : y2).push_back(y[k]);
      }
    // the whole window: how well mean + harmonics 1 to 3 of f describe it
    double residual = 0;
    const auto [mean, amplitude] = mean_and_amplitude(std::vector<double>(t.begin(), t.begin() + n),
                                                      std::vector<double>(y.begin(), y.begin() + n), frequency,
                                                      &residual);
    if (!(amplitude > 0))
      {
        p.reason = "the signal does not oscillate at the detected frequency over the fitted periods";
        return p;
      }
    p.residual = residual / amplitude;
    // each half: its own frequency, mean and amplitude
    const auto f1 = polish_frequency(t1, y1, frequency), f2 = polish_frequency(t2, y2, frequency);
    const auto [m1, a1] = mean_and_amplitude(t1, y1, frequency);
    const auto [m2, a2] = mean_and_amplitude(t2, y2, frequency);
    p.amplitude_change = std::abs(a2 - a1) / std::max(a1, a2);
    p.mean_change      = std::abs(m2 - m1) / (std::abs(mean) + amplitude);
    const auto number  = [](double v) { return format_significant(v, 3); };
    const std::string halves = " between the first and the second half of the fitted periods";
    if (!f1 || !f2)
      p.reason = "the frequency of the " + std::string(!f1 ? "first" : "second") +
                 " half of the fitted periods cannot be fitted near " + format_significant(frequency, 6) +
                 " Hz: the period changes over them (a run-up or a slowdown)";
    else if ((p.frequency_change = std::abs(*f2 - *f1) / frequency) > largest_frequency_change)
      p.reason = "the frequency changes from " + format_significant(*f1, 6) + " Hz to " +
                 format_significant(*f2, 6) + " Hz" + halves + " (by " + number(p.frequency_change) +
                 ", more than " + number(largest_frequency_change) + "): the run is still running up or slowing down";
    else if (p.amplitude_change > largest_level_change)
      p.reason = "the amplitude changes by " + number(p.amplitude_change) + halves + " (more than " +
                 number(largest_level_change) + "): a transient that has not decayed, or a growing oscillation";
    else if (p.mean_change > largest_level_change)
      p.reason = "the mean changes by " + number(p.mean_change) + " of |mean| + amplitude" + halves +
                 " (more than " + number(largest_level_change) + "): the signal drifts";
    else if (p.residual > largest_fit_residual)
      p.reason = "the fit by the mean and harmonics 1 to 3 leaves a residual of " + number(p.residual) +
                 " times the amplitude (more than " + number(largest_fit_residual) +
                 "): the signal is not periodic at this frequency";
    else
      p.periodic = true;
    return p;
  }
} // namespace hamilton::lumped
