#include <hamilton/base/format.h>
#include <hamilton/lumped/steady_state.h>

#include <Eigen/Dense>
#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <cmath>
#include <complex>

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

    // Gauss-Newton on the frequency of the least-squares fit y ~ a + b (t -
    // tm) + harmonics 1 to 3: the new column is the fit's derivative by the
    // angular frequency. Quadratic convergence from the autocorrelation's
    // estimate; kept only if it stays within a quarter of a period over the
    // span of the estimate (else the autocorrelation's estimate stands).
    // Over the last 2e5 rows at most (a 2e5 x 9 matrix, 14 MB).
    const std::size_t from = n > 200000 ? n - 200000 : 0, rows = n - from;
    const double      span = (rows - 1) * h, w0 = 2 * M_PI * result.frequency;
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
          return result;
        if (std::abs(step[8]) < 1e-14 * w)
          break;
      }
    result.frequency = w / (2 * M_PI);
    return result;
  }
} // namespace hamilton::lumped
