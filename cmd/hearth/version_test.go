package main

import (
	"runtime/debug"
	"testing"
)

// TestDescribeVersion: the version a person reads, from what the build
// stamped: make's -ldflags (git describe and the commit's date), else Go's
// record of the checkout, else nothing.
func TestDescribeVersion(t *testing.T) {
	t.Parallel()
	vcs := func(rev, at, modified string) *debug.BuildInfo {
		return &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: at}, {Key: "vcs.modified", Value: modified}}}
	}
	tests := []struct {
		name, version, date string
		info                *debug.BuildInfo
		want                string
	}{
		{"a release", "v0.9.0", "2026-11-20", nil, "v0.9.0 (2026-11-20)"},
		{"a release without its date", "v0.9.0", "", nil, "v0.9.0"},
		{"after a tag", "v0.9.0-3-gabc1234", "2026-11-22", nil, "v0.9.0 + 3 commits (abc1234, 2026-11-22)"},
		{"one after a tag", "v0.9.0-1-gabc1234", "2026-11-22", nil, "v0.9.0 + 1 commit (abc1234, 2026-11-22)"},
		{"after a tag, modified", "v0.9.0-3-gabc1234-dirty", "2026-11-22", nil, "v0.9.0 + 3 commits, modified (abc1234, 2026-11-22)"},
		{"a tag with dashes", "v1.0.0-rc-1-2-gabc1234", "2026-11-22", nil, "v1.0.0-rc-1 + 2 commits (abc1234, 2026-11-22)"},
		{"a modified tag", "v0.9.0-dirty", "2026-11-20", nil, "v0.9.0, modified (2026-11-20)"},
		{"no tag yet", "b52be54", "2026-11-27", nil, "b52be54 (2026-11-27)"},
		{"go build in a checkout", "dev", "", vcs("b52be5412d0c6f1e9a1b2c3d4e5f60718293a4b5", "2026-11-27T14:02:11Z", "false"),
			"development build of b52be54 (2026-11-27)"},
		{"go build of a modified checkout", "dev", "", vcs("b52be5412d0c6f1e9a1b2c3d4e5f60718293a4b5", "2026-11-27T14:02:11Z", "true"),
			"development build of b52be54, modified (2026-11-27)"},
		{"go run", "dev", "", &debug.BuildInfo{}, "development build"},
		{"no build info", "", "", nil, "development build"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := describeVersion(tt.version, tt.date, tt.info); got != tt.want {
				t.Errorf("describeVersion(%q, %q) = %q, want %q", tt.version, tt.date, got, tt.want)
			}
		})
	}
}
