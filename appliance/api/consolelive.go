package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/listen"
	"github.com/hearth-appliance/hearth/appliance/view"
)

// liveSessions is what the live view asks of the session server.
type liveSessions interface {
	ActiveFor(user string) []listen.Active
}

// consoleLiveRoutes serves the live view: the owner's running sessions and
// their transcript as it arrives, as server-sent events.
func (s *Server) consoleLiveRoutes(g *echo.Group) {
	g.GET("/live", s.consoleLiveSessions)
	g.GET("/live/events", s.consoleLiveEvents)
}

func (s *Server) activeSessions(uid string) []listen.Active {
	if ls, ok := s.listen.(liveSessions); ok {
		return ls.ActiveFor(uid)
	}
	return []listen.Active{}
}

// GET /console/api/live: {sessions: [...]}.
func (s *Server) consoleLiveSessions(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]any{"sessions": s.activeSessions(userID(c))})
}

// liveEvent is one event of the live view's stream.
type liveEvent struct {
	Type           string           `json:"type"`
	At             time.Time        `json:"at"`
	ConversationID string           `json:"conversation_id,omitempty"`
	Segments       []consoleSegment `json:"segments,omitempty"`
	Replaced       []string         `json:"replaced,omitempty"`
	Title          string           `json:"title,omitempty"`
	Error          string           `json:"error,omitempty"`
}

// liveRefresh is how often the stream restates the running sessions (the
// route in use can change when a session reconnects).
const liveRefresh = 2 * time.Second

// GET /console/api/live/events: text/event-stream. A "sessions" event
// comes first and every liveRefresh; conversation events follow as they
// happen ("conversation.segments_appended" carries the new segments). A
// subscriber that fell behind gets a "resync" event and reloads.
func (s *Server) consoleLiveEvents(c echo.Context) error {
	if s.subscriber == nil {
		return appliance.Errorf(appliance.EUNAVAILABLE, "The live view is not available")
	}
	ctx, uid := c.Request().Context(), userID(c)
	sub := s.subscriber.Subscribe(uid)
	defer sub.Close()
	w := c.Response()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w.Writer)
	send := func(event string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		// The server's write timeout bounds one request; a stream extends
		// it on every write.
		_ = rc.SetWriteDeadline(time.Now().Add(time.Minute))
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b); err != nil {
			return err
		}
		return rc.Flush()
	}
	u, _ := s.store.User(ctx, uid) // a missing name reads as "User"
	userName := u.DisplayName()
	sessions := func() error {
		return send("sessions", map[string]any{"sessions": s.activeSessions(uid)})
	}
	if err := sessions(); err != nil {
		return nil
	}
	tick := time.NewTicker(liveRefresh)
	defer tick.Stop()
	var dropped uint64
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
			if n := sub.Dropped(); n != dropped {
				dropped = n
				if send("resync", map[string]uint64{"dropped": n}) != nil {
					return nil
				}
			}
			if sessions() != nil {
				return nil
			}
		case e, ok := <-sub.C():
			if !ok {
				return nil
			}
			out, show := s.liveEventOf(c, e, userName)
			if show && send("conversation", out) != nil {
				return nil
			}
		}
	}
}

// liveEventOf projects a stream event for the live view; events about
// memories and action items are not shown there.
func (s *Server) liveEventOf(c echo.Context, e appliance.StreamEvent, userName string) (liveEvent, bool) {
	out := liveEvent{Type: string(e.Type), At: e.At, ConversationID: e.ConversationID, Replaced: e.Replaced, Error: e.Err}
	if e.Conversation != nil {
		out.ConversationID = e.Conversation.ID
		out.Title = e.Conversation.Structured.Title
	}
	switch e.Type {
	case appliance.EventSegmentsAppended:
		people, _ := s.store.PersonNames(c.Request().Context(), e.UserID, view.PersonIDs(e.Segments))
		out.Segments = consoleSegments(e.Segments, userName, people)
	case appliance.EventConversationStarted, appliance.EventProcessingStarted, appliance.EventConversationProcessed,
		appliance.EventConversationFailed, appliance.EventConversationChanged:
	default:
		return out, false
	}
	return out, true
}
