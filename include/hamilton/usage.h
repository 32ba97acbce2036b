#ifndef HAMILTON_USAGE_H
#define HAMILTON_USAGE_H

namespace hamilton
{
  /** The text of `hamilton --help` (printed by source/launcher.cc and source/main.cc). */
  inline constexpr const char *usage_text =
    "Usage:\n"
    "  hamilton FILE.prm [--output-dir DIR]  run what the file describes\n"
    "  hamilton --validate FILE.prm           read and check the file only\n"
    "  ... --set 'Path/To/Entry=value'         replace an entry of the file (repeatable),\n"
    "                                         e.g. --set 'Beam/Layers/strip/Thickness=0.003'\n"
    "  ... --resume                           continue a stopped study from the rows of\n"
    "                                         the study.csv in its output directory\n"
    "  ... --no-cache                         compile the lumped equations afresh and keep\n"
    "                                         nothing (the compiled equations are reused\n"
    "                                         across runs from $XDG_CACHE_HOME/hamilton,\n"
    "                                         else ~/.cache/hamilton)\n"
    "  hamilton --print-equations FILE.prm    the derived equations of the lumped\n"
    "                                         system, as text and LaTeX\n"
    "  hamilton --print-parameters [PATH]     every entry with its documentation,\n"
    "                                         default and allowed values; with PATH\n"
    "                                         (e.g. 'Lumped system/Components/diode')\n"
    "                                         those of that subsection only\n"
    "  hamilton --version                     version, git commit and library versions\n"
    "  hamilton --help                        this text\n";
} // namespace hamilton

#endif
