#ifndef hamilton_output_writer_h
#define hamilton_output_writer_h

#include <hamilton/analyses/analysis.h>
#include <hamilton/base/registry.h>
#include <hamilton/output/row_sink.h>

#include <nlohmann/json.hpp>

#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace hamilton
{
  /**
   * What a run has computed, handed to every writer: typed results (the beam
   * analyses or a sweep, a continuum, a lumped system), in the order they
   * were computed, and what describes the run.
   */
  struct RunResults
  {
    std::string                         input;                    ///< the parameter file's name
    const dealii::ParameterHandler     *parameters     = nullptr; ///< every entry, after --set
    const BeamModel                    *model          = nullptr; ///< the beam, if the file holds one
    const Discretization               *discretization = nullptr; ///< ... and its discretization
    std::vector<const AnalysisResult *> results;
    std::vector<std::string>            warnings; ///< every warning of the run
    /**
     * Whether the run was stopped (a signal) before it finished: finish()
     * writes only what --resume reads (a study's rows so far), no
     * results.json.
     */
    bool stopped = false;

    /**
     * The content of results.json (also a study's record of a point): the
     * run's description, then what each result adds.
     */
    nlohmann::json
    to_json() const;
  };

  /** Where a writer writes. */
  struct Destination
  {
    /** The output directory, not yet committed (every file of a run goes here). */
    std::string directory;
    /**
     * Whether the files are only read by the run itself and then dropped (a
     * study's point, --validate): writers of files nothing reads (VTU) skip.
     */
    bool scratch = false;
    /** Whether this process writes the files of the run (MPI rank 0; the only one of a serial run). */
    bool root = true;
  };

  /**
   * An output: a plugin that consumes typed results and writes files or the
   * terminal summary (ASPECT's postprocessors are the model). Each writer is
   * one .h/.cc pair under source/output/ registered with
   * HAMILTON_REGISTER_WRITER; every registered writer takes part in every run
   * (in the order of their names), and a writer that has nothing to do for a
   * result does nothing. Its entries, if any, are in subsection 'Output'.
   * The run calls
   *   print()    as soon as a result is computed (the terminal),
   *   write()    for each result once the output directory exists: later
   *              parts of the run (a lumped system) may read these files,
   *   open_rows() before a time integration, for writers that stream rows,
   *   finish()   at the end, before the directory is committed.
   * A continuum runs on every MPI rank: print() is called on every rank
   * (only rank 0's stream reaches the terminal), write() on rank 0 only
   * unless the writer is collective() (deal.II's parallel VTU output), then
   * on every rank, which tells rank 0 by Destination::root.
   * Errors: throw OutputError (base/files.h) naming the file.
   */
  class Writer
  {
  public:
    virtual ~Writer() = default;

    /** Declare the writer's entries (the current subsection is 'Output'). */
    static void
    declare_parameters(dealii::ParameterHandler & /*prm*/)
    {}

    /** Read the writer's entries (the current subsection is 'Output'). */
    virtual void
    parse_parameters(Section & /*section*/)
    {}

    /**
     * Check what the writer will write against the model of `run` (its
     * sizes), before anything is solved: throws InputError (e.g. files too
     * large for memory).
     */
    virtual void
    check(const RunResults & /*run*/) const
    {}

    /** Whether write() must be called on every MPI rank (else rank 0 alone). */
    virtual bool
    collective() const
    {
      return false;
    }

    virtual void
    print(const AnalysisResult & /*result*/, std::ostream & /*out*/) const
    {}

    virtual void
    write(const AnalysisResult & /*result*/, const RunResults & /*run*/, const Destination & /*destination*/) const
    {}

    /**
     * A sink for the rows of `result` while they are computed (its
     * integration), or nullptr.
     */
    virtual std::unique_ptr<RowSink>
    open_rows(const AnalysisResult & /*result*/, const Destination & /*destination*/) const
    {
      return nullptr;
    }

    virtual void
    finish(const RunResults & /*run*/, const Destination & /*destination*/) const
    {}
  };

  using WriterRegistry = Registry<Writer>;

  /** Every registered writer, with its entries read: what a run calls. */
  class Writers
  {
  public:
    /**
     * Declare every writer's entries; the current subsection is 'Output'.
     * The entries that several writers read are declared here, once:
     * 'Write VTU' (the beam's and the continuum's VTU writers).
     */
    static void
    declare_parameters(dealii::ParameterHandler &prm);

    /** Create every registered writer and read its entries from 'Output'. */
    explicit Writers(Section &section);

    /** Writer::check of every writer. */
    void
    check(const RunResults &run) const;

    void
    print(const AnalysisResult &result, std::ostream &out) const;

    void
    write(const AnalysisResult &result, const RunResults &run, const Destination &destination) const;

    std::vector<std::unique_ptr<RowSink>>
    open_rows(const AnalysisResult &result, const Destination &destination) const;

    void
    finish(const RunResults &run, const Destination &destination) const;

  private:
    std::vector<std::pair<std::string, std::unique_ptr<Writer>>> writers;
  };
} // namespace hamilton

/**
 * Register writer `Class` (derived from hamilton::Writer) under `name` with a
 * one-line `description`; its entries go into subsection 'Output'.
 */
#define HAMILTON_REGISTER_WRITER(Class, name, description)                     \
  HAMILTON_REGISTER_PLUGIN_IN(::hamilton::Writer, Class, name, "Output", description)

#endif
