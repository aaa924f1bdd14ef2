package web_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/web"
)

func TestFSHasIndex(t *testing.T) {
	t.Parallel()
	b, err := fs.ReadFile(web.FS(), "console/index.html")
	if err != nil {
		t.Fatalf("console/index.html not embedded: %v", err)
	}
	if !strings.Contains(string(b), "Hearth") {
		t.Fatal("index.html does not look like the console")
	}
}

// TestScriptsParse checks every script of the console with Node's parser,
// as modules, so that a syntax error fails here rather than as a blank
// page (the browser test then says only that a heading never came).
func TestScriptsParse(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatal("node is not installed (scripts/deps.sh test installs it)")
		}
		t.Skip("node is not installed")
	}
	dir := t.TempDir()
	n := 0
	err = fs.WalkDir(web.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") {
			return err
		}
		b, err := fs.ReadFile(web.FS(), p)
		if err != nil {
			return err
		}
		// .mjs: Node parses it as a module, as the browser does.
		copyPath := filepath.Join(dir, strings.ReplaceAll(p, "/", "_")+".mjs")
		if err := os.WriteFile(copyPath, b, 0o600); err != nil {
			return err
		}
		if out, err := exec.Command(node, "--check", copyPath).CombinedOutput(); err != nil {
			t.Errorf("%s does not parse: %v\n%s", p, err, out)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Fatalf("only %d scripts found", n)
	}
}

// TestConsoleScriptsStaySmall: the console's whole JavaScript stays under
// 100 KB (the quality bar), so it paints at once on a phone.
func TestConsoleScriptsStaySmall(t *testing.T) {
	t.Parallel()
	total := 0
	fs.WalkDir(web.FS(), "console", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".js") {
			b, _ := fs.ReadFile(web.FS(), p)
			total += len(b)
		}
		return err
	})
	if total == 0 || total > 100*1024 {
		t.Fatalf("the console's scripts are %d bytes", total)
	}
	t.Logf("console scripts: %d bytes", total)
}
