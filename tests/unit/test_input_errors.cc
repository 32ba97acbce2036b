// Bad input stops with a message naming subsection, entry, value and what is
// allowed, and writes nothing.
#include "test_helpers.h"

#include <hamilton/analyses/analysis.h>
#include <hamilton/run.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

using namespace hamilton;
using namespace hamilton::testing;

namespace
{
  // A valid cantilever; `replace` substitutes text to break it.
  const std::string valid = R"(
subsection Beam
  subsection Materials
    set Names = steel
    subsection steel
      set Young's modulus = 210e9
      set Density = 7850
    end
  end
  subsection Layers
    set Names = strip
    subsection strip
      set Material = steel
      set Thickness = 0.002
      set Width = 0.02
    end
  end
  subsection Segments
    set Names = beam
    subsection beam
      set Length = 0.3
      set Layers = strip
    end
  end
  subsection Supports
    set Left end = clamped
    set Right end = free
  end
  subsection Prestress
    set Axial force = 0
  end
end
subsection Discretization
  subsection Finite elements
    set Number of elements = 4
    set Polynomial degree = 3
  end
end
subsection Analysis
  set Analyses = modal
  subsection Modal
    set Number of modes = 3
  end
end
)";

  // Run the file with `from` replaced by `to`; return the InputError message
  // (empty if the run succeeded).
  std::string
  error_for(const std::string &from, const std::string &to)
  {
    std::string text  = valid;
    const auto  where = text.find(from);
    EXPECT_NE(where, std::string::npos) << from;
    text.replace(where, from.size(), to);
    // one file per test: ctest runs the tests of this program in parallel
    const std::string test   = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    const std::string name   = "bad_input_" + test + ".prm";
    const std::string outdir = "bad_input_" + test + "_output";
    std::filesystem::remove_all(outdir);
    write_file(name, text);
    std::ostringstream out;
    try
      {
        run({name, outdir, false}, out);
      }
    catch (const InputError &e)
      {
        EXPECT_FALSE(std::filesystem::exists(outdir)) << "output written despite the error";
        return e.what();
      }
    return "";
  }

  void
  expect_message(const std::string &from, const std::string &to, const std::vector<std::string> &parts)
  {
    const std::string message = error_for(from, to);
    ASSERT_FALSE(message.empty()) << "no error for '" << to << "'";
    for (const auto &part : parts)
      EXPECT_NE(message.find(part), std::string::npos)
        << "message lacks '" << part << "':\n  " << message;
  }
} // namespace

TEST(InputErrors, ValidFileRuns)
{
  EXPECT_EQ(error_for("set Number of modes = 3", "set Number of modes = 3"), "");
}

TEST(InputErrors, NonPositiveLayerData)
{
  expect_message("set Thickness = 0.002", "set Thickness = -0.002",
                 {"'Beam/Layers/strip'", "'Thickness'", "-0.002", "positive", "(in m)"});
  expect_message("set Width = 0.02", "set Width = 0",
                 {"'Beam/Layers/strip'", "'Width'", "'0'", "positive"});
  expect_message("set Young's modulus = 210e9", "set Young's modulus = -1",
                 {"'Beam/Materials/steel'", "'Young's modulus'", "-1", "Pa"});
  expect_message("set Density = 7850", "set Density = 0",
                 {"'Beam/Materials/steel'", "'Density'", "'0'", "kg/m^3"});
  expect_message("set Length = 0.3", "set Length = -1",
                 {"'Beam/Segments/beam'", "'Length'", "-1"});
}

TEST(InputErrors, SupportOutsideTheBeam)
{
  expect_message("    set Right end = free\n",
                 "    set Right end = free\n    set Names = prop\n    subsection prop\n"
                 "      set Position = 0.5\n      set Condition = pinned\n    end\n",
                 {"'Beam/Supports/prop'", "'Position'", "0.5", "outside the beam", "0.3 m"});
}

TEST(InputErrors, UnconstrainedStaticBeam)
{
  std::string message = error_for("set Left end = clamped", "set Left end = pinned");
  EXPECT_EQ(message, ""); // modal analysis of a pinned-free beam is fine
  std::string text = valid;
  text.replace(text.find("set Left end = clamped"), 22, "set Left end = free");
  text.replace(text.find("set Analyses = modal"), 20, "set Analyses = static");
  write_file("unconstrained.prm", text);
  std::ostringstream out;
  try
    {
      run({"unconstrained.prm", "unconstrained_output", false}, out);
      ADD_FAILURE() << "no error for a free-free static analysis";
    }
  catch (const InputError &e)
    {
      const std::string m = e.what();
      EXPECT_NE(m.find("'Beam/Supports'"), std::string::npos) << m;
      EXPECT_NE(m.find("left end: free, right end: free"), std::string::npos) << m;
      EXPECT_NE(m.find("rigid body"), std::string::npos) << m;
      EXPECT_NE(m.find("Clamp one end"), std::string::npos) << m;
    }
}

TEST(InputErrors, MoreModesThanUnknowns)
{
  expect_message("set Number of modes = 3", "set Number of modes = 100",
                 {"'Analysis/Modal'", "'Number of modes'", "100", "only 8 unknowns", "at most 8 modes"});
}

TEST(InputErrors, DegreeBelowThree)
{
  expect_message("set Polynomial degree = 3", "set Polynomial degree = 2",
                 {"'Discretization/Finite elements'", "'Polynomial degree'", "'2'", "at least cubic"});
}

TEST(InputErrors, UnknownEntryAndSubsection)
{
  // as --set: the subsection, the line and the closest entries (was deal.II's raw message)
  expect_message("set Width = 0.02", "set Widht = 0.02",
                 {"In subsection 'Beam/Layers/", "there is no entry 'Widht' (line ",
                  "The closest existing entries are 'Beam/Layers/", "/Width'", "--print-parameters"});
  expect_message("subsection Supports", "subsection Suports",
                 {"In subsection 'Beam': there is no subsection 'Suports' (line ",
                  "The closest existing entries are 'Beam/Supports/"});
}

TEST(InputErrors, MalformedExpression)
{
  expect_message("set Axial force = 0", "set Axial force = 3*(x-",
                 {"'Beam/Prestress'", "'Axial force'", "'3*(x-'", "not a valid expression of x"});
  expect_message("set Axial force = 0", "set Axial force = 3*y",
                 {"'Beam/Prestress'", "'Axial force'", "'3*y'"});
}

TEST(InputErrors, UndeclaredReferences)
{
  expect_message("set Material = steel", "set Material = brass",
                 {"'Beam/Layers/strip'", "'Material'", "'brass'", "no material of that name"});
  expect_message("set Layers = strip", "set Layers = strip, piezo",
                 {"'Beam/Segments/beam'", "'Layers'", "'piezo' is not declared"});
}

TEST(InputErrors, BucklingWithoutReferenceLoad)
{
  expect_message("set Analyses = modal", "set Analyses = buckling",
                 {"'Beam/Prestress'", "'Axial force'", "needs a reference axial force"});
}

TEST(InputErrors, MissingFile)
{
  std::ostringstream out;
  try
    {
      run({"no_such_file.prm", "", false}, out);
      ADD_FAILURE();
    }
  catch (const InputError &e)
    {
      EXPECT_NE(std::string(e.what()).find("Cannot open parameter file 'no_such_file.prm'"),
                std::string::npos);
    }
}

TEST(Registry, EveryPluginIsRegistered)
{
  // a static library could silently drop self-registering plugins
  EXPECT_EQ(AnalysisRegistry::instance().pattern(),
            "buckling|frequency response|harvester|modal|reduced model|rl shunt|static");
  EXPECT_EQ(DiscretizationRegistry::instance().pattern(), "finite elements|rayleigh-ritz");
}

namespace
{
  // The Case 1b bimorph example with `from` replaced by `to`.
  std::string
  piezo_error_for(const std::string &from, const std::string &to)
  {
    std::ifstream     in(std::string(HAMILTON_SOURCE_DIR) + "/prm/piezo/bimorph_harvester.prm");
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string text  = buffer.str();
    const auto  where = text.find(from);
    EXPECT_NE(where, std::string::npos) << from;
    text.replace(where, from.size(), to);
    // one file per test: ctest runs the tests of this program in parallel
    const std::string test   = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    const std::string name   = "bad_piezo_" + test + ".prm";
    const std::string outdir = "bad_piezo_" + test + "_output";
    write_file(name, text);
    std::filesystem::remove_all(outdir);
    std::ostringstream out;
    try
      {
        run({name, outdir, false}, out);
      }
    catch (const InputError &e)
      {
        EXPECT_FALSE(std::filesystem::exists(outdir));
        return e.what();
      }
    return "";
  }

  void
  expect_piezo_message(const std::string &from, const std::string &to, const std::vector<std::string> &parts)
  {
    const std::string message = piezo_error_for(from, to);
    ASSERT_FALSE(message.empty()) << "no error for '" << to << "'";
    for (const auto &part : parts)
      EXPECT_NE(message.find(part), std::string::npos) << "message lacks '" << part << "':\n  " << message;
  }
} // namespace

TEST(InputErrors, ElectrodeOutsideTheBeam)
{
  expect_piezo_message("      set End        = 24.53e-3", "      set End        = 0.03",
                       {"'Beam/Electrodes/harvester'", "'End'", "0.03", "outside the beam"});
  expect_piezo_message("      set Start      = 0\n      set End        = 24.53e-3",
                       "      set Start      = 0.02\n      set End        = 0.01",
                       {"'Beam/Electrodes/harvester'", "must be larger than 'Start'"});
}

TEST(InputErrors, ElectrodeOnElasticLayer)
{
  expect_piezo_message("      set Layers     = pzt_lower, pzt_upper", "      set Layers     = substrate, pzt_upper",
                       {"'Beam/Electrodes/harvester'", "'Layers'", "'substrate'", "'brass'", "not piezoelectric"});
}

TEST(InputErrors, OverlappingElectrodes)
{
  expect_piezo_message("    set Names = harvester\n",
                       "    set Names = harvester, second\n    subsection second\n"
                       "      set Layers = pzt_upper\n      set Start = 0.01\n      set End = 0.02\n    end\n",
                       {"'Beam/Electrodes/second'", "overlaps electrode 'harvester'", "'pzt_upper'"});
}

TEST(InputErrors, InconsistentPiezoMaterial)
{
  // d-form with a Young's modulus that disagrees with 1/s11E
  expect_piezo_message("      set Piezoelectric form = e-form\n      set e31                = -16.6\n",
                       "      set Piezoelectric form = d-form\n      set d31 = -274e-12\n"
                       "      set s11E = 16.5e-12\n      set eps33T = 30.1e-9\n",
                       {"'Beam/Materials/pzt5h'", "'Young's modulus'", "disagrees with 1/s11E"});
  // eps33S = eps33T - d31^2/s11E <= 0
  expect_piezo_message("      set Young's modulus    = 60.6e9\n      set Density            = 7500\n"
                       "      set Piezoelectric form = e-form\n      set e31                = -16.6\n",
                       "      set Density = 7500\n      set Piezoelectric form = d-form\n"
                       "      set d31 = -274e-12\n      set s11E = 16.5e-12\n      set eps33T = 1e-9\n",
                       {"'Beam/Materials/pzt5h'", "'eps33T'", "eps33S = eps33T - d31^2/s11E", "must be positive"});
}

TEST(InputErrors, CircuitValues)
{
  expect_piezo_message("      set Resistance = 470", "      set Resistance = 0",
                       {"'Beam/Electrodes/harvester'", "'Resistance'", "'0'", "positive (in Ohm)"});
  expect_piezo_message("      set Circuit    = resistor\n      set Resistance = 470",
                       "      set Circuit    = series RL\n      set Resistance = 470\n      set Inductance = -1",
                       {"'Beam/Electrodes/harvester'", "'Inductance'", "-1", "positive (in H)"});
  expect_piezo_message("    set Resistances           = 100, 470, 1e3, 7.7e3, 1e4, 1e5, 208e3, 1e6",
                       "    set Resistances           = 100, -470",
                       {"'Analysis/Harvester'", "'Resistances'", "must be positive"});
}

TEST(InputErrors, FrequencyRange)
{
  expect_piezo_message("    set Maximum frequency     = 650", "    set Maximum frequency     = 300",
                       {"'Analysis/Frequency response'", "'Maximum frequency'", "the range is empty"});
  expect_piezo_message("    set Minimum frequency     = 400", "    set Minimum frequency     = -5",
                       {"'Analysis/Frequency response'", "'Minimum frequency'", "must be positive"});
}

TEST(InputErrors, NumbersOutOfRange)
{
  // a subnormal (below 2.2e-308, the smallest normal double), beyond the
  // range of doubles, and non-finite texts: refused with the entry named
  expect_message("set Young's modulus = 210e9", "set Young's modulus = 1e-308",
                 {"'Beam/Materials/steel'", "'Young's modulus'", "'1e-308'", "below 1e-300"});
  expect_message("set Density = 7850", "set Density = 1e400",
                 {"'Beam/Materials/steel'", "'Density'", "'1e400'", "at most 1e300"});
  expect_message("set Width = 0.02", "set Width = 2e300", {"'Beam/Layers/strip'", "'Width'", "at most 1e300"});
  expect_message("set Width = 0.02", "set Width = nan", {"'Width'", "'nan'"});
  expect_message("set Width = 0.02", "set Width = inf", {"'Width'", "'inf'"});
}

TEST(InputErrors, ParseNumber)
{
  EXPECT_EQ(parse_number(" 0 "), 0.);
  EXPECT_EQ(parse_number("-1e300"), -1e300);
  EXPECT_EQ(parse_number("1e-300"), 1e-300);
  EXPECT_EQ(parse_number("2.5"), 2.5);
  for (const std::string bad : {"1e-308", "1e-400", "1e301", "1e400", "-inf", "nan", "2.5abc", "", "0x", "1,5"})
    EXPECT_THROW(parse_number(bad), std::invalid_argument) << bad;
}

TEST(InputErrors, DuplicateEntry)
{
  expect_message("      set Density = 7850\n", "      set Density = 7850\n      set Density = 7800\n",
                 {"'Beam/Materials/steel'", "'Density' is set twice", "(= 7850)", "(= 7800)"});
  // the same name in two subsections is not a duplicate
  EXPECT_EQ(error_for("set Number of modes = 3", "set Number of modes = 3"), "");
}

TEST(InputErrors, EntryDeclared)
{
  dealii::ParameterHandler prm;
  declare_all_parameters(prm, nullptr);
  EXPECT_TRUE(entry_declared(prm, {"Analysis", "Modal"}, "Number of modes"));
  EXPECT_FALSE(entry_declared(prm, {"Analysis", "Modal"}, "Number of nodes"));
  EXPECT_FALSE(entry_declared(prm, {"Analysis"}, "Modal")); // a subsection
  EXPECT_FALSE(entry_declared(prm, {"Nowhere"}, "Names"));
}
