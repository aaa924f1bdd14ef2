package api_test

import (
	"net/http"
	"testing"
)

// BenchmarkFromSegments measures one create through the full router, the
// built-in pipeline and a real SQLite file.
func BenchmarkFromSegments(b *testing.B) {
	e := newEnv(b)
	b.ReportAllocs()
	for b.Loop() {
		if rec := e.do("POST", fromSegments, bearer(e.devRW), meetingBody); rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}

// BenchmarkGetConversation measures one authenticated GET of a stored conversation.
func BenchmarkGetConversation(b *testing.B) {
	e := newEnv(b)
	id := e.create(meetingBody)["id"].(string)
	path := "/v1/dev/user/conversations/" + id
	b.ReportAllocs()
	for b.Loop() {
		if rec := e.do("GET", path, bearer(e.devRW), ""); rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}
