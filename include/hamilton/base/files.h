#ifndef hamilton_base_files_h
#define hamilton_base_files_h

#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace hamilton
{
  /**
   * A file or directory of the results could not be written (full disk,
   * file size limit, permissions). The message names the file and the
   * fix; `main` prints it and exits with status 1, and no output directory is
   * left that looks like a result.
   */
  class OutputError : public std::runtime_error
  {
  public:
    using std::runtime_error::runtime_error;
  };

  /**
   * Throw an OutputError "Cannot write 'filename': <system error>. <fix>"
   * with the current errno (if set).
   */
  [[noreturn]] void
  output_error(const std::string &filename, int error_number);

  /**
   * A file written through a std::ofstream whose every failure is an
   * OutputError naming the file: opening, each check() and close(). The
   * destructor closes without checking (after an exception); call close() to
   * finish the file.
   */
  class OutputFile
  {
  public:
    explicit OutputFile(const std::string &filename);

    /** The stream to write to. */
    std::ostream &
    stream();

    /** Throw an OutputError if a write has failed so far. */
    void
    check();

    /** Flush and close; throw an OutputError if anything failed. */
    void
    close();

    const std::string &
    name() const;

  private:
    std::string   filename;
    std::ofstream file;
  };

  /**
   * Why `path` cannot be read as a regular file, as the end of a sentence
   * ("is a directory", "is a FIFO (named pipe)", "does not exist", ...), or
   * "" if it is a regular file.
   */
  std::string
  not_a_regular_file(const std::string &path);

  /**
   * The directory for temporary files: TMPDIR if it is set, else /tmp
   * (std::filesystem::temp_directory_path). A TMPDIR that does not exist or
   * is not a directory ends with an InputError naming TMPDIR, its value and
   * the fix.
   */
  std::filesystem::path
  temporary_directory();

  /**
   * Whether the file system of `path` has (nearly) no room left: under 1 MiB
   * available to this user, or no free inode. For messages after a failed
   * write by another program (the C compiler, the linker).
   */
  bool
  file_system_full(const std::string &path);

  /** Write a whole file through `write`, checked as OutputFile. */
  void
  write_file(const std::string &filename, const std::function<void(std::ostream &)> &write);

  /**
   * The output directory of a run, written atomically: every file goes into
   * a hidden temporary directory beside the target (same file system), which
   * commit() renames to the target at the end, replacing the result of an
   * earlier run there. A run that fails or is interrupted before commit()
   * leaves nothing (the destructor removes the temporary directory), so a
   * directory named like the target is always a complete result.
   *
   * The target may exist only as an empty directory or as an earlier
   * Hamilton result (it holds parameters_used.prm or lumped.partial.csv):
   * anything else is refused rather than deleted.
   */
  class OutputDirectory
  {
  public:
    /**
     * Check, without writing anything, that `target` can become the output
     * directory: not an existing file, not a directory with other content,
     * each name short enough, the nearest existing parent writable. Throws
     * InputError naming the directory, the problem and the fix; `origin` says
     * where the name came from ("--output-dir" or "'Output/Directory'").
     */
    static void
    check_target(const std::string &target, const std::string &origin);

    /**
     * The temporary directories beside `target` that runs into it left
     * behind (or are still writing): a process killed by SIGKILL cannot
     * remove its own.
     */
    static std::vector<std::string>
    temporary_directories_of(const std::string &target);

    /** Create the temporary directory beside `target`. */
    OutputDirectory(const std::string &target, const std::string &origin);

    /** Remove the temporary directory unless committed. */
    ~OutputDirectory();

    OutputDirectory(const OutputDirectory &) = delete;
    OutputDirectory &
    operator=(const OutputDirectory &) = delete;

    /** The temporary directory: write files here. */
    const std::string &
    path() const;

    /** The directory the results will have after commit(). */
    const std::string &
    target() const;

    /** Move the temporary directory to the target. */
    void
    commit();

  private:
    std::string target_directory;
    std::string origin;
    std::string temporary;
    bool        committed = false;
  };
} // namespace hamilton

#endif
