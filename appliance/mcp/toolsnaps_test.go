package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestToolSnapshots keeps each tool's input schema in
// testdata/toolsnaps/<tool>.snap, so that a change of what assistants may
// send is always deliberate. Refresh with UPDATE_TOOLSNAPS=true go test.
func TestToolSnapshots(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "toolsnaps")
	update := os.Getenv("UPDATE_TOOLSNAPS") == "true"
	if update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	for _, st := range allTools(&Deps{}) {
		name := st.tool.Name
		seen[name+".snap"] = true
		got, err := json.MarshalIndent(st.tool.InputSchema, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := filepath.Join(dir, name+".snap")
		if update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: no snapshot (%v); run UPDATE_TOOLSNAPS=true go test ./appliance/mcp", name, err)
			continue
		}
		if string(got) != string(want) {
			t.Errorf("%s: input schema differs from %s; if intended, run UPDATE_TOOLSNAPS=true go test ./appliance/mcp\ngot:\n%s", name, path, got)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".snap") && !seen[e.Name()] {
			if update {
				os.Remove(filepath.Join(dir, e.Name()))
			} else {
				t.Errorf("snapshot %s has no tool", e.Name())
			}
		}
	}
}
