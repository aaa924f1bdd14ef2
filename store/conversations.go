package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

const conversationColumns = `id, user_id, created_at, updated_at, started_at, finished_at, source, language, status,
	title, overview, emoji, category, events, geolocation, photos, apps_results, external_data,
	discarded, deleted, visibility, is_locked, starred, folder_id, client_session_id, client_device_id,
	client_platform, client_processing, meeting_treatment_eligible, meeting_treatment_reason`

// ClaimConversation implements appliance.ConversationStore. The check and the
// insert run in one IMMEDIATE transaction on the single writer, so two
// concurrent retries of one client_session_id cannot both claim.
func (db *DB) ClaimConversation(ctx context.Context, c *appliance.Conversation, staleBefore time.Time) (*appliance.Conversation, bool, error) {
	var existing *appliance.Conversation
	claimed := false
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		row := tx.QueryRowContext(ctx, `SELECT `+conversationColumns+`, claimed_at FROM conversations WHERE id = ? AND user_id = ?`, c.ID, c.UserID)
		var claimedAt sql.NullString
		found, err := scanConversation(row, &claimedAt)
		switch {
		case appliance.ErrorCode(err) == appliance.ENOTFOUND:
		case err != nil:
			return err
		case found.Status == appliance.StatusProcessing && claimedAt.Valid && claimedAt.String < fmtTime(staleBefore):
			// A claim whose request died long ago: drop it and redo the work.
			if _, err := tx.ExecContext(ctx, `DELETE FROM conversations WHERE id = ? AND user_id = ?`, c.ID, c.UserID); err != nil {
				return fmt.Errorf("drop stale claim: %w", err)
			}
		default:
			existing = found
			return nil
		}
		if err := upsertConversation(ctx, tx, c, fmtTime(db.Now())); err != nil {
			return err
		}
		existing, claimed = c, true
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("claim conversation: %w", err)
	}
	return existing, claimed, nil
}

// SaveConversation implements appliance.ConversationStore: row, segments and
// the action items linked to the conversation, in one transaction.
func (db *DB) SaveConversation(ctx context.Context, c *appliance.Conversation) error {
	err := db.withTx(ctx, func(tx *sql.Tx) error { return writeConversation(ctx, tx, c) })
	if err != nil {
		return fmt.Errorf("save conversation %s: %w", c.ID, err)
	}
	return nil
}

func upsertConversation(ctx context.Context, tx *sql.Tx, c *appliance.Conversation, claimedAt string) error {
	events, err := jsonList(c.Structured.Events)
	if err != nil {
		return fmt.Errorf("encode events: %w", err)
	}
	photos, err := jsonList(c.Photos)
	if err != nil {
		return fmt.Errorf("encode photos: %w", err)
	}
	apps, err := jsonList(c.AppsResults)
	if err != nil {
		return fmt.Errorf("encode apps results: %w", err)
	}
	geo, err := jsonOrNull(c.Geolocation, c.Geolocation == nil)
	if err != nil {
		return fmt.Errorf("encode geolocation: %w", err)
	}
	ext, err := jsonOrNull(c.ExternalData, c.ExternalData == nil)
	if err != nil {
		return fmt.Errorf("encode external data: %w", err)
	}
	var clientProcessing any
	if len(c.ClientProcessing) > 0 {
		clientProcessing = string(c.ClientProcessing)
	}
	var claimed any
	if claimedAt != "" {
		claimed = claimedAt
	}
	var sessionID any
	if c.ClientSessionID != "" {
		sessionID = c.ClientSessionID
	}
	if c.Visibility == "" {
		c.Visibility = appliance.VisibilityPrivate
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO conversations (`+conversationColumns+`, claimed_at)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT(id) DO UPDATE SET
			updated_at=excluded.updated_at, started_at=excluded.started_at, finished_at=excluded.finished_at,
			source=excluded.source, language=excluded.language, status=excluded.status, title=excluded.title,
			overview=excluded.overview, emoji=excluded.emoji, category=excluded.category, events=excluded.events,
			geolocation=excluded.geolocation, photos=excluded.photos, apps_results=excluded.apps_results,
			external_data=excluded.external_data, discarded=excluded.discarded, deleted=excluded.deleted,
			visibility=excluded.visibility, is_locked=excluded.is_locked, starred=excluded.starred,
			folder_id=excluded.folder_id, client_device_id=excluded.client_device_id,
			client_platform=excluded.client_platform, client_processing=excluded.client_processing,
			meeting_treatment_eligible=excluded.meeting_treatment_eligible,
			meeting_treatment_reason=excluded.meeting_treatment_reason
		WHERE conversations.user_id = excluded.user_id`,
		c.ID, c.UserID, fmtTime(c.CreatedAt), fmtTime(c.UpdatedAt), fmtTimePtr(c.StartedAt), fmtTimePtr(c.FinishedAt),
		string(c.Source), c.Language, string(c.Status), c.Structured.Title, c.Structured.Overview, c.Structured.Emoji,
		string(c.Structured.Category), events, geo, photos, apps, ext,
		boolInt(c.Discarded), boolInt(c.Deleted), string(c.Visibility), boolInt(c.IsLocked), boolInt(c.Starred),
		c.FolderID, sessionID, c.ClientDeviceID, c.ClientPlatform, clientProcessing,
		boolInt(c.MeetingTreatmentEligible), c.MeetingTreatmentReason, claimed)
	return mapErr(err, "conversation")
}

func replaceSegments(ctx context.Context, tx *sql.Tx, c *appliance.Conversation) error {
	// Only what differs from the stored rows is written (see replace.go).
	stored, last, err := storedSegments(ctx, tx, c.ID)
	if err != nil {
		return err
	}
	// New rows (all of a new conversation's) are inserted together
	// (insertSegmentRows); the pending ones are flushed before any other
	// write so that the statements run in position order.
	var fresh []any
	first := 0
	flush := func() error {
		err := insertSegmentRows(ctx, tx, fresh)
		fresh = fresh[:0]
		return err
	}
	for i := range c.TranscriptSegments {
		want, err := newSegmentRow(&c.TranscriptSegments[i])
		if err != nil {
			return err
		}
		old, found := stored[i]
		switch {
		case found && old == want:
			continue
		case found:
			if err := flush(); err != nil {
				return fmt.Errorf("write segment %d: %w", first, err)
			}
			_, err = tx.ExecContext(ctx, `UPDATE transcript_segments SET id = ?, text = ?, speaker = ?, speaker_id = ?, is_user = ?,
				person_id = ?, start_s = ?, end_s = ?, translations = ?, speech_profile_processed = ?, stt_provider = ?
				WHERE conversation_id = ? AND idx = ?`, append(want.args(), c.ID, i)...)
		default:
			if len(fresh) == 0 {
				first = i
			}
			if fresh == nil {
				// all of a new conversation's rows, in one allocation
				fresh = make([]any, 0, (len(c.TranscriptSegments)-i)*segmentInsertColumns)
			}
			fresh = append(want.appendArgs(fresh), c.ID, i)
		}
		if err != nil {
			return fmt.Errorf("write segment %d: %w", i, err)
		}
	}
	if err := flush(); err != nil {
		return fmt.Errorf("write segment %d: %w", first, err)
	}
	// Stored rows past the wanted ones, including those a gap in the
	// stored positions pushed there.
	if last >= len(c.TranscriptSegments) {
		if _, err := tx.ExecContext(ctx, `DELETE FROM transcript_segments WHERE conversation_id = ? AND idx >= ?`,
			c.ID, len(c.TranscriptSegments)); err != nil {
			return fmt.Errorf("clear segments: %w", err)
		}
	}
	return nil
}

func replaceActionItems(ctx context.Context, tx *sql.Tx, c *appliance.Conversation) error {
	// Only what differs from the stored rows is written (see replace.go): an
	// unchanged item keeps its search doc and vector.
	stored, err := storedActionItems(ctx, tx, c.UserID, c.ID)
	if err != nil {
		return err
	}
	var keep map[string]bool // the stored items still listed, when any are stored
	if len(stored) > 0 {
		keep = make(map[string]bool, len(c.Structured.ActionItems))
	}
	var fresh []any // the new items' rows, inserted in one statement
	for i := range c.Structured.ActionItems {
		a := &c.Structured.ActionItems[i]
		if a.CreatedAt == nil {
			a.CreatedAt = &c.UpdatedAt
		}
		if a.UpdatedAt == nil {
			a.UpdatedAt = a.CreatedAt
		}
		id := c.ID
		a.ConversationID = &id
		if keep != nil {
			keep[a.ID] = true
		}
		want := newActionItemRow(a)
		old, found := stored[a.ID]
		switch {
		case found && old == want:
			continue
		case found:
			// A stored item the conversation lists again is live again, as
			// when the save deleted and re-inserted it.
			_, err = tx.ExecContext(ctx, `UPDATE action_items SET description = ?, completed = ?, created_at = ?, updated_at = ?,
				due_at = ?, completed_at = ?, is_locked = ?, deleted = 0 WHERE id = ?`,
				want.description, want.completed, want.createdAt, want.updatedAt, want.dueAt, want.completedAt, want.locked, a.ID)
		default:
			// New items go in together after the loop: their ids are not
			// stored, so no statement of the loop touches them.
			if fresh == nil {
				fresh = make([]any, 0, (len(c.Structured.ActionItems)-i)*actionItemInsertColumns)
			}
			fresh = append(fresh, a.ID, c.UserID, c.ID, want.description, want.completed, want.createdAt,
				want.updatedAt, want.dueAt, want.completedAt, want.locked)
		}
		if err != nil {
			return fmt.Errorf("write action item: %w", err)
		}
	}
	if err := insertRows(ctx, tx, `INSERT INTO action_items
		(id, user_id, conversation_id, description, completed, created_at, updated_at, due_at, completed_at, is_locked)`,
		actionItemInsertColumns, fresh); err != nil {
		return fmt.Errorf("write action item: %w", err)
	}
	for id := range stored {
		if keep[id] {
			continue
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM action_items WHERE id = ?`, id); err != nil {
			return fmt.Errorf("clear action item: %w", err)
		}
	}
	return nil
}

// actionItemInsertColumns are the values of a new action item's row.
const actionItemInsertColumns = 10

// Conversation implements appliance.ConversationStore.
func (db *DB) Conversation(ctx context.Context, userID, id string) (*appliance.Conversation, error) {
	return db.conversation(ctx, userID, id, true)
}

// ConversationHead implements appliance.ConversationStore.
func (db *DB) ConversationHead(ctx context.Context, userID, id string) (*appliance.Conversation, error) {
	return db.conversation(ctx, userID, id, false)
}

func (db *DB) conversation(ctx context.Context, userID, id string, withSegments bool) (*appliance.Conversation, error) {
	row := db.queryRow(ctx, `SELECT `+conversationColumns+` FROM conversations WHERE id = ? AND user_id = ? AND deleted = 0`, id, userID)
	c, err := scanConversation(row, nil)
	if err != nil {
		return nil, err
	}
	cs := []*appliance.Conversation{c}
	if withSegments {
		if err := db.loadSegments(ctx, cs); err != nil {
			return nil, err
		}
	}
	if err := db.loadActionItems(ctx, userID, cs); err != nil {
		return nil, err
	}
	return c, nil
}

// ConversationsByID implements appliance.ConversationStore.
func (db *DB) ConversationsByID(ctx context.Context, userID string, ids []string) (map[string]*appliance.Conversation, error) {
	out := map[string]*appliance.Conversation{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := db.query(ctx, `SELECT `+conversationColumns+` FROM conversations WHERE +user_id = ? AND +deleted = 0 AND id IN (`+
		placeholders(len(ids))+`)`, append([]any{userID}, anys(ids)...)...)
	if err != nil {
		return nil, fmt.Errorf("conversations by id: %w", err)
	}
	cs, err := collect(rows, func(s scanner) (*appliance.Conversation, error) { return scanConversation(s, nil) })
	if err != nil {
		return nil, err
	}
	if err := db.loadActionItems(ctx, userID, cs); err != nil {
		return nil, err
	}
	for _, c := range cs {
		out[c.ID] = c
	}
	return out, nil
}

// InProgressConversation implements appliance.ConversationStore.
func (db *DB) InProgressConversation(ctx context.Context, userID string) (*appliance.Conversation, error) {
	var id string
	// INDEXED BY: the partial index holds only recordings in progress, a
	// handful of rows; the user's list index would read all of theirs.
	err := db.queryRow(ctx, `SELECT id FROM conversations INDEXED BY conversations_in_progress
		WHERE status = 'in_progress' AND deleted = 0 AND user_id = ? ORDER BY created_at DESC LIMIT 1`, userID).Scan(&id)
	if err != nil {
		return nil, mapErr(err, "in-progress conversation")
	}
	return db.Conversation(ctx, userID, id)
}

// Conversations implements appliance.ConversationStore, newest started first.
func (db *DB) Conversations(ctx context.Context, userID string, f appliance.ConversationFilter) ([]*appliance.Conversation, error) {
	where, args := conversationWhere(userID, f)
	limit := f.Limit
	if limit <= 0 {
		limit = 25
	}
	args = append(args, limit, max(f.Offset, 0))
	rows, err := db.query(ctx, `SELECT `+conversationColumns+` FROM conversations WHERE `+
		where+` ORDER BY started_at DESC, created_at DESC, id DESC LIMIT ? OFFSET ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	}
	defer rows.Close()
	cs := []*appliance.Conversation{}
	for rows.Next() {
		c, err := scanConversation(rows, nil)
		if err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	}
	if f.WithTranscript {
		if err := db.loadSegments(ctx, cs); err != nil {
			return nil, err
		}
	}
	if err := db.loadActionItems(ctx, userID, cs); err != nil {
		return nil, err
	}
	return cs, nil
}

// ConversationStarts returns when each conversation f selects started
// (its limit and offset aside; when it was created if it has no start), in
// no order: the console counts them by day in the user's time zone, which
// SQLite does not know.
func (db *DB) ConversationStarts(ctx context.Context, userID string, f appliance.ConversationFilter) ([]time.Time, error) {
	where, args := conversationWhere(userID, f)
	rows, err := db.query(ctx, `SELECT COALESCE(started_at, created_at) FROM conversations WHERE `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("conversation starts: %w", err)
	}
	defer rows.Close()
	out := []time.Time{}
	for rows.Next() {
		var s sql.NullString
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("conversation starts: %w", err)
		}
		if !s.Valid {
			continue
		}
		t, err := parseTime(s.String)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("conversation starts: %w", err)
	}
	return out, nil
}

// conversationWhere is the WHERE clause (without the word) and its
// arguments for the conversations f selects.
func conversationWhere(userID string, f appliance.ConversationFilter) (string, []any) {
	where := []string{"user_id = ?", "deleted = 0"}
	args := []any{userID}
	if len(f.Statuses) > 0 {
		where = append(where, "status IN ("+placeholders(len(f.Statuses))+")")
		for _, s := range f.Statuses {
			args = append(args, string(s))
		}
	}
	switch {
	case f.OnlyDiscarded:
		where = append(where, "discarded = 1")
	case !f.IncludeDiscarded:
		where = append(where, "discarded = 0")
	}
	if !f.IncludeLocked {
		where = append(where, "is_locked = 0")
	}
	if len(f.Categories) > 0 {
		where = append(where, "category IN ("+placeholders(len(f.Categories))+")")
		for _, c := range f.Categories {
			args = append(args, string(c))
		}
	}
	if f.StartDate != nil {
		where = append(where, "started_at >= ?")
		args = append(args, fmtTime(*f.StartDate))
	}
	if f.EndDate != nil {
		where = append(where, "started_at <= ?")
		args = append(args, fmtTime(*f.EndDate))
	}
	if f.FolderID != "" {
		where = append(where, "folder_id = ?")
		args = append(args, f.FolderID)
	}
	if f.Starred != nil {
		where = append(where, "starred = ?")
		args = append(args, boolInt(*f.Starred))
	}
	return strings.Join(where, " AND "), args
}

// SetConversationTitle implements appliance.ConversationStore.
func (db *DB) SetConversationTitle(ctx context.Context, userID, id, title string) error {
	return db.updateConversation(ctx, userID, id, `title = ?`, title)
}

// SetConversationStarred implements appliance.ConversationStore.
func (db *DB) SetConversationStarred(ctx context.Context, userID, id string, starred bool) error {
	return db.updateConversation(ctx, userID, id, `starred = ?`, boolInt(starred))
}

// SetConversationLocked implements appliance.ConversationStore.
func (db *DB) SetConversationLocked(ctx context.Context, userID, id string, locked bool) error {
	return db.updateConversation(ctx, userID, id, `is_locked = ?`, boolInt(locked))
}

// DeleteConversation soft-deletes: the row stays (deleted = 1) and disappears
// from every read.
func (db *DB) DeleteConversation(ctx context.Context, userID, id string) error {
	return db.updateConversation(ctx, userID, id, `deleted = ?`, 1)
}

func (db *DB) updateConversation(ctx context.Context, userID, id, set string, value any) error {
	res, err := db.writer.ExecContext(ctx, `UPDATE conversations SET `+set+`, updated_at = ? WHERE id = ? AND user_id = ? AND deleted = 0`,
		value, fmtTime(db.Now()), id, userID)
	if err != nil {
		return fmt.Errorf("update conversation %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return appliance.Errorf(appliance.ENOTFOUND, "Conversation not found")
	}
	return nil
}

// DeleteClaim implements appliance.ConversationStore; it removes only a row
// still in status processing.
func (db *DB) DeleteClaim(ctx context.Context, userID, id string) error {
	_, err := db.writer.ExecContext(ctx, `DELETE FROM conversations WHERE id = ? AND user_id = ? AND status = 'processing'`, id, userID)
	if err != nil {
		return fmt.Errorf("delete claim %s: %w", id, err)
	}
	return nil
}

func (db *DB) loadSegments(ctx context.Context, cs []*appliance.Conversation) error {
	if len(cs) == 0 {
		return nil
	}
	byID := make(map[string]*appliance.Conversation, len(cs))
	args := make([]any, len(cs))
	for i, c := range cs {
		byID[c.ID] = c
		args[i] = c.ID
		c.TranscriptSegments = []appliance.TranscriptSegment{}
	}
	rows, err := db.query(ctx, `SELECT conversation_id, id, text, speaker, speaker_id, is_user, person_id,
		start_s, end_s, translations, speech_profile_processed, stt_provider
		FROM transcript_segments WHERE conversation_id IN (`+placeholders(len(cs))+`) ORDER BY conversation_id, idx`, args...)
	if err != nil {
		return fmt.Errorf("load segments: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var cid, translations string
		var s appliance.TranscriptSegment
		var isUser, processed int
		var personID, provider sql.NullString
		if err := rows.Scan(&cid, &s.ID, &s.Text, &s.Speaker, &s.SpeakerID, &isUser, &personID, &s.Start, &s.End,
			&translations, &processed, &provider); err != nil {
			return fmt.Errorf("scan segment: %w", err)
		}
		s.IsUser, s.SpeechProfileProcessed = isUser != 0, processed != 0
		s.PersonID, s.STTProvider = nullStr(personID), nullStr(provider)
		if err := json.Unmarshal([]byte(translations), &s.Translations); err != nil {
			return fmt.Errorf("decode translations: %w", err)
		}
		c := byID[cid]
		c.TranscriptSegments = append(c.TranscriptSegments, s)
	}
	return rows.Err()
}

func (db *DB) loadActionItems(ctx context.Context, userID string, cs []*appliance.Conversation) error {
	if len(cs) == 0 {
		return nil
	}
	byID := make(map[string]*appliance.Conversation, len(cs))
	args := []any{userID}
	for _, c := range cs {
		byID[c.ID] = c
		args = append(args, c.ID)
		c.Structured.ActionItems = []appliance.ActionItem{}
	}
	// The unary + keeps the per-user filter but stops the planner from
	// choosing the per-user index, which would scan all of a user's items
	// for one conversation (EXPLAIN QUERY PLAN; store_test checks it).
	rows, err := db.query(ctx, `SELECT id, conversation_id, description, completed, created_at, updated_at, due_at, completed_at, is_locked
		FROM action_items WHERE +user_id = ? AND +deleted = 0 AND conversation_id IN (`+placeholders(len(cs))+`) ORDER BY created_at, id`, args...)
	if err != nil {
		return fmt.Errorf("load action items: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var a appliance.ActionItem
		var cid, created, updated string
		var due, completedAt sql.NullString
		var completed, locked int
		if err := rows.Scan(&a.ID, &cid, &a.Description, &completed, &created, &updated, &due, &completedAt, &locked); err != nil {
			return fmt.Errorf("scan action item: %w", err)
		}
		a.Completed, a.IsLocked = completed != 0, locked != 0
		ct, err := parseTime(created)
		if err != nil {
			return err
		}
		ut, err := parseTime(updated)
		if err != nil {
			return err
		}
		a.CreatedAt, a.UpdatedAt = &ct, &ut
		if a.DueAt, err = parseTimePtr(due); err != nil {
			return err
		}
		if a.CompletedAt, err = parseTimePtr(completedAt); err != nil {
			return err
		}
		a.ConversationID = &cid
		c := byID[cid]
		c.Structured.ActionItems = append(c.Structured.ActionItems, a)
	}
	return rows.Err()
}

// decodeList decodes a stored JSON array. Most are empty, and a page of
// conversations decoded three per row through encoding/json.
func decodeList[T any](s string, dst *[]T) error {
	if s == "[]" {
		*dst = []T{}
		return nil
	}
	return json.Unmarshal([]byte(s), dst)
}

func scanConversation(s scanner, claimedAt *sql.NullString) (*appliance.Conversation, error) {
	var c appliance.Conversation
	var created, updated, source, status, category, events, photos, apps, visibility string
	var started, finished, geo, ext, folder, session, clientProcessing sql.NullString
	var discarded, deleted, locked, starred, meeting int
	dest := []any{&c.ID, &c.UserID, &created, &updated, &started, &finished, &source, &c.Language, &status,
		&c.Structured.Title, &c.Structured.Overview, &c.Structured.Emoji, &category, &events, &geo, &photos, &apps, &ext,
		&discarded, &deleted, &visibility, &locked, &starred, &folder, &session, &c.ClientDeviceID,
		&c.ClientPlatform, &clientProcessing, &meeting, &c.MeetingTreatmentReason}
	if claimedAt != nil {
		dest = append(dest, claimedAt)
	}
	if err := s.Scan(dest...); err != nil {
		return nil, mapErr(err, "Conversation")
	}
	// Times are read leniently: a row written before the appliance bounded
	// accepted times must not take down every list that includes it.
	c.CreatedAt, c.UpdatedAt = storedTime(created), storedTime(updated)
	c.StartedAt, c.FinishedAt = storedTimePtr(started), storedTimePtr(finished)
	c.Source, c.Status = appliance.ConversationSource(source), appliance.ConversationStatus(status)
	c.Structured.Category = appliance.Category(category)
	c.Visibility = appliance.Visibility(visibility)
	c.Discarded, c.Deleted, c.IsLocked, c.Starred = discarded != 0, deleted != 0, locked != 0, starred != 0
	c.MeetingTreatmentEligible = meeting != 0
	c.FolderID = nullStr(folder)
	c.ClientSessionID = session.String
	if clientProcessing.Valid {
		c.ClientProcessing = json.RawMessage(clientProcessing.String)
	}
	if err := decodeList(events, &c.Structured.Events); err != nil {
		return nil, fmt.Errorf("decode events: %w", err)
	}
	if err := decodeList(photos, &c.Photos); err != nil {
		return nil, fmt.Errorf("decode photos: %w", err)
	}
	if err := decodeList(apps, &c.AppsResults); err != nil {
		return nil, fmt.Errorf("decode apps results: %w", err)
	}
	if geo.Valid {
		if err := json.Unmarshal([]byte(geo.String), &c.Geolocation); err != nil {
			return nil, fmt.Errorf("decode geolocation: %w", err)
		}
	}
	if ext.Valid {
		if err := json.Unmarshal([]byte(ext.String), &c.ExternalData); err != nil {
			return nil, fmt.Errorf("decode external data: %w", err)
		}
	}
	c.Structured.ActionItems = []appliance.ActionItem{}
	c.TranscriptSegments = nil
	return &c, nil
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

func nullStr(s sql.NullString) *string {
	if !s.Valid {
		return nil
	}
	v := s.String
	return &v
}

// jsonList is a list column's JSON; most lists of a conversation are
// empty, and "[]" needs no trip through encoding/json.
func jsonList[T any](s []T) (string, error) {
	if len(s) == 0 {
		return "[]", nil
	}
	b, err := json.Marshal(s)
	return string(b), err
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func jsonOrNull(v any, isNil bool) (any, error) {
	if isNil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return string(b), nil
}
