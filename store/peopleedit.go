package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
)

// PersonSegments counts, for each of the user's people, the transcript
// segments that name them.
func (db *DB) PersonSegments(ctx context.Context, userID string) (map[string]int, error) {
	rows, err := db.query(ctx, `SELECT p.id, (SELECT COUNT(*) FROM transcript_segments s
			WHERE s.person_id = p.id AND s.person_id IS NOT NULL)
		FROM persons p WHERE p.user_id = ?`, userID)
	if err != nil {
		return nil, fmt.Errorf("count person segments: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, fmt.Errorf("count person segments: %w", err)
		}
		out[id] = n
	}
	return out, rows.Err()
}

// RenamePerson renames one of the user's people; segments, assignments and
// voices follow by id, and the assignments' copy of the name is updated.
func (db *DB) RenamePerson(ctx context.Context, userID, id, name string) (*appliance.Person, error) {
	name = strings.TrimSpace(name)
	if name == "" || len([]rune(name)) > 100 {
		return nil, appliance.Errorf(appliance.EINVALID, "A name has 1 to 100 characters")
	}
	var p *appliance.Person
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE persons SET name = ? WHERE id = ? AND user_id = ?`, name, id, userID)
		if err != nil {
			return fmt.Errorf("rename person: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return appliance.Errorf(appliance.ENOTFOUND, "Person not found")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE speaker_assignments SET person_name = ? WHERE user_id = ? AND person_id = ?`, name, userID, id); err != nil {
			return fmt.Errorf("rename person: %w", err)
		}
		p, err = personTx(ctx, tx, userID, id)
		return err
	})
	return p, err
}

// MergePeople makes from's segments, assignments and voice into's, in one
// transaction, and removes from. The voices are averaged by the speech
// each rests on when the same extractor made them; otherwise into's stays.
func (db *DB) MergePeople(ctx context.Context, userID, fromID, intoID string) error {
	if fromID == intoID {
		return appliance.Errorf(appliance.EINVALID, "A person cannot be merged into themself")
	}
	return db.withTx(ctx, func(tx *sql.Tx) error {
		if _, err := personTx(ctx, tx, userID, fromID); err != nil {
			return err
		}
		into, err := personTx(ctx, tx, userID, intoID)
		if err != nil {
			return err
		}
		// INDEXED BY: with statistics the planner would rather walk every
		// segment of the user's conversations (transcript_segments has a
		// rowid since migration 0036); the person's index holds only theirs.
		for _, q := range []string{
			`UPDATE transcript_segments INDEXED BY transcript_segments_person SET person_id = ? WHERE person_id = ?
				AND conversation_id IN (SELECT id FROM conversations WHERE user_id = ?)`,
			`UPDATE speaker_assignments SET person_id = ?, person_name = ? WHERE person_id = ? AND user_id = ?`,
		} {
			args := []any{intoID, fromID, userID}
			if strings.Contains(q, "person_name") {
				args = []any{intoID, into.Name, fromID, userID}
			}
			if _, err := tx.ExecContext(ctx, q, args...); err != nil {
				return fmt.Errorf("merge people: %w", err)
			}
		}
		if err := mergeVoices(ctx, tx, userID, fromID, intoID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM persons WHERE id = ? AND user_id = ?`, fromID, userID); err != nil {
			return fmt.Errorf("merge people: %w", err)
		}
		return nil
	})
}

// mergeVoices folds from's voice into into's.
func mergeVoices(ctx context.Context, tx *sql.Tx, userID, fromID, intoID string) error {
	voice := func(id string) (extractor string, emb []float32, seconds float64, err error) {
		var b []byte
		err = tx.QueryRowContext(ctx, `SELECT extractor, embedding, seconds FROM person_voices WHERE person_id = ? AND user_id = ?`,
			id, userID).Scan(&extractor, &b, &seconds)
		return extractor, decodeFloats(b), seconds, err
	}
	fx, fe, fs, err := voice(fromID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // nothing to fold in
	} else if err != nil {
		return fmt.Errorf("merge voices: %w", err)
	}
	ix, ie, is, err := voice(intoID)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		_, err = tx.ExecContext(ctx, `UPDATE person_voices SET person_id = ? WHERE person_id = ? AND user_id = ?`, intoID, fromID, userID)
	case err != nil:
	case ix == fx && len(ie) == len(fe) && fs+is > 0:
		mean := make([]float32, len(ie))
		for i := range mean {
			mean[i] = float32((float64(ie[i])*is + float64(fe[i])*fs) / (is + fs))
		}
		_, err = tx.ExecContext(ctx, `UPDATE person_voices SET embedding = ?, seconds = ? WHERE person_id = ? AND user_id = ?`,
			encodeFloats(mean), is+fs, intoID, userID)
	}
	if err != nil {
		return fmt.Errorf("merge voices: %w", err)
	}
	return nil
}

// DeletePerson removes one of the user's people and their voice; segments
// that named them keep their text and speaker label and name nobody, and
// the assignments naming them are removed.
func (db *DB) DeletePerson(ctx context.Context, userID, id string) error {
	return db.withTx(ctx, func(tx *sql.Tx) error {
		if _, err := personTx(ctx, tx, userID, id); err != nil {
			return err
		}
		for _, q := range []string{ // INDEXED BY: as in MergePeople
			`UPDATE transcript_segments INDEXED BY transcript_segments_person SET person_id = NULL WHERE person_id = ?
				AND conversation_id IN (SELECT id FROM conversations WHERE user_id = ?)`,
			`DELETE FROM speaker_assignments WHERE person_id = ? AND user_id = ?`,
			`DELETE FROM person_voices WHERE person_id = ? AND user_id = ?`,
			`DELETE FROM persons WHERE id = ? AND user_id = ?`,
		} {
			if _, err := tx.ExecContext(ctx, q, id, userID); err != nil {
				return fmt.Errorf("delete person: %w", err)
			}
		}
		return nil
	})
}

func personTx(ctx context.Context, tx *sql.Tx, userID, id string) (*appliance.Person, error) {
	p := &appliance.Person{ID: id, UserID: userID}
	var created string
	err := tx.QueryRowContext(ctx, `SELECT name, created_at FROM persons WHERE id = ? AND user_id = ?`, id, userID).Scan(&p.Name, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, appliance.Errorf(appliance.ENOTFOUND, "Person not found")
	} else if err != nil {
		return nil, fmt.Errorf("read person: %w", err)
	}
	p.CreatedAt, err = parseTime(created)
	return p, err
}
