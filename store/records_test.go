package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/store"
)

func newMemory(id, user, content string, at time.Time) *appliance.Memory {
	return &appliance.Memory{ID: id, UserID: user, Content: content, Category: appliance.MemorySystem, CreatedAt: at, UpdatedAt: at}
}

func TestMemories(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	mustUser(t, db, "u2")
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var ms []*appliance.Memory
	for i := range 5 {
		m := newMemory(fmt.Sprintf("m%d", i), "u1", fmt.Sprintf("fact %d", i), base.Add(time.Duration(i)*time.Hour))
		if i == 3 {
			m.Category, m.ManuallyAdded = appliance.MemoryManual, true
		}
		ms = append(ms, m)
	}
	if err := db.CreateMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	list, err := db.Memories(ctx, "u1", appliance.MemoryFilter{Limit: 2})
	if err != nil || len(list) != 2 || list[0].ID != "m4" || list[1].ID != "m3" {
		t.Fatalf("newest first, limit 2: %v %v", ids(list), err)
	}
	if list, _ := db.Memories(ctx, "u1", appliance.MemoryFilter{Sort: "manual_first"}); list[0].ID != "m3" {
		t.Fatalf("manual_first: %v", ids(list))
	}
	if list, _ := db.Memories(ctx, "u1", appliance.MemoryFilter{Categories: []string{"manual"}}); len(list) != 1 {
		t.Fatalf("category filter: %v", ids(list))
	}
	if _, err := db.Memories(ctx, "u1", appliance.MemoryFilter{Sort: "random"}); appliance.ErrorCode(err) != appliance.EINVALID {
		t.Fatalf("bad sort: %v", err)
	}
	if list, _ := db.Memories(ctx, "u2", appliance.MemoryFilter{}); len(list) != 0 {
		t.Fatalf("u2 sees u1's memories: %v", ids(list))
	}
	m, err := db.Memory(ctx, "u1", "m1")
	if err != nil {
		t.Fatal(err)
	}
	m.Content, m.Edited = "changed", true
	if err := db.UpdateMemory(ctx, m); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Memory(ctx, "u1", "m1"); got.Content != "changed" || !got.Edited {
		t.Fatalf("after update: %+v", got)
	}
	m.UserID = "u2"
	if err := db.UpdateMemory(ctx, m); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("update as u2: %v", err)
	}
	if err := db.DeleteMemory(ctx, "u1", "m1"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Memory(ctx, "u1", "m1"); appliance.ErrorMessage(err) != "Memory not found" {
		t.Fatalf("deleted memory: %v", err)
	}
	if err := db.DeleteMemory(ctx, "u1", "m1"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("second delete: %v", err)
	}
	byID, err := db.MemoriesByID(ctx, "u1", []string{"m0", "m1", "m2", "nope"})
	if err != nil || len(byID) != 2 {
		t.Fatalf("by id: %v %v", byID, err)
	}
}

func ids[T interface {
	*appliance.Memory | *appliance.ActionItem
}](xs []T) []string {
	var out []string
	for _, x := range xs {
		switch v := any(x).(type) {
		case *appliance.Memory:
			out = append(out, v.ID)
		case *appliance.ActionItem:
			out = append(out, v.ID)
		}
	}
	return out
}

func TestActionItems(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var items []*appliance.ActionItem
	for i := range 4 {
		c, due := base.Add(time.Duration(i)*time.Hour), base.AddDate(0, 0, i)
		items = append(items, &appliance.ActionItem{ID: fmt.Sprintf("a%d", i), UserID: "u1", Description: fmt.Sprintf("task %d", i),
			CreatedAt: &c, UpdatedAt: &c, DueAt: &due, Completed: i%2 == 1})
	}
	if err := db.CreateActionItems(ctx, items); err != nil {
		t.Fatal(err)
	}
	yes, dueFrom := true, base.AddDate(0, 0, 2)
	for _, tc := range []struct {
		name string
		f    appliance.ActionItemFilter
		want int
	}{
		{"All", appliance.ActionItemFilter{}, 4},
		{"Completed", appliance.ActionItemFilter{Completed: &yes}, 2},
		{"DueFrom", appliance.ActionItemFilter{DueStart: &dueFrom}, 2},
		{"Page", appliance.ActionItemFilter{Limit: 3, Offset: 2}, 2},
	} {
		got, err := db.ActionItems(ctx, "u1", tc.f)
		if err != nil || len(got) != tc.want {
			t.Errorf("%s: %v %v, want %d", tc.name, ids(got), err, tc.want)
		}
	}
	a, _ := db.ActionItem(ctx, "u1", "a0")
	now := time.Now().UTC()
	a.Completed, a.CompletedAt, a.UpdatedAt = true, &now, &now
	if err := db.UpdateActionItem(ctx, a); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.ActionItem(ctx, "u1", "a0"); !got.Completed || got.CompletedAt == nil {
		t.Fatalf("after completing: %+v", got)
	}
	if err := db.DeleteActionItem(ctx, "u1", "a0"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ActionItem(ctx, "u1", "a0"); appliance.ErrorMessage(err) != "Action item not found" {
		t.Fatalf("deleted: %v", err)
	}
}

func TestGoals_KeepThreeActive(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 4 {
		at := base.Add(time.Duration(i) * time.Minute)
		if err := db.CreateGoal(ctx, &appliance.Goal{ID: fmt.Sprintf("g%d", i), UserID: "u1", Title: "goal", GoalType: "scale",
			TargetValue: 10, MaxValue: 10, IsActive: true, CreatedAt: at, UpdatedAt: at}); err != nil {
			t.Fatal(err)
		}
	}
	active, _ := db.Goals(ctx, "u1", false, 10)
	all, _ := db.Goals(ctx, "u1", true, 10)
	if len(active) != 3 || len(all) != 4 || active[2].ID != "g1" {
		t.Fatalf("active %d all %d", len(active), len(all))
	}
	if g, _ := db.Goal(ctx, "u1", "g0"); g.IsActive {
		t.Fatal("the oldest goal is still active")
	}
	g, _ := db.Goal(ctx, "u1", "g3")
	g.CurrentValue, g.UpdatedAt = 4, base.Add(time.Hour)
	if err := db.UpdateGoal(ctx, g); err != nil {
		t.Fatal(err)
	}
	h, err := db.GoalHistory(ctx, "u1", "g3", base)
	if err != nil || len(h) != 2 || h[1].Value != 4 {
		t.Fatalf("history %v %v", h, err)
	}
	if _, err := db.GoalHistory(ctx, "u2", "g3", base); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("another user's history: %v", err)
	}
	if err := db.DeleteGoal(ctx, "u1", "g3"); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteGoal(ctx, "u1", "g3"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatal("goal deleted twice")
	}
}

func TestFolders(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	if err := db.SaveConversation(ctx, sampleConversation("c1", "u1")); err != nil {
		t.Fatal(err)
	}
	f := &appliance.Folder{ID: "f1", UserID: "u1", Name: "Work", CreatedAt: time.Now()}
	if err := db.CreateFolder(ctx, f); err != nil {
		t.Fatal(err)
	}
	id := "f1"
	if err := db.SetConversationFolder(ctx, "u1", "c1", &id); err != nil {
		t.Fatal(err)
	}
	names, _ := db.FolderNames(ctx, "u1", []string{"f1"})
	if names["f1"] != "Work" {
		t.Fatalf("folder names %v", names)
	}
	if err := db.DeleteFolder(ctx, "u1", "f1"); err != nil {
		t.Fatal(err)
	}
	c, err := db.Conversation(ctx, "u1", "c1")
	if err != nil || c.FolderID != nil {
		t.Fatalf("conversation after its folder went: %v, folder %v", err, c.FolderID)
	}
}

var _ = store.FileName

func TestPersonsAndConversationsByID(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	ctx := context.Background()
	mustUser(t, db, "u1")
	mustUser(t, db, "u2")
	for _, p := range []*appliance.Person{{ID: "p1", UserID: "u1", Name: "Grace"}, {ID: "p2", UserID: "u2", Name: "Alan"}} {
		p.CreatedAt = time.Now()
		if err := db.CreatePerson(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	ps, err := db.Persons(ctx, "u1")
	if err != nil || len(ps) != 1 || ps[0].Name != "Grace" {
		t.Fatalf("persons %v %v", ps, err)
	}
	db.SaveConversation(ctx, sampleConversation("c1", "u1"))
	db.SaveConversation(ctx, sampleConversation("c2", "u2"))
	got, err := db.ConversationsByID(ctx, "u1", []string{"c1", "c2", "nope"})
	if err != nil || len(got) != 1 || got["c1"] == nil || len(got["c1"].Structured.ActionItems) != 1 {
		t.Fatalf("by id %v %v", got, err)
	}
}
