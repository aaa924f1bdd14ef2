package idtoken_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/idtoken"
)

func TestIssueVerify(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := idtoken.LoadOrCreate(dir)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := s.Issue("u1", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("OK", func(t *testing.T) {
		uid, err := s.Verify(tok)
		if err != nil || uid != "u1" {
			t.Fatalf("Verify = %q, %v", uid, err)
		}
	})
	t.Run("SameKeyAfterReload", func(t *testing.T) {
		s2, err := idtoken.LoadOrCreate(dir)
		if err != nil {
			t.Fatal(err)
		}
		if uid, err := s2.Verify(tok); err != nil || uid != "u1" {
			t.Fatalf("reloaded Verify = %q, %v", uid, err)
		}
	})
	t.Run("KeyFileIsPrivate", func(t *testing.T) {
		fi, err := os.Stat(filepath.Join(dir, idtoken.KeyFile))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Fatalf("mode = %v, want 0600", fi.Mode().Perm())
		}
	})
	t.Run("Expired", func(t *testing.T) {
		s3, _ := idtoken.LoadOrCreate(dir)
		s3.Now = func() time.Time { return time.Now().Add(2 * time.Hour) }
		if _, err := s3.Verify(tok); !errors.Is(err, idtoken.ErrInvalid) {
			t.Fatalf("expired token: err = %v", err)
		}
	})
	t.Run("OtherAppliance", func(t *testing.T) {
		other, _ := idtoken.LoadOrCreate(t.TempDir())
		if _, err := other.Verify(tok); !errors.Is(err, idtoken.ErrInvalid) {
			t.Fatalf("token from another key: err = %v", err)
		}
	})
	t.Run("Tampered", func(t *testing.T) {
		parts := strings.Split(tok, ".")
		parts[1] = parts[1][:len(parts[1])-2] + "AA"
		if _, err := s.Verify(strings.Join(parts, ".")); !errors.Is(err, idtoken.ErrInvalid) {
			t.Fatalf("tampered: err = %v", err)
		}
	})
	t.Run("AlgNone", func(t *testing.T) {
		// header {"alg":"none","typ":"JWT"}, payload {"iss":"hearth","sub":"u1","exp":9999999999}
		none := "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJpc3MiOiJoZWFydGgiLCJzdWIiOiJ1MSIsImV4cCI6OTk5OTk5OTk5OX0."
		if _, err := s.Verify(none); !errors.Is(err, idtoken.ErrInvalid) {
			t.Fatalf("alg none accepted: %v", err)
		}
	})
	t.Run("Garbage", func(t *testing.T) {
		if _, err := s.Verify("hearth_dev_0123"); !errors.Is(err, idtoken.ErrInvalid) {
			t.Fatalf("garbage: %v", err)
		}
	})
}

func TestLoadOrCreate_RejectsCorruptKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, idtoken.KeyFile), []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := idtoken.LoadOrCreate(dir); err == nil {
		t.Fatal("corrupt key file accepted")
	}
}
