package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// CreateAuthorization implements appliance.OAuthStore.
func (db *DB) CreateAuthorization(ctx context.Context, g *appliance.OAuthGrant, code *appliance.OAuthCode) error {
	scopes, err := json.Marshal(nonNil(g.Scopes))
	if err != nil {
		return fmt.Errorf("encode scopes: %w", err)
	}
	return db.withTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO oauth_grants (id, user_id, client_id, scopes, created_at) VALUES (?,?,?,?,?)`,
			g.ID, g.UserID, g.ClientID, string(scopes), fmtTime(g.CreatedAt)); err != nil {
			return mapErr(err, "grant")
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO oauth_codes (hash, grant_id, redirect_uri, code_challenge, resource, expires_at)
			VALUES (?,?,?,?,?,?)`, code.Hash, g.ID, code.RedirectURI, code.CodeChallenge, code.Resource, fmtTime(code.ExpiresAt))
		return mapErr(err, "code")
	})
}

// RedeemCode implements appliance.OAuthStore.
func (db *DB) RedeemCode(ctx context.Context, hash string, now time.Time) (*appliance.OAuthCode, *appliance.OAuthGrant, error) {
	var code appliance.OAuthCode
	var grant *appliance.OAuthGrant
	replayed := false
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		var expires string
		var used sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT hash, grant_id, redirect_uri, code_challenge, resource, expires_at, used_at
			FROM oauth_codes WHERE hash = ?`, hash).Scan(&code.Hash, &code.GrantID, &code.RedirectURI, &code.CodeChallenge,
			&code.Resource, &expires, &used)
		if err != nil {
			return mapErr(err, "code")
		}
		if used.Valid {
			// A replayed code: someone else may hold it, so the grant goes.
			if _, err := tx.ExecContext(ctx, `UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?`,
				fmtTime(now), code.GrantID); err != nil {
				return fmt.Errorf("revoke replayed grant: %w", err)
			}
			// Commit the revocation; the caller still gets an error.
			replayed = true
			return nil
		}
		if code.ExpiresAt, err = parseTime(expires); err != nil {
			return err
		}
		if !now.Before(code.ExpiresAt) {
			return appliance.Errorf(appliance.EINVALID, "authorization code expired")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE oauth_codes SET used_at = ? WHERE hash = ?`, fmtTime(now), hash); err != nil {
			return fmt.Errorf("use code: %w", err)
		}
		grant, err = scanGrant(tx.QueryRowContext(ctx, `SELECT `+grantColumns+` FROM oauth_grants WHERE id = ?`, code.GrantID))
		if err != nil {
			return err
		}
		if grant.RevokedAt != nil {
			return appliance.Errorf(appliance.EINVALID, "grant revoked")
		}
		return nil
	})
	switch {
	case err != nil:
		return nil, nil, err
	case replayed:
		return nil, nil, appliance.Errorf(appliance.EINVALID, "authorization code already used")
	}
	return &code, grant, nil
}

// IssueTokens implements appliance.OAuthStore.
func (db *DB) IssueTokens(ctx context.Context, tokens []appliance.OAuthToken, replacing string, now time.Time) error {
	return db.withTx(ctx, func(tx *sql.Tx) error {
		if replacing != "" {
			res, err := tx.ExecContext(ctx, `UPDATE oauth_tokens SET revoked_at = ? WHERE hash = ? AND kind = 'refresh' AND revoked_at IS NULL`,
				fmtTime(now), replacing)
			if err := affected(res, err, "refresh token not found"); err != nil {
				return err
			}
		}
		for _, t := range tokens {
			if _, err := tx.ExecContext(ctx, `INSERT INTO oauth_tokens (hash, grant_id, kind, expires_at) VALUES (?,?,?,?)`,
				t.Hash, t.GrantID, t.Kind, fmtTime(t.ExpiresAt)); err != nil {
				return mapErr(err, "token")
			}
		}
		return nil
	})
}

// TokenGrant implements appliance.OAuthStore.
func (db *DB) TokenGrant(ctx context.Context, hash, kind string, now time.Time) (*appliance.OAuthGrant, error) {
	g, err := scanGrant(db.queryRow(ctx, `SELECT g.id, g.user_id, g.client_id, g.scopes, g.created_at, g.revoked_at
		FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id
		WHERE t.hash = ? AND t.kind = ? AND t.revoked_at IS NULL AND t.expires_at > ? AND g.revoked_at IS NULL`,
		hash, kind, fmtTime(now)))
	if err != nil {
		return nil, err
	}
	return g, nil
}

// RevokeReusedRefresh implements appliance.OAuthStore: a refresh token
// presented after it was rotated may have been stolen, so its whole grant is
// revoked (RFC 9700 §4.14.2). It reports whether hash named such a token.
func (db *DB) RevokeReusedRefresh(ctx context.Context, hash string, now time.Time) (bool, error) {
	res, err := db.writer.ExecContext(ctx, `UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, ?)
		WHERE id = (SELECT grant_id FROM oauth_tokens WHERE hash = ? AND kind = 'refresh' AND revoked_at IS NOT NULL)`,
		fmtTime(now), hash)
	if err != nil {
		return false, fmt.Errorf("revoke reused refresh token: %w", err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// RevokeToken implements appliance.OAuthStore.
func (db *DB) RevokeToken(ctx context.Context, hash string, now time.Time) error {
	_, err := db.writer.ExecContext(ctx, `UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, ?)
		WHERE id = (SELECT grant_id FROM oauth_tokens WHERE hash = ?)`, fmtTime(now), hash)
	if err != nil {
		return fmt.Errorf("revoke token: %w", err)
	}
	return nil
}

// OAuthGrants implements appliance.OAuthStore.
func (db *DB) OAuthGrants(ctx context.Context, userID string) ([]*appliance.OAuthGrant, error) {
	rows, err := db.query(ctx, `SELECT `+grantColumns+` FROM oauth_grants WHERE user_id = ? ORDER BY created_at DESC`, userID)
	if err != nil {
		return nil, fmt.Errorf("list grants: %w", err)
	}
	return collect(rows, scanGrant)
}

// RevokeGrant implements appliance.OAuthStore.
func (db *DB) RevokeGrant(ctx context.Context, userID, grantID string, now time.Time) error {
	res, err := db.writer.ExecContext(ctx, `UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? AND user_id = ?`,
		fmtTime(now), grantID, userID)
	return affected(res, err, "Grant not found")
}

const grantColumns = `id, user_id, client_id, scopes, created_at, revoked_at`

func scanGrant(s scanner) (*appliance.OAuthGrant, error) {
	var g appliance.OAuthGrant
	var scopes, created string
	var revoked sql.NullString
	if err := s.Scan(&g.ID, &g.UserID, &g.ClientID, &scopes, &created, &revoked); err != nil {
		return nil, mapErr(err, "grant")
	}
	if err := json.Unmarshal([]byte(scopes), &g.Scopes); err != nil {
		return nil, fmt.Errorf("decode grant scopes: %w", err)
	}
	var err error
	if g.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	g.RevokedAt, err = parseTimePtr(revoked)
	return &g, err
}

// RegisterOAuthClient implements appliance.OAuthStore.
func (db *DB) RegisterOAuthClient(ctx context.Context, c appliance.OAuthClient, now time.Time) error {
	uris, err := json.Marshal(nonNil(c.Redirects))
	if err != nil {
		return fmt.Errorf("encode redirect uris: %w", err)
	}
	_, err = db.writer.ExecContext(ctx, `INSERT INTO oauth_clients (id, name, redirect_uris, created_at) VALUES (?,?,?,?)`,
		c.ID, c.Name, string(uris), fmtTime(now))
	return mapErr(err, "client")
}

// RegisteredOAuthClient implements appliance.OAuthStore.
func (db *DB) RegisteredOAuthClient(ctx context.Context, id string) (appliance.OAuthClient, error) {
	c := appliance.OAuthClient{ID: id}
	var uris string
	if err := db.queryRow(ctx, `SELECT name, redirect_uris FROM oauth_clients WHERE id = ?`, id).Scan(&c.Name, &uris); err != nil {
		return c, mapErr(err, "client")
	}
	if err := json.Unmarshal([]byte(uris), &c.Redirects); err != nil {
		return c, fmt.Errorf("decode client redirect uris: %w", err)
	}
	return c, nil
}
