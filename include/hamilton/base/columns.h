#ifndef hamilton_base_columns_h
#define hamilton_base_columns_h

#include <string>
#include <vector>

namespace hamilton
{
  /**
   * What a column of a CSV file that Hamilton writes holds: its name (the
   * header), its SI unit ("1" for a dimensionless number, "" if unknown) and
   * its meaning in words. Written beside each CSV file `<name>.csv` as the
   * sidecar `<name>.csv.columns.json`:
   *
   *   {"format": "hamilton-columns", "version": 1, "file": "<name>.csv",
   *    "columns": [{"name": ..., "unit": ..., "meaning": ...}, ...]}
   *
   * The headers themselves stay plain names (x_m, tip_w_rel_m, alpha_dot), so
   * readers of the CSV see no change.
   */
  struct ColumnDescription
  {
    std::string name;
    std::string unit;
    std::string meaning;
  };

  /**
   * The description of a column of the beam, piezo and reduced-model tables
   * from Hamilton's naming convention: a unit suffix (x_m, frequency_hz,
   * tip_v_rel_m_s, harvester_power_W, ...), a point's or an electrode's name
   * in front of it; a sweep's parameter (an entry's path) the unit of
   * unit_of_entry(). Unknown names get the unit "" and the meaning "".
   */
  ColumnDescription
  describe_column(const std::string &name);

  /**
   * The unit a name's suffix gives ("power_W" -> "W", "speed_rpm" -> "rpm",
   * "frequency_hz" -> "Hz"; "" if none): the naming convention of Hamilton's
   * result quantities, also a default for outputs of lumped systems.
   */
  std::string
  unit_from_suffix(const std::string &name);

  /**
   * The unit of a parameter entry from its name, the last part of its path
   * ("Beam/Electrodes/harvester/Resistance" -> "Ohm", ".../Thickness" ->
   * "m"; "" for entries not listed): the unit of a study's or a sweep's
   * parameter.
   */
  std::string
  unit_of_entry(const std::string &path);

  /**
   * Write `<csv_filename>.columns.json` (see ColumnDescription), through
   * write_file (a failed write throws OutputError naming the file).
   */
  void
  write_column_descriptions(const std::string &csv_filename, const std::vector<ColumnDescription> &columns);

  /**
   * The units a user may give in a `Units` entry (SI, in the spelling of the
   * sidecar files): m, rad, C, Wb, A, V, W, J, N, N m, ... and "1".
   */
  const std::vector<std::string> &
  known_units();

  /** Whether `unit` is one of known_units(). */
  bool
  is_known_unit(const std::string &unit);

  /**
   * The unit of the time derivative of a quantity in `unit`: m -> m/s,
   * rad -> rad/s, C -> A, Wb -> V, "1" -> 1/s, "" -> "".
   */
  std::string
  rate_unit(const std::string &unit);
} // namespace hamilton

#endif
