#!/usr/bin/env python3
"""Keep the manual (README.md and doc/*.md) from drifting from the repository.

Usage: check_manual.py HAMILTON_BINARY SOURCE_DIR            (checks 1-4)
       check_manual.py --tables HAMILTON_BINARY SOURCE_DIR   (check 5: runs examples)
       check_manual.py --example-tables HAMILTON_BINARY SOURCE_DIR PRM_OUTPUT_DIR
                                                           (check 6: the examples' outputs)

Checks, each failure listed with its file and line:
  1. every relative link and image of README.md and doc/*.md resolves: the file
     exists and a '#anchor' names a heading of the target page (GitHub's slugs);
  2. every example prm/**/*.prm is listed in doc/examples.md, and every
     prm/... file the manual names exists;
  3. every 'Subsection/Entry' path the manual quotes in backticks (or quoted
     inside them, as in `--set "Continuum/Element degree=1"`) exists in
     'hamilton --print-parameters' (a path may start at any subsection, e.g.
     `Simulation/Harmonic frequency`; a user-chosen name such as an electrode's
     or a component's matches any name); a path counts as a parameter path when
     its first part is the name of a subsection;
  4. every tests/bad_input/*.prm file (or bad_input_<name> test) the manual
     names exists, and so does every file of the repository it quotes in
     backticks (`tests/unit/test_lumped.cc`, `postprocess/plot_all.py`);
  5. with --tables: the measured figures of the tables listed in TABLES (the C2
     thickness mode and the C2 bars in doc/validation.md, the ROM verification in
     doc/reduced-models.md) equal what the program prints (rounded to the
     digits the manual gives), and the main example's terminal excerpt in
     README.md is what it prints, line for line (numbers to 1e-5);
  6. with --example-tables: the C4 tables of doc/validation.md against the
     outputs the examples' prm_ tests left in PRM_OUTPUT_DIR, and 2D runs at the
     other degrees and refinements they list (check_c4_tables), and the figures of the
     prose listed in PROSE_FIGURES (the main example's answer in README.md and
     doc/outputs.md, ...) against the same outputs. The rectifier load sweep's table in
     doc/lumped.md is checked by tests/prm/check_rectifier_load_sweep.py.
Exit status 1 on any failure.
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

# Quoted paths that are not parameter paths of 'hamilton --print-parameters'
# although they start with a subsection's name: 'path': 'why'.
NOT_PARAMETER_PATHS = {
    "Lumped system/Parameters/NAME":
        "how --set addresses one item of the list 'Lumped system/Parameters' (doc/studies.md)",
}

# .prm files that a run writes (not examples)
OUTPUT_FILES = {"parameters_used.prm"}

failures = []


def fail(where, what):
    failures.append(f"{where}: {what}")


def manual_files(root):
    files = [os.path.join(root, "README.md")]
    doc = os.path.join(root, "doc")
    files += sorted(os.path.join(doc, f) for f in os.listdir(doc) if f.endswith(".md"))
    return files


def prose_lines(text):
    """(line number, line) outside fenced code blocks."""
    fenced = False
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    seen = {}
    result = set()
    for _, line in prose_lines(open(path, encoding="utf-8").read()):
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            result.add(base if n == 0 else f"{base}-{n}")
    return result


LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def without_inline_code(line):
    return re.sub(r"`[^`]*`", "``", line)


def paragraphs(path):
    """(line number, text) of every paragraph of the prose, its lines joined, so
    that a link or a code span may run over a line break."""
    paragraph, first = [], 0
    for number, line in list(prose_lines(open(path, encoding="utf-8").read())) + [(0, "")]:
        if line.strip():
            first = first or number
            paragraph.append(line.strip())
            continue
        if paragraph:
            yield first, " ".join(paragraph)
        paragraph, first = [], 0


def check_links(root, files):
    cache = {}
    for path in files:
        rel = os.path.relpath(path, root)
        for number, text in paragraphs(path):
            for target in LINK.findall(without_inline_code(text)):
                if re.match(r"[a-z]+:", target):      # http:, https:, mailto:
                    continue
                file_part, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                if not os.path.exists(dest):
                    fail(f"{rel}:{number}", f"link to '{target}': no file {os.path.relpath(dest, root)}")
                    continue
                if anchor:
                    if not dest.endswith(".md"):
                        fail(f"{rel}:{number}", f"link to '{target}': an anchor into a file that is not Markdown")
                        continue
                    if dest not in cache:
                        cache[dest] = anchors(dest)
                    if anchor not in cache[dest]:
                        fail(f"{rel}:{number}", f"link to '{target}': no heading '#{anchor}' in "
                             f"{os.path.relpath(dest, root)}")


def backticked(files, root):
    """(file:line, text) of every inline code span of the prose."""
    for path in files:
        rel = os.path.relpath(path, root)
        for number, text in paragraphs(path):
            for code in re.findall(r"`([^`]+)`", text):
                yield f"{rel}:{number}", code


def check_examples(root, files):
    examples = sorted(os.path.relpath(os.path.join(d, f), root)
                      for d, _, fs in os.walk(os.path.join(root, "prm")) for f in fs if f.endswith(".prm"))
    listing = open(os.path.join(root, "doc", "examples.md"), encoding="utf-8").read()
    for example in examples:
        if f"`{example}`" not in listing:
            fail("doc/examples.md", f"the example {example} is not listed (add a row to its table)")
    for path in files:
        rel = os.path.relpath(path, root)
        # a path broken over two lines ('tests/bad_input/' at a line's end) is joined
        text = re.sub(r"/\n\s*", "/", open(path, encoding="utf-8").read())
        for name in re.findall(r"(?<![\w/.])((?:prm|tests/bad_input)/[\w/.*-]*?\.prm)\b", text):
            if not glob.glob(os.path.join(root, name)):
                fail(rel, f"names {name}, which does not exist")
    # examples named by their file name alone (`cantilever_modes.prm`)
    known = {os.path.basename(e) for e in examples} | set(os.listdir(os.path.join(root, "tests", "bad_input")))
    for where, code in backticked(files, root):
        if re.fullmatch(r"[a-z]\w*\.prm", code) and code not in known | OUTPUT_FILES:
            fail(where, f"names {code}: no such file in prm/ or tests/bad_input/")
    # bad-input tests named by their ctest name (bad_input_<file name>)
    for where, code in backticked(files, root):
        m = re.fullmatch(r"bad_input_(\w+)", code)
        if m and not os.path.exists(os.path.join(root, "tests", "bad_input", m.group(1) + ".prm")):
            fail(where, f"names the bad-input test {code}, but tests/bad_input/{m.group(1)}.prm does not exist")


def check_repository_paths(root, files):
    """Files and folders of the repository quoted in backticks exist: a quoted word
    that starts with a top-level folder and names a file (an extension) or lies in
    an existing subfolder ('lumped/summary', a results.json path, does not)."""
    top = {d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)) and d != "build"}
    checked = 0
    for where, code in backticked(files, root):
        for word in code.split():
            word = word.strip("(),;:'\"")
            parts = word.rstrip("/").split("/")
            if len(parts) < 2 or parts[0] not in top or not re.fullmatch(r"[\w./*-]+", word):
                continue
            if not (os.path.isdir(os.path.join(root, *parts[:2])) if len(parts) > 2 else "." in parts[-1]):
                continue
            checked += 1
            if not glob.glob(os.path.join(root, word)):
                fail(where, f"`{word}`: no such file or folder in the repository")
    return checked


def parameter_tree(binary):
    out = subprocess.run([binary, "--print-parameters"], capture_output=True, text=True, check=True).stdout
    out = out.split("# Part 2")[0]
    paths = []          # every subsection and entry, as a tuple of names
    stack = []
    for raw in out.split("\n"):
        line = raw.strip()
        if line.startswith("#") or not line:
            continue
        m = re.match(r"subsection\s+(.*\S)\s*$", line)
        if m:
            stack.append(m.group(1))
            paths.append(tuple(stack))
        elif line == "end":
            stack.pop()
        else:
            m = re.match(r"set\s+(.*?)\s*=", line)
            if m:
                paths.append(tuple(stack + [m.group(1)]))
    # user-chosen names: 'NAME' items and the components (one of each type)
    wild = set()
    for p in paths:
        for i, part in enumerate(p):
            if part == "NAME" or (i >= 1 and p[i - 1] == "Components" and i + 1 < len(p)):
                wild.add(p[:i + 1])
    return paths, wild


def check_parameter_paths(binary, root, files):
    paths, wild = parameter_tree(binary)
    subsections = {name for p in paths for name in p[:-1]}

    def part_matches(prefix_path, quoted):
        if prefix_path in wild:
            return True
        return quoted == prefix_path[-1]

    def exists(parts):
        for p in paths:
            for start in range(len(p) - len(parts) + 1):
                if all(part_matches(p[:start + i + 1], parts[i]) for i in range(len(parts))):
                    return True
        return False

    checked = 0
    spans = [(where, quoted) for where, code in backticked(files, root)
             for quoted in [code] + [a or b for a, b in re.findall(r"'([^']+)'|\"([^\"]+)\"", code)]]
    for where, code in spans:
        text = code.split("=")[0].strip().strip("'\"")
        if "/" not in text or text in NOT_PARAMETER_PATHS:
            continue
        parts = [s.strip() for s in text.split("/")]
        if parts[0] not in subsections or any(not s for s in parts):
            continue
        parts = ["NAME" if re.fullmatch(r"<[^>]+>|[A-Z]|NAME", s) else s for s in parts]
        checked += 1
        if not exists(parts):
            fail(where, f"`{code}`: no such subsection or entry in 'hamilton --print-parameters'")
    return checked


# Tables of measured figures checked against what the program prints.
def figure_agrees(quoted, value):
    """A quoted figure ('3.4e-7') agrees with a computed value when the value
    rounds to it at the quoted significant digits; figures below 1e-9 are at
    the solvers' round-off, and only their order is checked (a factor of 2).
    A bound ('< 1e-12') agrees with any value below it: the manual gives
    round-off as a bound, since its digits change with the BLAS kernel."""
    if quoted.startswith("<"):
        return abs(value) < float(quoted[1:])
    q = float(quoted)
    if abs(q) < 1e-9:
        return abs(value) <= 2 * abs(q) and abs(value) >= abs(q) / 2
    digits = len(re.sub(r"[^0-9]", "", quoted.lower().split("e")[0]).lstrip("0"))
    return float(f"{value:.{max(digits, 1) - 1}e}") == q


def table_rows(page, first_cell, header=None):
    """The rows of the Markdown table whose header row starts with first_cell (or
    with the text `header`)."""
    lines = open(page, encoding="utf-8").read().split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(header or f"| {first_cell} |"))
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not set(cells[0]) <= set("-: "):
            rows.append(cells)
    return rows


def check_c2_thickness_table(binary, root, work):
    """doc/validation.md, C2 thickness mode: relative errors of f_r, f_a and of the
    third overtone's f_r, f_a at five meshes, against tests/reference/continuum.py."""
    sys.path.insert(0, os.path.join(root, "tests", "reference"))
    import continuum as reference          # mpmath closed forms (IEEE Std 176)
    reference.c2()
    closed = {q: float(v) * 1e6 for s, q, v, _, _ in reference.ROWS if s == "C2 thickness mode, PZT-5A, t = 1 mm"}
    exact = [closed["f_r (short circuit)"], closed["f_a (open circuit)"],
             closed["f_r, third overtone"], closed["f_a, third overtone = 3 f_a"]]
    where = "doc/validation.md (C2 thickness mode)"
    rows = table_rows(os.path.join(root, "doc", "validation.md"), "degree, refinements (unknowns)")
    if [r[0] for r in rows] != ["degree, refinements (unknowns)", "f_r, f_a", "third overtone f_r, f_a"]:
        fail(where, f"unexpected table rows {[r[0] for r in rows]}")
        return
    example = os.path.join(root, "prm", "continuum", "c2_thickness_column.prm")
    for column, head in enumerate(rows[0][1:], 1):
        m = re.match(r"(\d+), (\d+) \((\d+)", head)
        degree, refinements, unknowns = m.groups()
        out = os.path.join(work, f"c2_degree{degree}_refinements{refinements}")
        subprocess.run([binary, example, "--output-dir", out,
                        "--set", f"Continuum/Element degree={degree}",
                        "--set", f"Continuum/Global refinements={refinements}"],
                       check=True, capture_output=True)
        result = json.load(open(os.path.join(out, "results.json")))["continuum"]
        if str(result["n_unknowns"]) != unknowns:
            fail(where, f"column '{head}': the run has {result['n_unknowns']} unknowns")
        modes = result["modal"]["modes"]
        computed = [modes[1]["frequency_hz"], modes[1]["frequency_open_circuit_hz"],
                    modes[3]["frequency_hz"], modes[3]["frequency_open_circuit_hz"]]
        errors = [c / e - 1 for c, e in zip(computed, exact)]
        quoted = [q.strip() for q in rows[1][column].split(",")] + [q.strip() for q in rows[2][column].split(",")]
        if len(quoted) != 4:
            fail(where, f"column '{head}': {len(quoted)} figures, expected f_r, f_a and the overtone's f_r, f_a")
        for name, q, e in zip(("f_r", "f_a", "third overtone f_r", "third overtone f_a"), quoted, errors):
            print(f"  C2 thickness mode, degree {degree}, refinements {refinements}: {name} "
                  f"error {e:.3e}, the manual says {q}")
            if not figure_agrees(q, abs(e)):
                fail(where, f"column '{head}', {name}: the manual says {q}, the run gives {abs(e):.2e}")


def check_rom_verification_table(binary, root, work):
    """doc/reduced-models.md, verification of the Case 1b ROM: the relative differences
    'results.json' -> reduced_model/verification reports for correction orders 0, 1, 2."""
    where = "doc/reduced-models.md (ROM verification)"
    rows = table_rows(os.path.join(root, "doc", "reduced-models.md"), "correction order")
    example = os.path.join(root, "prm", "rom", "bimorph_rom_export.prm")
    for row in rows[1:]:
        order, corrections = row[0], row[1]
        out = os.path.join(work, f"rom_order{order}")
        subprocess.run([binary, example, "--output-dir", out,
                        "--set", f"Analysis/Reduced model/Static correction order={order}"],
                       check=True, capture_output=True)
        rom = json.load(open(os.path.join(out, "results.json")))["reduced_model"]
        v = rom["verification"]
        if str(rom["n_correction_modes"]) != corrections:
            fail(where, f"order {order}: {rom['n_correction_modes']} corrections, the manual says {corrections}")
        static = {s["load"]: s["rom_relative_error"] for s in v["static_response"]}
        computed = [("FRF tip", v["frf_displacement_max_relative_difference"]),
                    ("FRF voltage", v["frf_voltage_max_relative_difference"]),
                    ("static tip, base", static["base acceleration"]),
                    ("static tip, 1 V", static["1 V on harvester"]),
                    ("f_oc mode 1", v["open_circuit"][0]["relative_difference"])]
        quoted = [q.strip() for cell in row[2:] for q in cell.split("/")]
        if len(quoted) != len(computed):
            fail(where, f"order {order}: {len(quoted)} figures in the row, expected {len(computed)}")
        for (name, value), q in zip(computed, quoted):
            print(f"  ROM verification, correction order {order}: {name} {value:.3e}, the manual says {q}")
            if not figure_agrees(q, abs(value)):
                fail(where, f"order {order}, {name}: the manual says {q}, the run gives {abs(value):.2e}")


NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def lines_agree(quoted, printed):
    """The same text (spacing aside), and the same numbers to 1e-5 (the printed 6 digits); numbers
    below 1e-9 (the audit's round-off residual) only as below 1e-8, the bound its prm_ test
    checks: their digits change with the BLAS kernel (measured 1.2e-12 J under Prescott
    against 2.4e-10 J under the default kernel, same code)."""
    def words(line):
        return [" ".join(part.split()) for part in NUMBER.split(line)]
    if words(quoted) != words(printed):
        return False
    for q, p in zip(NUMBER.findall(quoted), NUMBER.findall(printed)):
        q, p = float(q), float(p)
        if abs(q) < 1e-9:
            if not abs(p) < 1e-8:
                return False
        elif abs(p - q) > 1e-5 * abs(q):
            return False
    return True


def check_main_example_answer(binary, root, work):
    """README.md, 'The main example's answer': every line of its terminal excerpt
    is a line the main example prints (the excerpt holds no timings; numbers
    compared as lines_agree says)."""
    text = open(os.path.join(root, "README.md"), encoding="utf-8").read()
    section = text.split("## The main example's answer", 1)[1].split("\n## ", 1)[0]
    excerpt = [line for line in section.split("```")[1].split("\n") if line.strip()]
    run = subprocess.run([binary, os.path.join(root, "prm", "coupled", "motor_driven_harvester.prm"),
                          "--output-dir", os.path.join(work, "motor_driven_harvester")],
                         check=True, capture_output=True, text=True)
    printed = (run.stdout + run.stderr).split("\n")
    for line in excerpt:
        if not any(lines_agree(line, p) for p in printed):
            fail("README.md (the main example's answer)", f"the run does not print the line '{line.strip()}'")
    print(f"  main example: {len(excerpt)} lines of the README's excerpt checked")


def check_c2_bars_table(binary, root, work):
    """doc/validation.md, C2 bars: the 1D and Rayleigh-Love columns against
    tests/reference/continuum_bars.py, the relative differences of the converged
    3D column against the quoted 1D and Love values, and the example mesh's
    extensional mode (mode 16) against Love by a run of each example."""
    sys.path.insert(0, os.path.join(root, "tests", "reference"))
    import continuum_bars as bars          # mpmath: 1D rod and Rayleigh-Love rod
    reference = {"31": bars.bar31(), "33": bars.bar33()}
    where = "doc/validation.md (C2 bars)"
    rows = table_rows(os.path.join(root, "doc", "validation.md"), "bar")
    runs = {}
    for row in rows[1:]:
        bar, quantity, one_d, love, conv, conv_1d, conv_love, example_love = \
            [cell.replace("\u2212", "-") for cell in row]
        exact_1d, exact_love = (float(v) for v in reference[bar][quantity])
        if bar not in runs:
            out = os.path.join(work, f"c2_bar{bar}")
            subprocess.run([binary, os.path.join(root, "prm", "continuum", f"c2_bar{bar}.prm"),
                            "--output-dir", out], check=True, capture_output=True)
            runs[bar] = json.load(open(os.path.join(out, "results.json")))["continuum"]["modal"]["modes"][15]
        example = runs[bar]["frequency_hz" if quantity == "f_r" else "frequency_open_circuit_hz"]
        figures = [("1D", one_d, exact_1d), ("Love", love, exact_love),
                   ("3D conv. - 1D", conv_1d, float(conv) / float(one_d) - 1),
                   ("3D conv. - Love", conv_love, float(conv) / float(love) - 1),
                   ("example mesh - Love", example_love, example / exact_love - 1)]
        for name, quoted, value in figures:
            print(f"  C2 {bar} bar, {quantity}: {name} {value:.10g}, the manual says {quoted}")
            if not figure_agrees(quoted, value):
                fail(where, f"{bar} bar, {quantity}, {name}: the manual says {quoted}, computed {value:.3e}")


def figures(cell):
    """The figures of a table cell 'a / b (note) / c': the numbers before any parenthesis,
    in order ('−' read as '-')."""
    cell = cell.replace("\u2212", "-")
    return [part.split("(")[0].strip() for part in cell.split("/") if part.split("(")[0].strip()]


def row_starting(rows, label):
    row = next((r for r in rows if r[0].startswith(label)), None)
    if row is None:
        fail("doc/validation.md", f"no table row starting with '{label}'")
    return row


def compare(where, what, quoted, value):
    print(f"  {what}: {value:.10g}, the manual says {quoted}")
    if not figure_agrees(quoted, value):
        fail(where, f"{what}: the manual says {quoted}, the run gives {value:.6g}")


def check_c4_tables(binary, root, work, examples):
    """doc/validation.md, 'C4 beam vs 2D vs 3D' and 'C4 as a harvester': the beam's
    rows against the beam examples (piezo/bimorph_harvester, piezo/rl_shunt), the 2D
    rows against c4_bimorph_2d.prm at every degree and refinement the table lists
    (the example itself, degree 3, refinement 0, from its prm_ test's output; the
    others run here), plane strain at degree 3, refinement 1, and the 3D rows'
    refinement-0 figures against c4_bimorph_3d.prm's and c4_bimorph_3d_harvester.prm's
    prm_ test outputs. The 3D figures of finer meshes (24-51 s each) are
    benchmark runs (benchmarks/continuum_bimorph.sh) and not checked here."""
    def results(test):
        return json.load(open(os.path.join(examples, test, "results.json")))

    where = "doc/validation.md (C4 beam vs 2D vs 3D)"
    rows = table_rows(os.path.join(root, "doc", "validation.md"), None, "| | f_sc (Hz) | f_oc (Hz) | k_eff |")
    beam = results("piezo_bimorph_harvester")["modes"][0]
    row = row_starting(rows, "beam (exact Euler-Bernoulli)")
    for name, cell, value in zip(("f_sc", "f_oc", "k_eff"), row[1:],
                                 (beam["frequency_hz"], beam["frequency_open_circuit_hz"], beam["coupling_k_eff"])):
        compare(where, f"beam {name}", figures(cell)[0], value)

    example = os.path.join(root, "prm", "continuum", "c4_bimorph_2d.prm")

    def continuum_2d(degree, refinements, formulation="plane stress"):
        if (degree, refinements, formulation) == (3, 0, "plane stress"):
            return results("continuum_c4_bimorph_2d")["continuum"]
        out = os.path.join(work, f"c4_2d_{degree}_{refinements}_{formulation.replace(' ', '_')}")
        subprocess.run([binary, example, "--output-dir", out,
                        "--set", f"Continuum/Element degree={degree}",
                        "--set", f"Continuum/Global refinements={refinements}",
                        "--set", f"Continuum/Formulation={formulation}",
                        "--set", "Output/Write VTU=false"], check=True, capture_output=True)
        return json.load(open(os.path.join(out, "results.json")))["continuum"]

    def check_run(label, run, cells, index=0):
        mode = run["modal"]["modes"][0]
        for name, cell, value in zip(("f_sc", "f_oc", "k_eff"), cells,
                                     (mode["frequency_hz"], mode["frequency_open_circuit_hz"],
                                      mode["coupling_k_eff"])):
            compare(where, f"{label} {name}", figures(cell)[index], value)

    for degree in (2, 3):
        row = row_starting(rows, f"2D, degree {degree}, refinements 0 / 1 / 2")
        unknowns = re.search(r"\(([\d / ]+)", row[0]).group(1).split("/")
        for refinements in (0, 1, 2):
            run = continuum_2d(degree, refinements)
            if run["n_unknowns"] != int(unknowns[refinements]):
                fail(where, f"2D degree {degree}, refinements {refinements}: {run['n_unknowns']} unknowns, "
                            f"the manual says {unknowns[refinements].strip()}")
            check_run(f"2D degree {degree}, refinements {refinements}", run, row[1:], refinements)
    check_run("2D plane strain, degree 3, refinement 1", continuum_2d(3, 1, "plane strain"),
              row_starting(rows, "2D plane strain, degree 3, refinement 1")[1:])
    three_d = results("continuum_c4_bimorph_3d")["continuum"]
    row = row_starting(rows, "3D, degree 2, refinements 0 / 1")
    if not row[0].startswith(f"3D, degree 2, refinements 0 / 1 ({three_d['n_unknowns']} /"):
        fail(where, f"3D row '{row[0]}': the example has {three_d['n_unknowns']} unknowns")
    check_run("3D degree 2, refinement 0", three_d, row[1:])

    where = "doc/validation.md (C4 as a harvester)"
    rows = table_rows(os.path.join(root, "doc", "validation.md"), None, "| | f_sc (Hz) | R_opt at f_sc (Ω) |")

    def check_harvester(label, run, rl_shunt, cells, index=0):
        sc, oc = run["harvester"]["optimal_loads"]
        computed = [("f_sc", sc["frequency_hz"]), ("R_opt at f_sc", sc["optimal_resistance_ohm"]),
                    ("P_max at f_sc (mW)", 1e3 * sc["max_power_W"]),
                    ("R_opt at f_oc (kΩ)", 1e-3 * oc["optimal_resistance_ohm"]),
                    ("P_max at f_oc (mW)", 1e3 * oc["max_power_W"]),
                    ("Hagood-von Flotow L", rl_shunt["hvf"]["inductance_H"])]
        for (name, value), cell in zip(computed, cells):
            compare(where, f"{label} {name}", figures(cell)[index], value)

    beam = results("piezo_bimorph_harvester")
    check_harvester("beam", beam, results("piezo_rl_shunt")["rl_shunt"], next(r for r in rows if r[0] == "beam")[1:])
    for label, test in (("2D plane stress, degree 3", "continuum_c4_bimorph_2d_harvester"),
                        ("3D, degree 2, refinements 0 / 1", "continuum_c4_bimorph_3d_harvester")):
        run = results(test)
        check_harvester(label, run, run["rl_shunt"], row_starting(rows, label)[1:])


# Figures in the prose (not in a table) checked against the outputs of the examples' prm_
# tests (fixtures of doc_manual_example_tables): (page, the words on the page that hold the
# figure, the figure as written, the example's prm_ test name without 'prm_', its value from
# that run's results.json). Each figure is compared at the digits the page gives
# (figure_agrees), so a page quotes no more digits than the quantity is accurate to on any
# machine: the main example's integration (rtol 1e-11) and the converged beam and continuum
# analyses hold these to 1e-6 or better, the audit's round-off residual only to its order.
def _summary(column, field):
    return lambda r: r["lumped"]["summary"]["columns"][column][field]


PROSE_FIGURES = []
for _page, _texts in (("README.md", ("2-mode ROM (47.8 and 299.6 Hz)", "(f_sc 47.8 Hz = 2869 rpm)",
                                      "power peaks at 14.8 mW (instantaneous |V|²/R, 38.5 V on 100 kΩ) at t = 2.57 s",
                                      "is 2.59 mW on average", "the disk turns at 3639 rpm and the motor draws 0.567 A",
                                      "closes to < 1e-8 of the 9.39 J supplied")),
                      ("doc/outputs.md", ("(`power_W`: peak 14.8 mW at 2.57 s, mean 2.59 mW over 2.4–3 s), the disk speed "
                                          "(3639 rpm at 3 s) and the motor current (0.567 A)",
                                          "its mean over the last 20 % of the run (2.59 mW)"))):
    for _text in _texts:
        for _figure, _value in (("47.8", lambda r: r["reduced_model"]["frequencies_hz"][0]),
                                ("299.6", lambda r: r["reduced_model"]["frequencies_hz"][1]),
                                ("2869", lambda r: 60 * r["reduced_model"]["frequencies_hz"][0]),
                                ("14.8", lambda r: 1e3 * _summary("power_W", "peak")(r)),
                                ("38.5", lambda r: (_summary("power_W", "peak")(r) * 1e5) ** 0.5),
                                ("2.57", _summary("power_W", "peak_time_s")),
                                ("2.59", lambda r: 1e3 * _summary("power_W", "mean")(r)),
                                ("3639", _summary("disk_speed_rpm", "final")),
                                ("0.567", _summary("motor_current_A", "final")),
                                ("< 1e-8", lambda r: r["lumped"]["energy_audit"]["largest_relative_residual"]),
                                ("9.39", lambda r: r["lumped"]["energy_audit"]["supplied_work_J"])):
            if re.search(r"(?<![\d.])" + re.escape(_figure) + r"(?![\d])", _text):
                PROSE_FIGURES.append((_page, _text, _figure, "coupled_motor_driven_harvester", _value))
PROSE_FIGURES += [
    ("doc/piezo.md", "optimum L is 4.7 % below the Hagood–von Flotow value", "4.7", "piezo_rl_shunt",
     lambda r: 100 * (1 - r["rl_shunt"]["optimum"]["inductance_H"] / r["rl_shunt"]["hvf"]["inductance_H"])),
    ("doc/piezo.md", "its peak is 15 % lower", "15", "piezo_rl_shunt",
     lambda r: 100 * (1 - r["rl_shunt"]["optimum"]["peak_m_N"] / r["rl_shunt"]["hvf"]["peak_m_N"])),
]


def _clamped_nF(r):
    return 1e9 * r["continuum"]["modal"]["electrodes"][0]["capacitance_F"]


def _mode(index, key="frequency_hz"):
    return lambda r: r["continuum"]["modal"]["modes"][index][key]


def _statistic(name, field, scale=1.):
    return lambda r: scale * next(s for s in r["statistics"] if s["name"] == name)[field]


def _largest_mean_power(column):
    return lambda r: max(r["points"], key=lambda p: p["values"][2])["values"][column]


_C3 = ("short circuit 65 102.5 / 65 101.2 Hz and 88 157.2 / 88 137.9 Hz, open circuit 79 814.5 / "
       "79 807.0 Hz and 93 594.4 / 93 578.2 Hz")
_STRIP = "the strip gives 10.161, 82.385, 251.00, 515.04 Hz"
_CAMPBELL = "rise from 116.66 and 731.10 rad/s to 161.35 and 1013.2 rad/s"
_RUN_UP = "The largest power, 14.5 mW at 9.3 V and 2927 rpm"
for _entry in [
        ("doc/continuum.md", "(C4 2D: 3.862 nF clamped, 8.004 nF with mode 1 blocked", "3.862",
         "continuum_c4_bimorph_2d_harvester", _clamped_nF),
        ("doc/continuum.md", "(C4 2D: 3.862 nF clamped, 8.004 nF with mode 1 blocked", "8.004",
         "continuum_c4_bimorph_2d_harvester", lambda r: 1e9 * r["rl_shunt"]["capacitance_F"]),
        ("doc/validation.md", "That capacitance is 8.004 nF in 2D", "8.004", "continuum_c4_bimorph_2d_harvester",
         lambda r: 1e9 * r["rl_shunt"]["capacitance_F"]),
        ("doc/validation.md", "the 2D clamped capacitance is 3.862 nF", "3.862", "continuum_c4_bimorph_2d_harvester",
         _clamped_nF),
        # C3, 128 cells (the example): the breathing modes 3 and 8
        ("doc/validation.md", _C3, "65 102.5", "continuum_c3_cube", _mode(2)),
        ("doc/validation.md", _C3, "88 157.2", "continuum_c3_cube", _mode(7)),
        ("doc/validation.md", _C3, "79 814.5", "continuum_c3_cube", _mode(2, "frequency_open_circuit_hz")),
        ("doc/validation.md", _C3, "93 594.4", "continuum_c3_cube", _mode(7, "frequency_open_circuit_hz")),
        ("doc/validation.md", _STRIP, "10.161", "continuum_steel_strip_3d", _mode(0)),
        ("doc/validation.md", _STRIP, "82.385", "continuum_steel_strip_3d", _mode(1)),
        ("doc/validation.md", _STRIP, "251.00", "continuum_steel_strip_3d", _mode(3)),
        ("doc/validation.md", _STRIP, "515.04", "continuum_steel_strip_3d", _mode(5)),
        ("doc/validation.md", "Tip deflection 4.2812 mm", "4.2812", "continuum_steel_strip_3d",
         lambda r: -1e3 * r["continuum"]["static"]["points"][0]["displacement_along_direction_m"]),
        ("doc/coupled.md", "Voltage amplitude 2.5339 V", "2.5339", "coupled_shunted_cantilever",
         lambda r: r["lumped"]["harmonic"]["columns"]["beam_harvester_V"]["amplitude"]),
        ("doc/coupled.md", "voltage 10.281 V", "10.281", "coupled_harvester_prescribed_motion",
         lambda r: r["lumped"]["harmonic"]["columns"]["beam_top_V"]["amplitude"]),
        ("doc/coupled.md", "average power 0.5285 mW", "0.5285", "coupled_harvester_prescribed_motion",
         lambda r: 1e3 * r["lumped"]["harmonic"]["columns"]["power_W"]["mean"]),
        ("doc/coupled.md", "two linearized frequencies, 124.27 and 767.66 rad/s", "124.27", "coupled_spinning_link",
         lambda r: abs(r["lumped"]["linearization"]["eigenvalues"][0]["imag"])),
        ("doc/coupled.md", "two linearized frequencies, 124.27 and 767.66 rad/s", "767.66", "coupled_spinning_link",
         lambda r: abs(r["lumped"]["linearization"]["eigenvalues"][2]["imag"])),
        ("doc/studies.md", "mean 18.506 Hz and standard deviation 0.559 Hz", "18.506", "studies_cantilever_monte_carlo",
         _statistic("modes/0/frequency_hz", "mean")),
        ("doc/studies.md", "mean 18.506 Hz and standard deviation 0.559 Hz", "0.559", "studies_cantilever_monte_carlo",
         _statistic("modes/0/frequency_hz", "standard_deviation")),
        ("doc/studies.md", "f_sc: mean 205.384 Hz, standard deviation 2.504 Hz", "205.384",
         "studies_bimorph_tip_mass_monte_carlo", _statistic("modes/0/frequency_hz", "mean")),
        ("doc/studies.md", "f_sc: mean 205.384 Hz, standard deviation 2.504 Hz", "2.504",
         "studies_bimorph_tip_mass_monte_carlo", _statistic("modes/0/frequency_hz", "standard_deviation")),
        ("doc/studies.md", "P_max at 1 g: mean 1.542 mW, standard deviation 0.189 mW", "1.542",
         "studies_bimorph_tip_mass_monte_carlo", _statistic("harvester/optimal_loads/0/max_power_W", "mean", 1e3)),
        ("doc/studies.md", "P_max at 1 g: mean 1.542 mW, standard deviation 0.189 mW", "0.189",
         "studies_bimorph_tip_mass_monte_carlo",
         _statistic("harvester/optimal_loads/0/max_power_W", "standard_deviation", 1e3)),
        ("doc/studies.md", "1.52701 g, 780.5 kΩ, 0.372809 mW", "1.52701", "studies_bimorph_optimal_tip_mass_load",
         lambda r: 1e3 * r["optimum"]["parameters"][0]),
        ("doc/studies.md", "1.52701 g, 780.5 kΩ, 0.372809 mW", "780.5", "studies_bimorph_optimal_tip_mass_load",
         lambda r: 1e-3 * r["optimum"]["parameters"][1]),
        ("doc/studies.md", "1.52701 g, 780.5 kΩ, 0.372809 mW", "0.372809", "studies_bimorph_optimal_tip_mass_load",
         lambda r: 1e3 * r["optimum"]["value"]),
        ("doc/studies.md", _CAMPBELL, "116.66", "studies_spinning_link_campbell", lambda r: -r["points"][0]["values"][1]),
        ("doc/studies.md", _CAMPBELL, "731.10", "studies_spinning_link_campbell", lambda r: -r["points"][0]["values"][2]),
        ("doc/studies.md", _CAMPBELL, "161.35", "studies_spinning_link_campbell", lambda r: -r["points"][-1]["values"][1]),
        ("doc/studies.md", _CAMPBELL, "1013.2", "studies_spinning_link_campbell", lambda r: -r["points"][-1]["values"][2]),
        ("doc/studies.md", _RUN_UP, "14.5", "studies_motor_driven_run_up_map",
         lambda r: 1e3 * _largest_mean_power(2)(r)),
        ("doc/studies.md", _RUN_UP, "9.3", "studies_motor_driven_run_up_map", _largest_mean_power(0)),
        ("doc/studies.md", _RUN_UP, "2927", "studies_motor_driven_run_up_map", _largest_mean_power(1)),
        ("doc/studies.md", "6 V gives 6.9 µW", "6.9", "studies_motor_driven_run_up_map",
         lambda r: 1e6 * r["points"][0]["values"][2]),
        ("doc/lumped.md", "V_DC overshoots to 3.35 V at 63 ms", "3.35", "coupled_rectified_harvester",
         _summary("V_DC", "peak")),
        ("doc/lumped.md", "V_DC overshoots to 3.35 V at 63 ms", "63", "coupled_rectified_harvester",
         lambda r: 1e3 * _summary("V_DC", "peak_time_s")(r)),
        ("doc/lumped.md", "settles it at 2.760 V and 115.4 µW", "2.760", "coupled_rectified_harvester",
         _summary("V_DC", "mean")),
        ("doc/lumped.md", "settles it at 2.760 V and 115.4 µW", "115.4", "coupled_rectified_harvester",
         lambda r: 1e6 * _summary("power_W", "mean")(r)),
]:
    PROSE_FIGURES.append(_entry)


def check_prose_figures(root, examples):
    """PROSE_FIGURES: each page still holds the words, and the figure in them agrees with the run."""
    cache = {}
    for page, text, figure, test, value in PROSE_FIGURES:
        where = f"{page} (prose)"
        path = os.path.join(root, page)
        if path not in cache:
            cache[path] = " ".join(open(path, encoding="utf-8").read().split())
        if " ".join(text.split()) not in cache[path]:
            fail(where, f"no longer says '{text}': update PROSE_FIGURES in tests/check_manual.py with the page")
            continue
        results = json.load(open(os.path.join(examples, test, "results.json")))
        compare(where, f"'{figure}' in '{text}' ({test})", figure.replace(" ", ""), value(results))


TABLES = [check_c2_thickness_table, check_rom_verification_table, check_main_example_answer,
          check_c2_bars_table]


def main():
    args = [os.path.abspath(a) for a in sys.argv[1:] if a not in ("--tables", "--example-tables")]
    example_tables = "--example-tables" in sys.argv
    if len(args) != (3 if example_tables else 2):
        sys.exit(__doc__)
    binary, root = args[:2]
    if example_tables:
        with tempfile.TemporaryDirectory() as work:
            check_c4_tables(binary, root, work, args[2])
        check_prose_figures(root, args[2])
        summary = f"the C4 tables and {len(PROSE_FIGURES)} figures of the prose checked"
    elif "--tables" in sys.argv:
        with tempfile.TemporaryDirectory() as work:
            for check in TABLES:
                check(binary, root, work)
        summary = f"{len(TABLES)} table(s) checked"
    else:
        files = manual_files(root)
        check_links(root, files)
        check_examples(root, files)
        checked = check_parameter_paths(binary, root, files)
        quoted_files = check_repository_paths(root, files)
        summary = f"{len(files)} pages, {checked} parameter paths and {quoted_files} file paths checked"
    for f in failures:
        print("FAIL", f)
    print(f"{summary}, {len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
