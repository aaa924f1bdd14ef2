package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/hearth-appliance/hearth/appliance"
)

// PutSpeechProfile stores a user's speech profile, replacing any other.
func (db *DB) PutSpeechProfile(ctx context.Context, p *appliance.SpeechProfile) error {
	emb := encodeFloats(p.Embedding)
	return db.withTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO speech_profiles (user_id, extractor, embedding, seconds, audio, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (user_id) DO UPDATE SET extractor = excluded.extractor, embedding = excluded.embedding,
				seconds = excluded.seconds, audio = excluded.audio, updated_at = excluded.updated_at`,
			p.UserID, p.Extractor, emb, p.Seconds, p.Audio, fmtTime(p.CreatedAt), fmtTime(p.UpdatedAt))
		if err != nil {
			return fmt.Errorf("store speech profile: %w", err)
		}
		return nil
	})
}

// SpeechProfile returns a user's speech profile; ENOTFOUND when there is none.
func (db *DB) SpeechProfile(ctx context.Context, userID string) (*appliance.SpeechProfile, error) {
	p := &appliance.SpeechProfile{UserID: userID}
	var emb []byte
	var created, updated string
	err := db.queryRow(ctx, `SELECT extractor, embedding, seconds, audio, created_at, updated_at FROM speech_profiles WHERE user_id = ?`, userID).
		Scan(&p.Extractor, &emb, &p.Seconds, &p.Audio, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, appliance.Errorf(appliance.ENOTFOUND, "No speech profile")
	}
	if err != nil {
		return nil, fmt.Errorf("read speech profile: %w", err)
	}
	p.Embedding = decodeFloats(emb)
	if p.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	if p.UpdatedAt, err = parseTime(updated); err != nil {
		return nil, err
	}
	return p, nil
}

// DeleteSpeechProfile removes a user's speech profile (none is no error).
func (db *DB) DeleteSpeechProfile(ctx context.Context, userID string) error {
	return db.withTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM speech_profiles WHERE user_id = ?`, userID); err != nil {
			return fmt.Errorf("delete speech profile: %w", err)
		}
		return nil
	})
}
