package main

import (
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
)

// hearthBuild is the `go build` of the binary the end-to-end tests drive,
// made the way this test binary was: with its build tags (from -tags or
// GOFLAGS) and its cgo settings. A bare `go build` would drop the tags of
// `go test -tags sqlite_fts5 ./cmd/hearth` and fail, or test a binary
// built with other codecs and routes than the package under test.
func hearthBuild(out string) *exec.Cmd {
	args := []string{"build", "-o", out}
	env := os.Environ()
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			switch {
			case s.Key == "-tags":
				args = append(args, "-tags="+s.Value)
			case strings.HasPrefix(s.Key, "CGO_") && s.Value != "":
				env = append(env, s.Key+"="+s.Value) // the last value wins
			}
		}
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Env = env
	return cmd
}
