package sysinit

import (
	"os"
	"path"
	"runtime"
	"strings"
)

// DefaultDataDir returns the conventional data folder for hearth on this OS
// and for this account, so `hearth service install` and `hearth serve` agree
// on where the database and models live without any configuration:
//
//   - Linux (and other Unix): /var/lib/hearth as root, else
//     $XDG_DATA_HOME/hearth or ~/.local/share/hearth.
//   - macOS: /Library/Application Support/Hearth as root, else
//     ~/Library/Application Support/Hearth.
//   - Windows: %ProgramData%\Hearth (services run as LocalSystem, whose
//     profile folder is not a place for user data).
//
// When no home directory is known for a non-root user it falls back to the
// relative "data", the folder `make run` uses; Service installation rejects a
// relative path, which is the right outcome for such an account.
func DefaultDataDir() string {
	home, err := os.UserHomeDir()
	if err != nil {
		home = ""
	}
	return defaultDataDir(runtime.GOOS, os.Getuid(), os.Getenv, home)
}

// defaultDataDir is DefaultDataDir with the OS, uid, environment and home
// folder injected, so every platform's rule is testable from any host. It
// builds paths with explicit separators rather than filepath, whose separator
// is the host's, not goos's.
func defaultDataDir(goos string, uid int, getenv func(string) string, home string) string {
	switch goos {
	case "windows":
		base := strings.TrimRight(getenv("ProgramData"), `\/`)
		if base == "" {
			// ProgramData is always set on a real system; this covers a
			// scrubbed environment (some service wrappers clear it).
			base = `C:\ProgramData`
		}
		return base + `\Hearth`
	case "darwin":
		if uid == 0 {
			return "/Library/Application Support/Hearth"
		}
		if home == "" {
			return "data"
		}
		return path.Join(home, "Library", "Application Support", "Hearth")
	default:
		if uid == 0 {
			return "/var/lib/hearth"
		}
		// The XDG spec says a relative XDG_DATA_HOME is invalid and must
		// be ignored.
		if x := getenv("XDG_DATA_HOME"); strings.HasPrefix(x, "/") {
			return path.Join(x, "hearth")
		}
		if home == "" {
			return "data"
		}
		return path.Join(home, ".local", "share", "hearth")
	}
}
