package api

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/conversation"
	"github.com/hearth-appliance/hearth/appliance/records"
	"github.com/hearth-appliance/hearth/appliance/view"
)

// consoleConversationRoutes serves the console's conversations pages. The
// owner sees their conversations whole, locked ones included: a lock hides
// a conversation from assistants and developer keys, not from its owner.
// Changes go through the same lifecycle service as every other surface.
func (s *Server) consoleConversationRoutes(g *echo.Group) {
	g.GET("/conversations", s.consoleConversations)
	g.GET("/conversations/days", s.consoleConversationDays)
	g.GET("/conversations/:id", s.consoleConversation)
	g.GET("/conversations/:id/audio/:file", s.consoleAudio)
	g.PATCH("/conversations/:id", s.consolePatchConversation, s.consoleUnlocked)
	g.DELETE("/conversations/:id", s.deleteConversation, s.consoleUnlocked)
	g.PUT("/conversations/:id/folder", s.moveConversation, s.consoleUnlocked)
	g.PUT("/conversations/:id/locked", s.lockConversation)
	g.GET("/folders", s.listFolders)
	g.POST("/folders", s.createFolder)
	g.GET("/search", s.consoleSearch)
}

// consoleUnlocked refuses changes to a locked conversation with a reason
// the owner can act on (the developer API's 402 speaks of a paid plan).
func (s *Server) consoleUnlocked(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		conv, err := s.store.ConversationHead(c.Request().Context(), userID(c), c.Param("id"))
		if err != nil {
			return notFoundAs(err, "Conversation not found")
		}
		if conv.IsLocked {
			return appliance.Errorf(appliance.ECONFLICT, "This conversation is locked: unlock it to change it")
		}
		return next(c)
	}
}

// consoleConversation is a conversation on the console: the developer
// shape, unredacted, with the state the owner manages.
type consoleConversation struct {
	ID          string                 `json:"id"`
	CreatedAt   time.Time              `json:"created_at"`
	StartedAt   *time.Time             `json:"started_at"`
	FinishedAt  *time.Time             `json:"finished_at"`
	Status      string                 `json:"status"`
	Source      string                 `json:"source"`
	Language    string                 `json:"language"`
	Structured  view.Structured        `json:"structured"`
	Locked      bool                   `json:"locked"`
	Starred     bool                   `json:"starred"`
	Discarded   bool                   `json:"discarded"`
	FolderID    *string                `json:"folder_id"`
	FolderName  *string                `json:"folder_name"`
	Geolocation *appliance.Geolocation `json:"geolocation"`
	// Transcript and Photos are set on the detail page only.
	Transcript *[]consoleSegment `json:"transcript_segments,omitempty"`
	Photos     []consolePhoto    `json:"photos,omitempty"`
	// AudioFiles are the kept recordings (the detail page's player).
	AudioFiles appliance.AudioFiles `json:"audio_files,omitempty"`
}

// consoleSegment is a transcript segment with whether the owner spoke it.
type consoleSegment struct {
	view.Segment
	IsUser bool `json:"is_user"`
}

func consoleSegments(segs []appliance.TranscriptSegment, userName string, people map[string]string) []consoleSegment {
	named := view.SegmentsOf(segs, userName, people)
	out := make([]consoleSegment, len(segs))
	for i := range segs {
		out[i] = consoleSegment{Segment: named[i], IsUser: segs[i].IsUser}
	}
	return out
}

// consolePhoto is a photo taken during a recording, as a data URL the
// console's CSP admits (img-src data:).
type consolePhoto struct {
	ID          string    `json:"id"`
	Description string    `json:"description"`
	CreatedAt   time.Time `json:"created_at"`
	DataURL     string    `json:"data_url,omitempty"`
}

// consoleConversationsOf projects conversations for their owner, with
// folder and speaker names resolved by one query each.
func (s *Server) consoleConversationsOf(ctx context.Context, uid string, cs []*appliance.Conversation, detail bool) ([]consoleConversation, error) {
	folders, people, user, err := s.conversationNames(ctx, uid, cs, detail)
	if err != nil {
		return nil, err
	}
	out := make([]consoleConversation, len(cs))
	for i, c := range cs {
		// The owner reads a locked conversation whole: project it unlocked.
		open := *c
		open.IsLocked = false
		d := consoleConversation{ID: c.ID, CreatedAt: c.CreatedAt, StartedAt: c.StartedAt, FinishedAt: c.FinishedAt,
			Status: string(c.Status), Source: string(c.Source), Language: c.Language, Structured: view.StructuredOf(&open),
			Locked: c.IsLocked, Starred: c.Starred, Discarded: c.Discarded, FolderID: c.FolderID, Geolocation: c.Geolocation}
		if c.FolderID != nil {
			if name, ok := folders[*c.FolderID]; ok {
				d.FolderName = &name
			}
		}
		if detail {
			segs := consoleSegments(c.TranscriptSegments, user.DisplayName(), people)
			d.Transcript = &segs
			for _, p := range c.Photos {
				if p.Discarded {
					continue
				}
				d.Photos = append(d.Photos, consolePhoto{ID: p.ID, Description: p.Description, CreatedAt: p.CreatedAt,
					DataURL: photoDataURL(p.Base64)})
			}
			d.AudioFiles = s.audioFilesOf(uid, c.ID)
		}
		out[i] = d
	}
	return out, nil
}

// photoDataURL names a stored photo's image type from its first bytes
// (JPEG or PNG, what wearables send); anything else is not shown.
func photoDataURL(b64 string) string {
	switch {
	case strings.HasPrefix(b64, "/9j/"):
		return "data:image/jpeg;base64," + b64
	case strings.HasPrefix(b64, "iVBORw0KGgo"):
		return "data:image/png;base64," + b64
	}
	return ""
}

// GET /console/api/conversations?limit&offset&start_date&end_date&
// categories&folder_id&starred&discarded: the owner's conversations,
// newest first, locked ones included. discarded=true lists the discarded.
func (s *Server) consoleConversations(c echo.Context) error {
	limit, offset, err := queryPage(c, 25, 100)
	if err != nil {
		return err
	}
	f := appliance.ConversationFilter{Limit: limit, Offset: offset, IncludeLocked: true,
		Statuses: []appliance.ConversationStatus{appliance.StatusCompleted, appliance.StatusProcessing, appliance.StatusFailed}}
	if err := s.readConversationFilter(c, &f); err != nil {
		return err
	}
	if f.OnlyDiscarded, err = queryBool(c, "discarded", false); err != nil {
		return err
	}
	ctx, uid := c.Request().Context(), userID(c)
	cs, err := s.store.Conversations(ctx, uid, f)
	if err != nil {
		return err
	}
	out, err := s.consoleConversationsOf(ctx, uid, cs, false)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// dayCount is how many conversations started on one day.
type dayCount struct {
	Day   string `json:"day"` // YYYY-MM-DD
	Count int    `json:"count"`
}

// GET /console/api/conversations/days?tz=&<the list's filters>: how many
// conversations the list holds, in all and per day (newest first), so
// that its day headings count the whole day, not the page loaded. Days
// are in tz, the zone the console shows times in (an IANA name); the
// user's own zone when it is absent or unknown here.
func (s *Server) consoleConversationDays(c echo.Context) error {
	f := appliance.ConversationFilter{IncludeLocked: true,
		Statuses: []appliance.ConversationStatus{appliance.StatusCompleted, appliance.StatusProcessing, appliance.StatusFailed}}
	if err := s.readConversationFilter(c, &f); err != nil {
		return err
	}
	var err error
	if f.OnlyDiscarded, err = queryBool(c, "discarded", false); err != nil {
		return err
	}
	ctx, uid := c.Request().Context(), userID(c)
	loc, err := time.LoadLocation(c.QueryParam("tz"))
	if c.QueryParam("tz") == "" || err != nil {
		u, err := s.store.User(ctx, uid)
		if err != nil {
			return err
		}
		loc = u.Location()
	}
	starts, err := s.store.ConversationStarts(ctx, uid, f)
	if err != nil {
		return err
	}
	counts := map[string]int{}
	for _, t := range starts {
		counts[t.In(loc).Format(time.DateOnly)]++
	}
	out := struct {
		Total int        `json:"total"`
		Days  []dayCount `json:"days"`
	}{Total: len(starts), Days: make([]dayCount, 0, len(counts))}
	for day, n := range counts {
		out.Days = append(out.Days, dayCount{Day: day, Count: n})
	}
	slices.SortFunc(out.Days, func(a, b dayCount) int { return strings.Compare(b.Day, a.Day) })
	return c.JSON(http.StatusOK, out)
}

// GET /console/api/conversations/{id}: one conversation with its
// transcript and photos.
func (s *Server) consoleConversation(c echo.Context) error {
	ctx, uid := c.Request().Context(), userID(c)
	conv, err := s.store.Conversation(ctx, uid, c.Param("id"))
	if err != nil {
		return notFoundAs(err, "Conversation not found")
	}
	out, err := s.consoleConversationsOf(ctx, uid, []*appliance.Conversation{conv}, true)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out[0])
}

// PATCH /console/api/conversations/{id} {title?, discarded?, starred?}
func (s *Server) consolePatchConversation(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	f := newFields(m, v, "body")
	p := conversation.Patch{}
	if title, ok := f.str("title", false); ok {
		title = strings.TrimSpace(title)
		if n := len([]rune(title)); n < 1 || n > records.MaxText {
			f.fail("title", "string_length", "The title needs 1 to "+itoa(records.MaxText)+" characters")
		}
		p.Title = &title
	}
	if b, ok := f.bool("discarded", false); ok {
		p.Discarded = &b
	}
	if b, ok := f.bool("starred", false); ok {
		p.Starred = &b
	}
	if err := v.Err(); err != nil {
		return err
	}
	ctx, uid := c.Request().Context(), userID(c)
	if _, err := s.conv.Update(ctx, uid, c.Param("id"), p); err != nil {
		return err
	}
	conv, err := s.store.ConversationHead(ctx, uid, c.Param("id"))
	if err != nil {
		return err
	}
	out, err := s.consoleConversationsOf(ctx, uid, []*appliance.Conversation{conv}, false)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out[0])
}
