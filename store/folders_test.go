package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/store"
)

func folderNames(t *testing.T, db *store.DB, user string) []string {
	t.Helper()
	fs, err := db.Folders(context.Background(), user)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range fs {
		names = append(names, f.Name)
	}
	return names
}

func wantDefaults(t *testing.T, db *store.DB, user string, extra ...string) {
	t.Helper()
	var want []string
	for _, d := range appliance.DefaultFolders {
		want = append(want, d.Name)
	}
	want = append(want, extra...)
	if got := folderNames(t, db, user); len(got) != len(want) || fmtList(got) != fmtList(want) {
		t.Fatalf("folders of %s: %v, want %v", user, got, want)
	}
}

func fmtList(l []string) string {
	out := ""
	for _, s := range l {
		out += s + "|"
	}
	return out
}

// TestDefaultFolders: a new user gets the reference's system folders, in
// order, "Other" the default; a folder made later comes after them; the
// pipeline's lookup by folder category finds them.
func TestDefaultFolders(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	user := MustCreateUser(t, db, "Ada")
	wantDefaults(t, db, user)
	if err := db.CreateFolder(ctx, &appliance.Folder{ID: appliance.NewID(), UserID: user, Name: "Garden", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	wantDefaults(t, db, user, "Garden")
	fs, _ := db.Folders(ctx, user)
	for _, f := range fs {
		if f.IsDefault != (f.Name == "Other") || f.IsSystem != (f.Name != "Garden") {
			t.Errorf("%s: default %v, system %v", f.Name, f.IsDefault, f.IsSystem)
		}
	}
	work, err := db.SystemFolder(ctx, user, "work")
	if err != nil || work.Name != "Work" || work.Icon != "💼" {
		t.Fatalf("system folder for work: %+v, %v", work, err)
	}
	if _, err := db.SystemFolder(ctx, user, "garden"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("no system folder: %v", err)
	}
}

// TestMigration0032_DefaultFoldersForExistingUsers: users made before the
// migration get the system folders once; a user who had made folders keeps
// only those, as the reference initialises only users without folders.
func TestMigration0032_DefaultFoldersForExistingUsers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	current := MustCreateUser(t, db, "Ada")
	db.Close()
	now := time.Now().UTC().Format("2006-01-02T15:04:05.000000Z")
	db = migrateAgain(t, dir, 32,
		`INSERT INTO users (id, name, time_zone, created_at) VALUES ('u-old', 'Old', '', '`+now+`')`,
		`INSERT INTO users (id, name, time_zone, created_at) VALUES ('u-own', 'Own', '', '`+now+`')`,
		`INSERT INTO folders (id, user_id, name, created_at) VALUES ('f-own', 'u-own', 'Recipes', '`+now+`')`)
	wantDefaults(t, db, current)
	wantDefaults(t, db, "u-old")
	if got := folderNames(t, db, "u-own"); fmtList(got) != "Recipes|" {
		t.Fatalf("a user with folders: %v", got)
	}
	fs, _ := db.Folders(ctx, "u-old")
	ids := map[string]bool{}
	for i, f := range fs {
		if _, err := uuid.Parse(f.ID); err != nil || ids[f.ID] || f.Order != i || !f.IsSystem ||
			f.CategoryMapping != appliance.DefaultFolders[i].CategoryMapping || f.Icon != appliance.DefaultFolders[i].Icon {
			t.Errorf("migrated folder %d: %+v (%v)", i, f, err)
		}
		ids[f.ID] = true
	}
}

// TestMigration0033_FilesKeptConversations: conversations kept before the
// system folders existed are filed once as the pipeline files a new one
// (appliance.FolderCategory); discarded, unfinished and already filed ones
// stay where they are.
func TestMigration0033_FilesKeptConversations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	user := MustCreateUser(t, db, "Ada")
	now := time.Now().UTC()
	for _, c := range []struct {
		id, category string
		status       appliance.ConversationStatus
		discarded    bool
	}{
		{"c-business", "business", appliance.StatusCompleted, false},
		{"c-health", "health", appliance.StatusCompleted, false},
		{"c-other", "other", appliance.StatusCompleted, false},
		{"c-discarded", "business", appliance.StatusCompleted, true},
		{"c-recording", "business", appliance.StatusInProgress, false},
		{"c-mine", "business", appliance.StatusCompleted, false},
	} {
		conv := lifecycleConversation(c.id, user, c.status, now)
		conv.Structured.Category = appliance.Category(c.category)
		conv.Discarded = c.discarded
		if err := db.SaveConversation(ctx, conv); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	db = migrateAgain(t, dir, 33, `UPDATE conversations SET folder_id = (SELECT id FROM folders WHERE name = 'Travel') WHERE id = 'c-mine'`)
	names := map[string]string{}
	fs, _ := db.Folders(ctx, user)
	for _, f := range fs {
		names[f.ID] = f.Name
	}
	for id, want := range map[string]string{"c-business": "Work", "c-health": "Health", "c-other": "Other",
		"c-discarded": "", "c-recording": "", "c-mine": "Travel"} {
		c, err := db.Conversation(ctx, user, id)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if c.FolderID != nil {
			got = names[*c.FolderID]
		}
		if got != want {
			t.Errorf("%s filed in %q, want %q", id, got, want)
		}
	}
}
