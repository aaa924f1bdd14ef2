package web_test

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/web"
)

func TestFSHasIndex(t *testing.T) {
	t.Parallel()
	b, err := fs.ReadFile(web.FS(), "index.html")
	if err != nil {
		t.Fatalf("index.html not embedded: %v", err)
	}
	if !strings.Contains(string(b), "Hearth") {
		t.Fatal("index.html does not look like the console")
	}
}
