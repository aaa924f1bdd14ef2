package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/store"
)

// The write-ahead log reaches the database file in the background, long
// before the writer's own checkpoint threshold (4,000 pages): the file
// grows while nothing but the checkpointer touches it.
func TestCheckpointer_CopiesTheLogInTheBackground(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db, err := store.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	file := filepath.Join(dir, store.FileName)
	size := func() int64 {
		st, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	// Let the checkpoints of the migrations settle first.
	before := size()
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		before = size()
	}
	// ~300 pages: far below the writer's threshold.
	name := strings.Repeat("n", 4000)
	for i := range 300 {
		u := &appliance.User{ID: fmt.Sprintf("ckpt-%03d", i), Name: name, CreatedAt: time.Now()}
		if err := db.CreateUser(context.Background(), u); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for size()-before < 250*4096 {
		if time.Now().After(deadline) {
			t.Fatalf("the file grew %d bytes in 5 s after the writes; want the log copied into it", size()-before)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
