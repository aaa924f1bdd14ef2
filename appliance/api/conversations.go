package api

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline"
)

// sessionNamespace derives conversation ids from client_session_id, the
// reference's namespace, so that a retry maps to the same id.
var sessionNamespace = uuid.MustParse("fb2f1f36-3c84-47a4-9c62-b3f6fdb3fd13")

// staleClaimAge: a from-segments claim older than this whose request never
// finished is redone by the next retry.
const staleClaimAge = 15 * time.Minute

// processTimeout bounds one pipeline run started by a request. Processing is
// detached from the client's context so a dropped connection does not leave
// a half-written conversation behind.
const processTimeout = 2 * time.Minute

type createResponse struct {
	ID                       string `json:"id"`
	Status                   string `json:"status"`
	Discarded                bool   `json:"discarded"`
	MeetingTreatmentEligible bool   `json:"meeting_treatment_eligible"`
}

func newCreateResponse(c *appliance.Conversation) createResponse {
	return createResponse{ID: c.ID, Status: string(c.Status), Discarded: c.Discarded, MeetingTreatmentEligible: c.MeetingTreatmentEligible}
}

// createFromSegments serves POST /v1/dev/user/conversations/from-segments and
// its ID-token twin POST /v1/conversations/from-segments.
func (s *Server) createFromSegments(c echo.Context) error {
	uid := userID(c)
	body, err := readBody(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	req, err := parseFromSegments(body)
	if err != nil {
		return err
	}
	now := s.now().UTC()
	start, finish, err := req.times(now)
	if err != nil {
		return err
	}
	return s.createConversation(c, uid, req, s.newConversation(uid, req, start, finish, now), now)
}

// createConversation claims (with a client_session_id), processes and
// stores a new conversation, and answers the create response.
func (s *Server) createConversation(c echo.Context, uid string, req *fromSegmentsRequest, conv *appliance.Conversation, now time.Time) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), processTimeout)
	defer cancel()

	if req.ClientSessionID != "" {
		conv.ID = uuid.NewSHA1(sessionNamespace, []byte(uid+"\x00"+req.ClientSessionID)).String()
		conv.ExternalData["from_segments_client_session_id"] = req.ClientSessionID
		conv.ExternalData["from_segments_claimed_at"] = now.Format(time.RFC3339Nano)
		existing, claimed, err := s.store.ClaimConversation(ctx, conv, now.Add(-staleClaimAge))
		if err != nil {
			return err
		}
		if !claimed {
			return c.JSON(http.StatusOK, newCreateResponse(existing))
		}
	}
	memories, err := s.process(ctx, conv, pipeline.Options{})
	if err != nil {
		if req.ClientSessionID != "" {
			if derr := s.store.DeleteClaim(ctx, uid, conv.ID); derr != nil {
				s.log.Error("drop failed claim", "conversation_id", conv.ID, "err", derr)
			}
		}
		return err
	}
	conv.MeetingTreatmentEligible, conv.MeetingTreatmentReason = appliance.MeetingTreatment(conv, req.Role, req.FinalizationReason)
	if err := s.saveProcessed(ctx, conv, memories); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, newCreateResponse(conv))
}

func (s *Server) newConversation(uid string, req *fromSegmentsRequest, start, finish, now time.Time) *appliance.Conversation {
	segs := make([]appliance.TranscriptSegment, len(req.Segments))
	for i, in := range req.Segments {
		speakerID := appliance.SpeakerIDFromLabel(in.Speaker)
		if in.SpeakerID != nil {
			speakerID = *in.SpeakerID
		}
		segs[i] = appliance.TranscriptSegment{
			ID: uuid.NewString(), Text: strings.TrimSpace(in.Text), Speaker: in.Speaker, SpeakerID: speakerID,
			IsUser: in.IsUser, PersonID: in.PersonID, Start: in.Start, End: in.End,
			Translations: []appliance.Translation{}, SpeechProfileProcessed: true,
		}
	}
	ext := map[string]any{"conversation_role": string(req.Role)}
	if req.FinalizationReason != "" {
		ext["conversation_finalization_reason"] = string(req.FinalizationReason)
	}
	conv := &appliance.Conversation{
		ID: uuid.NewString(), UserID: uid, CreatedAt: now, UpdatedAt: now, StartedAt: &start, FinishedAt: &finish,
		Source: req.Source, Language: req.Language, Status: appliance.StatusProcessing,
		Structured: appliance.EmptyStructured(), TranscriptSegments: segs, ExternalData: ext,
		Visibility: appliance.VisibilityPrivate, ClientSessionID: req.ClientSessionID,
		ClientDeviceID: req.ClientDeviceID, ClientPlatform: req.ClientPlatform, ClientProcessing: req.ClientProcessing,
	}
	if req.Geolocation.Valid() {
		conv.Geolocation = req.Geolocation
	}
	return conv
}

// saveProcessed stores a processed conversation (with its action items)
// and the memories extracted from it, then wakes the indexer.
func (s *Server) saveProcessed(ctx context.Context, conv *appliance.Conversation, memories []appliance.Memory) error {
	now := s.now().UTC()
	conv.UpdatedAt = now
	for i := range conv.Structured.ActionItems {
		a := &conv.Structured.ActionItems[i]
		if a.ID == "" {
			a.ID = newID()
		}
	}
	if err := s.store.SaveConversation(ctx, conv); err != nil {
		return err
	}
	ms := make([]*appliance.Memory, len(memories))
	for i, m := range memories {
		id := conv.ID
		ms[i] = &appliance.Memory{ID: newID(), UserID: conv.UserID, Content: m.Content, Category: m.Category,
			Tags: []string{}, Visibility: appliance.VisibilityPrivate, CreatedAt: now, UpdatedAt: now, ConversationID: &id}
	}
	if err := s.store.CreateMemories(ctx, ms); err != nil {
		return err
	}
	s.indexer.Notify()
	return nil
}

// process runs the pipeline with the user's name and time zone and returns
// the memories it extracted.
func (s *Server) process(ctx context.Context, conv *appliance.Conversation, opt pipeline.Options) ([]appliance.Memory, error) {
	u, err := s.store.User(ctx, conv.UserID)
	if err != nil {
		return nil, err
	}
	opt.UserName = u.Name
	opt.Location = time.Local
	if u.TimeZone != "" {
		if loc, err := time.LoadLocation(u.TimeZone); err == nil {
			opt.Location = loc
		}
	}
	res, err := s.pipeline.Process(ctx, conv, opt)
	return res.Memories, err
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
		FolderID: c.QueryParam("folder_id"),
	}
	if f.StartDate, err = queryTime(c, "start_date"); err != nil {
		return err
	}
	if f.EndDate, err = queryTime(c, "end_date"); err != nil {
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
		case n > 500:
			f.fail("title", "string_too_long", "String should have at most 500 characters")
		}
	}
	discarded, hasDiscarded := f.bool("discarded", false)
	if err := v.Err(); err != nil {
		return err
	}
	ctx, uid, id := c.Request().Context(), userID(c), c.Param("id")
	conv, err := s.lockedCheck(ctx, uid, id)
	if err != nil {
		return err
	}
	if !hasTitle && !hasDiscarded {
		return errUnprocessable("value_error", "At least one field (title or discarded) must be provided", "body")
	}
	if hasTitle {
		if err := s.store.SetConversationTitle(ctx, uid, id, title); err != nil {
			return err
		}
	}
	if hasDiscarded && discarded != conv.Discarded {
		if err := s.store.SetConversationDiscarded(ctx, uid, id, discarded); err != nil {
			return err
		}
		// The discard lifecycle: a discarded conversation keeps no memories
		// (its index entry goes with the flag).
		if discarded {
			if err := s.store.DeleteConversationMemories(ctx, uid, id); err != nil {
				return err
			}
		}
	}
	conv, err = s.store.ConversationHead(ctx, uid, id)
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
	ctx, uid, id := c.Request().Context(), userID(c), c.Param("id")
	if _, err := s.lockedCheck(ctx, uid, id); err != nil {
		return err
	}
	if err := s.store.DeleteConversation(ctx, uid, id); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]bool{"success": true})
}

// lockedCheck loads a conversation for a mutation: 404 when missing, 402
// when locked.
func (s *Server) lockedCheck(ctx context.Context, uid, id string) (*appliance.Conversation, error) {
	conv, err := s.store.ConversationHead(ctx, uid, id)
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return nil, errNotFound("Conversation not found")
	} else if err != nil {
		return nil, err
	}
	if conv.IsLocked {
		return nil, errLocked("conversation")
	}
	return conv, nil
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

func queryTime(c echo.Context, name string) (*time.Time, error) {
	raw := c.QueryParam(name)
	if raw == "" {
		return nil, nil
	}
	t, err := parseDateTimeString(raw)
	if err != nil {
		// A bare date means the start of that day (UTC).
		d, derr := time.Parse(time.DateOnly, strings.TrimSpace(raw))
		if derr != nil {
			return nil, errUnprocessable("datetime_parsing", "Input should be a valid datetime", "query", name)
		}
		t = d
	}
	return &t, nil
}

func itoa(n int) string { return strconv.Itoa(n) }
