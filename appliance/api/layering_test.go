package api_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestHandlersHoldNoLifecycle keeps the HTTP layer a layer: handlers parse
// and shape, and the conversation lifecycle, the pipeline and the index
// belong to the services they call. The api package may not import the
// pipeline, the search indexer or the store, nor call a pipeline's Process.
func TestHandlersHoldNoLifecycle(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	forbidden := []string{"/appliance/pipeline", "/appliance/search", "/hearth/store", "database/sql"}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			for _, bad := range forbidden {
				if strings.HasSuffix(strings.Trim(imp.Path.Value, `"`), bad) {
					t.Errorf("%s imports %s", name, imp.Path.Value)
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Process" {
				t.Errorf("%s: a call to .Process at %s", name, fset.Position(sel.Pos()))
			}
			return true
		})
	}
	if checked < 10 {
		t.Fatalf("checked %d files: wrong directory?", checked)
	}
}
