package api

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/conversation"
	"github.com/hearth-appliance/hearth/appliance/records"
)

type createResponse struct {
	ID                       string `json:"id"`
	Status                   string `json:"status"`
	Discarded                bool   `json:"discarded"`
	MeetingTreatmentEligible bool   `json:"meeting_treatment_eligible"`
}

func newCreateResponse(c *appliance.Conversation) createResponse {
	return createResponse{ID: c.ID, Status: string(c.Status), Discarded: c.Discarded, MeetingTreatmentEligible: c.MeetingTreatmentEligible}
}

// appendJSON is the response as echo's c.JSON writes it (encoding/json's
// Encoder: HTML characters escaped, a newline after), without reflection;
// ok is false when a value would need escaping, which ids and statuses this
// server makes never do.
func (r createResponse) appendJSON(b []byte) (_ []byte, ok bool) {
	if !plainJSONString(r.ID) || !plainJSONString(r.Status) {
		return nil, false
	}
	b = append(append(append(b, `{"id":"`...), r.ID...), `","status":"`...)
	b = append(append(b, r.Status...), `","discarded":`...)
	b = append(strconv.AppendBool(b, r.Discarded), `,"meeting_treatment_eligible":`...)
	return append(strconv.AppendBool(b, r.MeetingTreatmentEligible), "}\n"...), true
}

// plainJSONString says whether encoding/json writes s between quotes as is.
func plainJSONString(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c >= 0x7f, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// createFromSegments serves POST /v1/dev/user/conversations/from-segments and
// its ID-token twin POST /v1/conversations/from-segments.
func (s *Server) createFromSegments(c echo.Context) error {
	ctx, done := s.announceSave(c)
	defer done()
	body, release, err := readPooledBody(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	// Both parsers copy what they keep (strings, numbers' values, the
	// client_processing object re-encoded), so the buffer goes back now.
	req, err := parseFromSegments(body)
	release()
	if err != nil {
		return err
	}
	start, finish, err := req.times(s.now().UTC())
	if err != nil {
		return err
	}
	return s.create(ctx, c, req.draft(userID(c), start, finish))
}

// announceSave tells a store that can gather saves (writeAnnouncer) that
// this request will save a conversation, from its start: reading and
// parsing the body is part of the time the writer may wait for it. done is
// called when the handler returns.
func (s *Server) announceSave(c echo.Context) (context.Context, func()) {
	if w, ok := s.store.(writeAnnouncer); ok {
		return w.ExpectWrite(c.Request().Context())
	}
	return c.Request().Context(), func() {}
}

// create hands a draft to the lifecycle and answers the create response;
// ctx is announceSave's.
func (s *Server) create(ctx context.Context, c echo.Context, d conversation.Draft) error {
	conv, err := s.conv.Create(ctx, d)
	if err != nil {
		return err
	}
	resp := newCreateResponse(conv)
	if _, pretty := c.QueryParams()["pretty"]; !pretty && !c.Echo().Debug {
		if b, ok := resp.appendJSON(make([]byte, 0, 128)); ok {
			return c.JSONBlob(http.StatusOK, b)
		}
	}
	return c.JSON(http.StatusOK, resp)
}

// writeAnnouncer is a store whose writer can hold a commit open for the
// saves announced to it, so that concurrent creates share one commit
// (store.DB.ExpectWrite). done is called once the create returned.
type writeAnnouncer interface {
	ExpectWrite(ctx context.Context) (_ context.Context, done func())
}

// draft is the request as the lifecycle takes it; speaker ids come from
// the request or, failing that, from the speaker label.
func (r *fromSegmentsRequest) draft(uid string, start, finish time.Time) conversation.Draft {
	segs := make([]appliance.TranscriptSegment, len(r.Segments))
	for i, in := range r.Segments {
		speakerID := appliance.SpeakerIDFromLabel(in.Speaker)
		if in.SpeakerID != nil {
			speakerID = *in.SpeakerID
		}
		segs[i] = appliance.TranscriptSegment{Text: in.Text, Speaker: in.Speaker, SpeakerID: speakerID,
			IsUser: in.IsUser, PersonID: in.PersonID, Start: in.Start, End: in.End}
	}
	return conversation.Draft{
		UserID: uid, Source: r.Source, Language: r.Language, StartedAt: start, FinishedAt: finish, Segments: segs,
		Geolocation: r.Geolocation, ClientSessionID: r.ClientSessionID, ClientDeviceID: r.ClientDeviceID,
		ClientPlatform: r.ClientPlatform, ClientProcessing: r.ClientProcessing,
		Role: r.Role, FinalizationReason: r.FinalizationReason,
	}
}

// getConversation serves GET /v1/dev/user/conversations/{id}. A locked
// conversation is as invisible as a missing one.
func (s *Server) getConversation(c echo.Context) error {
	withTranscript, err := queryBool(c, "include_transcript", false)
	if err != nil {
		return err
	}
	uid := userID(c)
	load := s.store.ConversationHead
	if withTranscript {
		load = s.store.Conversation
	}
	conv, err := load(c.Request().Context(), uid, c.Param("id"))
	if appliance.ErrorCode(err) == appliance.ENOTFOUND || (err == nil && conv.IsLocked) {
		return errNotFound("Conversation not found")
	} else if err != nil {
		return err
	}
	out, err := s.devConversations(c.Request().Context(), uid, []*appliance.Conversation{conv}, withTranscript)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out[0])
}

// listConversations serves GET /v1/dev/user/conversations: completed,
// kept, unlocked conversations, newest first.
func (s *Server) listConversations(c echo.Context) error {
	withTranscript, err := queryBool(c, "include_transcript", false)
	if err != nil {
		return err
	}
	maxLimit := 100
	if withTranscript {
		maxLimit = 25
	}
	limit, offset, err := queryPage(c, 25, maxLimit)
	if err != nil {
		return err
	}
	f := appliance.ConversationFilter{
		Limit: limit, Offset: offset,
		Statuses: []appliance.ConversationStatus{appliance.StatusCompleted}, WithTranscript: withTranscript,
	}
	if err := s.readConversationFilter(c, &f); err != nil {
		return err
	}
	uid := userID(c)
	cs, err := s.store.Conversations(c.Request().Context(), uid, f)
	if err != nil {
		return err
	}
	out, err := s.devConversations(c.Request().Context(), uid, cs, withTranscript)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// readConversationFilter reads the list filters the developer API and the
// console share: folder_id, start_date, end_date, starred, categories.
func (s *Server) readConversationFilter(c echo.Context, f *appliance.ConversationFilter) error {
	var err error
	f.FolderID = c.QueryParam("folder_id")
	if f.FolderID == "" && c.QueryParams().Has("folder_id") {
		// The reference's folder_id has min_length=1: an empty one is a 422,
		// not "any folder".
		return errUnprocessable("string_too_short", "String should have at least 1 character", "query", "folder_id")
	}
	if f.StartDate, err = s.queryTime(c, "start_date"); err != nil {
		return err
	}
	if f.EndDate, err = s.queryTime(c, "end_date"); err != nil {
		return err
	}
	if c.QueryParams().Has("starred") {
		b, err := queryBool(c, "starred", false)
		if err != nil {
			return err
		}
		f.Starred = &b
	}
	for _, name := range strings.Split(c.QueryParam("categories"), ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		cat, ok := appliance.ParseCategory(name)
		if !ok {
			return errBadRequest("Invalid category '" + name + "' is not a valid CategoryEnum")
		}
		f.Categories = append(f.Categories, cat)
	}
	return nil
}

// patchConversation serves PATCH /v1/dev/user/conversations/{id}.
func (s *Server) patchConversation(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	f := newFields(m, v, "body")
	title, hasTitle := f.str("title", false)
	if hasTitle {
		title = strings.TrimSpace(title)
		switch n := len([]rune(title)); {
		case n < 1:
			f.fail("title", "string_too_short", "String should have at least 1 character")
		case n > records.MaxText:
			f.fail("title", "string_too_long", "String should have at most "+itoa(records.MaxText)+" characters")
		}
	}
	discarded, hasDiscarded := f.bool("discarded", false)
	if err := v.Err(); err != nil {
		return err
	}
	p := conversation.Patch{}
	if hasTitle {
		p.Title = &title
	}
	if hasDiscarded {
		p.Discarded = &discarded
	}
	ctx, uid := c.Request().Context(), userID(c)
	conv, err := s.conv.Update(ctx, uid, c.Param("id"), p)
	if err != nil {
		return err
	}
	out, err := s.devConversations(ctx, uid, []*appliance.Conversation{conv}, false)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out[0])
}

// deleteConversation serves DELETE /v1/dev/user/conversations/{id}.
func (s *Server) deleteConversation(c echo.Context) error {
	if err := s.conv.Delete(c.Request().Context(), userID(c), c.Param("id")); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]bool{"success": true})
}

// Query parsing with the reference's (pydantic's) vocabulary of errors.

func queryBool(c echo.Context, name string, def bool) (bool, error) {
	if !c.QueryParams().Has(name) {
		return def, nil
	}
	switch strings.ToLower(c.QueryParam(name)) {
	case "true", "1", "yes", "on", "t", "y":
		return true, nil
	case "false", "0", "no", "off", "f", "n":
		return false, nil
	}
	return false, errUnprocessable("bool_parsing", "Input should be a valid boolean, unable to interpret input", "query", name)
}

// queryPage reads limit (clamped to 1..maxLimit, default def) and offset
// (clamped to ≥ 0), as the reference's list endpoints do.
func queryPage(c echo.Context, def, maxLimit int) (limit, offset int, err error) {
	if limit, err = queryInt(c, "limit", def); err != nil {
		return 0, 0, err
	}
	if offset, err = queryInt(c, "offset", 0); err != nil {
		return 0, 0, err
	}
	return min(max(limit, 1), maxLimit), max(offset, 0), nil
}

func queryInt(c echo.Context, name string, def int) (int, error) {
	if !c.QueryParams().Has(name) {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(c.QueryParam(name)))
	if err != nil {
		return 0, errUnprocessable("int_parsing", "Input should be a valid integer, unable to parse string as an integer", "query", name)
	}
	return n, nil
}

// queryTime reads a date parameter with appliance.ParseDate: a bare day is
// its midnight and a time without a zone is read in the user's time zone.
func (s *Server) queryTime(c echo.Context, name string) (*time.Time, error) {
	raw := c.QueryParam(name)
	if raw == "" {
		return nil, nil
	}
	t, _, err := appliance.ParseDate(raw, s.records.Location(c.Request().Context(), userID(c)))
	if errors.Is(err, appliance.ErrDateRange) {
		return nil, errUnprocessable("datetime_range", appliance.TimeRangeMessage, "query", name)
	}
	if err != nil {
		return nil, errUnprocessable("datetime_parsing", "Input should be a valid datetime", "query", name)
	}
	return &t, nil
}

func itoa(n int) string { return strconv.Itoa(n) }
