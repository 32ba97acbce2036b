"""Read the results of a Hamilton run in Python: results.json, every CSV table
with the units of its columns, a reduced model (rom.json) as numpy matrices and
a state-space file as a scipy.signal.StateSpace.

Needs numpy (Debian: python3-numpy); scipy for state_space() (python3-scipy);
pandas only for Table.to_pandas() (python3-pandas). Example, from the
repository's root after `./build/hamilton prm/coupled/motor_driven_harvester.prm`
(the test postprocess_loader_doctest runs these lines on that run's output):

>>> import sys; sys.path.insert(0, "postprocess")
>>> import hamilton_results as hr
>>> run = hr.Results("output/motor_driven_harvester")
>>> power = run.json["lumped"]["summary"]["columns"]["power_W"]    # results.json as a dict
>>> print(f"peak {power['peak'] * 1e3:.1f} mW at t = {power['peak_time_s']:.2f} s")
peak 14.8 mW at t = 2.57 s
>>> lumped = run.table("lumped")          # lumped.csv and lumped.csv.columns.json
>>> t, alpha_dot = lumped["t_s"], lumped["alpha_dot"]   # numpy arrays
>>> len(t) == len(alpha_dot) == len(lumped)
True
>>> lumped.unit("alpha_dot")
'rad/s'
>>> lumped.label("alpha_dot")             # for an axis
'alpha_dot (rad/s)'
>>> rom = run.rom()                       # rom.M, rom.K, rom.frequencies_hz, ...
>>> [round(float(f), 1) for f in rom.frequencies_hz]
[47.8, 299.6]
>>> ss = run.state_space()                # a scipy.signal.StateSpace
>>> ss.A.shape, len(ss.inputs), len(ss.outputs)    # with the names of its ports
((5, 5), 1, 2)

Every CSV Hamilton writes has a sidecar <file>.columns.json (format
"hamilton-columns"): for each column its name, SI unit ("1": dimensionless,
"": unknown) and meaning. A directory without results raises ResultsError with
a message saying what was expected.
"""
import csv
import json
import os

import numpy as np


class ResultsError(Exception):
    """The directory or a file in it is not what a Hamilton run writes."""


class Table:
    """A CSV table of a run: columns by name as numpy arrays, with units.

    table["x_m"] -> array; table.columns -> names in file order;
    table.unit(name), table.meaning(name), table.label(name[, text]);
    len(table) -> number of rows; table.to_pandas() -> DataFrame."""

    def __init__(self, path):
        self.path = path
        with open(path, newline="") as f:
            reader = csv.reader(f)
            try:
                self.columns = next(reader)
            except StopIteration:
                raise ResultsError(f"{path} is empty: not a table of a finished Hamilton run") from None
            rows = [r for r in reader if r]
        try:
            data = np.array([[float(v) if v != "" else np.nan for v in r] for r in rows], dtype=float)
        except ValueError as e:
            raise ResultsError(f"{path}: a value is not a number ({e})") from None
        data = data.reshape(len(rows), len(self.columns))
        self.data = {name: data[:, k] for k, name in enumerate(self.columns)}
        self.descriptions = {name: {"unit": "", "meaning": ""} for name in self.columns}
        sidecar = path + ".columns.json"
        if os.path.exists(sidecar):
            with open(sidecar) as f:
                for c in json.load(f)["columns"]:
                    self.descriptions[c["name"]] = {"unit": c["unit"], "meaning": c["meaning"]}

    def __getitem__(self, name):
        try:
            return self.data[name]
        except KeyError:
            raise ResultsError(f"{self.path} has no column '{name}'; columns: {', '.join(self.columns)}") from None

    def __contains__(self, name):
        return name in self.data

    def __len__(self):
        return len(next(iter(self.data.values()))) if self.data else 0

    def unit(self, name):
        """SI unit of a column ('1': dimensionless, '': unknown)."""
        return self.descriptions.get(name, {}).get("unit", "")

    def meaning(self, name):
        return self.descriptions.get(name, {}).get("meaning", "")

    def label(self, name, text=None):
        """An axis label: `text` (default: the column's name) and the unit in parentheses."""
        return with_unit(text or name, self.unit(name))

    def to_pandas(self):
        """A pandas DataFrame of the table; the units in df.attrs['units']."""
        try:
            import pandas
        except ImportError:
            raise ResultsError("Table.to_pandas() needs pandas (Debian: apt install python3-pandas)") from None
        frame = pandas.DataFrame({name: self.data[name] for name in self.columns})
        frame.attrs["units"] = {name: self.unit(name) for name in self.columns}
        return frame


def with_unit(text, unit):
    """'text (unit)', or just 'text' for a dimensionless or unknown unit."""
    return f"{text} ({unit})" if unit not in ("", "1") else text


class ReducedModel:
    """A Hamilton ROM file (format 'hamilton-rom') as numpy arrays, SI units:
    M, K (mass and stiffness matrices), omega (rad/s), frequencies_hz,
    damping_ratios, n_normal_modes (the first n are modes, the rest static
    corrections), normal (bool per coordinate), participation_translation,
    participation_rotation, electrodes [{name, capacitance_F, coupling_N_per_V
    (array)}], outputs [{name, position_m, displacement, slope}], and the
    whole document as .json."""

    def __init__(self, path):
        with open(path) as f:
            self.json = json.load(f)
        if self.json.get("format") != "hamilton-rom":
            raise ResultsError(f"{path} is not a Hamilton ROM file (its format is {self.json.get('format')!r})")
        j = self.json
        self.path = path
        self.M = np.array(j["mass_matrix"], dtype=float)
        self.K = np.array(j["stiffness_matrix"], dtype=float)
        self.omega = np.array(j["angular_frequencies_rad_s"], dtype=float)
        self.frequencies_hz = np.array(j["frequencies_hz"], dtype=float)
        self.damping_ratios = np.array(j["damping_ratios"], dtype=float)
        self.n_normal_modes = int(j["n_normal_modes"])
        self.normal = np.arange(len(self.omega)) < self.n_normal_modes
        self.participation_translation = np.array(j["participation_base_translation"], dtype=float)
        self.participation_rotation = np.array(j["participation_base_rotation"], dtype=float)
        self.electrodes = [dict(e, coupling_N_per_V=np.array(e["coupling_N_per_V"], dtype=float))
                           for e in j.get("electrodes", [])]
        self.outputs = [dict(o, displacement=np.array(o["displacement"], dtype=float),
                             slope=np.array(o["slope"], dtype=float)) for o in j.get("outputs", [])]
        self.units = j.get("units", {})


def read_state_space(path):
    """A 'hamilton-state-space' file as a scipy.signal.StateSpace with the
    extra attributes inputs, outputs, states (names) and path."""
    from scipy import signal

    with open(path) as f:
        s = json.load(f)
    if s.get("format") != "hamilton-state-space" or s.get("version") != 1:
        raise ResultsError(f"{path}: not a hamilton-state-space file of version 1")
    shape = {"A": ("states", "states"), "B": ("states", "inputs"), "C": ("outputs", "states"),
             "D": ("outputs", "inputs")}
    A, B, C, D = (np.array(s[k], dtype=float).reshape(len(s[r]), len(s[c])) for k, (r, c) in shape.items())
    system = signal.StateSpace(A, B, C, D)
    system.inputs, system.outputs, system.states, system.path = s["inputs"], s["outputs"], s["states"], path
    return system


class Results:
    """The output directory of a Hamilton run.

    .json: results.json as a dict ({} if the run wrote none, e.g. a study
    whose results are study.json); .tables(): the stems of its CSV tables;
    .table(stem): a Table; .rom([file]), .state_space([file]): the reduced
    model and the state space it exported."""

    def __init__(self, directory):
        self.directory = directory
        if not os.path.isdir(directory):
            raise ResultsError(f"'{directory}' is not a directory. Give the output directory of a Hamilton run "
                               "(its 'Output/Directory' entry, or --output-dir).")
        names = os.listdir(directory)
        if not any(n.endswith(".csv") or n.endswith(".json") or n.endswith(".pvd") for n in names):
            raise ResultsError(f"'{directory}' holds no results of a Hamilton run (no results.json, CSV tables "
                               "or PVD files). Run hamilton first, then give its output directory "
                               "('Output/Directory' in the parameter file, or --output-dir).")
        self._json = None

    def file(self, name):
        return os.path.join(self.directory, name)

    def has(self, name):
        return os.path.exists(self.file(name))

    @property
    def json(self):
        if self._json is None:
            self._json = {}
            for name in ("results.json", "study.json"):
                if self.has(name):
                    with open(self.file(name)) as f:
                        self._json = json.load(f)
                    break
        return self._json

    def tables(self):
        return sorted(n[:-4] for n in os.listdir(self.directory) if n.endswith(".csv"))

    def table(self, stem):
        path = self.file(stem + ".csv")
        if not os.path.exists(path):
            raise ResultsError(f"{self.directory} has no table {stem}.csv; tables: {', '.join(self.tables()) or 'none'}")
        return Table(path)

    def _documents(self, kind):
        found = []
        for name in sorted(os.listdir(self.directory)):
            if name.endswith(".json") and name not in ("results.json", "study.json") and \
                    not name.endswith(".columns.json"):
                with open(self.file(name)) as f:
                    try:
                        if json.load(f).get("format") == kind:
                            found.append(name)
                    except (ValueError, AttributeError):
                        pass
        return found

    def _one(self, kind, name):
        if name is not None:
            return self.file(name)
        found = self._documents(kind)
        if not found:
            raise ResultsError(f"{self.directory} holds no '{kind}' file")
        return self.file(found[0])

    def rom(self, name=None):
        """The reduced model (default: the directory's first 'hamilton-rom' file)."""
        return ReducedModel(self._one("hamilton-rom", name))

    def state_space(self, name=None):
        """The state space (default: the directory's first 'hamilton-state-space' file)."""
        return read_state_space(self._one("hamilton-state-space", name))

    def has_document(self, kind):
        return bool(self._documents(kind))
