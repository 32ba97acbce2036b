#include <hamilton/base/files.h>
#include <hamilton/base/input.h>
#include <hamilton/base/process.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <algorithm>
#include <vector>

#include <fcntl.h>
#include <sys/statvfs.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hamilton
{
  namespace fs = std::filesystem;

  namespace
  {
    const std::string fix = "Free space on the disk, raise the file size limit (ulimit -f) or choose "
                            "another output directory (--output-dir or 'Output/Directory').";

    /** Files that mark a directory as the result of an earlier run. */
    bool
    is_earlier_result(const fs::path &directory)
    {
      std::error_code error;
      if (fs::is_empty(directory, error))
        return true;
      return fs::exists(directory / "parameters_used.prm", error) ||
             fs::exists(directory / "lumped.partial.csv", error);
    }

    fs::path
    normalized(const std::string &target)
    {
      fs::path p = fs::absolute(target).lexically_normal();
      if (p.filename().empty()) // a trailing '/'
        p = p.parent_path();
      return p;
    }

    /** mkdtemp on `pattern` (ending in XXXXXX); the created path or "". */
    std::string
    make_temporary_directory(const fs::path &pattern)
    {
      std::string      text = pattern.string();
      std::vector<char> buffer(text.begin(), text.end());
      buffer.push_back('\0');
      if (mkdtemp(buffer.data()) == nullptr)
        return "";
      return std::string(buffer.data());
    }
  } // namespace

  void
  output_error(const std::string &filename, int error_number)
  {
    std::string reason = error_number != 0 ? std::string(": ") + std::strerror(error_number) : std::string();
    throw OutputError("Cannot write '" + filename + "'" + reason + ". " + fix +
                      " Nothing of this run was kept.");
  }

  OutputFile::OutputFile(const std::string &filename)
    : filename(filename)
  {
    errno = 0;
    file.open(filename);
    if (!file)
      output_error(filename, errno);
  }

  std::ostream &
  OutputFile::stream()
  {
    return file;
  }

  void
  OutputFile::check()
  {
    if (!file)
      output_error(filename, errno);
  }

  void
  OutputFile::close()
  {
    check(); // a write that failed already (errno still tells why)
    errno = 0;
    file.flush();
    check();
    file.close();
    if (file.fail())
      output_error(filename, errno);
  }

  const std::string &
  OutputFile::name() const
  {
    return filename;
  }

  std::string
  not_a_regular_file(const std::string &path)
  {
    std::error_code error;
    const auto      status = fs::status(path, error);
    switch (status.type())
      {
        case fs::file_type::regular:
          return "";
        case fs::file_type::directory:
          return "is a directory";
        case fs::file_type::fifo:
          return "is a FIFO (named pipe), which can be read only once and whose size is unknown";
        case fs::file_type::socket:
          return "is a socket";
        case fs::file_type::block:
        case fs::file_type::character:
          return "is a device";
        case fs::file_type::not_found:
          return "does not exist";
        default:
          return "cannot be examined (" + error.message() + ")";
      }
  }

  fs::path
  temporary_directory()
  {
    std::error_code error;
    const fs::path  path = fs::temp_directory_path(error);
    if (!error)
      return path;
    const char       *variable = std::getenv("TMPDIR");
    const std::string value    = variable != nullptr ? variable : "";
    const std::string problem  = not_a_regular_file(value) == "does not exist" ? "does not exist" : "is not a directory";
    throw InputError("The directory for temporary files, TMPDIR = '" + value + "', " + problem +
                     ". Set TMPDIR to an existing directory where you may write (e.g. 'export TMPDIR=/tmp'), or "
                     "unset it.");
  }

  bool
  file_system_full(const std::string &path)
  {
    struct statvfs status;
    if (::statvfs(path.c_str(), &status) != 0)
      return false;
    const double available = double(status.f_bavail) * double(status.f_frsize);
    return available < 1024. * 1024. || (status.f_files > 0 && status.f_favail == 0);
  }

  void
  write_file(const std::string &filename, const std::function<void(std::ostream &)> &write)
  {
    OutputFile file(filename);
    write(file.stream());
    file.close();
  }

  void
  OutputDirectory::check_target(const std::string &target_name, const std::string &origin)
  {
    const std::string where = "Output directory '" + target_name + "' (" + origin + ")";
    if (target_name.empty())
      throw InputError(where + " is empty. Give a directory name.");
    const fs::path target = normalized(target_name);
    if (target.string().size() + 64 > PATH_MAX)
      throw InputError(where + ": the path has " + std::to_string(target.string().size()) +
                       " characters, too long for the files in it (at most " + std::to_string(PATH_MAX - 64) +
                       "). Choose a shorter directory name.");
    for (const auto &part : target)
      if (part.string().size() + 24 > NAME_MAX)
        throw InputError(where + ": the name '" + part.string().substr(0, 40) + "...' has " +
                         std::to_string(part.string().size()) + " characters; at most " +
                         std::to_string(NAME_MAX - 24) + " are allowed. Choose a shorter directory name.");
    std::error_code error;
    const auto      status = fs::status(target, error);
    if (fs::exists(status) && !fs::is_directory(status))
      throw InputError(where + " exists and is not a directory. Give the name of a directory (existing or new) "
                               "with --output-dir or in 'Output/Directory', or move the file away.");
    if (fs::is_directory(status) && !is_earlier_result(target))
      throw InputError(where + " exists and holds files that are not the result of a Hamilton run (no "
                               "parameters_used.prm). Hamilton replaces its output directory as a whole: choose "
                               "a new or empty directory, or remove that one.");
    // an existing directory is replaced as a whole: only one of our own that we may write
    struct stat info;
    if (fs::is_directory(status) && ::stat(target.c_str(), &info) == 0)
      {
        if (info.st_uid != ::geteuid())
          throw InputError(where + " belongs to another user (uid " + std::to_string(info.st_uid) + "; this run's is " +
                           std::to_string(::geteuid()) + "). Hamilton replaces its output directory as a whole and "
                           "never one of another owner: choose a directory of your own (--output-dir or "
                           "'Output/Directory').");
        if ((info.st_mode & S_IWUSR) == 0 || ::access(target.c_str(), W_OK | X_OK) != 0)
          {
            char mode[8];
            std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned int>(info.st_mode & 07777));
            throw InputError(where + " is read-only (mode " + mode +
                             "). Hamilton replaces its output directory as a whole and never one protected "
                             "against writing: choose another directory (--output-dir or 'Output/Directory'), or "
                             "make this one writable (chmod u+w) if its results may be replaced.");
          }
      }
    // the nearest existing ancestor must be a writable directory
    fs::path ancestor = target.parent_path();
    while (!ancestor.empty() && !fs::exists(ancestor, error) && ancestor != ancestor.parent_path())
      ancestor = ancestor.parent_path();
    if (!fs::is_directory(ancestor, error))
      throw InputError(where + ": '" + ancestor.string() + "' is not a directory. Choose another output directory.");
    if (::access(ancestor.c_str(), W_OK | X_OK) != 0)
      throw InputError(where + ": the directory '" + ancestor.string() + "' is not writable (" +
                       std::strerror(errno) + "). Choose an output directory where you may write, or change " +
                       "the permissions.");
  }

  std::vector<std::string>
  OutputDirectory::temporary_directories_of(const std::string &target)
  {
    const fs::path           full   = normalized(target);
    const std::string        prefix = "." + full.filename().string() + ".incomplete-";
    std::vector<std::string> found;
    std::error_code          error;
    for (const auto &entry : fs::directory_iterator(full.parent_path(), error))
      if (entry.path().filename().string().rfind(prefix, 0) == 0 &&
          entry.path().filename().string().size() == prefix.size() + 6 && entry.is_directory(error))
        found.push_back(entry.path().string());
    std::sort(found.begin(), found.end());
    return found;
  }

  OutputDirectory::OutputDirectory(const std::string &target, const std::string &origin)
    : target_directory(target)
    , origin(origin)
  {
    check_target(target, origin);
    const fs::path  full   = normalized(target);
    const fs::path  parent = full.parent_path();
    std::error_code error;
    fs::create_directories(parent, error);
    if (error)
      throw OutputError("Cannot create the directory '" + parent.string() + "' for " + "the output directory '" +
                        target + "': " + error.message() + ". Choose another output directory (--output-dir or " +
                        "'Output/Directory').");
    temporary = make_temporary_directory(parent / ("." + full.filename().string() + ".incomplete-XXXXXX"));
    if (temporary.empty())
      output_error((parent / ("." + full.filename().string() + ".incomplete-XXXXXX")).string(), errno);
    // mkdtemp makes it private (0700): give it the permissions of a new directory
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::chmod(temporary.c_str(), 0777 & ~mask);
  }

  OutputDirectory::~OutputDirectory()
  {
    if (!committed && !temporary.empty())
      {
        std::error_code error;
        fs::remove_all(temporary, error);
      }
  }

  const std::string &
  OutputDirectory::path() const
  {
    return temporary;
  }

  const std::string &
  OutputDirectory::target() const
  {
    return target_directory;
  }

  void
  OutputDirectory::commit()
  {
    const fs::path  full = normalized(target_directory);
    std::error_code error;
    if (fs::exists(full, error))
      {
        // an earlier result: swap it with the new one atomically, then remove it
        if (!fs::is_directory(full, error) || !is_earlier_result(full))
          check_target(target_directory, origin); // throws the message
        if (renameat2(AT_FDCWD, temporary.c_str(), AT_FDCWD, full.c_str(), RENAME_EXCHANGE) != 0)
          {
            // no exchange on this file system: move the old one aside first
            const std::string old =
              make_temporary_directory(full.parent_path() / ("." + full.filename().string() + ".old-XXXXXX"));
            if (old.empty() || std::rename(full.c_str(), old.c_str()) != 0)
              output_error(target_directory, errno);
            if (std::rename(temporary.c_str(), full.c_str()) != 0)
              {
                const int saved = errno;
                std::rename(old.c_str(), full.c_str());
                output_error(target_directory, saved);
              }
            fs::remove_all(old, error);
            committed = true;
            note_output_committed();
            return;
          }
        committed = true;
        note_output_committed();
        fs::remove_all(temporary, error); // now the earlier result
        return;
      }
    if (std::rename(temporary.c_str(), full.c_str()) != 0)
      output_error(target_directory, errno);
    committed = true;
    note_output_committed();
  }
} // namespace hamilton
