package main

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/store"
)

func TestParseSizes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
		bad  bool
	}{
		{in: "1k,10k,100k", want: []int{1000, 10000, 100000}},
		{in: " 500 , 2K", want: []int{500, 2000}},
		{in: "", bad: true},
		{in: "0", bad: true},
		{in: "ten", bad: true},
		{in: "2000k", bad: true},
	} {
		got, err := parseSizes(tc.in)
		if (err != nil) != tc.bad || !slices.Equal(got, tc.want) {
			t.Errorf("parseSizes(%q) = %v, %v", tc.in, got, err)
		}
	}
}

// TestSeededReusesKeptData: -scale-data seeds a size's folder once; a later
// run finds its user and conversations there instead of seeding again.
func TestSeededReusesKeptData(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if uid, ids, err := seeded(ctx, dir); err != nil || uid != "" || ids != nil {
		t.Fatalf("empty folder: %q %v %v", uid, ids, err)
	}
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.CreateUser(ctx, &appliance.User{ID: "u1", Name: "bench", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	want, err := seedStore(ctx, dir, "u1", 3, 3, 2, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	uid, ids, err := seeded(ctx, dir)
	slices.Sort(want)
	slices.Sort(ids)
	if err != nil || uid != "u1" || !slices.Equal(ids, want) {
		t.Fatalf("seeded folder: %q %v %v, want u1 %v", uid, ids, err, want)
	}
}
