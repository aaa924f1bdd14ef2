package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// BenchmarkSaveProcessed is the write of one processed conversation: row,
// 12 segments, 2 action items and 2 memories, with their search index rows.
func BenchmarkSaveProcessed(b *testing.B) {
	db := MustOpenDB(b)
	ctx := context.Background()
	user := MustCreateUser(b, db, "Ada")
	now := time.Now().UTC()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := lifecycleConversation(fmt.Sprintf("c%d", i), user, appliance.StatusCompleted, now)
		c.Structured.Title = "Quarterly budget review before the board meeting"
		c.Structured.Overview = "We need to finalize the quarterly budget review before the board meeting next week. Marketing is over by ten percent."
		c.TranscriptSegments = nil
		for s := range 12 {
			c.TranscriptSegments = append(c.TranscriptSegments, appliance.TranscriptSegment{ID: fmt.Sprintf("c%d-s%d", i, s),
				Text: "We should plan the garden layout and buy seeds tomorrow morning.", Speaker: "SPEAKER_00", Start: float64(s), End: float64(s) + 0.9})
		}
		c.Structured.ActionItems = []appliance.ActionItem{{ID: fmt.Sprintf("c%d-a1", i), Description: "Send the revised budget"}, {ID: fmt.Sprintf("c%d-a2", i), Description: "Cut conference travel"}}
		cid := c.ID
		ms := []*appliance.Memory{
			{ID: fmt.Sprintf("c%d-m1", i), UserID: user, Content: "Ada manages the marketing budget", Category: "system", ConversationID: &cid, CreatedAt: now, UpdatedAt: now},
			{ID: fmt.Sprintf("c%d-m2", i), UserID: user, Content: "Conference travel is the first thing to cut", Category: "interesting", ConversationID: &cid, CreatedAt: now, UpdatedAt: now},
		}
		if err := db.SaveProcessed(ctx, c, ms); err != nil {
			b.Fatal(err)
		}
	}
}
