package main

import (
	"fmt"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

// version and commitDate are set at build time (make build, make release):
// -ldflags "-X main.version=$(git describe --tags --always --dirty)
// -X main.commitDate=$(git log -1 --format=%cs)".
var (
	version    = "dev"
	commitDate = ""
)

// readableVersion is the version as a person reads it, with the date of
// its commit: "v0.9.0 (2026-11-20)". A build after a tag says how far
// after ("v0.9.0 + 3 commits (abc1234, 2026-11-20)"); a build of an
// untagged tree names its commit. A plain `go build` (no -ldflags) falls
// back on what Go stamped from the checkout; `go run` and test binaries,
// which have no stamp, say they are a development build.
func readableVersion() string {
	info, _ := debug.ReadBuildInfo()
	return describeVersion(version, commitDate, info)
}

// describeRE splits `git describe --tags --always --dirty`: a tag, the
// commits since it and the commit, and whether the tree was modified.
// Compiled at first use, not before every command starts.
var describeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(.+?)-(\d+)-g([0-9a-f]{4,40})(-dirty)?$`)
})

func describeVersion(v, date string, info *debug.BuildInfo) string {
	if v == "" || v == "dev" {
		var rev, at string
		var modified bool
		if info != nil {
			for _, s := range info.Settings {
				switch s.Key {
				case "vcs.revision":
					rev = s.Value
				case "vcs.time":
					at = s.Value
				case "vcs.modified":
					modified = s.Value == "true"
				}
			}
		}
		if rev == "" {
			return "development build"
		}
		out := "development build of " + short(rev)
		if modified {
			out += ", modified"
		}
		if t, err := time.Parse(time.RFC3339, at); err == nil {
			out += " (" + t.UTC().Format(time.DateOnly) + ")"
		}
		return out
	}
	dated := func(s string, extra ...string) string {
		if date != "" {
			extra = append(extra, date)
		}
		if len(extra) == 0 {
			return s
		}
		return s + " (" + strings.Join(extra, ", ") + ")"
	}
	if m := describeRE().FindStringSubmatch(v); m != nil {
		commits := "commits"
		if m[2] == "1" {
			commits = "commit"
		}
		out := fmt.Sprintf("%s + %s %s", m[1], m[2], commits)
		if m[4] != "" {
			out += ", modified"
		}
		return dated(out, m[3])
	}
	if tag, ok := strings.CutSuffix(v, "-dirty"); ok {
		return dated(tag + ", modified")
	}
	return dated(v)
}

// short is a commit hash as git shows it.
func short(rev string) string {
	if len(rev) > 7 {
		return rev[:7]
	}
	return rev
}
