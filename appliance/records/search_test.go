package records_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/records"
	"github.com/hearth-appliance/hearth/store"
)

// rankedSearcher answers every search with the first n of its ranking and
// records the n asked for.
type rankedSearcher struct {
	ranking []string
	asked   []int
}

func (r *rankedSearcher) Search(_ context.Context, _ string, q appliance.SearchQuery) ([]appliance.SearchHit, error) {
	r.asked = append(r.asked, q.Limit)
	var hs []appliance.SearchHit
	for i, id := range r.ranking[:min(q.Limit, len(r.ranking))] {
		hs = append(hs, appliance.SearchHit{ItemID: id, Score: 1 / float64(i+1), Similarity: 0.9})
	}
	return hs, nil
}

// TestSearchMemoriesTopsUp: a search asks for the results wanted, not a
// multiple of them, and asks again for more only when locked or rejected
// memories took places among them.
func TestSearchMemoriesTopsUp(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.CreateUser(ctx, &appliance.User{ID: "u1", Name: "Ada", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	rejected := false
	var ms []*appliance.Memory
	var ranking []string
	for i := range 8 {
		m := &appliance.Memory{ID: fmt.Sprintf("m%d", i), UserID: "u1", Content: fmt.Sprintf("Tomato note %d", i),
			Category: appliance.MemorySystem, CreatedAt: time.Now(), UpdatedAt: time.Now()}
		switch i {
		case 0, 2:
			m.IsLocked = true
		case 1:
			m.UserReview = &rejected
		}
		ms, ranking = append(ms, m), append(ranking, m.ID)
	}
	if err := db.CreateMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		limit int
		want  []string
		asked []int
	}{
		{limit: 1, want: []string{"m3"}, asked: []int{1, 3, 9}},
		{limit: 3, want: []string{"m3", "m4", "m5"}, asked: []int{3, 9}},
		{limit: 5, want: []string{"m3", "m4", "m5", "m6", "m7"}, asked: []int{5, 15}},
		{limit: 20, want: []string{"m3", "m4", "m5", "m6", "m7"}, asked: []int{20}}, // the search had no more
	} {
		s := &rankedSearcher{ranking: ranking}
		svc := records.New(records.Deps{Store: db, Search: s})
		got, err := svc.SearchMemories(ctx, "u1", "tomato", c.limit)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, m := range got {
			ids = append(ids, m.ID)
		}
		if !slices.Equal(ids, c.want) || !slices.Equal(s.asked, c.asked) {
			t.Errorf("limit %d: got %v after asking for %v, want %v after %v", c.limit, ids, s.asked, c.want, c.asked)
		}
	}
}
