package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/hearth-appliance/hearth/appliance"
)

func encodeFloats(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func decodeFloats(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// PutPersonVoice stores what is known of a person's voice, replacing what
// was; the person must be the user's.
func (db *DB) PutPersonVoice(ctx context.Context, v *appliance.PersonVoice) error {
	return db.withTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO person_voices (person_id, user_id, extractor, embedding, seconds, updated_at)
			SELECT id, user_id, ?, ?, ?, ? FROM persons WHERE id = ? AND user_id = ?
			ON CONFLICT (person_id) DO UPDATE SET extractor = excluded.extractor, embedding = excluded.embedding,
				seconds = excluded.seconds, updated_at = excluded.updated_at`,
			v.Extractor, encodeFloats(v.Embedding), v.Seconds, fmtTime(v.UpdatedAt), v.PersonID, v.UserID)
		if err != nil {
			return fmt.Errorf("store person voice: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return appliance.Errorf(appliance.ENOTFOUND, "Person not found")
		}
		return nil
	})
}

// PersonVoices lists the voices known among a user's people, with names.
func (db *DB) PersonVoices(ctx context.Context, userID string) ([]*appliance.PersonVoice, error) {
	rows, err := db.query(ctx, `SELECT v.person_id, p.name, v.extractor, v.embedding, v.seconds, v.updated_at
		FROM person_voices v JOIN persons p ON p.id = v.person_id WHERE v.user_id = ? ORDER BY v.person_id`, userID)
	if err != nil {
		return nil, fmt.Errorf("person voices: %w", err)
	}
	defer rows.Close()
	var out []*appliance.PersonVoice
	for rows.Next() {
		v := &appliance.PersonVoice{UserID: userID}
		var emb []byte
		var updated string
		if err := rows.Scan(&v.PersonID, &v.PersonName, &v.Extractor, &emb, &v.Seconds, &updated); err != nil {
			return nil, fmt.Errorf("person voices: %w", err)
		}
		v.Embedding = decodeFloats(emb)
		if v.UpdatedAt, err = parseTime(updated); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
